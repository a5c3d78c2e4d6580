"""async_run(): run() for asyncio; cancelling the task ends the sandbox."""
from typing import Mapping, Optional, Sequence

from ._outcome import Outcome
from ._plan import finish_run, prepare_run
from ._async_process import run_process


async def async_run(argv: Sequence[str], *, workspace: Optional[str] = None,
                    mode: Optional[str] = None, network: Optional[str] = None,
                    env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None,
                    limits=None, ceiling=None, stdin=None, stdout="capture", stderr="capture",
                    binary: Optional[str] = None, root: Optional[str] = None,
                    kill_grace: float = 3.0) -> Outcome:
    plan = prepare_run(argv, workspace, mode, network, env, cwd, limits, ceiling, binary, root)
    try:
        status, out, err = await run_process(plan.args, plan.env, stdin, stdout, stderr, kill_grace)
        return finish_run(plan, status, out.captured(), err.captured(), err.tail_text())
    finally:
        plan.cleanup()
