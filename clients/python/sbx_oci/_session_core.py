"""What a session asks of sbx-oci, shared by Session and AsyncSession: a
sandbox created once under the composed ceiling, with a long-lived `sleep
infinity` as its pid 1, `exec --process` per call, `delete --force` to end it.
Calls share the sandbox's filesystem view, its private /tmp, its network
namespace, its limits and its process namespace; each call gets exactly the
environment composed here."""
import os
from typing import List, Mapping, Optional, Sequence, Tuple

from ._config import (as_ceiling, as_limits, compose_ceiling, compose_config,
                      compose_process, is_default_env, resolve_workspace)
from ._errors import SbxError
from ._paths import (binary_path, fresh_id, last_line, make_private_dir, remove_dir,
                     state_root, write_json)


class SessionCore:
    def __init__(self, *, workspace: Optional[str] = None, mode: Optional[str] = None,
                 network: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                 limits=None, ceiling=None, binary: Optional[str] = None,
                 root: Optional[str] = None, kill_grace: float = 3.0):
        self._ws = resolve_workspace(workspace)
        self._env = dict(env or {})
        self._config = compose_config(["sleep", "infinity"], self._ws, mode, network, self._env,
                                      None, as_limits(limits))
        self._ceiling = compose_ceiling(as_ceiling(ceiling), self._ws)
        self._base = {**{k: v for k, v in os.environ.items() if is_default_env(k)}, **self._env}
        self._global = [binary_path(binary), "--root", state_root(root)]
        self.kill_grace = kill_grace
        self.dir: Optional[str] = None
        self.id: Optional[str] = None
        self._calls = 0

    def prepare_create(self) -> Tuple[List[str], List[str], dict]:
        """Writes the bundle; returns the create and start command lines and their env."""
        if self.dir:
            raise SbxError("session: create() was already called")
        self.dir, self.id = make_private_dir(), fresh_id("session")
        write_json(os.path.join(self.dir, "config.json"), self._config)
        write_json(os.path.join(self.dir, "ceiling.json"), self._ceiling)
        create = self._global + ["--ceiling", os.path.join(self.dir, "ceiling.json"), "create",
                                 "--bundle", self.dir, self.id]
        return create, self._global + ["start", self.id], {**os.environ, **self._env}

    def delete_args(self) -> List[str]:
        return self._global + ["delete", "--force", self.id]

    def log_path(self) -> str:
        return os.path.join(self.dir, "control.log")

    def control_result(self, status: int, args: Sequence[str]) -> None:
        """Lifecycle output goes to a file (a created sandbox inherits create's
        stdio and would hold a pipe open); raise with its last line on failure."""
        with open(self.log_path(), errors="replace") as f:
            text = f.read()
        os.unlink(self.log_path())
        if status != 0:
            raise SbxError(last_line(text) or "sbx-oci %s failed" % args[3], status)

    def _check_env(self, env: Mapping[str, str]) -> None:
        """The binary's exec passes the environment it is given unchecked; the
        library holds each call to the approvals the session was created with."""
        for name in env:
            if not (is_default_env(name) or name in self._env
                    or "env:" + name in self._ceiling["approve"]):
                raise SbxError('env.%s: not approved: add "env:%s" to the ceiling\'s approve list'
                               % (name, name))

    def prepare_exec(self, argv, env: Optional[Mapping[str, str]], cwd: Optional[str]):
        if not self.dir:
            raise SbxError("session: call create() first")
        env = dict(env or {})
        self._check_env(env)
        self._calls += 1
        path = os.path.join(self.dir, "process-%d.json" % self._calls)
        write_json(path, compose_process(argv, {**self._base, **env}, cwd or self._ws or "/"))
        return self._global + ["exec", "--process", path, self.id], path

    def forget(self) -> None:
        if self.dir:
            remove_dir(self.dir)
        self.dir = None
