"""Start sbx-oci, pump its pipes on threads, and end the sandbox if the
caller is interrupted (KeyboardInterrupt or any exception while waiting)."""
import signal
import subprocess
import threading

from ._errors import SbxError
from ._stdio import Collector, output_arg, stdin_arg, stdin_bytes


def _pump(pipe, collector):
    with pipe:
        for chunk in iter(lambda: pipe.read1(65536), b""):
            collector.feed(chunk)


def _feed(pipe, data):
    try:
        with pipe:
            pipe.write(data)
    except BrokenPipeError:
        pass  # the command exited without reading it


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
    threads = [threading.Thread(target=_pump, args=(p, c), daemon=True)
               for p, c in ((proc.stdout, out), (proc.stderr, err)) if p]
    if proc.stdin:
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, stdin_bytes(stdin)), daemon=True))
    for t in threads:
        t.start()
    try:
        status = proc.wait()
    except BaseException:
        terminate(proc, kill_grace)
        raise
    finally:
        for t in threads:
            t.join()
    return status, out, err
