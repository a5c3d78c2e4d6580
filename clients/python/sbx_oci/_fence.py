"""The fence: the sandbox's policy for the file tools the orchestrator runs
in its own process (docs/fence.md).  Each call is `sbx-oci fence OP`, which
resolves the same plan a sandbox of the same options would get and acts on
the path beneath the granted layer's descriptor; the verdict of a refusal
comes back as JSON on a pipe and becomes one FenceError."""
import json
import os
import subprocess
from typing import List, Mapping, Optional, Union

from ._config import SandboxLimits, as_ceiling, compose_ceiling, compose_config, resolve_workspace
from ._errors import SbxError
from ._paths import binary_path, last_line, make_private_dir, remove_dir, state_root, write_json

DENIED = 3


class FenceError(SbxError):
    """A refusal by the policy (`rule` set, e.g. "protected-metadata", with
    the `grant` that would allow it; `code` "EACCES") or a failure of the
    operation (`code` an errno name, e.g. "ENOENT").  `status` is sbx-oci's
    exit status: 3 for a refusal."""

    def __init__(self, message: str, status: Optional[int] = None, path: Optional[str] = None,
                 rule: Optional[str] = None, code: Optional[str] = None,
                 grant: Optional[str] = None, verdict: Optional[dict] = None):
        super().__init__(message, status)
        self.path = path
        self.rule = rule
        self.code = code or ("EACCES" if rule else None)
        self.grant = grant
        self.verdict = verdict


class Fence:
    """Every fence operation; paths are the sandbox's (relative ones from its cwd)."""

    def __init__(self, binary: str, globals_: List[str], config: str, env: Mapping[str, str],
                 private_dir: Optional[str] = None):
        self._binary = binary
        self._globals = globals_
        self._config = config
        self._env = dict(env)
        self._dir = private_dir

    def _call(self, op: str, args: List[str], data: bytes = b"", allow_denied: bool = False):
        r, w = os.pipe()
        argv = [self._binary, *self._globals, "fence", op, "--config", self._config,
                "--verdict-fd", str(w), *args]
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, pass_fds=(w,), env=self._env)
        except OSError as e:
            os.close(r)
            os.close(w)
            raise FenceError("cannot start %s: %s" % (self._binary, e)) from e
        os.close(w)
        with os.fdopen(r, "rb") as verdict_pipe:
            out, err = proc.communicate(data)
            verdicts = [json.loads(l) for l in verdict_pipe.read().splitlines() if l.strip()]
        if proc.returncode == 0 or (allow_denied and proc.returncode == DENIED):
            return out, verdicts
        v = verdicts[0] if verdicts else {}
        raise FenceError(last_line(err.decode(errors="replace"))
                         or "sbx-oci fence exited with status %d" % proc.returncode,
                         status=proc.returncode, path=v.get("path", args[-1] if args else None),
                         rule=v.get("rule"), code=v.get("error"), grant=v.get("grant"),
                         verdict=v if "rule" in v else None)

    def read_file(self, path: str) -> bytes:
        return self._call("read", [path])[0]

    def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return self.read_file(path).decode(encoding)

    def write_file(self, path: str, data: Union[str, bytes]) -> None:
        """Atomic replace in the same directory; a file with another hard link is refused."""
        self._call("write", [path], data.encode() if isinstance(data, str) else data)

    def append_file(self, path: str, data: Union[str, bytes]) -> None:
        self._call("append", [path], data.encode() if isinstance(data, str) else data)

    def mkdir(self, path: str, mode: Optional[int] = None) -> None:
        self._call("mkdir", [path] if mode is None else ["--mode", "%o" % mode, path])

    def remove(self, path: str) -> None:
        self._call("remove", [path])

    def rename(self, src: str, dst: str) -> None:
        self._call("rename", [src, dst])

    def stat(self, path: str) -> dict:
        return json.loads(self._call("stat", [path])[0])

    def list(self, path: str) -> List[str]:
        return json.loads(self._call("list", [path])[0])

    def check(self, path: str, access: str = "write") -> dict:
        """The policy's verdict for PATH ("read", "write" or "remove"), refused or not."""
        return self._call("check", ["--access", access, path], allow_denied=True)[1][0]

    def _assert(self, path: str, access: str) -> dict:
        v = self.check(path, access)
        if not v["allowed"]:
            raise FenceError("fence: %s %s denied by %s (%s); allowed by: %s"
                             % (access, v["path"], v["rule"], v["reason"], v["grant"]),
                             status=DENIED, path=v["path"], rule=v["rule"], grant=v.get("grant"),
                             verdict=v)
        return v

    def assert_writable(self, path: str) -> dict:
        """Raises FenceError (with rule and grant) unless a confined process could write PATH."""
        return self._assert(path, "write")

    def assert_readable(self, path: str) -> dict:
        return self._assert(path, "read")

    def close(self) -> None:
        if self._dir:
            remove_dir(self._dir)
            self._dir = None

    def __enter__(self) -> "Fence":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_fence(*, workspace: Optional[str] = None, mode: Optional[str] = None,
               network: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
               cwd: Optional[str] = None, ceiling=None, binary: Optional[str] = None,
               root: Optional[str] = None, config: Optional[str] = None,
               ceiling_file: Optional[str] = None) -> Fence:
    """A fence over the options a sandbox would take, or over an existing
    config file (`config`, with `ceiling_file` when it is untrusted)."""
    exe = binary_path(binary)
    globals_ = ["--root", state_root(root)]
    full_env = {**os.environ, **(env or {})}
    if config:
        if ceiling_file:
            globals_ += ["--ceiling", ceiling_file]
        return Fence(exe, globals_, config, full_env)
    ws = resolve_workspace(workspace)
    cfg = compose_config(["true"], ws, mode, network, env or {}, cwd, SandboxLimits())
    d = make_private_dir()
    try:
        write_json(os.path.join(d, "config.json"), cfg)
        write_json(os.path.join(d, "ceiling.json"), compose_ceiling(as_ceiling(ceiling), ws))
    except BaseException:
        remove_dir(d)
        raise
    globals_ += ["--ceiling", os.path.join(d, "ceiling.json")]
    return Fence(exe, globals_, os.path.join(d, "config.json"), full_env, d)
