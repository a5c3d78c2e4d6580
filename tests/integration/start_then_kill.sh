#!/bin/bash
# A signal sent the moment `start` returns reaches the workload's handler
# (issue 21, runtime-tools' killsig): the workload is runtime-tools' own,
# `sh -c "trap 'touch /TERM' TERM; sleep 10 & wait $!"`, and TERM comes
# from the host's kill(1) as soon as `start` exits, with no `state` call
# in between to give the shell a head start.  A pid namespace's init
# drops a signal it has no handler for, and a trapped signal that comes
# between `trap` and `wait` leaves `wait` to sit out the sleep: both are
# failures here.  SBX_START_KILL_TRIES tries (default 10) as root and as
# uid 65534; every one must end the shell through its trap within 2 s.
# A workload that never sleeps still gets its `start` back (start waits
# for the workload to settle, 100 ms at most).  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
TRIES=${SBX_START_KILL_TRIES:-10}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-startkill.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }

# bundle DIR [SCRIPT]: a busybox bundle running `sh -c SCRIPT`,
# runtime-tools' killsig script by default.
bundle () {
  local dir=$1 script=${2:-"trap 'touch /TERM' TERM; sleep 10 & wait \$!"}
  busybox_bundle "$dir" sh sleep touch > /dev/null || return 1
  python3 - "$dir/config.json" "$script" << 'PY'
import json, sys
path = sys.argv[1]
c = json.load(open(path))
c["process"]["args"] = ["sh", "-c", sys.argv[2]]
c["root"]["readonly"] = False
json.dump(c, open(path, "w"))
PY
  chmod -R a+rX "$dir"
  [ -z "$AS" ] || chown -R 65534:65534 "$dir"
}

# ended PID: PID is gone or a zombie within 2 s.
ended () {
  for _ in $(seq 40); do
    grep -qs '^[^ ]* ([^)]*) [^Z]' "/proc/$1/stat" || return 0
    sleep 0.05
  done
  return 1
}

suite () {
  local b=$WORK/$MODE id pid good=0 how= i
  mkdir -p "$ROOT"
  [ -z "$AS" ] || chown 65534:65534 "$ROOT"
  bundle "$b"
  for i in $(seq "$TRIES"); do
    id=sk-$i-$RUN
    rm -f "$b/rootfs/TERM"
    sbx create --bundle "$b" --pid-file "$b/pid" "$id" < /dev/null > /dev/null 2>&1
    pid=$(cat "$b/pid" 2> /dev/null)
    if [ -n "$pid" ] && sbx start "$id" < /dev/null > /dev/null 2>&1; then
      kill -TERM "$pid"
      if ended "$pid" && [ -e "$b/rootfs/TERM" ]; then
        good=$((good + 1))
      elif [ -e "$b/rootfs/TERM" ]; then
        how="$how $i:after-trap"
      else
        how="$how $i:lost"
      fi
    else
      how="$how $i:failed"
    fi
    sbx delete --force "$id" < /dev/null > /dev/null 2>&1
  done
  check "TERM the moment start returns ends the shell through its trap, $good of $TRIES${how:+ (missed:$how)}" \
    [ "$good" -eq "$TRIES" ]

  bundle "$b-busy" 'while :; do :; done'
  id=busy-$RUN
  sbx create --bundle "$b-busy" "$id" < /dev/null > /dev/null 2>&1
  $AS timeout 10 env -i "$SBX" --root "$ROOT" start "$id" < /dev/null > /dev/null 2>&1
  rc=$? status=$(sbx state "$id" 2> /dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  sbx delete --force "$id" < /dev/null > /dev/null 2>&1
  check "start of a workload that never sleeps returns, the workload running ($rc, $status)" \
    eval '[ "$rc" -eq 0 ] && [ "$status" = running ]'
}

run_as_root_and_user suite
finish
