"""Shared by the tests: the real binary, fresh workspaces, marker processes."""
import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

BINARY = os.environ.get("SBX_OCI")
if not BINARY:
    raise RuntimeError("SBX_OCI: set it to the built sbx-oci binary")


def workspace(test):
    d = os.path.realpath(tempfile.mkdtemp(prefix="sbx-py-test-"))
    test.addCleanup(shutil.rmtree, d, True)
    return d


def marker_seconds():
    """A sleep argument no other process has, so the host can find it."""
    return "%d.%d" % (random.randint(100000, 900000), random.randint(1, 65535))


def marker_alive(marker):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if marker.encode() in args:
            return True
    return False


def wait_for(test, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return False


def stubborn_tree(marker):
    """Two sleeps that ignore SIGTERM, one in a session of its own: ending
    the sandbox must end the whole tree, not the process sbx-oci started."""
    return ["sh", "-c", "trap '' TERM; setsid sleep %s & sleep %s; wait" % (marker, marker)]
