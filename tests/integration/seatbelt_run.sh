#!/bin/bash
# The macOS backend's run path on Linux (TAP).  SBX_OCI_SEATBELT is sbx-oci
# built from the darwin source lists; it runs commands through
# fake_sandbox_exec.sh (named with --runner), which checks it was given
# `-p PROFILE -- ARGV...` and execs ARGV unconfined.  So this proves the
# supervision (status, signals, wall clock, termination, outcome, the
# enforcement report and the refusals), not that Seatbelt confines: that
# needs a Mac.  SBX_OCI_UNAVAILABLE is the build for a system with no
# sandbox: it must refuse and run nothing.
set -u
SB=${SBX_OCI_SEATBELT:?}
NONE=${SBX_OCI_UNAVAILABLE:?}
. "$(dirname "$0")/lib.sh"
WORK=$(mktemp -d /tmp/sbx-seatbelt.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
FAKE=$WORK/sandbox-exec
cp "${FAKE_SANDBOX_EXEC:?}" "$FAKE"
WS=$WORK/ws
mkdir -p "$WS"

sb () { "$SB" --runner "$FAKE" "$@"; }
# gone PID: PID no longer runs (absent, or a zombie nobody reaped yet).
gone ()
{
  local s
  s=$(cat "/proc/$1/stat" 2> /dev/null) || return 0
  s=${s##*) }
  [ "${s%% *}" = Z ]
}
# outcome_field FILE EXPR: a Python expression over the outcome JSON, o.
outcome_field ()
{
  python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# 1. The command's exit status passes through; the fake saw a profile.
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'echo hello > out; exit 7'
sb run --bundle "$WORK/b" --outcome "$WORK/o.json" t1 2> "$WORK/err"
tap_is "$?" 7 "exit status 7 passes through"
tap_is "$(cat "$WS/out" 2>/dev/null)" hello "the command ran in process.cwd"
tap_is "$(outcome_field "$WORK/o.json" 'o["outcome"], o["exitCode"], o["status"]')" \
  "('exited', 7, 7)" "outcome: exited with 7"
tap_has "$(cat "$WORK/last-profile.sb" 2>/dev/null)" "(deny file-write* file-write-setugid file-write-mode)" \
  "sandbox-exec was given the plan's profile with -p"
tap_has "$(cat "$WORK/last-profile.sb" 2>/dev/null)" "$WS\")) ; workspace: write" \
  "the profile grants the workspace"

# 2. The enforcement report says what Seatbelt does not confine.
R=$(outcome_field "$WORK/o.json" 'o["enforcement"]')
tap_has "$R" "'level': 'partial'" "enforcement level is partial"
tap_has "$R" "process: visibility and signalling are not confined" \
  "report: process visibility and signalling"
tap_has "$R" "ended through its process group plus the descendants a sample" \
  "report: termination by group and sampled descendants"
tap_has "$R" "'noNewPrivileges': False" "report: no no_new_privs"
tap_lacks "$R" "bubblewrap" "report: no bubblewrap reasons"

# 3. A death by a signal is 128+N and says signal.
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'kill -USR1 $$'
sb run --bundle "$WORK/b" --outcome "$WORK/o.json" t3 2> "$WORK/err"
tap_is "$?" $((128 + 10)) "a death by SIGUSR1 exits 138"
tap_is "$(outcome_field "$WORK/o.json" 'o["outcome"], o["signal"], o["signalCertain"]')" \
  "('signaled', 10, False)" "outcome: signaled 10, not sent by sbx"

# 4. SIGTERM to sbx-oci reaches the command's process group.
write_agent "$WORK/b" workspace-write "$WS" "" sleep 30
start=$SECONDS
"$SB" --runner "$FAKE" run --bundle "$WORK/b" --outcome "$WORK/o.json" t4 \
  2> "$WORK/err" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
tap_is "$?" 143 "a forwarded SIGTERM ends the command: exit 143"
tap_is "$(outcome_field "$WORK/o.json" 'o["outcome"], o["signal"], o["signalCertain"]')" \
  "('signaled', 15, True)" "outcome: signaled 15, sent by sbx"
tap_ok "it ended at once" test $((SECONDS - start)) -lt 10

# 5. The wall clock ends the run and what left its process group.
SBX_EXTRA='"limits": {"wallClockSeconds": 1}'
write_agent "$WORK/b" workspace-write "$WS" "" \
  sh -c 'perl -MPOSIX -e "POSIX::setsid(); sleep 300" & echo $! > escaped; sleep 300'
unset SBX_EXTRA
start=$SECONDS
sb run --bundle "$WORK/b" --outcome "$WORK/o.json" t5 2> "$WORK/err"
tap_is "$?" 137 "the wall clock limit kills: exit 137"
tap_is "$(outcome_field "$WORK/o.json" 'o["outcome"], o["limits"]["breach"]')" \
  "('limit', 'wall-clock')" "outcome: limit, wall-clock"
tap_ok "it ended after about a second" test $((SECONDS - start)) -lt 10
esc=$(cat "$WS/escaped" 2>/dev/null)
tap_ok "a setsid'd descendant was found by the sample and killed" \
  eval 'test -n "$esc" && gone "$esc"'

# 6. What stays in the group after the command exits is swept.
write_agent "$WORK/b" workspace-write "$WS" "" \
  sh -c 'sleep 300 & echo $! > left; exit 0'
sb run --bundle "$WORK/b" t6 2> "$WORK/err"
tap_is "$?" 0 "a command that leaves a child behind exits 0"
left=$(cat "$WS/left" 2>/dev/null)
sleep 0.2
tap_ok "its child in the process group was killed" \
  eval 'test -n "$left" && gone "$left"'

# 7. Only stdin, stdout and stderr reach the command.
write_agent "$WORK/b" workspace-write "$WS" "" \
  sh -c 'for fd in 3 4 7; do [ -e /proc/$$/fd/$fd ] && echo $fd; done; echo end'
FDS=$(sb run --bundle "$WORK/b" t7 3< /dev/null 7< /dev/null 2> "$WORK/err")
tap_is "$(echo $FDS)" "end" "no other descriptor reaches the command"
FDS=$(sb run --preserve-fds 1 --bundle "$WORK/b" t7 3< /dev/null 7< /dev/null 2> "$WORK/err")
tap_is "$(echo $FDS)" "3 end" "--preserve-fds 1 passes fd 3 on, not fd 7"

# 8. A missing sandbox-exec is the sandbox's failure, not the command's.
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'touch ran; exit 0'
rm -f "$WS/ran"
"$SB" --runner "$WORK/no-such-sandbox-exec" run --bundle "$WORK/b" \
  --outcome "$WORK/o.json" t8 2> "$WORK/err"
tap_is "$?" 125 "a missing sandbox-exec exits 125"
tap_is "$(outcome_field "$WORK/o.json" 'o["outcome"]')" sandbox-failure \
  "outcome: sandbox-failure"
tap_has "$(cat "$WORK/err")" "cannot start the seatbelt runner $WORK/no-such-sandbox-exec" \
  "the message names the runner"
tap_ok "the command did not run" test ! -e "$WS/ran"

# 9. What Seatbelt cannot do is refused, never dropped.
PROCESS_EXTRA='"rlimits": [{"type": "RLIMIT_NOFILE", "hard": 64, "soft": 64}]'
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'touch ran; exit 0'
unset PROCESS_EXTRA
sb run --bundle "$WORK/b" t9 2> "$WORK/err"
tap_is "$?" 121 "process.rlimits is refused (121)"
tap_has "$(cat "$WORK/err")" "process.rlimits: not available with the seatbelt backend" \
  "the refusal names process.rlimits"
python3 - "$WORK/b/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"] = {"resources": {"memory": {"limit": 100000000}}}
json.dump(c, open(sys.argv[1], "w"))
PY
sb run --bundle "$WORK/b" t9 2> "$WORK/err"
tap_is "$?" 121 "a memory limit is refused (121)"
tap_has "$(cat "$WORK/err")" "linux.resources.memory.limit" \
  "the refusal names the memory limit"
SBX_EXTRA='"requireEnforcement": "full"'
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'touch ran; exit 0'
unset SBX_EXTRA
sb run --bundle "$WORK/b" t9 2> "$WORK/err"
tap_is "$?" 121 "requireEnforcement full is refused under seatbelt"
tap_ok "no refused config ran its command" test ! -e "$WS/ran"

# 10. The lifecycle is refused on macOS, naming run.
for cmd in create exec state; do
  out=$(sb "$cmd" x 2>&1)
  st=$?
  tap_ok "$cmd is refused (status $st)" test "$st" -ne 0
  tap_has "$out" "use \`sbx-oci run\`" "$cmd's refusal names run"
done
tap_has "$(sb create x 2>&1)" "create: not supported on macOS: without a pid namespace" \
  "create's refusal says why"

# 11. --dry-run prints the profile and the report; runs nothing.
write_agent "$WORK/b" workspace-write "$WS" "" sh -c 'touch ran; exit 0'
DRY=$(sb run --dry-run --bundle "$WORK/b" 2> "$WORK/err")
tap_has "$DRY" "; run as: $FAKE -p PROFILE -- sh -c" "dry run: the command line"
tap_has "$DRY" "; enforcement partial: process: visibility" "dry run: the report"
tap_ok "dry run: the command did not run" test ! -e "$WS/ran"
sb run --backend bwrap --bundle "$WORK/b" t11 2> "$WORK/err"
tap_is "$?" 125 "--backend bwrap is refused on the seatbelt build"

# 12. No sandbox on this system: refused in one line, nothing runs.
WANT="sbx-oci: sandbox unavailable on this platform ($(uname -s | tr A-Z a-z)): sbx-oci confines with bubblewrap on Linux and Seatbelt on macOS"
for cmd in run create exec; do
  out=$("$NONE" "$cmd" --bundle "$WORK/b" x 2>&1)
  st=$?
  tap_ok "unavailable: $cmd exits non-zero ($st)" test "$st" -ne 0
  tap_is "$out" "$WANT" "unavailable: $cmd's one-line refusal"
done
tap_ok "unavailable: the command did not run" test ! -e "$WS/ran"

# 13. The agent quick start runs: `spec --agent` writes "hostname": "sbx",
# which the seatbelt backend ignores in agent configs (no uts namespace) and
# says so in the report; the command is told it runs under seatbelt.
mkdir -p "$WORK/q"
"$SB" spec --agent --workspace "$WS" --bundle "$WORK/q" 2> "$WORK/err"
tap_is "$?" 0 "spec --agent writes a config"
tap_has "$(cat "$WORK/q/config.json")" '"hostname": "sbx"' \
  "the agent config names a hostname (the linux golden is unchanged)"
python3 - "$WORK/q/config.json" "$(id -u)" "$(id -g)" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sh", "-c", "env > seen-env"]
c["process"]["user"] = {"uid": int(sys.argv[2]), "gid": int(sys.argv[3])}
json.dump(c, open(sys.argv[1], "w"))
PY
rm -f "$WS/seen-env"
sb run --bundle "$WORK/q" --outcome "$WORK/o.json" t13 2> "$WORK/err"
tap_is "$?" 0 "the agent quick start runs under seatbelt"
tap_has "$(outcome_field "$WORK/o.json" 'o["enforcement"]')" \
  "hostname: 'sbx' is not set" "the report says the hostname is not set"
tap_has "$(cat "$WS/seen-env" 2>/dev/null)" "SBX_OCI_SANDBOX=seatbelt" \
  "the command is told it runs under seatbelt"
tap_lacks "$(cat "$WS/seen-env" 2>/dev/null)" "SBX_OCI_SANDBOX=bwrap" \
  "and not that it runs under bwrap"

# 14. LaunchServices and AppleEvents are denied unless the config asks for
# them with "allowLaunchServices"; under a ceiling the operator approves.
write_agent "$WORK/b" workspace-write "$WS" "" true
DRY=$(sb run --dry-run --bundle "$WORK/b" 2> "$WORK/err")
tap_has "$DRY" "(deny lsopen)" "by default the profile denies lsopen"
tap_has "$DRY" "(deny appleevent-send)" "and appleevent-send"
SBX_EXTRA='"allowLaunchServices": true'
write_agent "$WORK/b" workspace-write "$WS" "" true
unset SBX_EXTRA
printf '{"workspaces": [%s]}\n' "$(json_str "$WS")" > "$WORK/ceiling"
"$SB" --runner "$FAKE" --ceiling "$WORK/ceiling" run --dry-run \
  --bundle "$WORK/b" > /dev/null 2> "$WORK/err"
tap_is "$?" 121 "under a ceiling, allowLaunchServices without approval is refused (121)"
tap_has "$(cat "$WORK/err")" "add \"launch-services\" to the ceiling's \"approve\"" \
  "the refusal names the token to approve"
echo launch-services > "$WORK/approve"
DRY=$("$SB" --runner "$FAKE" --ceiling "$WORK/ceiling" --approve "$WORK/approve" \
  run --dry-run --bundle "$WORK/b" 2> "$WORK/err")
tap_is "$?" 0 "approved, allowLaunchServices is accepted"
tap_lacks "$DRY" "(deny lsopen)" "approved, the profile lets open(1) through"
tap_lacks "$DRY" "launchservicesd" "approved, launchservicesd is reachable"

tap_plan
