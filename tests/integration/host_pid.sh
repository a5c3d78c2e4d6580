#!/bin/bash
# A container that shares the host's pid namespace (`podman run
# --pid=host`: no "pid" entry in linux.namespaces) goes through
# create/start/kill/delete, as root and unprivileged, and sees the host's
# processes.  Before: create failed with bwrap's raw usage error
# "Specifying --as-pid-1 requires --unshare-pid".
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' \
  || { echo "1..0 # SKIP busybox is not static"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-hostpid.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }
state_of () { sbx state "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"; }

suite () {
  local B=$WORK/$MODE id=hp-$MODE-$RUN
  busybox_bundle "$B" sh sleep cat ls
  python3 - "$B/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sleep", "30"]
c["linux"]["namespaces"] = [n for n in c["linux"]["namespaces"] if n["type"] != "pid"]
json.dump(c, open(sys.argv[1], "w"))
PY
  hand_over "$B"
  # files, not a pipe: the workload keeps create's stdio open
  if sbx create --bundle "$B" "$id" > /dev/null 2> "$B.err"; then
    ok "create without a pid namespace"
  else
    not_ok "create without a pid namespace" "$(cat "$B.err")"
  fi
  sbx start "$id" > /dev/null 2>&1
  local pid; pid=$(state_of "$id" pid)
  check "state's pid ($pid) is the workload, a host pid" \
    eval '[ "$(tr "\0" " " < /proc/$pid/cmdline 2>/dev/null)" = "sleep 30 " ]'
  check "the pid namespace is the host's" \
    eval '[ "$(readlink /proc/$pid/ns/pid)" = "$(readlink /proc/self/ns/pid)" ]'
  check "ps lists the container's process, not the host's" \
    eval '[ "$(sbx ps --format json "$id")" = "[$pid]" ]'
  check "kill reaches it" eval 'sbx kill "$id" KILL && for _ in $(seq 50); do [ "$(state_of "$id" status)" = stopped ] && break; sleep 0.1; done; [ "$(state_of "$id" status)" = stopped ]'
  check "delete" sbx delete "$id"
  daemon_left "$B"
  no_namespaces_listed "$B"
  run_chain "$B"
}

# A process that left pid 1's tree (setsid, its parent gone: a daemon)
# outlived `delete --force`, which exited 0 (a review, 2026-12-04): without
# a pid namespace or a cgroup, only the tree was looked at.  The sandbox's
# mount namespace, bwrap's own, still holds it.
daemon_left () {
  local B=$1 id=hpd-$MODE-$RUN mark=$((700000 + RANDOM)) left rc
  python3 - "$B/config.json" "$mark" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sh", "-c", "(setsid sleep %s < /dev/null > /dev/null 2>&1 &); "
                        "sleep 1000" % sys.argv[2]]
json.dump(c, open(sys.argv[1], "w"))
PY
  sbx create --bundle "$B" "$id" > /dev/null 2>&1 < /dev/null && sbx start "$id"
  for _ in $(seq 50); do pgrep -f "^sleep $mark\$" > /dev/null && break; sleep 0.1; done
  # pkill -0: whether it runs, without a pid on the TAP stream.
  check "the daemon runs, out of pid 1's tree" pkill -0 -f "^sleep $mark\$"
  sbx delete --force "$id"
  rc=$?
  sleep 0.3
  left=$(pgrep -f "^sleep $mark\$" | tr '\n' ' ')
  check "delete --force (exit $rc) leaves no daemon of the container (${left:-none})" \
    [ "$rc" = 0 -a -z "$left" ]
  [ -z "$left" ] || kill -KILL $left 2> /dev/null
}

# A config that lists no namespace at all: OCI's rule, each one is the
# caller's, the pid namespace too (before: sbx-oci made one).
no_namespaces_listed () {
  local B=$1 id=hp0-$MODE-$RUN pid
  python3 - "$B/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"]["namespaces"] = []
json.dump(c, open(sys.argv[1], "w"))
PY
  if ! sbx create --bundle "$B" "$id" > /dev/null 2> "$B.err"; then
    not_ok "create with no namespace listed" "$(cat "$B.err")"
    return
  fi
  sbx start "$id" > /dev/null 2>&1
  pid=$(state_of "$id" pid)
  check "no namespace listed: the pid namespace is the caller's" \
    eval '[ "$(readlink /proc/$pid/ns/pid)" = "$(readlink /proc/self/ns/pid)" ]'
  sbx delete --force "$id" > /dev/null 2>&1
}

# `run` without a pid namespace: a chain of processes deeper than the
# sweep's old 100 rounds, whose top returns at once, ends with the run
# (the adversarial review found levels 101 and below alive after `run`).
run_chain () {
  local B=$1 mark=$((600000 + RANDOM)) left
  python3 - "$B/config.json" "$mark" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sh", "-c", "c() { if [ $1 -gt 0 ]; then c $(($1 - 1)) & wait; "
                        "else echo leaf-up; exec sleep %s; fi; }; (c 150 &); sleep 1" % sys.argv[2]]
json.dump(c, open(sys.argv[1], "w"))
PY
  (cd "$B" && sbx run "hp-chain-$MODE-$RUN" > "$B.chain" 2>&1)
  sleep 0.5
  # The chain's leaf ran (so "none left" is not that nothing started).
  check "run: the 150-deep chain reached its leaf" grep -q leaf-up "$B.chain"
  left=$(pgrep -f "^sleep $mark\$" | wc -l)
  check "run: a 150-deep chain whose top returned is gone with the run ($left left)" \
    test "$left" = 0
  pkill -9 -f "^sleep $mark\$" 2> /dev/null
}

run_as_root_and_user suite
finish
