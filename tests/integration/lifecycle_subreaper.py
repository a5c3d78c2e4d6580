#!/usr/bin/env python3
"""Play conmon: become a child subreaper, create and start a container, and
learn its exit status only by waitpid() on the pid in --pid-file.
usage: lifecycle_subreaper.py BUNDLE PIDFILE ID -- PREFIX...
runs PREFIX create --bundle BUNDLE --pid-file PIDFILE ID, then PREFIX start ID,
and prints the exit code (or 128+signal) of that pid."""
import ctypes
import os
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def main():
    bundle, pid_file, cid = sys.argv[1:4]
    prefix = sys.argv[5:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("prctl failed")
    with open(os.devnull, "w") as null:
        subprocess.run(prefix + ["create", "--bundle", bundle, "--pid-file",
                                 pid_file, cid], check=True, stdout=null,
                       stderr=null)
        pid = int(open(pid_file).read())
        subprocess.run(prefix + ["start", cid], check=True)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status)
          else 128 + os.WTERMSIG(status))


main()
