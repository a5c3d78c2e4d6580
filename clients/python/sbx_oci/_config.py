"""Compose the OCI config and the operator ceiling from a caller's arguments.
Pure: no I/O but resolving the workspace, so what the library asks of
sbx-oci can be read here at once."""
import os
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Union

MODES = ("read-only", "workspace-write", "danger-full-access")
NETWORKS = ("deny", "loopback", "allow")

# The names an agent sandbox takes from the caller with no approval (the
# binary's own allow-list, README "Environment"); any other name needs the
# operator's "env:NAME" token.
DEFAULT_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "TERM", "COLORTERM", "TZ", "USER",
               "LOGNAME", "SHELL", "NO_COLOR")


@dataclass
class SandboxLimits:
    wall_clock_seconds: Optional[float] = None
    memory_bytes: Optional[int] = None
    pids: Optional[int] = None


@dataclass
class Ceiling:
    """What the operator allows; the composed config must fit under it."""
    max_mode: Optional[str] = None  # default: workspace-write with a workspace
    max_network: str = "deny"
    approve: List[str] = field(default_factory=list)  # e.g. "env:CARGO_HOME"


def is_default_env(name: str) -> bool:
    return name in DEFAULT_ENV or name.startswith("LC_")


def _check(name: str, value, allowed) -> None:
    if value is not None and value not in allowed:
        raise ValueError("%s: expected one of %s, got %r" % (name, ", ".join(allowed), value))


def check_argv(argv) -> List[str]:
    if isinstance(argv, str) or not argv or not all(isinstance(a, str) for a in argv):
        raise TypeError("argv: expected a non-empty list of strings")
    return list(argv)


def as_limits(limits: Union[None, SandboxLimits, Mapping]) -> SandboxLimits:
    if limits is None:
        return SandboxLimits()
    return limits if isinstance(limits, SandboxLimits) else SandboxLimits(**limits)


def as_ceiling(ceiling: Union[None, Ceiling, Mapping]) -> Ceiling:
    if ceiling is None:
        return Ceiling()
    return ceiling if isinstance(ceiling, Ceiling) else Ceiling(**ceiling)


def resolve_workspace(workspace: Optional[str]) -> Optional[str]:
    """The workspace as the ceiling will resolve it, so the config names the same path."""
    if workspace is None:
        return None
    path = os.path.realpath(workspace)
    if not os.path.isdir(path):
        raise FileNotFoundError("workspace: %s is not a directory" % workspace)
    return path


def compose_config(argv: Sequence[str], workspace: Optional[str], mode: Optional[str],
                   network: Optional[str], env: Mapping[str, str], cwd: Optional[str],
                   limits: SandboxLimits) -> dict:
    """The policy: the host read-only, the workspace writable by mode, the
    caller's env names passed through sbx.env.allow (values travel in the
    environment of sbx-oci, never in a file)."""
    _check("mode", mode, MODES)
    _check("network", network, NETWORKS)
    sbx = {"mode": mode or ("workspace-write" if workspace else "read-only"),
           "network": network or "deny",
           "env": {"mode": "allow-list", "allow": [n for n in env if not is_default_env(n)]}}
    if workspace:
        sbx["workspace"] = workspace
    if limits.wall_clock_seconds is not None:
        sbx["limits"] = {"wallClockSeconds": limits.wall_clock_seconds}
    config = {"ociVersion": "1.2.0", "root": {"path": "/", "readonly": True},
              "process": {"args": check_argv(argv), "cwd": cwd or workspace or "/", "env": []},
              "sbx": sbx}
    resources: Dict[str, dict] = {}
    if limits.memory_bytes is not None:
        resources["memory"] = {"limit": limits.memory_bytes}
    if limits.pids is not None:
        resources["pids"] = {"limit": limits.pids}
    if resources:
        config["linux"] = {"resources": resources}
    return config


def compose_ceiling(ceiling: Ceiling, workspace: Optional[str]) -> dict:
    """The operator's side: the caller's workspace is the only one, and
    nothing is approved that the caller did not list."""
    _check("ceiling.max_mode", ceiling.max_mode, MODES)
    _check("ceiling.max_network", ceiling.max_network, NETWORKS)
    c = {"workspaces": [workspace] if workspace else [], "maxNetwork": ceiling.max_network,
         "approve": list(ceiling.approve)}
    if ceiling.max_mode:
        c["maxMode"] = ceiling.max_mode
    return c


def compose_process(argv: Sequence[str], env: Mapping[str, str], cwd: str) -> dict:
    """An `exec --process` file: exactly this environment reaches the command."""
    return {"args": check_argv(argv), "cwd": cwd, "env": ["%s=%s" % kv for kv in env.items()]}
