#!/bin/bash
# Killing the runtime at any moment orphans nothing:
# - `run` SIGKILLed after a random 0-50 ms, without and with a memory
#   limit (a cgroup quota as root, the monitor as uid 65534): no process
#   of its sandbox survives, and no cgroup once the next `run` is done
#   (a killed run's cgroup is removed by the next run, see README);
# - `create` SIGKILLed after a random 0-50 ms, then `delete --force` at
#   once, as an orchestrator's time-out does: delete --force succeeds
#   only when nothing is left, and nothing is: no process, cgroup or
#   state directory;
# - a started container whose state.json was truncated: delete --force
#   still finds and kills its workload (and says so when it cannot).
# Survivors are found among all of the host's processes by a marker in
# their environment (bwrap, the held sandbox and the workload all carry
# the config's env) and argv.  SBX_KILL_ITERS iterations of each loop
# (default 20); tests/stress/kill_loop.sh runs 1,000.  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
ITERS=${SBX_KILL_ITERS:-20}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-kill.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

# bundle DIR MARKER MEMORY(bytes, 0: none)
bundle () {
  local dir=$1 marker=$2 mem=$3
  busybox_bundle "$dir" sh sleep >/dev/null || return 1
  python3 - "$dir/config.json" "$marker" "$mem" <<'PY'
import json, sys
path, marker, mem = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = json.load(open(path))
c["process"]["args"] = ["sleep", "600"]
c["process"]["terminal"] = False
c["process"]["env"].append("SBX_KILL_MARKER=" + marker)
if mem:
    c.setdefault("linux", {}).setdefault("resources", {})["memory"] = {"limit": mem}
json.dump(c, open(path, "w"))
PY
  chmod -R a+rX "$dir"
  # A rootless container owns its rootfs (bwrap makes mount points in it).
  [ -z "$AS" ] || chown -R 65534:65534 "$dir"
}

# The pids whose environment or argv holds MARKER (a prefix is enough):
# two greps over all of /proc; the first character in brackets keeps the
# grep from finding its own argv.
marked () {
  local re="[${1:0:1}]${1:1}"
  { grep -lsa "SBX_KILL_MARKER=$re" /proc/[0-9]*/environ
    grep -lsa "$re" /proc/[0-9]*/cmdline; } 2>/dev/null \
    | sed 's,^/proc/\([0-9]*\)/.*,\1,' | sort -un
}
# The pids whose argv names PATH: a runner (bwrap) that never got as far
# as the sandbox's environment still has the bundle's rootfs in its argv.
naming () {
  local re="[${1:0:1}]${1:1}"
  grep -lsa -- "$re" /proc/[0-9]*/cmdline 2>/dev/null \
    | sed 's,^/proc/\([0-9]*\)/.*,\1,' | sort -un
}
# PID...: what they are, as TAP comments (a failure's evidence).
describe () {
  [ $# -gt 0 ] || return 0
  ps -o pid,ppid,pgid,sid,stat,wchan:24,args -p "$(echo "$@" | tr ' ' ,)" \
    | cut -c1-160 | sed 's/^/#   /'
}
# Wait up to about 2 s for MARKER's processes to end; print those left.
survivors () {
  local left
  for _ in $(seq 40); do
    left=$(marked "$1")
    [ -z "$left" ] && return 0
    sleep 0.05
  done
  echo $left
}
# The cgroup directories (any hierarchy) whose name holds PATTERN.
cgroups_named () {
  [ -d /sys/fs/cgroup ] || return 0
  find /sys/fs/cgroup -mindepth 1 -maxdepth 6 -type d -name "*$1*" 2>/dev/null
}
random_delay () { printf '0.%03d' $((RANDOM % 51)); }
sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }

# run_loop NAME MEMORY: ITERS runs killed at random moments.
run_loop () {
  local name=$1 mem=$2 b=$WORK/$MODE-run-$1 i pid orphaned=0 first= left
  local marker=kl-$RUN-$MODE-$name
  bundle "$b" "$marker" "$mem"
  for i in $(seq "$ITERS"); do
    # not through a function: $! must be sbx-oci itself (setpriv and env exec)
    $AS env -i "$SBX" --root "$ROOT" run --bundle "$b" "$marker-$i" </dev/null >/dev/null 2>&1 &
    pid=$!
    sleep "$(random_delay)"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    left=$(survivors "$marker-$i")
    if [ -n "$left" ]; then
      orphaned=$((orphaned + 1))
      [ -n "$first" ] || first="iteration $i: $left"
      kill -KILL $left 2>/dev/null
    fi
  done
  check "run ($name): $ITERS SIGKILLs at 0-50 ms leave no process of the sandbox ($orphaned orphaned${first:+, first: $first})" \
    [ "$orphaned" -eq 0 ]
  # Nor a runner stuck in its set-up (bubblewrap's pid 1 waits for its
  # parent's go-ahead on an eventfd: killed first, it never gets it).
  sleep 0.2
  left=$(naming "$b/rootfs")
  check "run ($name): and no runner of theirs ($(echo ${left:-none}))" [ -z "$left" ]
  describe $left
  [ -z "$left" ] || kill -KILL $left 2>/dev/null
  # The next run removes what a killed run could not.
  $AS env -i "$SBX" --root "$ROOT" run --bundle "$b" "$marker-next" </dev/null >/dev/null 2>"$WORK/next.err" &
  pid=$!
  for _ in $(seq 100); do [ -n "$(marked "$marker-next")" ] && break; sleep 0.02; done
  check "run ($name): a run left alone starts its workload" [ -n "$(marked "$marker-next")" ]
  # Often still in its set-up (the marker is in its own argv): stopped
  # there, it ends as asked, and leaves nothing.
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  local rc=$?
  check "run ($name): SIGTERM ends it with 143 (got $rc)" [ "$rc" -eq 143 ]
  [ "$rc" -eq 143 ] || sed 's/^/#   /' "$WORK/next.err"
  sleep 0.2
  left=$(naming "$b/rootfs")
  check "run ($name): and leaves no process ($(echo ${left:-none}))" [ -z "$left" ]
  [ -z "$left" ] || kill -KILL $left 2>/dev/null
  left=$(cgroups_named "$marker" | head -3 | tr '\n' ' ')
  check "run ($name): and, after the next run, no cgroup of theirs ($left)" [ -z "$left" ]
}

# create_loop NAME MEMORY: ITERS creates killed at random moments, each
# followed at once by delete --force.
create_loop () {
  local name=$1 mem=$2 b=$WORK/$MODE-create-$1 i pid id bad=0 lied=0 first= left
  local marker=kc-$RUN-$MODE-$name
  bundle "$b" "$marker" "$mem"
  for i in $(seq "$ITERS"); do
    id=$marker-$i
    $AS env -i "$SBX" --root "$ROOT" create --bundle "$b" "$id" </dev/null >/dev/null 2>&1 &
    pid=$!
    sleep "$(random_delay)"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    sbx delete --force "$id" >/dev/null 2>"$WORK/del.err"
    rc=$?
    left=$(survivors "$id")
    [ -e "$ROOT/$id" ] && left="$left state-dir"
    cg=$(cgroups_named "$id" | head -1)
    [ -n "$cg" ] && left="$left cgroup:$cg"
    if [ -n "$left" ]; then
      bad=$((bad + 1))
      [ "$rc" -eq 0 ] && lied=$((lied + 1))
      [ -n "$first" ] || first="iteration $i (delete exited $rc: $(head -c 200 "$WORK/del.err")): $left"
      kill -KILL $(marked "$id") 2>/dev/null
      sbx delete --force "$id" >/dev/null 2>&1
    fi
  done
  check "create ($name) killed at 0-50 ms, then delete --force: nothing left in $ITERS tries ($bad left something, $lied of them with delete exiting 0${first:+; first: $first})" \
    [ "$bad" -eq 0 ]
  left=$(ls "$ROOT" 2>/dev/null | grep -F "$marker" | head -3 | tr '\n' ' ')
  check "create ($name): no state directory is left ($left)" [ -z "$left" ]
}

# A started container whose state.json was truncated.
truncated_state () {
  local b=$WORK/$MODE-trunc id=kt-$RUN-$MODE left
  bundle "$b" "$id" 0
  sbx create --bundle "$b" "$id" </dev/null >/dev/null 2>&1 && sbx start "$id"
  for _ in $(seq 100); do [ -n "$(marked "$id")" ] && break; sleep 0.02; done
  check "truncated state.json: the workload runs" [ -n "$(marked "$id")" ]
  : >"$ROOT/$id/state.json"
  sbx delete --force "$id" >/dev/null 2>"$WORK/trunc.err"
  rc=$?
  left=$(survivors "$id")
  check "delete --force exits 0 ($rc: $(head -c 200 "$WORK/trunc.err"))" [ "$rc" -eq 0 ]
  check "and the workload is ended ($left)" [ -z "$left" ]
  check "and the state directory removed" [ ! -e "$ROOT/$id" ]
  kill -KILL $left 2>/dev/null
}

# `run` of an agent config (bwrap started before the plan and reading its
# options, runtime/linux/bwrap/prestart.h: its argv and environment carry
# no marker) SIGKILLed after 0-50 ms, in a pid namespace of its own: the
# namespace then holds what it held before, the counting shell and its
# pipeline, and nothing the run started.  Root only (the namespace needs
# it).
prestart_loop () {
  [ "$MODE" = root ] || return 0
  local b=$WORK/agent ws=$WORK/agent-ws i got base left=0
  mkdir -p "$b" "$ws"
  cat >"$b/config.json" <<EOF
{"ociVersion": "1.2.0", "root": {"path": "/", "readonly": true},
 "process": {"args": ["sleep", "600"], "cwd": "$ws",
             "user": {"uid": 0, "gid": 0}},
 "sbx": {"mode": "workspace-write", "workspace": "$ws", "network": "deny"}}
EOF
  # In the namespace: start run (or nothing), kill it, wait for the
  # guard's and the death signals' work, count the namespace's processes.
  local count='[ "$1" = run ] && { "$2" --root "$3" run --bundle "$4" "$5" \
      >/dev/null 2>&1 & sleep "$6"; kill -KILL $!; }
    sleep 0.5; ls /proc | grep -c "^[0-9]"'
  base=$(unshare -pf --mount-proc sh -c "$count" sh none)
  check "a pid namespace of its own counts its processes ($base)" \
    [ "${base:-0}" -ge 1 ]
  for i in $(seq 1 "$ITERS"); do
    got=$(unshare -pf --mount-proc sh -c "$count" sh run "$SBX" "$ROOT" "$b" \
      "pk-$i" "$(random_delay)")
    [ "$got" = "$base" ] || left=$((left + 1))
  done
  check "run of an agent SIGKILLed $ITERS times, bwrap started before the plan: nothing survives in $left" \
    [ "$left" -eq 0 ]
}

# `run` with a quota, SIGTERMed while it makes its cgroup: its mkdirs
# slowed down by strace, to hit that moment every time.  A signal that
# ends a run must end it through its clean-up, whatever it was doing:
# exit 143 and no cgroup left (the default action of SIGTERM left it to
# the next run, as a SIGKILL does).  Root only (uid 65534's limits are
# sampled, with no cgroup).
term_in_cgroup_setup () {
  [ "$MODE" = root ] || return 0
  command -v strace >/dev/null || { ok "run SIGTERMed while it makes its cgroup # SKIP strace is not installed"; return 0; }
  local b=$WORK/term-setup id=kq-$RUN pid rc left=
  bundle "$b" "$id" $((64 << 20))
  strace -o /dev/null -e trace=mkdir,mkdirat \
    -e inject=mkdir,mkdirat:delay_exit=300000 \
    env -i "$TRACED_ENV" "$SBX" --root "$ROOT" run --bundle "$b" "$id" </dev/null >/dev/null 2>"$WORK/term.err" &
  local tracer=$!
  for _ in $(seq 200); do
    left=$(cgroups_named "$id")
    [ -n "$left" ] && break
    sleep 0.02
  done
  pid=$(pgrep -P "$tracer")
  check "run SIGTERMed while it makes its cgroup: the cgroup was being made" [ -n "$left" ]
  kill -TERM "$pid" 2>/dev/null
  wait "$tracer"
  rc=$?
  check "and it exits 143 (got $rc: $(head -c 200 "$WORK/term.err"))" [ "$rc" -eq 143 ]
  left=$(cgroups_named "$id" | head -3 | tr '\n' ' ')
  check "and leaves no cgroup ($left)" [ -z "$left" ]
}

# SBX_KILL_ONLY (run, create or truncated) picks one part; SBX_KILL_MODES
# (root, user) one mode.
want () { [ -z "${SBX_KILL_ONLY:-}" ] || [ "$SBX_KILL_ONLY" = "$1" ]; }
suite () {
  case ${SBX_KILL_MODES:-$MODE} in *$MODE*) ;; *) return 0 ;; esac
  mkdir -p "$ROOT"
  [ -n "$AS" ] && chown 65534:65534 "$ROOT"
  if want run; then
    run_loop plain 0
    run_loop memory $((64 << 20))
    prestart_loop
    term_in_cgroup_setup
  fi
  if want create; then
    create_loop plain 0
    create_loop memory $((64 << 20))
  fi
  want truncated && truncated_state
}

run_as_root_and_user suite
finish
