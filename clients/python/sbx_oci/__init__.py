"""Run tool calls in sbx-oci sandboxes, always under an operator ceiling."""
from ._async_run import async_run
from ._async_session import AsyncSession
from ._config import Ceiling, SandboxLimits
from ._errors import SbxError
from ._fence import Fence, FenceError, open_fence
from ._outcome import Enforcement, ExecResult, Limits, Outcome
from ._run import run
from ._session import Session

__all__ = ["run", "async_run", "Session", "AsyncSession", "Outcome", "Enforcement", "Limits",
           "ExecResult", "Ceiling", "SandboxLimits", "SbxError", "open_fence", "Fence",
           "FenceError"]
