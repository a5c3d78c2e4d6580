"""What one `run` call asks of sbx-oci: the policy (`run --policy`) and the
ceiling in a private directory (the command's stdin is its own, so the
policy cannot come on stdin), the command line, its environment; and
reading the outcome back.
Shared by the sync and the asyncio front ends."""
import json
import os
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence

from ._config import (as_ceiling, as_limits, compose_ceiling, compose_config,
                      resolve_workspace)
from ._errors import SbxError
from ._outcome import Outcome, parse_outcome
from ._paths import (binary_path, fresh_id, last_line, make_private_dir, remove_dir,
                     state_root, write_json)


@dataclass
class RunPlan:
    dir: str
    args: List[str]  # the whole command line, binary first
    env: Dict[str, str]
    outcome_path: str

    def cleanup(self) -> None:
        remove_dir(self.dir)


def prepare_run(argv: Sequence[str], workspace=None, mode=None, network=None,
                env: Optional[Mapping[str, str]] = None, cwd=None, limits=None, ceiling=None,
                binary=None, root=None) -> RunPlan:
    env = dict(env or {})
    ws = resolve_workspace(workspace)
    config = compose_config(argv, ws, mode, network, env, cwd, as_limits(limits))
    ceil = compose_ceiling(as_ceiling(ceiling), ws)
    d = make_private_dir()
    try:
        write_json(os.path.join(d, "config.json"), config)
        write_json(os.path.join(d, "ceiling.json"), ceil)
    except BaseException:
        remove_dir(d)
        raise
    out = os.path.join(d, "outcome.json")
    args = [binary_path(binary), "--root", state_root(root), "--ceiling",
            os.path.join(d, "ceiling.json"), "run", "--policy", os.path.join(d, "config.json"),
            "--outcome", out,
            fresh_id("run")]
    return RunPlan(d, args, {**os.environ, **env}, out)


def finish_run(plan: RunPlan, exit_status: Optional[int], stdout, stderr,
               stderr_tail: str) -> Outcome:
    """The outcome, or an SbxError when sbx-oci wrote none."""
    try:
        with open(plan.outcome_path) as f:
            j = json.load(f)
    except FileNotFoundError:
        msg = last_line(stderr_tail) or "sbx-oci exited with status %s and no outcome" % exit_status
        raise SbxError(msg, exit_status) from None
    return parse_outcome(j, exit_status, stdout, stderr)
