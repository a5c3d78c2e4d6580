#!/bin/bash
# A container that joins another's pid namespace by path (`podman run
# --pid container:A`, Kubernetes' shareProcessNamespace): B sees A's
# processes, and `ps`, `kill --all` and `delete --force` on B reach B's
# processes only.  As root; an unprivileged caller is refused with one
# line naming the field.  Before: refused for every caller ("joining an
# existing namespace is supported for \"network\", \"ipc\" and \"uts\"").
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' \
  || { echo "1..0 # SKIP busybox is not static"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-pidjoin.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }
state_of () { sbx state "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"; }
# The host pids whose command line is exactly $1 (a marker of this run).
pids_of () { pgrep -x -f "$1"; }
alive () { [ -n "$(pids_of "$1")" ]; }
gone () { for _ in $(seq 50); do alive "$1" || return 0; sleep 0.1; done; return 1; }

# bundle DIR ARGS-JSON [PID-PATH]: a busybox bundle running ARGS, joining
# the pid namespace at PID-PATH when given.
bundle () {
  busybox_bundle "$1" sh sleep cat ls ps setsid
  python3 - "$1/config.json" "$2" "${3:-}" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = json.loads(sys.argv[2])
c["process"]["terminal"] = False
if sys.argv[3]:
    for n in c["linux"]["namespaces"]:
        if n["type"] == "pid":
            n["path"] = sys.argv[3]
json.dump(c, open(sys.argv[1], "w"))
PY
  chmod -R a+rX "$1"
  [ -n "$AS" ] && chown -R 65534:65534 "$1"
}

# The sleeps' durations are this run's markers (this script's pid).
mark () { echo "sleep $1$$"; }

suite () {
  local A=$WORK/$MODE-a B=$WORK/$MODE-b a=pa-$MODE-$RUN b=pb-$MODE-$RUN
  local sa sb1 sb2 sb3
  sa=$(mark 100); sb1=$(mark 200); sb2=$(mark 300); sb3=$(mark 400)
  bundle "$A" "[\"sleep\", \"${sa#sleep }\"]"
  # files, not a pipe: the workload keeps create's stdio open
  sbx create --bundle "$A" "$a" > /dev/null 2> "$A.err" && sbx start "$a" > /dev/null 2>&1
  local pa; pa=$(state_of "$a" pid)
  check "container A runs ($sa, pid $pa)" alive "$sa"
  # sb3 daemonizes: re-parented to A's pid 1, out of B's first process's tree
  bundle "$B" "[\"sh\", \"-c\", \"(setsid ${sb3} &); ${sb1} & exec ${sb2}\"]" "/proc/$pa/ns/pid"
  if [ "$MODE" = user ]; then
    sbx create --bundle "$B" "$b" > /dev/null 2> "$B.err"
    local rc=$?
    check "unprivileged: joining a pid namespace is refused (exit $rc)" [ "$rc" = 121 ]
    check "unprivileged: one line naming linux.namespaces[0].path" \
      eval '[ "$(wc -l < "$B.err")" = 1 ] && grep -q "linux.namespaces\[0\].path: a pid namespace can be joined only by root" "$B.err"'
    check "unprivileged: nothing left behind" eval '[ ! -e "$ROOT/$b" ] && ! alive "$sb2"'
    sbx delete --force "$a" > /dev/null 2>&1
    return
  fi
  if sbx create --bundle "$B" "$b" > /dev/null 2> "$B.err"; then
    ok "create B joining A's pid namespace"
  else
    not_ok "create B joining A's pid namespace" "$(cat "$B.err")"
  fi
  sbx start "$b" > /dev/null 2>&1
  for _ in $(seq 50); do alive "$sb1" && alive "$sb2" && alive "$sb3" && break; sleep 0.1; done
  # So that "ended" below is not "never started".
  check "B's three sleeps run" eval 'alive "$sb1" && alive "$sb2" && alive "$sb3"'
  local pb; pb=$(state_of "$b" pid)
  check "B's first process ($pb) is in A's pid namespace" \
    eval '[ -n "$pb" ] && [ "$(readlink /proc/$pb/ns/pid)" = "$(readlink /proc/$pa/ns/pid)" ]'
  local inside; inside=$(sbx exec "$b" sh -c 'cat /proc/*/cmdline | tr "\0" " "' 2> "$B.exec")
  check "B's /proc shows A's sleep" eval '[[ "$inside" == *"$sa"* ]]'
  check "B's /proc shows A's namespace, not the host's (pid 1 is A's sleep)" \
    eval '[ "$(sbx exec "$b" cat /proc/1/cmdline | tr "\0" " ")" = "$sa " ]'
  local listed; listed=$(sbx ps --format json "$b")
  check "ps B lists B's processes ($listed)" \
    eval '[ -n "$pb" ] && [[ "$listed" == *"$pb"* ]] && for p in $(pids_of "$sb1"); do [[ "$listed" == *"$p"* ]] || exit 1; done'
  check "ps B does not list A's ($pa)" eval '! [[ ",${listed//[\[\]]/}," == *",$pa,"* ]]'
  check "kill --all B STOP stops B's first process and leaves A's sleep running" \
    eval 'sbx kill --all "$b" STOP && sleep 0.3 && [ "$(awk "{print \$3}" /proc/$pa/stat)" = S ] \
      && [ "$(awk "{print \$3}" /proc/$pb/stat)" = T ]'
  sbx kill --all "$b" CONT
  if sbx delete --force "$b" > /dev/null 2> "$B.del"; then
    ok "delete --force B"
  else
    not_ok "delete --force B" "$(cat "$B.del")"
  fi
  check "delete --force B ends B's processes ($sb1, $sb2)" eval 'gone "$sb1" && gone "$sb2"'
  check "delete --force B ends what B daemonized into A's namespace ($sb3)" gone "$sb3"
  check "delete --force B leaves A's sleep alive" eval 'sleep 0.3; alive "$sa" && [ "$(state_of "$a" status)" = running ]'
  check "delete A" sbx delete --force "$a"
  check "A's sleep is gone" gone "$sa"
}

run_as_root_and_user suite
finish
