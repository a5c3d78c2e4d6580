#!/usr/bin/env python3
"""Play conmon's console side: listen on a console socket, run
PREFIX create --bundle B --console-socket S ID, receive the pty master,
PREFIX start ID, and print everything the container writes to it.
usage: lifecycle_console.py BUNDLE SOCKET ID -- PREFIX..."""
import os
import socket
import subprocess
import sys


def main():
    bundle, sock_path, cid = sys.argv[1:4]
    prefix = sys.argv[5:]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(sock_path)
    srv.listen(1)
    srv.settimeout(10)
    subprocess.run(prefix + ["create", "--bundle", bundle, "--console-socket",
                             sock_path, cid], check=True,
                   stdout=subprocess.DEVNULL)
    conn, _ = srv.accept()
    _, fds, _, _ = socket.recv_fds(conn, 1024, 1)
    subprocess.run(prefix + ["start", cid], check=True)
    out = b""
    while True:
        try:
            chunk = os.read(fds[0], 4096)
        except OSError:  # EIO: every slave is closed
            break
        if not chunk:
            break
        out += chunk
    sys.stdout.write(out.decode(errors="replace").replace("\r", ""))


main()
