#!/bin/bash
# Limits of `sbx-oci run`, as root (cgroup quota) and as an unprivileged
# user (sampling monitor; RLIMIT_NPROC in the sandbox's user namespace for
# the pids limit): fork storm, memory hog, wall clock, and no survivors
# after the foreground run is killed.  TAP output.
set -u
SBX_OCI=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
TOUCH=${LIMITS_TOUCH:?set LIMITS_TOUCH to the built limits_touch}
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
PY=/usr/bin/python3

WORK=$(mktemp -d /tmp/sbx-limits.XXXXXX)
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
# What a run shares with the whole host must be its own, so that two runs
# at once (two checkouts, CI and a developer) never meet: the ids, which
# name cgroups (sbx-oci/ID+run.PIDNS.PID.START), end in RUN, the random part of WORK's
# mktemp name; the tags that find a case's processes among all the host's
# hold this shell's pid.
RUN=${WORK##*.}
n=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check () { # DESCRIPTION COMMAND...: ok when COMMAND succeeds
  local d=$1; shift
  if "$@"; then ok "$d"; else not_ok "$d" "failed: $*"; fi
}

# bundle DIR PIDS MEMORY_MB WALL_S ARGS...: a config.json running ARGS on
# the host's / read-only, with DIR/ws writable.
bundle () {
  local dir=$1 pids=$2 mem=$3 wall=$4; shift 4
  mkdir -p "$dir/ws"; chmod 777 "$dir/ws"; chmod 755 "$dir"
  $PY - "$dir" "$pids" "$mem" "$wall" "$@" <<'PYEOF'
import json, sys
d, pids, mem, wall, args = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
res = {}
if pids: res["pids"] = {"limit": pids}
if mem: res["memory"] = {"limit": mem * 1024 * 1024}
c = {"ociVersion": "1.2.0",
     "process": {"args": args, "cwd": "/", "user": {"uid": 0, "gid": 0},
                 "env": ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"], "noNewPrivileges": True},
     "root": {"path": "/", "readonly": True},
     "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")],
               "resources": res},
     "sbx": {"mode": "workspace-write", "workspace": d + "/ws"}}
if wall: c["sbx"]["limits"] = {"wallClockSeconds": wall}
json.dump(c, open(d + "/config.json", "w"))
PYEOF
}

# field FILE KEY: a value from the outcome JSON (limits.* keys by name).
field () {
  $PY -c 'import json,sys
o = json.load(open(sys.argv[1]))
k = sys.argv[2]
v = o["limits"].get(k[7:]) if k.startswith("limits.") else o.get(k)
if k.startswith("limits.heldBy."): v = o["limits"].get("heldBy", {}).get(k[14:])
print("" if v is None else v)' "$1" "$2" 2>/dev/null
}

# as WHO CMD...: run as root or as nobody.
# as WHO CMD...: CMD as root, as uid 65534 (nobody), as root with no
# cgroup to be had (root-nocg: its cgroup mounts gone in a mount namespace
# of its own, as in a container that has none), or as root under another
# uid (mapped-root: uid 1000 of a user namespace that maps it to root's;
# nested-root: uid 0 of a namespace below that one, which shows only
# that its 0 is its parent's 1000).
as () {
  local who=$1; shift
  case $who in
    root) "$@" ;;
    root-nocg) unshare -m sh -c 'umount -R /sys/fs/cgroup && exec "$@"' sh "$@" ;;
    mapped-root) unshare -U --map-user=1000 --map-group=1000 -- "$@" ;;
    nested-root) unshare -U --map-user=1000 --map-group=1000 -- unshare -U -r -- "$@" ;;
    *) "${NOBODY[@]}" "$@" ;;
  esac
}

# state_root WHO DIR: DIR/state, WHO's own (a state root must be its
# user's and writable by no one else).
state_root () {
  mkdir -p "$2/state"; chmod 700 "$2/state"
  [ "$1" = nobody ] && chown 65534:65534 "$2/state"
}

# run_case WHO NAME: run the bundle in $WORK/NAME, outcome in .../out.json.
run_case () {
  local who=$1 d=$WORK/$2
  # The outcome is written atomically (a temp file beside it).
  state_root "$who" "$d"; chmod 777 "$d"
  local t0=$(date +%s%N)
  as "$who" "$SBX_OCI" --root "$d/state" run --bundle "$d" --outcome "$d/out.json" "$2-$RUN" \
    > "$d/stdout" 2> "$d/stderr"
  ELAPSED_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# tag N: a sleep for about N seconds ("37." or "0.0") whose argv no other
# tag is the start of: a random number and the pid, each of fixed width.
tag () { printf 'sleep %s%05d%07d' "$1" "$RANDOM" "$$"; }

# survivors TAG: processes whose command line holds TAG.
survivors () { pgrep -f -- "$1" | wc -l; }

storm () {
  local who=$1 name=storm-$1 tag=$(tag 37.)
  bundle "$WORK/$name" 64 0 10 sh -c \
    "i=0; while [ \$i -lt 150 ]; do $tag & i=\$((i+1)); done; wait"
  run_case "$who" "$name"
  local o=$WORK/$name/out.json mech peak
  mech=$(field "$o" limits.mechanism); peak=$(field "$o" limits.peakProcesses)
  if [ "$who" = root ]; then
    check "root fork storm: quota held the storm to 64 processes (peak $peak)" \
      test "$mech" = quota -a -n "$peak" -a "${peak:-999}" -le 64
    check "root fork storm: the kernel refused forks" \
      test -n "$(field "$o" limits.pidsLimitHits)"
  else
    # The kernel refuses the forks past 64, and sh gives up: no breach.
    check "unprivileged fork storm: RLIMIT_NPROC held it, no breach" \
      test "$mech" = monitor -a "$(field "$o" limits.heldBy.pids)" = rlimit \
           -a "$(field "$o" limits.breach)" = none
  fi
  sleep 0.2
  check "$who fork storm: nothing survives (${ELAPSED_MS} ms)" test "$(survivors "$tag")" = 0
}

memory () {
  local who=$1 name=mem-$1 mech
  # The build tree may sit below /tmp, which the sandbox replaces with a
  # private one: run a copy from the (granted) workspace.
  bundle "$WORK/$name" 0 300 12 "$WORK/$name/ws/limits_touch" 2048
  cp "$TOUCH" "$WORK/$name/ws/limits_touch"
  run_case "$who" "$name"
  local o=$WORK/$name/out.json
  [ "$who" = root ] && mech=quota || mech=monitor
  check "$who 2 GB under 300 MB: limit/memory by $mech in ${ELAPSED_MS} ms" \
    test "$(field "$o" outcome)" = limit -a "$(field "$o" limits.breach)" = memory \
         -a "$(field "$o" limits.mechanism)" = $mech
  check "$who memory hog never reported 2 GB touched" \
    test ! -s "$WORK/$name/stdout"
}

wall_clock () {
  local who=$1 name=wall-$1
  bundle "$WORK/$name" 0 0 2 sleep 60
  run_case "$who" "$name"
  local o=$WORK/$name/out.json
  check "$who sleep 60 under 2 s: limit/wall-clock after ${ELAPSED_MS} ms" \
    test "$(field "$o" outcome)" = limit -a "$(field "$o" limits.breach)" = wall-clock \
         -a "$ELAPSED_MS" -lt 5000
}

# A double-forked, setsid'd writer; sbx-oci is killed with SIG.  The file
# must stop growing within a second and no writer may survive.
straggler () {
  local who=$1 sig=$2 name=strag-$1-$2 tag=$(tag 0.0)
  local d=$WORK/$name
  bundle "$d" 64 0 30 sh -c \
    "(setsid sh -c 'while :; do echo x >> $d/ws/f; $tag; done' &) ; sleep 60"
  state_root "$who" "$d"
  # A simple command in the background: $! is sbx-oci itself (setpriv
  # execs it).
  if [ "$who" = root ]; then
    "$SBX_OCI" --root "$d/state" run --bundle "$d" "$name-$RUN" > /dev/null 2>&1 &
  else
    "${NOBODY[@]}" "$SBX_OCI" --root "$d/state" run --bundle "$d" "$name-$RUN" \
      > /dev/null 2>&1 &
  fi
  local pid=$!
  for _ in $(seq 50); do [ -s "$d/ws/f" ] && break; sleep 0.1; done
  local running=$(survivors "$tag")
  kill -"$sig" "$pid"; wait "$pid" 2>/dev/null
  sleep 1
  local a=$(stat -c %s "$d/ws/f" 2>/dev/null || echo 0)
  sleep 1
  local b=$(stat -c %s "$d/ws/f" 2>/dev/null || echo 0)
  check "$who straggler was writing before SIG$sig ($running writer(s))" \
    test "$a" -gt 0 -a "$running" -ge 1
  check "$who straggler stopped within 1 s of SIG$sig, no survivor" \
    test "$a" = "$b" -a "$(survivors "$tag")" = 0
  # A SIGKILLed sbx-oci cannot remove its (now empty) cgroup; the next
  # run with a quota would (kill_loop.sh checks that): do it here.
  rmdir /sys/fs/cgroup/*/sbx-oci/"$name-$RUN"+run.* 2>/dev/null
}

# Unprivileged, RLIMIT_NPROC set inside the sandbox's user namespace
# caps it: a storm of 150 forks (sleepers that stay) under a limit of 64
# never has more than 64 processes alive, counted inside at the end of
# the storm (nothing exits before: the sampler alone let all 150 run).
# The host's root with no cgroup, or under another uid: the kernel does
# not hold host uid 0 to RLIMIT_NPROC, so the outcome must not say it
# held (it said "rlimit" while 77 of 150 ran, until 2026-12-03).
nproc_storm () {
  local who=$1 name=nproc-$1 o line held
  bundle "$WORK/$name" 64 0 20 $PY -c 'import os, signal, time
kids = []
for i in range(150):
    try:
        pid = os.fork()
    except OSError:
        continue
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    kids.append(pid)
alive = sum(1 for d in os.listdir("/proc") if d.isdigit())
print("forked=%d alive=%d" % (len(kids), alive), flush=True)
for k in kids:
    os.kill(k, signal.SIGKILL)'
  run_case "$who" "$name"
  o=$WORK/$name/out.json
  line=$(grep -o 'alive=[0-9]*' "$WORK/$name/stdout")
  held=$(field "$o" limits.heldBy.pids)
  if [ "$who" = nobody ]; then
    check "unprivileged storm of 150 under 64: at most 64 alive (${line:-none})" \
      test -n "$line" -a "${line#alive=}" -le 64
    check "unprivileged storm: the outcome says rlimit held the pids limit" \
      test "$held" = rlimit
    return
  fi
  check "$who: the pids limit is said to be sampled ($held; ${line:-none})" \
    test "$held" = sampled
  check "$who: a reason says RLIMIT_NPROC may not hold" \
    grep -q 'RLIMIT_NPROC may not hold' "$o"
}

# A double-forked, setsid'd child that forks 100 sleepers only it holds
# is still in the sandbox's user namespace: RLIMIT_NPROC holds it too.
hidden_storm () {
  local name=hidden tag=$(tag 38.) alive
  bundle "$WORK/$name" 64 0 10 sh -c \
    "(setsid sh -c 'i=0; while [ \$i -lt 100 ]; do $tag & i=\$((i+1)); done; wait' &); sleep 2; ls /proc | grep -c '^[0-9]'"
  run_case nobody "$name"
  local o=$WORK/$name/out.json
  alive=$(tail -n 1 "$WORK/$name/stdout")
  check "unprivileged: a double-forked setsid storm is held to 64 ($alive alive)" \
    test -n "$alive" -a "${alive:-999}" -le 64 \
         -a "$(field "$o" limits.heldBy.pids)" = rlimit
  sleep 0.2
  check "unprivileged: nothing of the hidden storm survives" test "$(survivors "$tag")" = 0
}

# The monitor re-lists the sandbox only when a pid was handed out since
# its last look: after a quiet spell, a late storm and a late exec into a
# memory hog (same pid, no fork) must still trip their limits.
late_starters () {
  local name=late-storm tag=$(tag 39.)
  bundle "$WORK/$name" 64 0 15 sh -c \
    "sleep 1.5; i=0; while [ \$i -lt 150 ]; do $tag & i=\$((i+1)); done; wait"
  run_case nobody "$name"
  check "unprivileged: a storm after 1.5 s of quiet is held (rlimit, no breach)" \
    test "$(field "$WORK/$name/out.json" limits.heldBy.pids)" = rlimit \
         -a "$(field "$WORK/$name/out.json" limits.breach)" = none
  name=late-exec
  bundle "$WORK/$name" 0 300 15 sh -c \
    "sleep 1.5; exec $WORK/$name/ws/limits_touch 2048"
  cp "$TOUCH" "$WORK/$name/ws/limits_touch"
  run_case nobody "$name"
  check "unprivileged: an exec into a hog after quiet is found (limit/memory)" \
    test "$(field "$WORK/$name/out.json" outcome)" = limit \
         -a "$(field "$WORK/$name/out.json" limits.breach)" = memory
}

echo "1..31"
for who in root nobody; do
  storm "$who"
  memory "$who"
  wall_clock "$who"
  straggler "$who" TERM
  straggler "$who" KILL
done
nproc_storm nobody
nproc_storm root-nocg
nproc_storm mapped-root
nproc_storm nested-root
hidden_storm
late_starters
