"""Start sbx-oci, read its pipes, and end the sandbox if the caller is
interrupted (KeyboardInterrupt or any exception while waiting)."""
import os
import selectors
import signal
import subprocess
import threading
import time

from ._errors import SbxError
from ._stdio import Collector, output_arg, stdin_arg, stdin_bytes

# A process the command left behind in a session can hold the pipes open
# after sbx-oci exec returned: read on for this long, then stop.
DRAIN_SECONDS = 0.25


def _feed(pipe, data):
    try:
        with pipe:
            pipe.write(data)
    except BrokenPipeError:
        pass  # the command exited without reading it


def _read_until_exit(proc, pipes):
    """Reads every pipe until EOF, or until DRAIN_SECONDS after proc exited."""
    sel = selectors.DefaultSelector()
    for pipe, collector in pipes:
        sel.register(pipe, selectors.EVENT_READ, collector)
    deadline = None
    while sel.get_map():
        if deadline is None and proc.poll() is not None:
            deadline = time.monotonic() + DRAIN_SECONDS
        if deadline is not None and time.monotonic() > deadline:
            break
        for key, _ in sel.select(0.05):
            chunk = os.read(key.fd, 65536)
            if chunk:
                key.data.feed(chunk)
            else:
                sel.unregister(key.fileobj)
    sel.close()


def terminate(proc, grace):
    """SIGTERM (sbx-oci forwards it and kills the sandbox's tree), SIGKILL after grace."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


def run_process(args, env, stdin, stdout, stderr, kill_grace):
    """Returns (status, stdout collector, stderr collector)."""
    try:
        proc = subprocess.Popen(args, env=env, stdin=stdin_arg(stdin), stdout=output_arg(stdout),
                                stderr=output_arg(stderr))
    except OSError as e:
        raise SbxError("cannot start %s: %s" % (args[0], e)) from None
    out, err = Collector(stdout), Collector(stderr)
    pipes = [(p, c) for p, c in ((proc.stdout, out), (proc.stderr, err)) if p]
    if proc.stdin:
        threading.Thread(target=_feed, args=(proc.stdin, stdin_bytes(stdin)), daemon=True).start()
    try:
        _read_until_exit(proc, pipes)
        status = proc.wait()
    except BaseException:
        terminate(proc, kill_grace)
        raise
    finally:
        for p, _ in pipes:
            p.close()
    return status, out, err
