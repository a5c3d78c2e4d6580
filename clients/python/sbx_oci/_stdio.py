"""How the command's stdio is wired, for both front ends.

stdin: None/"ignore", "inherit", bytes or str (fed), or a file with fileno().
stdout/stderr: "capture" (default), "inherit", "ignore", a callable taking
each chunk (bytes), or an object with write(bytes) (pass-through)."""
import subprocess

TAIL = 4096


def stdin_arg(stdin):
    if stdin is None or stdin == "ignore":
        return subprocess.DEVNULL
    if stdin == "inherit":
        return None
    if isinstance(stdin, (bytes, str)):
        return subprocess.PIPE
    return stdin  # a file with fileno()


def stdin_bytes(stdin):
    if isinstance(stdin, str):
        return stdin.encode()
    return stdin if isinstance(stdin, bytes) else None


def output_arg(sink):
    if sink == "inherit":
        return None
    if sink == "ignore":
        return subprocess.DEVNULL
    return subprocess.PIPE


class Collector:
    """One output stream: captured, handed to a callback, or written on; the
    last few KiB are kept in every mode, so an error of sbx-oci's own can be
    reported in one line."""

    def __init__(self, sink):
        self.sink = sink
        self.chunks = []
        self.tail = b""

    def feed(self, chunk: bytes) -> None:
        self.tail = (self.tail + chunk)[-TAIL:]
        if self.sink == "capture":
            self.chunks.append(chunk)
        elif callable(self.sink):
            self.sink(chunk)
        else:
            self.sink.write(chunk)

    def captured(self):
        return b"".join(self.chunks) if self.sink == "capture" else None

    def tail_text(self) -> str:
        return self.tail.decode(errors="replace")
