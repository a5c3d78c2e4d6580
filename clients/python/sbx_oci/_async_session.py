"""AsyncSession: Session for asyncio; a cancelled exec ends that call."""
import asyncio
import os

from ._errors import SbxError
from ._outcome import ExecResult
from ._session_core import SessionCore
from ._async_process import run_process


class AsyncSession(SessionCore):
    """async with AsyncSession(workspace=...) as s: await s.exec([...])"""

    async def _control(self, args, env):
        with open(self.log_path(), "wb") as log:
            try:
                proc = await asyncio.create_subprocess_exec(
                    *args, stdin=asyncio.subprocess.DEVNULL, stdout=log,
                    stderr=asyncio.subprocess.STDOUT, env=env)
            except OSError as e:
                raise SbxError("cannot start %s: %s" % (args[0], e)) from None
            status = await asyncio.shield(proc.wait())
        self.control_result(status, args)

    async def create(self) -> "AsyncSession":
        create, start, env = self.prepare_create()
        try:
            await self._control(create, env)
            await self._control(start, env)
        except BaseException:
            await self.close()
            raise
        return self

    async def exec(self, argv, *, env=None, cwd=None, stdin=None, stdout="capture",
                   stderr="capture") -> ExecResult:
        args, path = self.prepare_exec(argv, env, cwd)
        try:
            status, out, err = await run_process(args, None, stdin, stdout, stderr,
                                                 self.kill_grace)
        finally:
            os.unlink(path)
        return ExecResult(status if status >= 0 else 128 - status, out.captured(), err.captured())

    async def close(self) -> None:
        if not self.dir:
            return
        try:
            await self._control(self.delete_args(), None)
        finally:
            self.forget()

    async def __aenter__(self):
        return await self.create()

    async def __aexit__(self, *exc):
        await self.close()
