#!/bin/bash
# A catchable signal at the wrong moment leaves nothing half-done (TAP),
# as root and as uid 65534.  Each moment is held open by strace, which
# delays one system call of sbx-oci's, so the signal lands there every
# time:
# - `start` between its "started" mark and the byte that releases the
#   sandbox: the command must still run (it was left held for good, the
#   container said to be running);
# - `run` while it writes the probe cache on a fresh state root: no
#   temporary file is left there, and the caller gets an outcome;
# - `kill KILL` between freezing a v1 cgroup and thawing it (root, with a
#   member outside the sandbox's pid namespace): the cgroup is thawed
#   (its members were left frozen, unkillable);
# - `create` while it plans and while it waits for the sandbox to be held
#   (after it claimed the id): no container and no sandbox is left;
# - `create` blocked connecting to a console socket that never accepts,
#   or waiting on a runner that hangs, and `run` waiting on such a runner
#   in its probe: it ends at once, and leaves no container;
# - `exec --detach` once it started the process: the process is ended,
#   and a process that took its pid meanwhile is not;
# - a foreground `exec` whose process ignores SIGTERM: killed after the
#   grace;
# and `create` whose warning meets a stderr nobody reads any more still
# creates (SIGPIPE ended it half-way), and one SIGTERMed while its hook
# runs ends the hook too.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
command -v strace > /dev/null || { echo "1..0 # SKIP strace not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-sigwin.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }

# bundle DIR ARG...: a busybox container running ARG..., its rootfs
# writable.
bundle () {
  local dir=$1
  shift
  busybox_bundle "$dir" sh sleep touch > /dev/null || return 1
  python3 - "$dir/config.json" "$@" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = sys.argv[2:]
c["process"]["terminal"] = False
c["root"]["readonly"] = False
json.dump(c, open(sys.argv[1], "w"))
PY
  hand_over "$dir"
}

# traced SYSCALL WHEN CMD...: CMD (an sbx-oci command line) under strace,
# in the background, its WHEN-th SYSCALL held 3 s on its way out; sets
# TRACER.  The traced sbx-oci is the tracer's only child.
traced () {
  local call=$1 when=$2
  shift 2
  $AS strace -o /dev/null -e trace="$call" \
    -e inject="$call:delay_exit=3000000:when=$when" "$@" &
  TRACER=$!
}
# signal_traced SIGNAL: SIGNAL to the traced sbx-oci once it is held (in
# a tracing stop at two looks 0.2 s apart: the other traced calls stop
# it for microseconds), however slow the build; waits, and sets RC.
signal_traced () {
  local pid= state last=
  for _ in $(seq 200); do
    pid=${pid:-$(pgrep -P "$TRACER")}
    state=$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
    [ "$state" = t ] && [ "$last" = t ] && break
    last=$state
    sleep 0.2
  done
  kill -"$1" "$pid" 2>/dev/null
  wait "$TRACER"
  RC=$?
}

start_window () {
  local b=$WORK/$MODE-start at
  bundle "$b" sh -c 'touch /tmp/ran; exec sleep 600'
  # Which openat of start's makes the mark (counted once, on another).
  sbx create --bundle "$b" sw-count-$RUN < /dev/null > /dev/null 2>&1
  $AS strace -o "$SCRATCH/count.trace" -e trace=openat \
    env -i "$TRACED_ENV" "$SBX" --root "$ROOT" start sw-count-$RUN
  at=$(grep -n '"started"' "$SCRATCH/count.trace" | head -1 | cut -d: -f1)
  sbx delete --force sw-count-$RUN
  rm -f "$b/rootfs/tmp/ran"
  check "start: its mark's openat is found ($at)" [ -n "$at" ]
  sbx create --bundle "$b" sw-start-$RUN < /dev/null > /dev/null 2>&1
  traced openat "${at:-1}" env -i "$TRACED_ENV" "$SBX" --root "$ROOT" start sw-start-$RUN
  signal_traced TERM
  for _ in $(seq 50); do [ -e "$b/rootfs/tmp/ran" ] && break; sleep 0.1; done
  check "start SIGTERMed between its mark and the release: the command runs" \
    [ -e "$b/rootfs/tmp/ran" ]
  sbx delete --force sw-start-$RUN
}

probe_window () {
  local r=$WORK/$MODE-fresh b=$WORK/$MODE-sleep left
  bundle "$b" sleep 30
  rm -rf "$r" && mkdir -m 700 "$r" && { [ -z "$AS" ] || chown 65534:65534 "$r"; }
  traced fsync 1 env -i "$TRACED_ENV" "$SBX" --root "$r" run --outcome "$SCRATCH/o.json" \
    --bundle "$b" sw-probe-$RUN
  signal_traced TERM
  left=$(ls -A "$r" | grep tmp | tr '\n' ' ')
  check "run SIGTERMed while it writes the probe cache: no temporary file left ($left)" \
    [ -z "$left" ]
  check "and it exits 143 (got $RC)" [ "$RC" -eq 143 ]
  check "and writes its outcome: signaled ($(head -c 200 "$SCRATCH/o.json" 2>&1))" \
    grep -q '"outcome":"signaled"' "$SCRATCH/o.json"
  rm -rf "$r"
}

freeze_window () {
  [ "$MODE" = root ] && [ -d /sys/fs/cgroup/freezer ] || return 0
  local b=$WORK/freeze id=sw-freeze-$RUN fz member c
  bundle "$b" sleep 600
  python3 - "$b/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"].setdefault("resources", {})["memory"] = {"limit": 64 << 20}
json.dump(c, open(sys.argv[1], "w"))
PY
  sbx create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 && sbx start "$id"
  fz=$(find /sys/fs/cgroup/freezer -maxdepth 3 -type d -name "$id" | head -1)
  check "kill: the container's v1 freezer cgroup is there ($fz)" [ -n "$fz" ]
  [ -n "$fz" ] || { sbx delete --force "$id"; return; }
  # A member outside its pid namespace, which killing pid 1 does not end.
  sleep 600 &
  member=$!
  disown "$member"
  for c in /sys/fs/cgroup/*/; do
    [ -d "$c${fz#/sys/fs/cgroup/freezer/}" ] \
      && echo "$member" > "$c${fz#/sys/fs/cgroup/freezer/}/cgroup.procs" 2>/dev/null
  done
  traced write 1 env -i "$TRACED_ENV" "$SBX" --root "$ROOT" kill "$id" KILL
  signal_traced TERM
  check "kill KILL SIGTERMed while the cgroup is frozen: it is thawed ($(cat "$fz/freezer.state" 2>&1))" \
    [ "$(cat "$fz/freezer.state" 2>/dev/null)" != FROZEN ]
  echo THAWED > "$fz/freezer.state" 2>/dev/null
  kill -KILL "$member" 2>/dev/null
  sbx delete --force "$id"
}

sigpipe_create () {
  local b=$WORK/$MODE-unknown id=sw-pipe-$RUN rc
  bundle "$b" sleep 600
  # A key sbx-oci does not read: a warning on stderr.
  python3 - "$b/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"]["personality"] = {"domain": "LINUX"}
json.dump(c, open(sys.argv[1], "w"))
PY
  rc=$(python3 - $AS env -i "$SBX" --root "$ROOT" create --bundle "$b" "$id" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=w)
os.close(w)
print(p.wait())
PY
)
  check "create with stderr a pipe nobody reads: it exits 0 (got $rc)" [ "$rc" = 0 ]
  check "and the container is created" \
    eval 'sbx state "$id" 2>/dev/null | grep -q "\"created\""'
  sbx delete --force "$id" 2> /dev/null
}

# `create` SIGTERMed while its createRuntime hook runs: the hook (and
# what it started) ends with it; it outlived create, delete --force and
# its own timeout.  And so does the container, as when the hook fails:
# it was left "created", its createRuntime hook never done.
hook_window () {
  local b=$WORK/$MODE-hook id=sw-hook-$RUN hook=$SCRATCH/hook.sh pid left
  bundle "$b" sleep 600
  printf '#!/bin/sh\ncat > /dev/null\nsleep 6%s &\necho $! > %s/hook.pid\nwait\n' \
    "$RANDOM" "$SCRATCH" > "$hook"
  chmod 755 "$hook"
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
c["hooks"] = {"createRuntime": [{"path": sys.argv[2], "timeout": 60}]}
json.dump(c, open(sys.argv[1], "w"))' "$b/config.json" "$hook"
  rm -f "$SCRATCH/hook.pid"
  $AS env -i "$SBX" --root "$ROOT" create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -s "$SCRATCH/hook.pid" ] && break; sleep 0.05; done
  kill -TERM "$pid"
  wait "$pid"
  RC=$?
  sleep 0.2
  # Gone, or a zombie its new parent has yet to reap.
  left=$(ps -o pid=,stat= -p "$(cat "$SCRATCH/hook.pid" 2>/dev/null || echo 1)" \
    | awk '$2 !~ /^Z/ {print $1}')
  check "create SIGTERMed in its hook: exits 143 (got $RC)" [ "$RC" -eq 143 ]
  check "and what its hook started is gone (${left:-none})" \
    [ -s "$SCRATCH/hook.pid" -a -z "$left" ]
  check "and no container is left ($(sbx state "$id" 2>&1 | tr -d '\n' | head -c 80))" \
    eval '! sbx state "$id" > /dev/null 2>&1' 
  [ -z "$left" ] || { ps -o pid,ppid,pgid,cmd -p "$left" | sed "s/^/# /"; kill -KILL "$left"; }
  sbx delete --force "$id" 2> /dev/null
  # Under nohup, SIGHUP is ignored: the hook runs on to its end and the
  # create succeeds (the hook was ended, and the create failed).
  printf '#!/bin/sh\ncat > /dev/null\n: > %s/hook.ran\nsleep 1\n' "$SCRATCH" > "$hook"
  rm -f "$SCRATCH/hook.ran"
  $AS nohup env -i "$SBX" --root "$ROOT" create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -e "$SCRATCH/hook.ran" ] && break; sleep 0.05; done
  kill -HUP "$pid"
  wait "$pid"
  RC=$?
  check "create under nohup sent SIGHUP in its hook: creates all the same (exit $RC)" \
    eval '[ "$RC" -eq 0 ] && sbx state "$id" 2>/dev/null | grep -q "\"created\""'
  sbx delete --force "$id" 2> /dev/null
}

# `create` SIGTERMed during its set-up, after it claimed the id and
# planned: as it makes its FIFOs (its first mknodat, with musl and glibc
# alike; glibc has no lstat call) and once it started the sandbox's
# runner (its first clone; a wait4 may come only after the record, when
# the sandbox is held at once): it exits 143 and leaves no container (the
# claimed directory stayed, "create did not finish", and the id could not
# be created again until delete --force), and no sandbox.
setup_window () {
  local b=$WORK/$MODE-setup at id left mark=6$RANDOM
  bundle "$b" sleep "$mark"
  for at in mknodat clone; do
    id=sw-setup-$at-$RUN
    traced "$at" 1 env -i "$TRACED_ENV" "$SBX" --root "$ROOT" create \
      --bundle "$b" "$id"
    signal_traced TERM
    sleep 0.2
    # The held sandbox's first process: its command line ends with the
    # command's.
    left=$(pgrep -f "sleep $mark\$" | tr '\n' ' ')
    check "create SIGTERMed at its first $at: exits 143 (got $RC)" [ "$RC" -eq 143 ]
    check "and no container is left ($(sbx state "$id" 2>&1 | tr -d '\n' | head -c 90))" \
      eval '! sbx state "$id" > /dev/null 2>&1 && ! sbx list | grep -q "^$id "'
    check "and no sandbox of it runs (${left:-none})" [ -z "$left" ]
    sbx delete --force "$id" > /dev/null 2>&1
  done
  # Under nohup SIGHUP is ignored: held, the kernel queues it all the
  # same, and it stopped the create.
  id=sw-setup-nohup-$RUN
  traced mknodat 1 nohup env -i "$TRACED_ENV" "$SBX" --root "$ROOT" create \
    --bundle "$b" "$id"
  signal_traced HUP
  check "create under nohup sent SIGHUP as it sets up: creates all the same (exit $RC)" \
    eval '[ "$RC" -eq 0 ] && sbx state "$id" 2>/dev/null | grep -q "\"created\""'
  sbx delete --force "$id" > /dev/null 2>&1
}

# listen_full SOCK: a console socket at SOCK whose listener never
# accepts, its backlog full, so that a connect to it blocks (as a stuck
# conmon's would); sets LISTENER.
listen_full () {
  rm -f "$1" "$1.full"
  python3 - "$1" <<'PY' &
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.listen(0)
held = []
while True:
    c = socket.socket(socket.AF_UNIX)
    c.setblocking(False)
    try:
        c.connect(sys.argv[1])
    except BlockingIOError:
        break
    held.append(c)
open(sys.argv[1] + ".full", "w").close()
time.sleep(120)
PY
  LISTENER=$!
  for _ in $(seq 100); do [ -e "$1.full" ] && break; sleep 0.05; done
}

# blocked_in PID WCHAN...: PID sleeps in the kernel at one of WCHAN...
# (globs), seen there twice in a row, 0.2 s apart (looked at for up to
# 10 s); sets WAITED to where it was last seen.
blocked_in () {
  local pid=$1 w at seen=0
  shift
  for _ in $(seq 50); do
    WAITED=$(cat "/proc/$pid/wchan" 2>/dev/null)
    at=no
    for w in "$@"; do case $WAITED in $w) at=yes ;; esac; done
    [ "$at" = yes ] && seen=$((seen + 1)) || seen=0
    [ "$seen" = 2 ] && return 0
    sleep 0.2
  done
  return 1
}

# stopped_soon PID [SIGNAL]: PID, sent SIGNAL (TERM), ends within 5 s.
stopped_soon () {
  kill -"${2:-TERM}" "$1"
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  return 1
}

# stop_hung PID MARK [SIGNAL]: stopped_soon PID, whose runner hangs in
# `sleep MARK`: sets ENDED (yes or no), LEFT (that runner, if it
# outlived PID's end), then ends both and sets RC (PID's status).
stop_hung () {
  stopped_soon "$1" "${3:-TERM}" && ENDED=yes || ENDED=no
  sleep 0.2
  LEFT=$(pgrep -f "^sleep $2\$" | tr '\n' ' ')
  pkill -KILL -f "^sleep $2\$"
  wait "$1"
  RC=$?
}

# `create` SIGTERMed while it connects to a console socket whose
# listener never accepts (a stuck conmon): it ends at once, exits 143
# and leaves no container.  It waited until the listener let go, as it
# holds the signals from its claim on: a caller's SIGKILL was the only
# way out.
console_create () {
  local b=$WORK/$MODE-console id=sw-console-$RUN sock=$SCRATCH/console.sock
  local pid ended seen
  bundle "$b" sleep 600
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
c["process"]["terminal"] = True
json.dump(c, open(sys.argv[1], "w"))' "$b/config.json"
  listen_full "$sock"
  $AS env -i "$SBX" --root "$ROOT" create --console-socket "$sock" \
    --bundle "$b" "$id" < /dev/null > /dev/null 2> "$SCRATCH/create.err" &
  pid=$!
  # Blocked in connect, or polling while it is asked again.
  blocked_in "$pid" unix_wait_for_peer "poll_schedule_timeout*" && seen=yes || seen=no
  check "create: blocked connecting to a console socket that never accepts ($WAITED$(head -c 200 "$SCRATCH/create.err"))" \
    [ "$seen" = yes ]
  stopped_soon "$pid" && ended=yes || ended=no
  kill "$LISTENER"
  wait "$pid"
  RC=$?
  check "create SIGTERMed as it connects to the console: ends at once (ended within 5 s: $ended, exit $RC)" \
    [ "$ended" = yes -a "$RC" -eq 143 ]
  check "and no container is left ($(sbx state "$id" 2>&1 | tr -d '\n' | head -c 80))" \
    eval '! sbx state "$id" > /dev/null 2>&1'
  sbx delete --force "$id" > /dev/null 2>&1
}

# hanging_runner FILE MARK: FILE, a runner that execs `sleep MARK` but
# for its --help (bwrap's), unless $SCRATCH/hang-probe exists.
hanging_runner () {
  printf '#!/bin/sh\n[ "$1" = --help ] && [ ! -e %s/hang-probe ] && exec %s "$@"\nexec sleep %s\n' \
    "$SCRATCH" "$(command -v bwrap)" "$2" > "$1"
  chmod 755 "$1"
}

# The same, and its runner gone, while it waits on a runner that hangs
# (--runner, trusted as named): one that never reports the sandbox's
# pid, one whose probe (its --help, asked once a state root) never
# answers, and one that never reports it where a user namespace's maps
# wait for it.
blocked_create () {
  local b=$WORK/$MODE-blocked runner=$SCRATCH/runner.sh pid seen id
  local mark=6$RANDOM
  # A console needs a devpts instance of the container's own, which only
  # root may mount here.
  [ "$MODE" = root ] && console_create
  bundle "$b" sleep 600
  hanging_runner "$runner" "$mark"
  # A user namespace whose maps sbx-oci writes (root's, of no mappings)
  # has the runner report the sandbox's pid on another channel first.
  cp "$b/config.json" "$b/plain.json"
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
c["linux"]["namespaces"].append({"type": "user"})
json.dump(c, open(sys.argv[2], "w"))' "$b/config.json" "$b/userns.json"
  for at in launch probe userns; do
    id=sw-runner-$at-$RUN
    rm -f "$SCRATCH/hang-probe"
    [ "$at" = probe ] && touch "$SCRATCH/hang-probe"
    cp "$b/plain.json" "$b/config.json"
    [ "$at" = userns ] && cp "$b/userns.json" "$b/config.json"
    rm -rf "$ROOT-$at" && mkdir "$ROOT-$at" && { [ -z "$AS" ] || chown 65534:65534 "$ROOT-$at"; }
    $AS env -i "$SBX" --root "$ROOT-$at" --runner "$runner" create --bundle "$b" "$id" \
      < /dev/null > /dev/null 2> "$SCRATCH/create.err" &
    pid=$!
    # Once the runner hangs (the probe reads a pipe before, from bwrap),
    # in a pipe's read (anon_pipe_read since Linux 6.15, pipe_read
    # before) or polling it.
    for _ in $(seq 200); do pgrep -f "^sleep $mark\$" > /dev/null && break; sleep 0.05; done
    blocked_in "$pid" "*pipe_read" "poll_schedule_timeout*" && seen=yes || seen=no
    check "create: waits on a runner that hangs in its $at ($WAITED$(head -c 200 "$SCRATCH/create.err"))" \
      [ "$seen" = yes ]
    stop_hung "$pid" "$mark"
    check "create SIGTERMed as its runner hangs in its $at: ends at once (ended within 5 s: $ENDED, exit $RC)" \
      [ "$ENDED" = yes -a "$RC" -eq 143 ]
    check "and no container is left" \
      eval '! $AS env -i "$SBX" --root "$ROOT-$at" state "$id" > /dev/null 2>&1'
    check "and its runner is gone (${LEFT:-none})" [ -z "$LEFT" ]
    rm -rf "$ROOT-$at"
  done
}

# `run` sent SIGXCPU while its probe waits on a runner that hangs:
# stopped before the command started (152, outcome "signaled" by 24, not
# by the SIGCHLD of the runner killed), the runner gone; it waited for
# good, as it holds the signals its supervision takes.
blocked_run () {
  local b=$WORK/$MODE-blocked-run runner=$SCRATCH/runner.sh r=$ROOT-run pid
  local mark=6$RANDOM
  bundle "$b" sleep 600
  hanging_runner "$runner" "$mark"
  touch "$SCRATCH/hang-probe"
  rm -rf "$r" "$SCRATCH/run.json" && mkdir "$r" && { [ -z "$AS" ] || chown 65534:65534 "$r"; }
  $AS env -i "$SBX" --root "$r" --runner "$runner" run --outcome "$SCRATCH/run.json" \
    --bundle "$b" sw-run-$RUN < /dev/null > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 200); do pgrep -f "^sleep $mark\$" > /dev/null && break; sleep 0.05; done
  stop_hung "$pid" "$mark" XCPU
  check "run sent SIGXCPU as its runner hangs in the probe: ends at once (ended within 5 s: $ENDED, exit $RC)" \
    [ "$ENDED" = yes -a "$RC" -eq 152 ]
  check "and its outcome says it was stopped by it ($(head -c 160 "$SCRATCH/run.json" 2>&1))" \
    grep -q '"outcome":"signaled","signal":24,' "$SCRATCH/run.json"
  check "and its runner is gone (${LEFT:-none})" [ -z "$LEFT" ]
  rm -rf "$r" "$SCRATCH/hang-probe"
}

# `exec --detach` SIGTERMed once it started the process, before it
# returned: it exits 143 and the process does not run on (it exited 143
# and left the process running, started for a caller told it failed).
detach_window () {
  local b=$WORK/$MODE-detach id=sw-detach-$RUN mark=7$RANDOM at left
  bundle "$b" sleep 600
  sbx create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 && sbx start "$id"
  # Which read of exec's takes the process's pid (4 bytes), counted once.
  $AS strace -o "$SCRATCH/detach.trace" -e trace=read \
    env -i "$TRACED_ENV" "$SBX" --root "$ROOT" exec --detach "$id" sleep "$mark"
  at=$(grep -nE ', 4\) += 4$' "$SCRATCH/detach.trace" | tail -1 | cut -d: -f1)
  pkill -f "^sleep $mark\$"
  check "exec --detach: its read of the pid is found ($at)" [ -n "$at" ]
  traced read "${at:-1}" env -i "$TRACED_ENV" "$SBX" --root "$ROOT" exec \
    --detach "$id" sleep "$mark"
  signal_traced TERM
  sleep 0.3
  left=$(pgrep -f "^sleep $mark\$" | tr '\n' ' ')
  check "exec --detach SIGTERMed as it started the process: exits 143 (got $RC)" \
    [ "$RC" -eq 143 ]
  check "and the process does not run on (${left:-none})" [ -z "$left" ]
  [ -z "$left" ] || pkill -f "^sleep $mark\$"
  # The same while it writes its --pid-file (it had checked before).
  rm -f "$SCRATCH/detach.pid"
  traced fsync 1 env -i "$TRACED_ENV" "$SBX" --root "$ROOT" exec \
    --detach --pid-file "$SCRATCH/detach.pid" "$id" sleep "$mark"
  signal_traced TERM
  sleep 0.3
  left=$(pgrep -f "^sleep $mark\$" | tr '\n' ' ')
  check "exec --detach SIGTERMed as it wrote its pid file: exits 143 (got $RC)" \
    [ "$RC" -eq 143 ]
  check "and the process does not run on (${left:-none}), its pid file gone" \
    [ -z "$left" -a ! -e "$SCRATCH/detach.pid" ]
  [ -z "$left" ] || pkill -f "^sleep $mark\$"
  sbx delete --force "$id"
}

# `exec --detach` SIGTERMed as it writes its pid file (held there 3 s),
# its process ended meanwhile: its pid stays its own (an unreaped child
# of exec's intermediate) until exec lets go, or, where it was freed, the
# process that took it (root: ns_last_pid) is not killed.  exec killed
# by the raw pid; its intermediate child exited at once, so the process,
# reparented to the host's reaper, was reaped and its pid freed.
reuse_window () {
  [ "$MODE" = root ] && [ -w /proc/sys/kernel/ns_last_pid ] || return 0
  local b=$WORK/$MODE-reuse id=sw-reuse-$RUN tmp pid victim= state
  bundle "$b" sleep 600
  sbx create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 && sbx start "$id"
  rm -f "$SCRATCH"/reuse.pid "$SCRATCH"/.reuse.pid.tmp.*
  traced fsync 1 env -i "$TRACED_ENV" "$SBX" --root "$ROOT" exec \
    --detach --pid-file "$SCRATCH/reuse.pid" "$id" sh -c :
  # The pid, from the pid file's temporary copy (held at its fsync).
  for _ in $(seq 200); do
    tmp=$(ls "$SCRATCH"/.reuse.pid.tmp.* 2>/dev/null | head -1)
    [ -n "$tmp" ] && [ -s "$tmp" ] && break
    sleep 0.05
  done
  pid=$(cat "$tmp" 2>/dev/null)
  for _ in $(seq 30); do [ -n "$pid" ] && [ ! -e "/proc/$pid" ] && break; sleep 0.05; done
  state=$(awk '/^State:/ {print $2}' "/proc/${pid:-0}/status" 2>/dev/null)
  if [ -n "$pid" ] && [ -z "$state" ]; then
    for _ in 1 2 3; do
      echo $((pid - 1)) > /proc/sys/kernel/ns_last_pid
      sleep 300 &
      victim=$!
      [ "$victim" = "$pid" ] && break
      kill "$victim"
      victim=
    done
  fi
  check "exec --detach: its process ended, its pid ${pid:-?} is still its own (${state:-freed}${victim:+, taken by $victim})" \
    [ "$state" = Z ]
  signal_traced TERM
  sleep 0.2
  check "exec --detach SIGTERMed as it wrote its pid file: exits 143 (got $RC)" [ "$RC" -eq 143 ]
  check "and no process that took the pid is killed" \
    eval '[ -z "$victim" ] || kill -0 "$victim" 2> /dev/null'
  [ -n "$victim" ] && kill "$victim" 2> /dev/null
  sbx delete --force "$id"
}

# A foreground `exec`'s process, ended before exec holds its pidfd, is
# not reaped until then (held at the pidfd_open): its pid cannot be
# another's by the time signals are forwarded through it.  Its
# intermediate child reaped it at once, and a SIGTERM to exec meanwhile
# went to whatever took the pid.
pidfd_window () {
  local b=$WORK/$MODE-pidfd id=sw-pidfd-$RUN exec_pid mid kids
  bundle "$b" sleep 600
  sbx create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 && sbx start "$id"
  $AS strace -o /dev/null -e trace=pidfd_open \
    -e inject=pidfd_open:delay_enter=3000000:when=1 \
    env -i "$TRACED_ENV" "$SBX" --root "$ROOT" exec "$id" sh -c 'exit 7' &
  TRACER=$!
  for _ in $(seq 100); do
    exec_pid=$(pgrep -P "$TRACER")
    mid=$(pgrep -P "${exec_pid:-1}" | head -1)
    [ -n "$mid" ] && [ "$(awk '/^State:/ {print $2}' "/proc/$exec_pid/status" 2>/dev/null)" = t ] && break
    sleep 0.1
  done
  sleep 0.5
  kids=$(ps -o stat= --ppid "${mid:-1}" 2>/dev/null | tr -d ' \n')
  check "exec: its process, ended before exec took its pidfd, is not reaped yet (${kids:-reaped})" \
    [ "${kids#Z}" != "$kids" ]
  wait "$TRACER"
  RC=$?
  check "and exec ends with its status (7, got $RC)" [ "$RC" -eq 7 ]
  sbx delete --force "$id"
}

# A foreground `exec` SIGTERMed whose process ignores SIGTERM: the
# process is killed once the grace `run` gives is over (10 s), and exec
# ends; it waited for good, and a caller's SIGKILL of it then left the
# process running in the container.  The same when the signal goes to
# exec's whole process group (Ctrl-C, a terminal's hangup, timeout(1)):
# it ended exec's intermediate child, which holds the process, and with
# it exec's wait: exec returned 143 and the process ran on, orphaned.
exec_grace () {
  local b=$WORK/$MODE-grace id=sw-grace-$RUN mark pid t0 t1 left to whom
  bundle "$b" sleep 600
  sbx create --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 && sbx start "$id"
  for to in exec group; do
    mark=8$RANDOM
    # The shell forks sleep (a command follows it), which ignores TERM too.
    setsid $AS env -i "$SBX" --root "$ROOT" exec "$id" sh -c "trap '' TERM; sleep $mark; true" \
      < /dev/null > /dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do pgrep -f "^sleep $mark\$" > /dev/null && break; sleep 0.05; done
    t0=$(date +%s)
    if [ "$to" = group ]; then
      whom="exec's process group"
      kill -TERM -- "-$(ps -o pgid= -p "$pid" | tr -d ' ')"
    else
      whom=exec
      kill -TERM "$pid"
    fi
    # Bounded: on a build without the grace it waits for good.
    for _ in $(seq 250); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    t1=$(date +%s)
    kill -KILL "$pid" 2> /dev/null
    wait "$pid"
    RC=$?
    sleep 0.2
    left=$(pgrep -f "^sleep $mark\$" | tr '\n' ' ')
    check "$whom SIGTERMed, its process ignoring it: ends after the grace, killed (exit $RC after $((t1 - t0)) s)" \
      [ "$RC" -eq 137 -a $((t1 - t0)) -ge 9 -a $((t1 - t0)) -le 20 ]
    check "and nothing it started runs on (${left:-none})" [ -z "$left" ]
    [ -z "$left" ] || pkill -f "^sleep $mark\$"
  done
  sbx delete --force "$id"
}

# `run` sent a signal it used not to take (SIGALRM), its command
# running under a memory limit: forwarded, as SIGTERM is, so the run
# ends through its clean-up, with an outcome and (as root) no cgroup
# left; it died of it, leaving both to chance.
other_signal () {
  local b=$WORK/$MODE-alrm id=sw-alrm-$MODE-$RUN pid left
  bundle "$b" sleep 600
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
c["linux"].setdefault("resources", {})["memory"] = {"limit": 64 << 20}
json.dump(c, open(sys.argv[1], "w"))' "$b/config.json"
  rm -f "$SCRATCH/alrm.json"
  $AS env -i "$SBX" --root "$ROOT" run --outcome "$SCRATCH/alrm.json" \
    --bundle "$b" "$id" < /dev/null > /dev/null 2>&1 &
  pid=$!
  # In its set-up or its command: either way it must end as asked.
  sleep 0.5
  kill -ALRM "$pid"
  wait "$pid"
  RC=$?
  check "run sent SIGALRM: exits 142 (got $RC)" [ "$RC" -eq 142 ]
  check "and writes its outcome ($(head -c 120 "$SCRATCH/alrm.json" 2>&1))" \
    grep -q '"signal":14' "$SCRATCH/alrm.json"
  left=$(find /sys/fs/cgroup -maxdepth 4 -type d -name "$id+*" 2>/dev/null | head -1)
  check "and leaves no cgroup ($left)" [ -z "$left" ]
}

suite () {
  mkdir -p "$ROOT"
  [ -n "$AS" ] && chown 65534:65534 "$ROOT"
  SCRATCH=$WORK/$MODE-scratch
  mkdir -p "$SCRATCH" && chmod 1777 "$SCRATCH"
  start_window
  probe_window
  freeze_window
  sigpipe_create
  hook_window
  setup_window
  blocked_create
  blocked_run
  detach_window
  reuse_window
  pidfd_window
  exec_grace
  other_signal
}

run_as_root_and_user suite
finish
