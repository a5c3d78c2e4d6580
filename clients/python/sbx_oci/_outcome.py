"""The outcome JSON of `sbx-oci run`, typed."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class Enforcement:
    level: str
    filesystem: str
    network: str
    mode: str
    network_reach: str
    no_new_privileges: bool
    trust: str
    reasons: List[str]


@dataclass
class Limits:
    mechanism: str
    breach: str
    peak_memory_bytes: Optional[int] = None
    peak_processes: Optional[int] = None


@dataclass
class Outcome:
    outcome: str  # exited, signaled, limit, command-not-found, command-not-executable,
    #               refused, sandbox-failure
    status: int  # the status the outcome reports
    wall_time_ms: int
    limits: Limits
    enforcement: Optional[Enforcement]  # None when refused before a plan was made
    exit_code: Optional[int] = None
    signal: Optional[int] = None
    signal_certain: Optional[bool] = None
    reason: Optional[str] = None
    exit_status: Optional[int] = None  # what the sbx-oci process exited with
    stdout: Optional[bytes] = None  # when captured
    stderr: Optional[bytes] = None
    version: int = 2  # the outcome document's version (docs/outcome.schema.json)
    dropped_env: List[str] = field(default_factory=list)  # credential-shaped names not passed
    ignored_fields: List[str] = field(default_factory=list)  # config keys sbx-oci does not read
    refused_fields: List[str] = field(default_factory=list)  # refused: the field it names
    raw: Dict[str, Any] = field(default_factory=dict)  # the JSON as written


def _enforcement(e: Optional[dict]) -> Optional[Enforcement]:
    if e is None:
        return None
    return Enforcement(e.get("level"), e.get("filesystem"), e.get("network"), e.get("mode"),
                       e.get("networkReach"), e.get("noNewPrivileges"), e.get("trust"),
                       list(e.get("reasons", [])))


def parse_outcome(j: dict, exit_status, stdout, stderr) -> Outcome:
    lim = j.get("limits", {})
    return Outcome(
        outcome=j["outcome"], status=j.get("status"), wall_time_ms=j.get("wallTimeMs", 0),
        limits=Limits(lim.get("mechanism"), lim.get("breach"), lim.get("peakMemoryBytes"),
                      lim.get("peakProcesses")),
        enforcement=_enforcement(j.get("enforcement")), exit_code=j.get("exitCode"),
        signal=j.get("signal"), signal_certain=j.get("signalCertain"), reason=j.get("reason"),
        exit_status=exit_status, stdout=stdout, stderr=stderr, version=j.get("version", 1),
        dropped_env=list(j.get("environment", {}).get("dropped", [])),
        ignored_fields=list(j.get("ignoredFields", [])),
        refused_fields=list(j.get("refusedFields", [])), raw=j)


@dataclass
class ExecResult:
    status: int  # the command's status (128+N for a signal); sbx-oci's own: 122 usage,
    #              123 no such container, 121 refused, 125 failure,
    #              126/127 not executable/found
    stdout: Optional[bytes] = None
    stderr: Optional[bytes] = None
