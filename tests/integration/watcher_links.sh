#!/bin/bash
# The sampling monitor reads a container's memory from the container's own
# procfs (/proc/PID1/root/proc).  A container that may mount there (root of
# a rootless podman's user namespace, --cap-add SYS_ADMIN, a sampled memory
# limit) covered one of its /proc/N with a directory whose statm was a link
# to a host path: the limits watcher, on the host's side, followed it (a
# review read a host-only file into peakMemoryBytes, and blocked the
# watcher on a host FIFO, which ended the limit's enforcement).  Root only:
# the namespace is made here as rootless podman's would be (0-65535 mapped
# to host 100000-165535).  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (it maps a user namespace)"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-wlinks.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"
trap 'rm -rf "$WORK"' EXIT

# as_ns_root CMD...: CMD as uid 0 of a new user namespace mapping
# 0-65535 to host 100000-165535.
as_ns_root () {
  python3 - "$@" <<'PY'
import ctypes, os, sys, time
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(w)
    if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) != 0:
        os._exit(127)
    os.read(r, 1)
    os.setresgid(0, 0, 0); os.setresuid(0, 0, 0)
    os.execvp(sys.argv[1], sys.argv[1:])
os.close(r)
for _ in range(500):
    if os.readlink(f"/proc/{pid}/ns/user") != os.readlink("/proc/self/ns/user"):
        break
    time.sleep(0.01)
for f, v in (("uid_map", "0 100000 65536\n"), ("setgroups", "allow\n"),
             ("gid_map", "0 100000 65536\n")):
    open(f"/proc/{pid}/{f}", "w").write(v)
os.write(w, b"x")
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PY
}

B=$WORK/b
ROOT=$WORK/state
HOSTONLY=$WORK/hostonly
MODE=
busybox_bundle "$B" sh sleep mkdir ln mount cat > /dev/null
cat > "$B/config.json" <<'JSON'
{"ociVersion": "1.2.0", "root": {"path": "rootfs"},
 "process": {"args": ["/bin/sh", "-c", "sleep 1000"], "cwd": "/",
             "env": ["PATH=/bin"],
             "capabilities": {"bounding": ["CAP_SYS_ADMIN"],
                              "effective": ["CAP_SYS_ADMIN"],
                              "permitted": ["CAP_SYS_ADMIN"]}},
 "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"},
            {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs"}],
 "linux": {"namespaces": [{"type": "pid"}, {"type": "mount"},
                          {"type": "ipc"}, {"type": "uts"}],
           "resources": {"memory": {"limit": 536870912}}}}
JSON
mkdir -p "$ROOT" "$HOSTONLY"
# A host-only file whose second field, read as statm's, is 77777 pages.
printf '0 77777 0 0 0 0 0\n' > "$HOSTONLY/secret"
mkfifo "$HOSTONLY/fifo"
chown -R 100000:100000 "$B" "$ROOT" "$HOSTONLY"
chmod 700 "$ROOT" "$HOSTONLY"

# scenario ID TARGET: in one such namespace (create, start, exec and
# state must share it), a container ID whose process covers its own
# /proc/N with a directory whose statm is a link to TARGET; prints what
# the exec said, then the peak memory the watcher saw 3 s later, and
# leaves the container running.
cat > "$WORK/scenario.sh" <<'SH'
S="$1 --root $2"
id=$3 target=$4
$S create --bundle "$5" "$id" < /dev/null > /dev/null 2>&1 && $S start "$id" || exit 1
sleep 1.5
$S exec "$id" sh -c "sleep 900 < /dev/null > /dev/null 2>&1 & P=\$!
  mkdir -p /tmp/fake && ln -s $target /tmp/fake/statm && mount --bind /tmp/fake /proc/\$P" 2>&1
sleep 3
$S state "$id" | python3 -c 'import json,sys; l=json.load(sys.stdin)["org.sbx-oci"]["limits"]; print(l["mechanism"], l.get("peakMemoryBytes", 0))'
SH
chmod 755 "$WORK/scenario.sh"
end_container () { as_ns_root "$SBX" --root "$ROOT" delete --force "$1" 2> /dev/null; }

id=wl-secret-$RUN
out=$(as_ns_root bash "$WORK/scenario.sh" "$SBX" "$ROOT" "$id" "$HOSTONLY/secret" "$B")
check "the container covered one of its /proc entries, its memory sampled ($out)" \
  eval '[ "$(printf "%s\n" "$out" | wc -l)" = 1 ] && [[ "$out" == monitor* ]]'
p=${out##* }
check "the watcher did not read the host-only file the link named (peak ${p:-?} bytes)" \
  [ "${p:-0}" -lt $((77777 * 4096)) ]
end_container "$id"

id=wl-fifo-$RUN
out=$(as_ns_root bash "$WORK/scenario.sh" "$SBX" "$ROOT" "$id" "$HOSTONLY/fifo" "$B")
# A reader blocked on the FIFO lets a non-blocking writer open it.
check "the watcher did not open a host FIFO the link named ($out)" \
  python3 -c 'import os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
except OSError:
    sys.exit(0)
sys.exit(1)' "$HOSTONLY/fifo"
end_container "$id"
finish
