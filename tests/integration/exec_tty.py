#!/usr/bin/env python3
"""Play conmon's side of `exec --tty`: listen on SOCKET, run CMD... (an
`sbx-oci exec --tty --console-socket SOCKET ...`), receive the pty master
if one is sent, print what the process writes to it, and exit with CMD's
status.  Prints "no terminal received" when none came.
usage: exec_tty.py SOCKET -- CMD..."""
import os
import socket
import subprocess
import sys


def receive(srv, proc):
    """The master's fd, or None once CMD has exited without sending one."""
    srv.settimeout(0.2)
    while True:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            if proc.poll() is not None:
                return None
            continue
        _, fds, _, _ = socket.recv_fds(conn, 1024, 1)
        conn.close()
        return fds[0] if fds else None


def main():
    sock_path = sys.argv[1]
    cmd = sys.argv[3:]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(sock_path)
    srv.listen(1)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    master = receive(srv, proc)
    out = b""
    while master is not None:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: every slave is closed
            break
        if not chunk:
            break
        out += chunk
    if master is None:
        out = b"no terminal received\n"
    sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
    sys.exit(proc.wait(timeout=20))


main()
