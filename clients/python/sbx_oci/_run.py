"""run(): one tool call in a fresh sandbox under the composed ceiling."""
from typing import Mapping, Optional, Sequence

from ._outcome import Outcome
from ._plan import finish_run, prepare_run
from ._sync_process import run_process


def run(argv: Sequence[str], *, workspace: Optional[str] = None, mode: Optional[str] = None,
        network: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None, limits=None, ceiling=None, stdin=None, stdout="capture",
        stderr="capture", binary: Optional[str] = None, root: Optional[str] = None,
        kill_grace: float = 3.0) -> Outcome:
    """Run argv in a new sandbox and return its outcome (any outcome the
    binary reports, sandbox-failure included); SbxError when it wrote none.
    An interrupt while waiting ends the whole sandbox and is re-raised."""
    plan = prepare_run(argv, workspace, mode, network, env, cwd, limits, ceiling, binary, root)
    try:
        status, out, err = run_process(plan.args, plan.env, stdin, stdout, stderr, kill_grace)
        return finish_run(plan, status, out.captured(), err.captured(), err.tail_text())
    finally:
        plan.cleanup()
