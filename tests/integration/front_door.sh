#!/bin/bash
# The agent loop's front door (issue 15): one call under a policy on the
# command line (run --policy ... ID -- ARGV), the versioned outcome on a
# descriptor of its own and checked against docs/outcome.schema.json, and
# the exit statuses of docs/exit-status.md for every command.  Run as root,
# then as uid 65534.  Prints TAP.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
SBX_OCI=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
SCHEMA=$HERE/../../docs/outcome.schema.json
CHECK=$HERE/../../scripts/json_schema_check.py
N=0
# The system python: a version-manager shim costs seconds a call on a busy host.
PY=$(command -v /usr/bin/python3 || command -v python3)
WORK=${SBX_IT_WORK:-}

sbx () { "$SBX_OCI" --root "$WORK/state" "$@"; }

# The outcome file FILE is valid against the schema and its status is RC.
outcome_valid ()
{
  local file=$1 rc=$2 what=$3 msg
  msg=$("$PY" "$CHECK" "$SCHEMA" "$file" 2>&1)
  tap_is "$msg" "" "$what: the outcome matches docs/outcome.schema.json"
  tap_is "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$file" 2>&1)" \
    "$rc" "$what: the outcome's status is the exit status ($rc)"
}

field () { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d = d[k]
print(json.dumps(d) if not isinstance(d, str) else d)' "$1" "$2" 2>&1; }

policy ()
{
  mkdir -p "$WORK/ws"
  (cd "$WORK" && "$SBX_OCI" spec --agent --workspace "$WORK/ws" --bundle "$WORK")
}

case_per_call ()
{
  local out
  out=$(sbx run --policy "$WORK/config.json" --env FOO=bar --cwd "$WORK/ws" \
    --outcome-fd 3 pc-1 -- sh -c 'echo "$FOO"; pwd; echo made > made' \
    3>"$WORK/o1.json" 2>&1)
  tap_is "$?" 0 "per call: --policy FILE ID -- ARGV runs"
  tap_is "$out" "bar
$WORK/ws" "per call: --env and --cwd reach the command, stdout is the command's alone"
  tap_is "$(cat "$WORK/ws/made" 2>/dev/null)" made "per call: the policy's workspace is writable"
  outcome_valid "$WORK/o1.json" 0 "per call"
  out=$(sbx run --policy - --outcome-fd 3 pc-2 -- sh -c 'echo stdin-policy' \
    < "$WORK/config.json" 3>"$WORK/o2.json" 2>&1)
  tap_is "$out" stdin-policy "per call: --policy - reads the policy from stdin"
  out=$(sbx run --policy "$WORK/config.json" --env GITHUB_TOKEN=ghp_x \
    --outcome "$WORK/o3.json" pc-3 -- sh -c 'echo "[${GITHUB_TOKEN-unset}]"' 2>&1)
  tap_has "$out" "[unset]" "per call: a credential-shaped --env is not passed"
  tap_has "$out" "GITHUB_TOKEN" "per call: and stderr names it"
  tap_has "$(field "$WORK/o3.json" environment.dropped)" GITHUB_TOKEN \
    "per call: and the outcome's environment.dropped names it"
  # A name that is not UTF-8 (the caller's environment can hold any
  # bytes): the outcome still parses, and names it with \xHH.
  sbx run --policy "$WORK/config.json" --env $'X\xff_GH_TOKEN=1' \
    --outcome "$WORK/o4.json" pc-4 -- true > /dev/null 2>&1
  outcome_valid "$WORK/o4.json" 0 "per call, a dropped name that is not UTF-8"
  tap_has "$(field "$WORK/o4.json" environment.dropped)" '"X\\xff_GH_TOKEN"' \
    "per call: and environment.dropped names it with \\xHH"
}

# Bad input: one line, exit 122, nothing run, nothing left behind.
case_per_call_refused ()
{
  local args out rc
  while IFS='|' read -r args what; do
    rm -f "$WORK/ws/ran"
    # shellcheck disable=SC2086
    out=$(sbx run $args 2>&1)
    rc=$?
    tap_is "$rc" 122 "usage: $what: exit 122"
    tap_is "$(printf '%s\n' "$out" | wc -l)" 1 "usage: $what: one line ($out)"
    tap_is "$(ls "$WORK/ws/ran" 2>&1 >/dev/null | grep -c 'No such')" 1 \
      "usage: $what: nothing ran"
  done <<EOF
--policy $WORK/config.json pr-1 touch $WORK/ws/ran|an argument after the id without --
--policy $WORK/config.json pr-2 --|nothing after --
--policy $WORK/config.json --bundle $WORK pr-3 -- touch $WORK/ws/ran|--policy with --bundle
--policy $WORK/config.json --env NOEQUALS pr-4 -- touch $WORK/ws/ran|--env without =
--policy $WORK/config.json --cwd rel pr-5 -- touch $WORK/ws/ran|a relative --cwd
--policy $WORK/config.json --outcome - pr-6 -- touch $WORK/ws/ran|--outcome -
--policy $WORK/config.json --outcome-fd 1 pr-7 -- touch $WORK/ws/ran|--outcome-fd 1
--policy $WORK/config.json --outcome-fd 97 pr-8 -- touch $WORK/ws/ran|--outcome-fd not open
--policy $WORK/config.json --outcome-fd 3 --preserve-fds 1 pr-9 -- touch $WORK/ws/ran|--outcome-fd passed in by --preserve-fds
--policy $WORK/config.json --outcome $WORK/o.json --outcome-fd 2 pr-10 -- touch $WORK/ws/ran|--outcome with --outcome-fd
--policy $WORK/config.json --dry-run --outcome $WORK/o.json pr-11|--dry-run with --outcome
--no-such-option pr-12|an unknown option
EOF
  tap_is "$(ls "$WORK/state" 2>/dev/null | grep -c '^pr-')" 0 \
    "usage: no state left behind"
}

# Every kind of outcome, from real runs, against the schema.
case_outcomes ()
{
  local p=$WORK/config.json rc
  sbx run --policy "$p" --outcome "$WORK/k1.json" k-1 -- sh -c 'exit 3' 2>/dev/null
  rc=$?; tap_is "$rc" 3 "outcome exited: the command's status"
  outcome_valid "$WORK/k1.json" 3 "exited"
  sbx run --policy "$p" --outcome "$WORK/k2.json" k-2 -- sh -c 'kill -TERM $$' 2>/dev/null
  rc=$?; tap_is "$(field "$WORK/k2.json" outcome)" signaled "outcome signaled"
  outcome_valid "$WORK/k2.json" "$rc" "signaled"
  sbx run --policy "$p" --outcome "$WORK/k3.json" k-3 -- no-such-command-$$ 2>/dev/null
  rc=$?; tap_is "$rc" 127 "a missing command: exit 127"
  tap_is "$(field "$WORK/k3.json" outcome)" command-not-found "a missing command: outcome command-not-found"
  outcome_valid "$WORK/k3.json" 127 "command-not-found"
  printf 'x\n' > "$WORK/ws/plain"; chmod 644 "$WORK/ws/plain"
  sbx run --policy "$p" --outcome "$WORK/k4.json" k-4 -- "$WORK/ws/plain" 2>/dev/null
  rc=$?; tap_is "$rc" 126 "a command that is not executable: exit 126"
  tap_is "$(field "$WORK/k4.json" outcome)" command-not-executable "not executable: outcome command-not-executable"
  outcome_valid "$WORK/k4.json" 126 "command-not-executable"
  sed 's/"workspace-write"/"no-such-mode"/' "$p" > "$WORK/bad.json"
  sbx run --policy "$WORK/bad.json" --outcome "$WORK/k5.json" k-5 -- true 2>/dev/null
  rc=$?; tap_is "$rc" 121 "a refused policy: exit 121"
  tap_is "$(field "$WORK/k5.json" outcome)" refused "a refused policy: outcome refused"
  tap_is "$(field "$WORK/k5.json" refusedFields)" '["sbx.mode"]' "a refused policy: refusedFields names sbx.mode"
  outcome_valid "$WORK/k5.json" 121 "refused"
  printf '{"ociVersion": "1.0.2", // no comments\n}' > "$WORK/notjson.json"
  sbx run --policy "$WORK/notjson.json" --outcome "$WORK/k7.json" k-7 -- true 2>/dev/null
  rc=$?; tap_is "$rc" 121 "a policy that is not JSON: exit 121"
  tap_is "$(field "$WORK/k7.json" refusedFields)" '[]' "not JSON: refusedFields names no field"
  outcome_valid "$WORK/k7.json" 121 "refused, no field"
  sed 's/"sbx": {/"sbx": {"requireEnforcment": "full", /' "$p" > "$WORK/typo.json"
  sbx run --policy "$WORK/typo.json" --outcome "$WORK/k8.json" k-8 -- true 2>/dev/null
  tap_is "$(field "$WORK/k8.json" refusedFields)" '["sbx.requireEnforcment"]' "a misspelt sbx key: refusedFields names it"
  sed "s|\"path\": \"/\"|\"path\": \"$WORK/no-such-root\"|" "$p" > "$WORK/noroot.json"
  sbx run --policy "$WORK/noroot.json" --outcome "$WORK/k9.json" k-9 -- true 2>/dev/null
  rc=$?; tap_is "$rc" 121 "a root.path that does not exist: exit 121"
  tap_is "$(field "$WORK/k9.json" refusedFields)" '["root.path"]' "a root.path that does not exist: refusedFields names root.path"
  tap_is "$(field "$WORK/k1.json" refusedFields)" '[]' "an outcome that is no refusal names no refused field"
  sed 's/"wallClockSeconds": 600/"wallClockSeconds": 1/' "$p" > "$WORK/short.json"
  sbx run --policy "$WORK/short.json" --outcome "$WORK/k6.json" k-6 -- sleep 30 2>/dev/null
  rc=$?; tap_is "$(field "$WORK/k6.json" outcome)" limit "outcome limit (wall clock)"
  outcome_valid "$WORK/k6.json" "$rc" "limit"
  tap_is "$(field "$WORK/k6.json" version)" 2 "the outcome has version 2"
}

# The table of docs/exit-status.md, command by command.
case_exit_statuses ()
{
  local c
  "$SBX_OCI" > /dev/null 2>&1; tap_is "$?" 122 "no command: exit 122"
  "$SBX_OCI" no-such-command > /dev/null 2>&1; tap_is "$?" 122 "an unknown command: exit 122"
  "$SBX_OCI" --no-such-global x > /dev/null 2>&1; tap_is "$?" 122 "an unknown global option: exit 122"
  for c in create start state kill delete exec list ps features spec check; do
    sbx "$c" --no-such-option x > /dev/null 2>&1
    tap_is "$?" 122 "$c: an unknown option: exit 122"
  done
  for c in start state kill delete ps; do
    sbx "$c" no-such-id-$$ > /dev/null 2>&1
    tap_is "$?" 123 "$c: an unknown container: exit 123"
  done
  sbx exec no-such-id-$$ true > /dev/null 2>&1
  tap_is "$?" 123 "exec: an unknown container: exit 123"
  sbx delete --force no-such-id-$$ > /dev/null 2>&1
  tap_is "$?" 0 "delete --force: an unknown container is no error"
  sbx pause x > /dev/null 2>&1; tap_is "$?" 125 "pause: not supported: exit 125"
  sbx create --bundle "$WORK/none" es-1 > /dev/null 2>&1
  tap_is "$?" 125 "create: a bundle without config.json: exit 125"
  mkdir -p "$WORK/refused-bundle"
  sed 's/"workspace-write"/"no-such-mode"/' "$WORK/config.json" > "$WORK/refused-bundle/config.json"
  sbx create --bundle "$WORK/refused-bundle" es-2 > /dev/null 2>&1
  tap_is "$?" 121 "create: a refused config: exit 121"
  tap_is "$(ls "$WORK/state" 2>/dev/null | grep -c '^es-2')" 0 "create: a refused config leaves no state"
}

# A session: create once, exec per call; exec's statuses and signals.
case_session ()
{
  local id=fd-s-$$ rc marker=$((700000 + RANDOM)) pid
  mkdir -p "$WORK/sb"
  sed 's/"pwd; ls"/"sleep 1000"/' "$WORK/config.json" > "$WORK/sb/config.json"
  sbx create --bundle "$WORK/sb" "$id" > /dev/null 2>&1 < /dev/null &&
    sbx start "$id" > /dev/null 2>&1
  tap_is "$?" 0 "session: create and start"
  sbx exec "$id" sh -c 'exit 4' 2>/dev/null; tap_is "$?" 4 "exec: the command's status"
  sbx exec "$id" no-such-command-$$ 2>/dev/null; tap_is "$?" 127 "exec: a missing command: exit 127"
  sbx exec "$id" "$WORK/ws/plain" 2>/dev/null; tap_is "$?" 126 "exec: not executable: exit 126"
  sbx exec --no-such x 2>/dev/null; tap_is "$?" 122 "exec: usage: exit 122"
  printf '{"args": ["true"], "cwd": "/", "bogus": // no\n}' > "$WORK/bad-process.json"
  sbx exec --process "$WORK/bad-process.json" "$id" 2>/dev/null
  tap_is "$?" 121 "exec: a process object that is not JSON is refused: exit 121"
  # sbx-oci itself in the background, not the sbx function: $! must be its
  # pid, not a subshell's.
  "$SBX_OCI" --root "$WORK/state" exec "$id" sleep "$marker" 2>/dev/null &
  pid=$!
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  tap_is "$rc" 143 "exec: SIGTERM reaches the command (128+15)"
  sleep 0.2
  tap_is "$(pgrep -f "^sleep $marker\$" | wc -l)" 0 "exec: and the command is gone"
  # The others run forwards, too: exec's waiter died of them, and left
  # the command running.
  local sig
  for sig in USR1 USR2; do
    "$SBX_OCI" --root "$WORK/state" exec "$id" sleep "$marker" 2>/dev/null &
    pid=$!
    sleep 0.5
    kill -"$sig" "$pid"
    wait "$pid"
    sleep 0.2
    tap_is "$(pgrep -f "^sleep $marker\$" | wc -l)" 0 "exec: SIG$sig reaches the command, which it ends"
    pkill -f "^sleep $marker\$"
  done
  sbx delete --force "$id" > /dev/null 2>&1
}

case_help ()
{
  local c
  for c in run spec check create start state kill delete exec list ps features pause resume update; do
    tap_has "$("$SBX_OCI" "$c" --help 2>&1)" "usage: sbx-oci $c" "$c --help: its usage"
    "$SBX_OCI" "$c" --help > /dev/null 2>&1
    tap_is "$?" 0 "$c --help: exit 0"
  done
}

# spec refuses what it would ignore or could not use, and never writes a
# config it would itself refuse.
case_spec ()
{
  local d=$WORK/spec-out args what rc m out
  while IFS='|' read -r args what; do
    rm -rf "$d"; mkdir -p "$d"
    # shellcheck disable=SC2086
    "$SBX_OCI" spec --bundle "$d" $args > /dev/null 2>&1
    rc=$?
    tap_is "$rc" 122 "spec: $what: exit 122"
    tap_is "$(ls "$d")" "" "spec: $what: no config.json written"
  done <<EOF
--workspace $WORK/ws|--workspace without --agent
--mode read-only|--mode without --agent
--agent --workspace $WORK/no-such-dir|a workspace that does not exist
--agent --workspace $WORK/ws/plain|a workspace that is a file
--agent --workspace $WORK/ws --mode full|an unknown mode
EOF
  # A workspace whose path is not UTF-8: the config's JSON cannot name it
  # (it was written with \xHH in its place, a path that is not there).
  local odd=$WORK/ws$'\xff'
  rm -rf "$d"; mkdir -p "$d" "$odd"
  out=$("$SBX_OCI" spec --agent --workspace "$odd" --bundle "$d" 2>&1)
  tap_is "$?" 122 "spec: a workspace path that is not UTF-8: exit 122 ($out)"
  tap_is "$(ls "$d")" "" "spec: a workspace path that is not UTF-8: no config.json written"
  tap_has "$out" 'ws\xff' "spec: a workspace path that is not UTF-8: the line names it"
  rmdir "$odd"
  rm -rf "$d"; mkdir -p "$d"
  "$SBX_OCI" spec --agent --workspace "$WORK/ws" --mode danger-full-access --bundle "$d" 2>/dev/null
  out=$(sbx run --bundle "$d" sp-1 -- true 2>&1)
  tap_is "$?" 0 "spec --mode danger-full-access: its config runs (not refused by its own requireEnforcement)${out:+ ($out)}"
  for m in read-only workspace-write; do
    rm -rf "$d"; mkdir -p "$d"
    "$SBX_OCI" spec --agent --workspace "$WORK/ws" --mode "$m" --bundle "$d" 2>/dev/null
    out=$(sbx run --bundle "$d" "sp-$m" -- true 2>&1)
    tap_is "$?" 0 "spec --mode $m: its config runs${out:+ ($out)}"
  done
}

# The outcome's directory is the one named when `run` started: a command
# that swaps a directory on the --outcome path for a symlink (it can write
# its workspace) does not move sbx-oci's write (adversarial review: the
# outcome replaced a file of the command's choice outside the workspace).
case_outcome_dir_pinned ()
{
  mkdir -p "$WORK/ws/reports" "$WORK/elsewhere"
  echo precious > "$WORK/elsewhere/o.json"
  sbx run --policy "$WORK/config.json" --cwd "$WORK/ws" \
    --outcome "$WORK/ws/reports/o.json" op-1 -- \
    sh -c "rmdir reports && ln -s '$WORK/elsewhere' reports" > /dev/null 2>&1
  tap_ok "outcome: the command swapped the directory for a symlink" \
    test -L "$WORK/ws/reports"
  tap_is "$(cat "$WORK/elsewhere/o.json")" precious \
    "outcome: a directory swapped for a symlink during the run does not move the write"
  tap_is "$(ls "$WORK/elsewhere")" o.json "outcome: nothing else was written there"
  rm -rf "$WORK/ws/reports" "$WORK/elsewhere"
}

run_cases ()
{
  cd "$WORK" || exit 1
  policy
  case_per_call
  case_per_call_refused
  case_outcomes
  case_outcome_dir_pinned
  case_exit_statuses
  case_session
  case_help
  case_spec
}

tap_suite "$0" front_door SBX_OCI
