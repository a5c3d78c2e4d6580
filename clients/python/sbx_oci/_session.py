"""Session: a sandbox created once, a command per exec(), ended by close()."""
import os
import subprocess

from ._errors import SbxError
from ._outcome import ExecResult
from ._session_core import SessionCore
from ._sync_process import run_process


class Session(SessionCore):
    """with Session(workspace=...) as s: s.exec([...])"""

    def _control(self, args, env):
        with open(self.log_path(), "wb") as log:
            try:
                status = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=log,
                                        stderr=subprocess.STDOUT, env=env).returncode
            except OSError as e:
                raise SbxError("cannot start %s: %s" % (args[0], e)) from None
        self.control_result(status, args)

    def create(self) -> "Session":
        create, start, env = self.prepare_create()
        try:
            self._control(create, env)
            self._control(start, env)
        except BaseException:
            self.close()
            raise
        return self

    def exec(self, argv, *, env=None, cwd=None, stdin=None, stdout="capture",
             stderr="capture") -> ExecResult:
        args, path = self.prepare_exec(argv, env, cwd)
        try:
            status, out, err = run_process(args, None, stdin, stdout, stderr, self.kill_grace)
        finally:
            os.unlink(path)
        return ExecResult(status if status >= 0 else 128 - status, out.captured(), err.captured())

    def close(self) -> None:
        """Ends every process of the sandbox and removes its state; safe twice."""
        if not self.dir:
            return
        try:
            self._control(self.delete_args(), None)
        finally:
            self.forget()

    def __enter__(self):
        return self.create()

    def __exit__(self, *exc):
        self.close()
