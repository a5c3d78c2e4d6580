"""Where things are: the binary, the per-user state root, ids, private dirs."""
import os
import secrets
import shutil
import tempfile
from typing import Optional


def binary_path(binary: Optional[str]) -> str:
    return binary or os.environ.get("SBX_OCI") or "sbx-oci"


def state_root(root: Optional[str]) -> str:
    """The binary's own default, passed explicitly so a session's later
    commands find their container even if the environment changes."""
    if root:
        return root
    uid = os.getuid()
    if uid == 0:
        return "/run/sbx-oci"
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    return os.path.join(xdg, "sbx-oci") if xdg else "/tmp/sbx-oci-%d" % uid


def fresh_id(kind: str) -> str:
    return "sbx-py-%s-%d-%s" % (kind, os.getpid(), secrets.token_hex(6))


def make_private_dir() -> str:
    d = tempfile.mkdtemp(prefix="sbx-oci-py-")  # mode 0700
    os.chmod(d, 0o700)
    return d


def remove_dir(d: str) -> None:
    shutil.rmtree(d, ignore_errors=True)


def write_json(path: str, value) -> None:
    import json
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(value, f)


def last_line(text: str) -> str:
    """The last line sbx-oci wrote about itself ("sbx-oci: ..."), else the last line."""
    lines = [l for l in text.splitlines() if l.strip()]
    own = [l for l in lines if l.startswith("sbx-oci: ")]
    line = (own or lines or [""])[-1]
    return line[len("sbx-oci: "):] if line.startswith("sbx-oci: ") else line
