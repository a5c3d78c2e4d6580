#!/bin/bash
# A host that changes while sandboxes are set up (TAP): mounts that come
# and go, daemons that restart their sockets, a runner killed mid-command.
# Root only (it mounts on the host); each case runs its sandboxes as root
# and as uid 65534 through setpriv.  Run alone (meson: is_parallel false):
# the churn would reach every other test's sandboxes, which would set up
# again and say so on stderr.  SBX_OCI names the binary, MOUNT_CHURN
# tests/integration/mount_churn.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${MOUNT_CHURN:?set MOUNT_CHURN to tests/integration/mount_churn}"

if [ "$(id -u)" -ne 0 ]; then
  echo "1..0 # SKIP the host's mounts change only as root"
  exit 0
fi
WORK=$(mktemp -d /tmp/sbx-churn.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
export TAP_LOG="$WORK/tap.log"
CHURN_AGAIN=0

# as UID CMD...: CMD as UID (0 or 65534), without supplementary groups.
as () { local uid=$1; shift; setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"; }

# agent_as BUNDLE UID MODE WS ARG...: an agent bundle running ARG... as UID,
# readable by all.
agent_as ()
{
  local b=$1 uid=$2
  write_agent "$b" "$3" "$4" "" "${@:5}"
  sed -i "s/\"uid\": [0-9]*, \"gid\": [0-9]*/\"uid\": $uid, \"gid\": $uid/" \
    "$b/config.json"
  chmod -R a+rX "$b"
}

# state_of UID: a state root of UID's own.
state_of ()
{
  mkdir -p "$WORK/state$1"
  chown "$1" "$WORK/state$1"
  echo "$WORK/state$1"
}

# churn_runs UID CMD...: CMD (an sbx-oci command line, a fresh id added)
# 30 times as UID; CHURN_FAILED counts the failures, CHURN_AGAIN (never
# reset) the set-ups made again, and CHURN_LAST is the last failure's
# output (kept in a file: a created sandbox holds its creator's stdout and
# stderr open).
churn_runs ()
{
  local uid=$1 i out="$WORK/out"
  shift
  CHURN_FAILED=0 CHURN_LAST=
  for i in $(seq 30); do
    as "$uid" "$@" "churn-$uid-$i" > "$out" 2>&1 \
      || { CHURN_FAILED=$((CHURN_FAILED + 1)); CHURN_LAST=$(cat "$out"); }
    ! grep -q "setting it up again" "$out" || CHURN_AGAIN=$((CHURN_AGAIN + 1))
  done
}

# bubblewrap fails its set-up when a submount of a recursive bind is
# unmounted between its listing and its remount (containers/bubblewrap#650):
# "Unable to apply mount flags: remount ...: Invalid argument".  A host
# whose mounts never rest (a Kubernetes node's /run/netns) must not fail
# sandboxes for it: a shared tmpfs that the read-only root binds has tmpfs
# mounts made and unmounted below it, 20 us apart (one set-up in five
# meets the race; with no pause at all the churner's hold on the mount
# table stretches bwrap's set-up until eight attempts in a row can fail),
# while sandboxes run and are created, as root and as uid 65534, and run
# in fresh state roots, so that the host probe runs under the churn too
# (it ran bwrap's test sandboxes there, and cached "no namespaces" when
# one failed).  Main's build of 2026-12-02 failed every check but the
# first here.  Each run checks that a set-up made again still loads as
# many seccomp filters as one at rest.
case_mount_churn ()
{
  local d="$WORK/churn" uid pid i filters st
  mkdir -p "$d/mnt"
  mount -t tmpfs sbx-churn "$d/mnt" && mount --make-shared "$d/mnt"
  agent_as "$d/at-rest" 0 read-only "$d" cat /proc/self/status
  filters=$("$SBX_OCI" --root "$(state_of 0)" run --bundle "$d/at-rest" at-rest 2>&1 \
    | grep '^Seccomp_filters:')
  tap_ok "a sandbox at rest loads seccomp filters (${filters:-none})" \
    test -n "${filters##*:*[[:space:]]0}"
  "$MOUNT_CHURN" "$d/mnt" 20 &
  pid=$!
  for uid in 0 65534; do
    agent_as "$d/b$uid" "$uid" read-only "$d" grep -qx "$filters" /proc/self/status
    st=$(state_of "$uid")
    churn_runs "$uid" "$SBX_OCI" --root "$st" run --bundle "$d/b$uid"
    tap_is "$CHURN_FAILED" 0 "host mounts coming and going: 30 runs as uid $uid all ran${CHURN_LAST:+ (last failure: $(echo $CHURN_LAST))}"
    churn_runs "$uid" "$SBX_OCI" --root "$st" create --bundle "$d/b$uid"
    tap_is "$CHURN_FAILED" 0 "host mounts coming and going: 30 creates as uid $uid all held${CHURN_LAST:+ (last failure: $(echo $CHURN_LAST))}"
    for i in $(seq 30); do
      as "$uid" "$SBX_OCI" --root "$st" delete --force "churn-$uid-$i" 2> /dev/null
    done
    # A probe that failed would leave the run without namespaces, which
    # only the outcome's layers show.
    CHURN_FAILED=0 CHURN_LAST=
    for i in $(seq 10); do
      rm -rf "$st.fresh" && mkdir "$st.fresh" && chown "$uid" "$st.fresh"
      as "$uid" "$SBX_OCI" --root "$st.fresh" run --bundle "$d/b$uid" \
        --outcome "$st.fresh/outcome.json" fresh > "$WORK/out" 2>&1 \
        && grep -q '"layers":\["namespaces"' "$st.fresh/outcome.json" \
        || { CHURN_FAILED=$((CHURN_FAILED + 1)); CHURN_LAST="$(cat "$WORK/out" "$st.fresh/outcome.json")"; }
    done
    tap_is "$CHURN_FAILED" 0 "host mounts coming and going: 10 runs as uid $uid, each probing the host afresh, all ran in namespaces${CHURN_LAST:+ (last failure: $(echo $CHURN_LAST))}"
  done
  # A config's own filter lives in a memfd that bwrap reads to its end:
  # rewound for each attempt, it still refuses what it refuses.
  agent_as "$d/own" 0 read-only "$d" sh -c '! mkdir /tmp/refused'
  python3 - "$d/own/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.setdefault("linux", {})["seccomp"] = {
    "defaultAction": "SCMP_ACT_ALLOW",
    "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO",
                  "errnoRet": 1}]}
json.dump(c, open(sys.argv[1], "w"))
PY
  churn_runs 0 "$SBX_OCI" --root "$(state_of 0)" run --bundle "$d/own"
  tap_is "$CHURN_FAILED" 0 "host mounts coming and going: 30 runs with the config's own filter all ran under it${CHURN_LAST:+ (last failure: $(echo $CHURN_LAST))}"
  tap_ok "host mounts coming and going: the race was met and set up again ($CHURN_AGAIN of 150)" \
    test "$CHURN_AGAIN" -gt 0
  tap_ok "the mount churner was churning to the end" kill "$pid"
  wait "$pid" 2> /dev/null
  umount -R "$d/mnt"
}

# A daemon that restarts while a sandbox is set up: its socket, listed at
# launch to be covered, is gone (or made anew) before bubblewrap covers
# it, and bwrap cannot make a file to cover it with in a read-only
# directory ("Can't create file at ...: Read-only file system").  Eight
# daemons restart their sockets, each living 2 to 100 ms, in a directory
# the sandbox sees read-only (/var/tmp: /tmp is its own): some live long
# enough to be planned however slow the build (under ASan a 2 ms one
# never was: gone before its plan) and go before bwrap's cover.
# (Main's build of 2026-12-02 failed 16 and 17 runs of 30 so, as root and
# as uid 65534.)
case_socket_churn ()
{
  local d="$WORK/sockets" pid i uid
  mkdir -p "$d/ws"
  chmod 755 "$d" "$d/ws"
  d=$(mktemp -d /var/tmp/sbx-it-sockets.XXXXXX)
  python3 - "$d/stable" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1); time.sleep(3600)
PY
  pid=$!
  for i in $(seq 50); do [ -S "$d/stable" ] && break; sleep 0.1; done
  agent_as "$WORK/sockets/stable" 0 read-only "$WORK/sockets/ws" \
    sh -c "test -e $d/stable && test ! -S $d/stable"
  out=$("$SBX_OCI" --root "$(state_of 0)" run --bundle "$WORK/sockets/stable" stable 2>&1)
  tap_is "$?" 0 "a host socket in /var/tmp is covered by a file, not reachable ($(echo $out))"
  kill "$pid"
  python3 - "$d" <<'PY' &
import os, socket, sys, threading, time
def restart(path, life):
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path); s.listen(1); time.sleep(life)
        os.unlink(path); s.close()
for i, life in enumerate((0.002, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1)):
    threading.Thread(target=restart, daemon=True,
                     args=(os.path.join(sys.argv[1], "s%d" % i), life)).start()
time.sleep(3600)
PY
  pid=$!
  CHURN_AGAIN=0
  for uid in 0 65534; do
    agent_as "$WORK/sockets/b$uid" "$uid" read-only "$WORK/sockets/ws" true
    churn_runs "$uid" "$SBX_OCI" --root "$(state_of "$uid")" run \
      --bundle "$WORK/sockets/b$uid"
    tap_is "$CHURN_FAILED" 0 "host sockets coming and going: 30 runs as uid $uid all ran${CHURN_LAST:+ (last failure: $(echo $CHURN_LAST))}"
  done
  # Whether a restart falls between the plan and bwrap's cover is timing:
  # the optimized build meets it in 3 to 25 runs of 60, an ASan build's
  # slower planning in 0 or 1 (test_setup_retry holds the logic).  Not
  # met is said so, not passed.
  if [ "$CHURN_AGAIN" -gt 0 ]; then
    tap_result ok "host sockets coming and going: the race was met and set up again ($CHURN_AGAIN of 60)"
  else
    tap_skip "host sockets coming and going: the race was met and set up again" \
      "not met in 60 runs on this build's timing"
  fi
  kill "$pid"
  wait "$pid" 2> /dev/null
  rm -rf "$d"
}

# bubblewrap writes its "exit-code" only when the command ends: a runner
# killed while the command runs leaves none, and the mount watch saw the
# host change at some time in the whole run.  That is no set-up that
# failed, and the command must not run again.  (The first version of the
# retry ran it twice so, and up to eight times when a memory limit's OOM
# killer took bwrap.)
case_no_second_run ()
{
  local d="$WORK/once" pid i how wrap="$WORK/wrapped-bwrap"
  # A runner named with --runner that waits for bwrap instead of being it:
  # bwrap's death by a signal reaches sbx as an exit of 137.
  printf '#!/bin/sh\n/usr/bin/bwrap "$@"\n' > "$wrap"
  chmod 755 "$wrap"
  mkdir -p "$d/ws" "$d/mnt"
  agent_as "$d/b" 0 workspace-write "$d/ws" sh -c 'echo ran >> runs.log; sleep 5'
  for how in bwrap wrapped; do
    rm -f "$d/ws/runs.log"
    if [ "$how" = bwrap ]; then
      "$SBX_OCI" --root "$(state_of 0)" run --bundle "$d/b" once > "$d/out" 2>&1 &
    else
      "$SBX_OCI" --root "$(state_of 0)" --runner "$wrap" run --bundle "$d/b" once \
        > "$d/out" 2>&1 &
    fi
    pid=$!
    for i in $(seq 100); do [ -s "$d/ws/runs.log" ] && break; sleep 0.05; done
    mount -t tmpfs sbx-once "$d/mnt" && umount "$d/mnt"
    pkill -9 -x bwrap -P "$pid,$(pgrep -d, -P "$pid")"
    wait "$pid"
    tap_is "$(wc -l < "$d/ws/runs.log")" 1 \
      "a runner ($how) killed while its command ran, the host's mounts changed: the command ran once ($(echo $(cat "$d/out")))"
  done
}

case_mount_churn
case_socket_churn
case_no_second_run
tap_plan
