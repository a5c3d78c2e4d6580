#!/bin/bash
# Integration tests of `sbx-oci run` with real bubblewrap sandboxes (TAP).
#
# Run as root, the cases run once as root and once more as an unprivileged
# user (uid 65534, through setpriv) in directories that user owns, with a
# PATH whose directories that user can search; run as
# anyone else, they run once as that user.  SBX_OCI names the binary.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${AFTER_RETURN:?set AFTER_RETURN to tests/integration/after_return}"
WORK=${SBX_IT_WORK:-}
N=0

# CEILING: the operator's ceiling for the next runs (the config is then
# untrusted), or empty (the config is the operator's own).
CEILING=

sbx ()
{
  "$SBX_OCI" --root "$WORK/state" ${CEILING:+--ceiling "$CEILING"} "$@"
}

# agent MODE MOUNTS ARG...: a fresh bundle for ARG... in the workspace, run.
agent ()
{
  local b="$WORK/b$N"
  write_agent "$b" "$1" "$WS" "$2" "${@:3}"
  run_bundle "$b"
}

case_workspace_write ()
{
  agent workspace-write "" sh -c 'echo inside > inside.txt'
  tap_is "$RC" 0 "workspace-write: a write in the workspace succeeds"
  tap_is "$(cat "$WS/inside.txt" 2>/dev/null)" inside \
    "workspace-write: the file is on the host"
  agent workspace-write "" touch "/etc/sbx-it-escape-$$"
  tap_ok "workspace-write: /etc is refused" test "$RC" -ne 0 \
    -a ! -e "/etc/sbx-it-escape-$$"
  tap_has "$OUT" "Read-only file system" "workspace-write: /etc is read-only"
  agent workspace-write "" touch "$HOME/escape"
  tap_ok "workspace-write: \$HOME is refused" test "$RC" -ne 0 \
    -a ! -e "$HOME/escape"
  agent read-only "" sh -c 'echo x > ro.txt'
  tap_ok "read-only: a workspace write is refused" test "$RC" -ne 0 \
    -a ! -e "$WS/ro.txt"
  # The refusal above must be the write's, not a sandbox that could not be
  # set up (125): a workspace under /tmp ends up below the private /tmp.
  local ro_refused=no
  case $OUT in *"Read-only file system"*) [ "$RC" -ne 125 ] && ro_refused=yes ;; esac
  tap_ok "read-only: the workspace is there and the write meets a read-only file system" \
    test "$ro_refused" = yes
}

case_nested_carve_outs ()
{
  local r="$WORK/repo"
  mkdir -p "$r/vendor/cache"
  echo sbx-hidden-content > "$r/vendor/hidden.txt"
  local m
  m="$(bind_rw "$r"), $(deny "$r/vendor"), $(bind_rw "$r/vendor/cache")"
  # Under a ceiling, writable binds outside its workspaces widen the
  # policy: without the operator's approval they are refused, naming the
  # token to approve.
  printf '{"workspaces": [%s]}\n' "$(json_str "$WS")" > "$WORK/ceiling"
  CEILING="$WORK/ceiling"
  agent workspace-write "$m" true
  tap_is "$RC" 121 "ceiling: a writable bind outside the workspace is refused (121)"
  tap_has "$OUT" "add \"$r\" to the ceiling's \"approve\"" \
    "ceiling: the refusal names the token"
  printf '{"workspaces": [%s], "approve": [%s, %s]}\n' "$(json_str "$WS")" \
    "$(json_str "$r")" "$(json_str "$r/vendor/cache")" > "$WORK/ceiling"
  agent workspace-write "$m" sh -c "echo a > $r/a && echo c > $r/vendor/cache/c"
  tap_is "$RC" 0 "carve-outs: /repo and /repo/vendor/cache are writable"
  tap_is "$(cat "$r/a" "$r/vendor/cache/c" 2>/dev/null)" "a
c" "carve-outs: both writes reached the host"
  agent workspace-write "$m" sh -c "echo v > $r/vendor/v"
  tap_ok "carve-outs: /repo/vendor is not writable" test "$RC" -ne 0 \
    -a ! -e "$r/vendor/v"
  agent workspace-write "$m" cat "$r/vendor/hidden.txt"
  tap_ok "carve-outs: /repo/vendor's files are hidden" test "$RC" -ne 0
  tap_lacks "$OUT" sbx-hidden-content "carve-outs: the hidden file's content stays out"
  agent workspace-write "$m" mkdir "$r/vendor/cache/../new"
  tap_ok "carve-outs: nothing can be created in the deny" test "$RC" -ne 0
  CEILING=
}

case_protected_metadata ()
{
  mkdir -p "$WS/.git/hooks"
  echo original > "$WS/.git/config"
  agent workspace-write "" sh -c 'echo changed > .git/config'
  tap_ok "protected .git/config is not writable" test "$RC" -ne 0
  tap_is "$(cat "$WS/.git/config")" original ".git/config is unchanged"
  agent workspace-write "" sh -c \
    'mv .git .git.moved && mkdir -p .git && echo changed > .git/config'
  tap_ok ".git/config cannot be replaced by renaming .git" \
    test "$(cat "$WS/.git/config" 2>/dev/null)" = original
  agent workspace-write "" sh -c 'rm -rf .git'
  tap_ok "the protected .git cannot be removed" test -f "$WS/.git/config"
  agent workspace-write "" sh -c \
    'git init -q . 2>/dev/null || true; echo x > f && mkdir -p .git/objects/ab && echo o > .git/objects/ab/cd && echo i > .git/index'
  tap_is "$RC" 0 "git's own data (objects, index) stays writable"
  rm -rf "$WS/.git" "$WS/.git.moved"
  # A repository without a hooks directory: the sandbox made one and a
  # hook in it, which the host's next git command ran (found by review).
  mkdir -p "$WS/.git"
  echo original > "$WS/.git/config"
  agent workspace-write "" sh -c \
    'mkdir -p .git/hooks; echo "#!/bin/sh" > .git/hooks/post-checkout'
  tap_ok "a missing .git/hooks cannot be made with a hook in it" \
    test ! -e "$WS/.git/hooks/post-checkout"
  rm -rf "$WS/.git"
  # The same in a nested repository.
  mkdir -p "$WS/nested/.git"
  echo original > "$WS/nested/.git/config"
  agent workspace-write "" sh -c \
    'mkdir -p nested/.git/hooks; echo "#!/bin/sh" > nested/.git/hooks/post-checkout'
  tap_ok "a nested repository's missing hooks cannot be made" \
    test ! -e "$WS/nested/.git/hooks/post-checkout"
  rm -rf "$WS/nested"
}

case_exit_status ()
{
  agent workspace-write "" sh -c 'exit 3'
  tap_is "$RC" 3 "exit 3 is passed through"
  tap_has "$OUTCOME" '"outcome":"exited"' "outcome: exited"
  tap_has "$OUTCOME" '"exitCode":3' "outcome: exitCode 3"
  tap_has "$OUTCOME" '"wallTimeMs":' "outcome: wallTimeMs"
  tap_has "$OUTCOME" '"mode":"workspace-write"' "outcome: enforcement mode"
  tap_has "$OUTCOME" '"networkReach":"deny"' "outcome: network reach"
  tap_has "$OUTCOME" '"level":"' "outcome: enforcement level"
  agent workspace-write "" sh -c 'kill -TERM $$'
  tap_is "$RC" 143 "a SIGTERM death exits 143"
  tap_has "$OUTCOME" '"outcome":"signaled"' "outcome: signaled"
  tap_has "$OUTCOME" '"signal":' "outcome: the signal"
  agent workspace-write "" sbx-it-no-such-command
  tap_is "$RC" 127 "a missing command exits 127"
  tap_has "$OUT" 'executable file not found in $PATH' \
    "a missing command is named as not found"
}

# A state root the sandbox may write (inside its workspace) is refused:
# the sandbox could rewrite a container's kept policy or the probe cache
# that later runs trust.
case_state_root_in_workspace ()
{
  local b="$WORK/b-sr"
  write_agent "$b" workspace-write "$WS" "" touch "$WS/sr-ran"
  OUT=$("$SBX_OCI" --root "$WS/.sbx-state" run --bundle "$b" sr-1 2>&1)
  RC=$?
  tap_is "$RC" 121 "a state root inside the workspace is refused (121)"
  tap_has "$OUT" "$WS/.sbx-state" "the refusal names the state root"
  tap_ok "the refused run ran nothing" test ! -e "$WS/sr-ran"
  rm -rf "$WS/.sbx-state"
  # danger-full-access gives the whole host; the state root is no exception.
  write_agent "$b" danger-full-access "$WS" "" true
  OUT=$("$SBX_OCI" --root "$WS/.sbx-state" run --bundle "$b" sr-3 2>&1)
  tap_is "$?" 0 "danger-full-access: a state root in the workspace is the operator's choice${OUT:+ ($OUT)}"
  rm -rf "$WS/.sbx-state"
  # The other way round: a workspace inside the state root (the second
  # review rewrote a container's state.json from it).
  mkdir -p "$WORK/state/ws-in-root"
  write_agent "$b" workspace-write "$WORK/state/ws-in-root" "" true
  OUT=$(sbx run --bundle "$b" sr-2 2>&1)
  tap_is "$?" 121 "a workspace inside the state root is refused (121)${OUT:+ ($OUT)}"
  tap_has "$OUT" "lies in the state root" "the refusal says it is the state root"
  rm -rf "$WORK/state/ws-in-root"
  # A bind source that leads into the state root through links whose
  # expansion outgrows PATH_MAX: the kernel follows it, a libc's realpath
  # (musl's) gives up.  The check must not give up with it (the review
  # of the musl build wrote into the state root this way).
  local dots
  dots=$(printf './%.0s' $(seq 1 1500))
  mkdir -p "$WORK/l"
  ln -sfn "$WORK/state/$dots" "$WORK/l/L2"
  ln -sfn "L2/$dots" "$WORK/l/cache"
  mkdir -p "$WS/cache"
  agent workspace-write "{\"destination\": \"$WS/cache\", \"type\": \"bind\", \"source\": \"$WORK/l/cache\", \"options\": [\"rbind\", \"rw\"]}" \
    touch "$WS/cache/sr-pwned"
  tap_is "$RC" 121 "a bind source that reaches the state root through long links is refused (121)${OUT:+ ($OUT)}"
  tap_has "$OUT" "the state root" "  for the state root"
  tap_ok "nothing was written in the state root" test ! -e "$WORK/state/sr-pwned"
  rm -rf "$WORK/l" "$WORK/state/sr-pwned" "$WS/cache"
}

# A bind source reached through /proc/PID/root: another mount namespace's
# file, whose path text names, here, the host's file below that
# namespace's mount.  Settling the source by its text would bind the
# wrong file (review of 3c7f21a): it is refused.  Root only (the other
# mount namespace).
case_foreign_namespace_source ()
{
  if [ "$(id -u)" != 0 ]; then
    tap_skip "a bind source in another mount namespace" "root only"
    return
  fi
  local m="$WORK/fns" pid
  mkdir -p "$m/data" "$WS/fns"
  echo host-underlying > "$m/data/who"
  unshare -m --propagation private sh -c \
    "mount -t tmpfs t '$m' && mkdir '$m/data' && echo other-ns > '$m/data/who' && exec sleep 30" &
  pid=$!
  for _ in $(seq 50); do
    [ "$(cat "/proc/$pid/root$m/data/who" 2>/dev/null)" = other-ns ] && break
    sleep 0.05
  done
  agent workspace-write \
    "{\"destination\": \"$WS/fns\", \"type\": \"bind\", \"source\": \"/proc/$pid/root$m/data\", \"options\": [\"rbind\", \"rw\"]}" \
    sh -c "cat $WS/fns/who; echo x > $WS/fns/written"
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  tap_is "$RC" 121 "a bind source in another mount namespace is refused (121)${OUT:+ ($OUT)}"
  tap_ok "  and the host's file below that namespace's mount is untouched" \
    test ! -e "$m/data/written"
  rm -rf "$m" "$WS/fns"
}

case_setup_failure ()
{
  agent workspace-write "$(bind_rw "$WORK/vanished")" true
  tap_is "$RC" 121 "a mount source that does not exist: refused, exit 121"
  tap_has "$OUT" "$WORK/vanished does not exist" "the missing source is named"
  tap_has "$OUTCOME" '"outcome":"refused"' "outcome: refused"
  tap_has "$OUTCOME" '"refusedFields":["mounts[0].source"]' "outcome: refusedFields names mounts[0].source"
  # A directory onto a file: only bubblewrap finds out, while setting up.
  touch "$WS/a-file"
  agent workspace-write \
    "{\"destination\": \"$WS/a-file\", \"type\": \"bind\", \"source\": \"$WORK/repo\", \"options\": [\"rbind\"]}" true
  tap_is "$RC" 125 "bubblewrap's own setup failure: exit 125"
  tap_has "$OUT" "bwrap: " "bubblewrap's message is shown"
  tap_has "$OUTCOME" '"outcome":"sandbox-failure"' \
    "outcome: bubblewrap's failure is a sandbox-failure"
  tap_lacks "$OUT" "setting it up again" \
    "bubblewrap's own setup failure, the host at rest: not made again"
}

# Issue 2 point 5: fds the caller holds open reach nothing in the sandbox.
case_inherited_fds ()
{
  local d="$WORK/fds"
  mkdir -p "$d"
  exec 7> "$d/seven" 20> "$d/twenty" 251> "$d/two-fifty-one"
  agent workspace-write "" bash -c \
    'for fd in 7 20 251; do eval "echo x >&$fd" 2>/dev/null && echo "wrote $fd"; done; ls /proc/self/fd | tr "\n" " "'
  exec 7>&- 20>&- 251>&-
  tap_lacks "$OUT" wrote "fds 7, 20 and 251 are closed in the sandbox"
  tap_ok "the files behind fds 7, 20 and 251 stay empty" \
    test ! -s "$d/seven" -a ! -s "$d/twenty" -a ! -s "$d/two-fifty-one"
  tap_is "$OUT" "0 1 2 3 " "the sandbox has stdio and ls's own fd only"
}

# Arguments beyond what the Landlock helper reads from a descriptor (1
# MiB: the runner started before the plan, runtime/linux/bwrap/prestart.h),
# though within bwrap's own 9,000: run the ordinary way, every one reaches
# the command.
case_long_arguments ()
{
  local b="$WORK/long-args"
  write_agent "$b" workspace-write "$WS" "" sh -c 'echo "count $# last ${8000}"' sh
  python3 - "$b/config.json" <<'PY'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
c["process"]["args"] += ["x" * 140 + str(i) for i in range(1, 8001)]
json.dump(c, open(p, "w"))
PY
  run_bundle "$b"
  tap_is "$RC" 0 "1.1 MB of arguments: the run succeeds"
  tap_is "$OUT" "count 8000 last $(printf 'x%.0s' $(seq 140))8000" \
    "1.1 MB of arguments: all reach the command"
}

# An environment larger than an unprivileged caller's pipe may be made
# (1 MiB, /proc/sys/fs/pipe-max-size), which bwrap started before the plan
# would read its options on: run the ordinary way, every byte arrives.
case_large_environment ()
{
  local b="$WORK/large-env"
  write_agent "$b" workspace-write "$WS" "" sh -c 'echo "${#V0} ${#V9}"'
  python3 - "$b/config.json" <<'PY'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
c["process"]["env"] = ["PATH=/usr/bin:/bin"] + ["V%d=%s" % (i, "z" * 120000) for i in range(10)]
json.dump(c, open(p, "w"))
PY
  run_bundle "$b"
  tap_is "$RC:$OUT" "0:120000 120000" "1.2 MB of environment: the run succeeds and all of it arrives"
}

case_environment ()
{
  export GITHUB_TOKEN=sbx-it-token
  agent workspace-write "" env
  unset GITHUB_TOKEN
  tap_lacks "$OUT" GITHUB_TOKEN "GITHUB_TOKEN does not reach the sandbox"
  tap_has "$OUT" "SBX_OCI_SANDBOX=" "SBX_OCI_SANDBOX is set"
  tap_has "$OUT" "SBX_OCI_SANDBOX_MODE=workspace-write" \
    "SBX_OCI_SANDBOX_MODE names the mode"
}

case_spec_runs_unchanged ()
{
  local b="$WORK/spec-bundle"
  mkdir -p "$b"
  (cd "$b" && "$SBX_OCI" spec --agent --workspace "$WS")
  tap_is "$?" 0 "spec --agent writes a config"
  run_bundle "$b"
  tap_is "$RC" 0 "spec --agent's config runs unchanged"
  tap_has "$OUT" "$WS" "it runs in the workspace"
}

case_sigterm_foreground ()
{
  local mark="sbx-it-mark-$$-$RANDOM"
  write_agent "$WORK/sleep" workspace-write "$WS" "" \
    sh -c "sleep 30; : $mark"
  N=$((N + 1))
  # The binary itself, not the sbx function: $! must be sbx-oci's pid.
  "$SBX_OCI" --root "$WORK/state" run --bundle "$WORK/sleep" "it-$N" \
    > /dev/null 2>&1 &
  local pid=$! i=0
  while ! has_process "$mark" && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  tap_ok "the sandboxed sleep started" has_process "$mark"
  local t0=$SECONDS
  kill -TERM "$pid"
  wait "$pid"
  RC=$?
  tap_ok "SIGTERM ends a foreground run quickly" test $((SECONDS - t0)) -lt 10
  tap_is "$RC" 143 "the run exits 143"
  sleep 0.2
  tap_ok "the sandbox's processes are gone" no_process "$mark"
  # A command that ignores SIGTERM is killed after the grace (10 s), as
  # `docker stop` does: a caller that asked for a stop gets one.
  mark="sbx-it-mark-$$-$RANDOM"
  write_agent "$WORK/deaf" workspace-write "$WS" "" \
    sh -c "trap '' TERM; sleep 60; : $mark"
  N=$((N + 1))
  "$SBX_OCI" --root "$WORK/state" run --bundle "$WORK/deaf" "it-$N" \
    > /dev/null 2>&1 &
  pid=$! i=0
  # The sandbox's own shell, not a runner whose argv names it.
  while ! has_process "^sh -c .*$mark" && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  t0=$SECONDS
  kill -TERM "$pid"
  wait "$pid"
  RC=$?
  tap_ok "a command deaf to SIGTERM is killed after the grace ($((SECONDS - t0)) s)" \
    test $((SECONDS - t0)) -ge 9 -a $((SECONDS - t0)) -lt 30
  tap_is "$RC" 137 "and the run exits 137 (SIGKILL)"
  sleep 0.2
  tap_ok "its processes are gone" no_process "$mark"
}

# Job control (a shell's Ctrl-Z, `bg`, `fg`): SIGTSTP, SIGTTIN and SIGTTOU
# stopped `run` itself by default while its sandbox ran on unsupervised
# (no sampled limit, no wall clock checked); runc forwards them, and
# SIGCONT, to the container's process.  The command here takes them
# itself: the kernel drops a stop signal whose default action would stop
# a process of an orphaned process group, which the sandbox's are.
case_job_control ()
{
  local mark="sbx-it-mark-$$-$RANDOM"
  write_agent "$WORK/tick" workspace-write "$WS" "" \
    sh -c "trap 'echo TSTP >> got' TSTP; trap 'echo CONT >> got' CONT
           while :; do echo x >> ticks; sleep 0.05; done; : $mark"
  N=$((N + 1))
  rm -f "$WS/ticks" "$WS/got"
  # A job of its own, as a shell's: a stop signal to a process group
  # without a parent in its session (an orphaned one) is dropped.
  set -m
  "$SBX_OCI" --root "$WORK/state" run --bundle "$WORK/tick" "it-$N" \
    > /dev/null 2>&1 &
  local pid=$! i=0
  set +m
  while [ ! -s "$WS/ticks" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -TSTP "$pid"
  sleep 0.3
  local runtime_state before
  runtime_state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
  tap_ok "SIGTSTP does not stop run itself (state '$runtime_state')" \
    test "$runtime_state" != T
  before=$(wc -l < "$WS/ticks")
  sleep 0.3
  tap_ok "and its command goes on ($(wc -l < "$WS/ticks") ticks, $before before)" \
    test "$(wc -l < "$WS/ticks")" -gt "$before"
  kill -CONT "$pid"
  sleep 0.3
  tap_is "$(tr '\n' ' ' < "$WS/got" 2>/dev/null)" "TSTP CONT " \
    "SIGTSTP and SIGCONT reach the command"
  kill -TERM "$pid"
  kill -CONT "$pid" 2> /dev/null
  wait "$pid"
  RC=$?
  tap_is "$RC" 143 "SIGTERM still ends it (exit 143)"
  sleep 0.2
  tap_ok "its processes are gone" no_process "$mark"
}

has_process ()
{
  pgrep -f "$1" > /dev/null
}

no_process ()
{
  ! pgrep -f "$1" > /dev/null
}

case_alias_masking ()
{
  local outside="$WORK/outside"
  mkdir -p "$outside"
  echo original > "$outside/secret"
  ln -f "$outside/secret" "$WS/alias"
  agent workspace-write "" sh -c 'echo changed > alias'
  tap_ok "alias: a hard link to a file outside is not writable" \
    test "$RC" -ne 0
  tap_is "$(cat "$outside/secret")" original \
    "alias: the file outside is unchanged"
  SBX_EXTRA='"aliasMasking": {"maxEntries": 1}'
  agent workspace-write "" true
  SBX_EXTRA=
  tap_has "$OUTCOME" "alias walk stopped at its bound" \
    "alias: a walk cut short by its bound is reported"
  rm -f "$WS/alias"
}

case_network ()
{
  cat > "$WS/net.py" <<'EOF'
import socket
try:
    socket.socket(socket.AF_INET).connect(("127.0.0.1", 9))
    print("connected")
except OSError as e:
    print("errno", e.errno)
EOF
  agent workspace-write "" python3 net.py
  tap_has "$OUT" "errno 97" "network deny: an IP socket cannot even be made"
  SBX_NETWORK=loopback
  agent workspace-write "" python3 net.py
  SBX_NETWORK=
  tap_has "$OUT" "errno 111" \
    "network loopback: the sandbox's own loopback answers (refused)"
  tap_has "$OUTCOME" '"networkReach":"loopback"' \
    "network loopback: the outcome says so"
  rm -f "$WS/net.py"
}

# process.env is the command's, never the runner's: bwrap runs on the host
# before any namespace, and its loader would act on LD_* (an LD_PRELOAD of
# a library in the workspace, LD_DEBUG_OUTPUT writing outside the grants).
case_runner_environment ()
{
  local out="$WORK/ld-outside"
  mkdir -p "$out"
  PROCESS_EXTRA="\"env\": [\"LD_DEBUG=files\", \"LD_DEBUG_OUTPUT=$out/ld\", \"SBX_IT_MARK=in cmd\"]" \
    agent workspace-write "" sh -c 'echo "mark=$SBX_IT_MARK debug=$LD_DEBUG"'
  tap_has "$OUT" "mark=in cmd debug=files" \
    "environment: process.env reaches the command, spaces and all"
  tap_is "$(ls "$out" | wc -l)" 0 \
    "environment: the runner's loader never saw LD_DEBUG_OUTPUT (nothing written outside)"
}

case_rlimits_umask ()
{
  PROCESS_EXTRA='"rlimits": [{"type": "RLIMIT_NOFILE", "soft": 77, "hard": 77}]'
  agent workspace-write "" sh -c 'ulimit -n'
  tap_is "$OUT" 77 "rlimits: RLIMIT_NOFILE is visible inside"
  if [ "$(id -u)" != 0 ]; then
    PROCESS_EXTRA="\"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"soft\": 77, \"hard\": $(( $(ulimit -Hn) + 1 ))}]"
    agent workspace-write "" true
    tap_is "$RC" 125 "rlimits: raising a hard limit unprivileged is refused"
    tap_has "$OUT" "process.rlimits[0]: cannot set RLIMIT_NOFILE" \
      "rlimits: ... naming the field"
  fi
  PROCESS_EXTRA=
}

case_hardened_defaults ()
{
  local home="$WORK/home"
  mkdir -p "$home/.ssh"
  echo sbx-secret-key > "$home/.ssh/id_sbx"
  echo sbx-secret-token > "$home/.npmrc"
  HOME="$home" agent workspace-write "" cat "$home/.ssh/id_sbx"
  tap_ok "hardened: ~/.ssh is unreadable" test "$RC" -ne 0
  tap_lacks "$OUT" sbx-secret-key "hardened: the key stays out"
  HOME="$home" agent workspace-write "" cat "$home/.npmrc"
  tap_lacks "$OUT" sbx-secret-token "hardened: ~/.npmrc reads as empty"
  # The host's own secrets: a root caller's sandbox has no capability,
  # but it owns every root-owned file (a review read /etc/shadow); the
  # outcome says what stays readable.
  if [ "$(id -u)" = 0 ]; then
    agent workspace-write "" sh -c 'head -c 16 /etc/shadow | wc -c'
    tap_is "$(printf '%s\n' "$OUT" | tail -n 1)" 0 \
      "hardened: /etc/shadow reads as empty to a root caller's sandbox"
    tap_has "$OUTCOME" "runs as the host's root" \
      "hardened: the outcome says a root caller's sandbox owns root's files"
  fi
  # An SSH agent's socket: hidden, and its variable dropped.
  local sock="$WORK/agent.sock"
  python3 -c 'import socket,sys,time
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); time.sleep(20)' \
    "$sock" &
  local listener=$!
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S "$sock" ] && break; sleep 0.1; done
  cat > "$WS/conn.py" <<'EOF'
import os, socket, sys
print("env:", os.environ.get("SSH_AUTH_SOCK"))
try:
    socket.socket(socket.AF_UNIX).connect(sys.argv[1])
    print("connected")
except OSError as e:
    print("refused", e.errno)
EOF
  SBX_NETWORK=loopback SSH_AUTH_SOCK="$sock" HOME="$home" \
    agent workspace-write "" python3 conn.py "$sock"
  tap_has "$OUT" "env: None" "hardened: SSH_AUTH_SOCK is not passed"
  tap_has "$OUT" "refused" "hardened: the SSH agent's socket cannot be reached"
  kill "$listener" 2>/dev/null
  wait "$listener" 2>/dev/null
  rm -f "$WS/conn.py"
  # A private /tmp, and a TMPDIR that works.
  agent workspace-write "" sh -c \
    'f=$(mktemp) && echo ok > "$f" && cat "$f" && echo "$f" > tmpname'
  tap_is "$RC" 0 "hardened: mktemp works in the sandbox"
  tap_ok "hardened: its file is not in the host's /tmp" \
    test ! -e "$(cat "$WS/tmpname" 2>/dev/null)"
  rm -f "$WS/tmpname"
}

case_git_commit_and_no_litter ()
{
  if ! command -v git > /dev/null; then
    tap_skip "git: a commit works with .git/config and hooks protected" \
      "git not installed"
    return 0
  fi
  git -C "$WS" init -q 2>/dev/null
  local before after
  before=$(cd "$WS" && find . -path ./.git -prune -o -print | sort)
  agent workspace-write "" sh -c 'echo x > file && git add file &&
    git -c user.name=sbx -c user.email=sbx@example.invalid commit -qm t &&
    git log --oneline | wc -l'
  tap_is "$OUT" 1 "git: a commit works with .git/config and hooks protected"
  after=$(cd "$WS" && find . -path ./.git -prune -o -print | grep -v '^./file$' | sort)
  tap_is "$after" "$before" "no litter: nothing new in the workspace"
  rm -rf "$WS/.git" "$WS/file"
}

case_check_and_probe ()
{
  local out
  out=$(sbx check --format json 2>&1)
  tap_ok "check: the JSON report parses" python3 -c \
    'import json,sys; r=json.loads(sys.argv[1]); assert any(c["name"]=="runner" for c in r["checks"])' "$out"
  tap_has "$out" "bubblewrap >= 0.12.0" "check: an old runner comes with its fix"
  out=$(sbx check 2>&1)
  if [ "$(id -u)" = 0 ]; then
    tap_has "$out" "kernel quotas" "check: root gets kernel quotas"
  else
    tap_has "$out" "delegated cgroup v2" "check: unprivileged, the quota gap names its fix"
  fi
  out=$(sbx run --preserve-fds 3x --bundle "$WORK" x 2>&1)
  tap_has "$out" '--preserve-fds: expected a number from 0 to 1024, not "3x"' \
    "a malformed option value is refused, naming it"
  local b="$WORK/b$N"
  agent workspace-write "" true
  tap_ok "probe: the answer is cached in the state root" \
    test -s "$WORK/state/+probe.cache"
  # uid 0 in a user namespace of its own shares root's state root, but
  # not root's answer: it probes for itself and the key says who asked.
  if [ "$(id -u)" = 0 ]; then
    local key_root key_userns
    key_root=$(head -n 1 "$WORK/state/+probe.cache")
    unshare -Ur "$SBX_OCI" --root "$WORK/state" run --bundle "$b" ur-$N > /dev/null 2>&1
    key_userns=$(head -n 1 "$WORK/state/+probe.cache")
    tap_ok "probe: root's cached answer does not serve uid 0 in a user namespace" \
      test -n "$key_root" -a "$key_root" != "$key_userns"
    agent workspace-write "" true
  fi
  out=$(sbx check --bundle "$b" 2>&1)
  tap_has "$out" "this bundle: enforcement" \
    "check --bundle: the bundle's enforcement follows the host's checks"
  if command -v strace > /dev/null; then
    strace -f -qq -e trace=execve -o "$WORK/strace.out" \
      "$SBX_OCI" --root "$WORK/state" run --bundle "$b" probe-$N > /dev/null 2>&1
    tap_is "$(grep -c 'execve("/usr/bin/bwrap"' "$WORK/strace.out")" 1 \
      "probe: a cached run launches bwrap once, for the sandbox itself"
    strace -f -qq -e trace=openat -o "$WORK/strace.out" \
      "$SBX_OCI" --root "$WORK/state" check --bundle "$b" > /dev/null 2>&1
    # Opened relative to the state root's fd: its name alone.
    tap_is "$(grep -c '"+probe.cache"' "$WORK/strace.out")" 1 \
      "probe: check --bundle reads the cache once"
    # A named runner is never test-run, but its --help (which options it
    # takes) is read once and cached like the probe.
    "$SBX_OCI" --root "$WORK/state" --runner /usr/bin/bwrap run --bundle "$b" \
      named-$N > /dev/null 2>&1
    strace -f -qq -e trace=execve -o "$WORK/strace.out" \
      "$SBX_OCI" --root "$WORK/state" --runner /usr/bin/bwrap run \
      --bundle "$b" named2-$N > /dev/null 2>&1
    tap_is "$(grep -c 'execve("/usr/bin/bwrap"' "$WORK/strace.out")" 1 \
      "probe: a named runner's --help is cached too"
  else
    tap_skip "probe: a cached run launches bwrap once" "strace not installed"
    tap_skip "probe: check --bundle reads the cache once" "strace not installed"
    tap_skip "probe: a named runner's --help is cached too" "strace not installed"
  fi
}

# The README's first command runs this example: keep it working (root: the
# example's workspace is in the source tree).
case_bundled_example ()
{
  [ "$(id -u)" = 0 ] || return 0
  local ex="$HERE/../../contrib/examples/agent" out
  out=$(SBX_OCI="$SBX_OCI" sh "$ex/run.sh" 2>&1)
  tap_has "$out" "refused outside the workspace" \
    "example: the command is refused outside its workspace"
  tap_is "$(cat "$ex/workspace/result.txt" 2>/dev/null)" ok \
    "example: and its write in the workspace landed"
  rm -f "$ex/workspace/result.txt"
}

# --dry-run prints a command that reproduces the run: its output, run by
# a shell, writes in the workspace, is refused outside it, and (with
# --seccomp-dir) loads the same seccomp programs, so IP sockets fail.
case_dry_run_reproduces ()
{
  local b="$WORK/dry" d="$WORK/dry-seccomp" out
  write_agent "$b" workspace-write "$WS" "" sh -c \
    "echo dry > dry.txt; touch /etc/sbx-dry-$$; python3 -c 'import socket; socket.socket()'"
  mkdir -p "$d"
  sbx run --dry-run --seccomp-dir "$d" --bundle "$b" > "$WORK/dry.sh" 2>&1
  tap_is "$?" 0 "dry run: prints the command"
  out=$(sh "$WORK/dry.sh" 2>&1)
  tap_is "$(cat "$WS/dry.txt" 2>/dev/null)" dry \
    "dry run: its command writes in the workspace"
  tap_ok "dry run: and is refused outside it" test ! -e "/etc/sbx-dry-$$"
  tap_has "$out" "Address family not supported" \
    "dry run: --seccomp-dir reproduces the network filter"
  rm -f "$WS/dry.txt"
}

# What a sandbox may write reaches the operator's reports: a workspace's
# name, and its .git/config, whose settings the reasons quote.  A newline
# there must not start a line of the dry run (run by a shell, it would be
# a command on the host), nor a terminal escape reach the terminal raw, in
# the dry run or in check's report.  The dry run still reproduces the run.
case_dry_run_hostile_names ()
{
  local ws="$WORK/ws-hostile" b="$WORK/dry-hostile" out rc
  local marker="$WORK/dry-hostile-ran" d="$WORK/dry-hostile-seccomp"
  # A name the sandbox made (a nested repository's, which the plan pins)
  # reaches the dry run's bwrap arguments.
  mkdir -p "$ws/.git" "$ws/n-"$'\033'"[2J/.git" "$d"
  printf '[core]\n\thooksPath = "%s/h\\ntouch %s #"\n' "$ws" "$marker" \
    > "$ws/.git/config"
  write_agent "$b" workspace-write "$ws" "" sh -c 'echo dry > dry.txt'
  sbx run --dry-run --seccomp-dir "$d" --bundle "$b" > "$WORK/dry-hostile.sh" 2>&1
  tap_is "$?" 0 "hostile names: the dry run prints the command"
  out=$(cat "$WORK/dry-hostile.sh")
  tap_has "$out" 'names core.hooksPath' "hostile names: the reason quotes the setting"
  tap_lacks "$out" $'\033' "hostile names: no raw terminal escape in the dry run"
  sh "$WORK/dry-hostile.sh" > /dev/null 2>&1
  tap_ok "hostile names: no line of the dry run comes from the config" \
    test ! -e "$marker"
  tap_is "$(cat "$ws/dry.txt" 2>/dev/null)" dry \
    "hostile names: the dry run still writes in that workspace"
  # An environment name that begins with "-" would be an option of
  # env(1), which runs the dry run: -S makes it run a command of its own.
  PROCESS_EXTRA='"env": ["-Ssh -c \"touch '"$marker"'\" #=x", "PATH=/usr/bin:/bin"]' \
    write_agent "$b" workspace-write "$ws" "" sh -c 'echo env-ok > env.txt'
  env -i "$SBX_OCI" --root "$WORK/state" run --dry-run --seccomp-dir "$d" \
    --bundle "$b" > "$WORK/dry-hostile-env.sh" 2>&1
  sh "$WORK/dry-hostile-env.sh" > /dev/null 2>&1
  # Both: nothing of the name ran, and the sandbox's command did (a dry
  # run that failed early would leave no marker either).
  tap_ok "hostile names: an environment name is never an option of env" \
    test ! -e "$marker" -a "$(cat "$ws/env.txt" 2>/dev/null)" = env-ok
  out=$(sbx check --bundle "$b" 2>&1)
  tap_has "$out" 'names core.hooksPath' "hostile names: check reports the setting"
  tap_lacks "$out" $'\033' "hostile names: no raw terminal escape in check's report"
  # A path the config names is refused with a control character in it:
  # bubblewrap's own message about a cwd it cannot enter printed it raw.
  write_agent "$b" workspace-write "$ws" "" true
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
c["process"]["cwd"] = "/no-such/\x1b[7m"; json.dump(c, open(sys.argv[1], "w"))' \
    "$b/config.json"
  out=$(sbx run --bundle "$b" hostile-cwd 2>&1)
  rc=$?
  tap_is "$rc" 121 "hostile names: a cwd with an escape in it is refused"
  tap_has "$out" "process.cwd: a control character is not allowed in a path" \
    "hostile names: the refusal names the field"
  tap_lacks "$out" $'\033' "hostile names: no raw terminal escape on stderr"
  rm -rf "$ws" "$marker"
}

# Options runc's run takes that the foreground run cannot honour are
# refused, not ignored: a caller would wait for a pid file for ever.
case_refused_options ()
{
  local out rc
  out=$(sbx run --pid-file "$WORK/pid" --bundle "$WORK/dry" refused 2>&1)
  rc=$?
  tap_ok "run --pid-file: refused (rc $rc)" test "$rc" -ne 0 -a ! -e "$WORK/pid"
  tap_has "$out" "run --pid-file: not supported" "run --pid-file: says why"
  out=$(sbx run --console-socket "$WORK/sock" --bundle "$WORK/dry" refused 2>&1)
  tap_has "$out" "run --console-socket: run passes its own terminal" \
    "run --console-socket: refused, saying why"
}

# A writer the command leaves behind, double-forked and setsid'd inside
# the sandbox: gone by the time run returns (after_return.c takes the
# file's size the moment run is reaped, then 100 ms later).  The kernel
# kills it within microseconds of bwrap's exit (--die-with-parent kills
# the init, the init's death the namespace), so this guards that chain
# and the sweep together, not the sweep alone.
case_no_survivors ()
{
  local b="$WORK/survivor" tag="sbx-it-survivor-$$-$N"
  write_agent "$b" workspace-write "$WS" "" sh -c \
    "(setsid sh -c 'while :; do echo $tag >> left.txt; done' &); sleep 0.2"
  local sizes rc left
  sizes=$("$AFTER_RETURN" "$WS/left.txt" "$SBX_OCI" --root "$WORK/state" \
    run --bundle "$b" survivor 2> /dev/null)
  rc=$?
  left=$(pgrep -f "$tag" | wc -l)
  tap_ok "no survivor: the writer was writing (${sizes%% *} bytes)" \
    test "${sizes%% *}" -gt 0 2> /dev/null
  tap_is "$rc" 0 "no survivor: nothing is written after run returns ($sizes)"
  tap_is "$left" 0 "no survivor: none of its processes is left"
  rm -f "$WS/left.txt"
}

# A uid 0 outside the initial user namespace (rootless podman, LXD) holds
# every capability there; none of them may reach the sandbox, whatever
# the config asks for.
case_userns_root ()
{
  local b="$WORK/userns"
  PROCESS_EXTRA='"capabilities": {"bounding": ["CAP_CHOWN"], "effective": ["CAP_CHOWN"], "permitted": ["CAP_CHOWN"]}' \
    write_agent "$b" workspace-write "$WS" "" grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status
  sed -i 's/"user": {"uid": [0-9]*, "gid": [0-9]*}/"user": {"uid": 0, "gid": 0}/' "$b/config.json"
  local out
  out=$(unshare -Ur "$SBX_OCI" --root "$WORK/state-userns" run --bundle "$b" userns 2>&1)
  tap_ok "uid 0 in a user namespace: the sandbox ran ($(echo $out))" \
    test "$(grep -c '^Cap' <<<"$out")" -eq 3
  local held
  held=$(grep -E '^Cap(Eff|Prm|Bnd):' <<<"$out" | grep -cv '[[:space:]]0*$')
  tap_is "$held" 0 "uid 0 in a user namespace: no capability reaches the sandbox"
}

# Host-wide sysctls stay out of reach, even of a root sandbox: its own
# value written back to vm.swappiness meets a read-only file system (a
# writable /proc/sys would let it set kernel.core_pattern, a program the
# host runs as root).
case_proc_sys_readonly ()
{
  agent workspace-write "" sh -c \
    'v=$(cat /proc/sys/vm/swappiness) && echo "$v" > /proc/sys/vm/swappiness'
  tap_ok "/proc/sys: a write is refused ($(echo $OUT))" test "$RC" -ne 0
  if [ "$(id -u)" = 0 ]; then
    tap_has "$OUT" "Read-only file system" "/proc/sys: read-only, as root too"
  fi
  agent workspace-write "" sh -c 'echo x > /proc/sysrq-trigger'
  tap_ok "/proc/sysrq-trigger: a write is refused" test "$RC" -ne 0
}

# A runner whose --help lists no --bind-fd (bubblewrap before 0.9 without
# Debian's backport): every bind is made by path.  (Main's build of
# 2026-12-02 passed it '--ro-bind-fd 0 /', stdin as the root: its one-slot
# fd layout was read past its end.)
case_runner_without_bind_fd ()
{
  local fake="$WORK/old-bwrap" args="$WORK/old-bwrap.args" b="$WORK/old-runner"
  local out
  cat > "$fake" <<EOF
#!/bin/sh
if [ "\$1" = --help ]; then /usr/bin/bwrap --help | grep -v -- '-fd FD DEST'; exit 0; fi
printf '%s\n' "\$@" > "$args"
exec /usr/bin/bwrap "\$@"
EOF
  chmod 755 "$fake"
  write_agent "$b" workspace-write "$WS" "" true
  out=$("$SBX_OCI" --root "$WORK/state-old-runner" --runner "$fake" run \
    --bundle "$b" old-runner 2>&1)
  tap_is "$?" 0 "a runner without --bind-fd: the sandbox runs ($(echo $out))"
  tap_lacks "$(cat "$args" 2>&1)" "bind-fd" \
    "a runner without --bind-fd: no bind is passed as a descriptor"
}

run_cases ()
{
  export HOME="$WORK/home"
  WS="$WORK/ws"
  mkdir -p "$HOME" "$WS" "$WORK/state"
  case_workspace_write
  case_nested_carve_outs
  case_protected_metadata
  case_exit_status
  case_no_survivors
  case_userns_root
  case_foreign_namespace_source
  case_setup_failure
  case_state_root_in_workspace
  case_inherited_fds
  case_long_arguments
  case_large_environment
  case_environment
  case_spec_runs_unchanged
  case_dry_run_reproduces
  case_dry_run_hostile_names
  case_refused_options
  case_sigterm_foreground
  case_job_control
  case_alias_masking
  case_network
  case_rlimits_umask
  case_runner_environment
  case_proc_sys_readonly
  case_runner_without_bind_fd
  case_hardened_defaults
  case_git_commit_and_no_litter
  case_check_and_probe
  case_bundled_example
}

tap_suite "$HERE/run.sh" it SBX_OCI AFTER_RETURN
