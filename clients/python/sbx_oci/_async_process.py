"""The asyncio twin of _sync_process: pipes pumped by tasks, and a cancelled
call ends the sandbox before the CancelledError goes on."""
import asyncio
import signal

from ._errors import SbxError
from ._sync_process import DRAIN_SECONDS
from ._stdio import Collector, output_arg, stdin_arg, stdin_bytes


async def _pump(stream, collector):
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return
        collector.feed(chunk)


async def _feed(pipe, data):
    try:
        pipe.write(data)
        await pipe.drain()
        pipe.close()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the command exited without reading it


async def terminate(proc, grace):
    """SIGTERM (sbx-oci forwards it and kills the sandbox's tree), SIGKILL after grace."""
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), grace)
        except asyncio.TimeoutError:
            proc.kill()
    await proc.wait()


async def run_process(args, env, stdin, stdout, stderr, kill_grace):
    """Returns (status, stdout collector, stderr collector)."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *args, env=env, stdin=stdin_arg(stdin), stdout=output_arg(stdout),
            stderr=output_arg(stderr))
    except OSError as e:
        raise SbxError("cannot start %s: %s" % (args[0], e)) from None
    out, err = Collector(stdout), Collector(stderr)
    tasks = [asyncio.ensure_future(_pump(s, c))
             for s, c in ((proc.stdout, out), (proc.stderr, err)) if s]
    if proc.stdin:
        tasks.append(asyncio.ensure_future(_feed(proc.stdin, stdin_bytes(stdin))))
    try:
        status = await proc.wait()
        # A process the command left behind in a session can hold the pipes
        # open after sbx-oci exec returned: read on briefly, then stop.
        await asyncio.wait(tasks, timeout=DRAIN_SECONDS) if tasks else None
        for t in tasks:
            t.cancel()
    except BaseException:
        await asyncio.shield(terminate(proc, kill_grace))
        for t in tasks:
            t.cancel()
        raise
    return status, out, err
