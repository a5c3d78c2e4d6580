# Helpers for the integration tests (bash): TAP output and bundle writing.
#
# Results are printed without numbers ("ok - what"), which TAP allows, so
# that a pass re-run under another user can stream into the same output;
# tap_plan counts them at the end.

TAP_LOG=${TAP_LOG:-$(mktemp)}
TAP_PREFIX=${TAP_PREFIX:-}

tap_result ()
{
  # One line, whatever a description quotes (a multi-line message would
  # end the result line and break the TAP stream).
  local status=$1 desc=${2//$'\n'/ }
  echo "$status - $TAP_PREFIX$desc" | tee -a "$TAP_LOG"
}

# tap_ok DESC CMD...: pass when CMD succeeds.
tap_ok ()
{
  local desc=$1
  shift
  if "$@"; then
    tap_result ok "$desc"
  else
    tap_result "not ok" "$desc"
  fi
}

# tap_skip DESC WHY: a case this host cannot run, said so (not left out).
tap_skip ()
{
  tap_result ok "$1 # SKIP $2"
}

# tap_is GOT WANT DESC: pass when the strings are equal.
tap_is ()
{
  if [ "$1" = "$2" ]; then
    tap_result ok "$3"
  else
    tap_result "not ok" "$3"
    echo "# got:  $1"
    echo "# want: $2"
  fi
}

# tap_has TEXT NEEDLE DESC: pass when TEXT contains NEEDLE.
tap_has ()
{
  case $1 in
    *"$2"*) tap_result ok "$3" ;;
    *)
      tap_result "not ok" "$3"
      printf '# wanted %s in:\n' "$2"
      printf '%s\n' "$1" | sed 's/^/#   /'
      ;;
  esac
}

tap_lacks ()
{
  case $1 in
    *"$2"*)
      tap_result "not ok" "$3"
      printf '# %s found in:\n' "$2"
      printf '%s\n' "$1" | sed 's/^/#   /'
      ;;
    *) tap_result ok "$3" ;;
  esac
}

tap_plan ()
{
  echo "1..$(grep -c '^\(not \)\?ok' "$TAP_LOG")"
  ! grep '^not ok' "$TAP_LOG" | grep -qv '# TODO'
}

# A JSON string literal of $1.
json_str ()
{
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  s=${s//$'\033'/\\u001b}
  printf '"%s"' "$s"
}

# write_agent BUNDLE MODE WORKSPACE MOUNTS ARG...: an agent config.json in
# BUNDLE running ARG... in WORKSPACE as the caller, network denied.  MOUNTS
# is the JSON text inside "mounts": [...]; SBX_EXTRA, if set, is more JSON
# members for the "sbx" object; SBX_NETWORK overrides "deny";
# PROCESS_EXTRA, more members for "process".
write_agent ()
{
  local bundle=$1 mode=$2 ws=$3 mounts=$4 args="" a
  shift 4
  for a in "$@"; do
    args="$args${args:+, }$(json_str "$a")"
  done
  mkdir -p "$bundle"
  cat > "$bundle/config.json" <<EOF
{
  "ociVersion": "1.2.0",
  "root": {"path": "/", "readonly": true},
  "mounts": [$mounts],
  "process": {
    "args": [$args],
    "cwd": $(json_str "$ws"),
    "user": {"uid": $(id -u), "gid": $(id -g)},
    "noNewPrivileges": true${PROCESS_EXTRA:+,
    $PROCESS_EXTRA}
  },
  "sbx": {
    "mode": "$mode",
    "workspace": $(json_str "$ws"),
    "network": "${SBX_NETWORK:-deny}"${SBX_EXTRA:+,
    $SBX_EXTRA}
  }
}
EOF
}

# bind_rw DIR / deny DIR: mount entries for write_agent.
bind_rw ()
{
  printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "rw"]}' \
    "$(json_str "$1")" "$(json_str "$1")"
}

deny ()
{
  printf '{"destination": %s, "type": "tmpfs", "options": ["ro"]}' \
    "$(json_str "$1")"
}

# tap_suite SCRIPT NAME VAR...: the driver shared by the suites of cases
# (a function run_cases each): run as root, the cases run in WORK/root,
# then the suite re-runs SCRIPT as uid 65534 (setpriv) in WORK/user, with
# HOME there and the variables named VAR... passed on; run as anyone else,
# once as that user.  A root_only_cases function, when the suite has one,
# runs as root in between.  Each run's exit status is a result too: a case
# that kills its shell (set -u) must not end the run as a pass with fewer
# results.  The re-run finds its WORK in SBX_IT_WORK and only runs cases.
tap_suite ()
{
  local script=$1 name=$2 v
  shift 2
  if [ -n "$WORK" ]; then
    run_cases
    exit 0
  fi
  WORK=$(mktemp -d "/tmp/sbx-$name.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  export TAP_LOG="$WORK/tap.log"
  chmod 755 "$WORK"
  if [ "$(id -u)" -ne 0 ]; then
    TAP_PREFIX="[uid $(id -u)] " run_cases
    tap_plan
    return
  fi
  mkdir "$WORK/root" "$WORK/user"
  (WORK="$WORK/root" TAP_PREFIX="[root] " run_cases; exit 0)
  tap_is "$?" 0 "[root] the cases ran to the end"
  if declare -F root_only_cases > /dev/null; then
    root_only_cases
  fi
  chown 65534:65534 "$WORK/user"
  touch "$WORK/user.log"
  chown 65534:65534 "$WORK/user.log"
  local pass=()
  for v in "$@"; do pass+=("$v=${!v-}"); done
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    env PATH=/usr/local/bin:/usr/bin:/bin SBX_IT_WORK="$WORK/user" \
    HOME="$WORK/user" TAP_LOG="$WORK/user.log" TAP_PREFIX="[uid 65534] " \
    "${pass[@]}" bash "$script"
  local status=$?
  cat "$WORK/user.log" >> "$TAP_LOG"
  tap_is "$status" 0 "[uid 65534] the cases ran to the end"
  tap_plan
}

# run_bundle BUNDLE: `sbx run` it (the suite's sbx function) with a fresh
# id; OUT is stdout+stderr, RC the exit status, OUTCOME the --outcome JSON.
run_bundle ()
{
  N=$((N + 1))
  rm -f "$1/outcome.json"
  OUT=$(sbx run --bundle "$1" --outcome "$1/outcome.json" "it-$N" 2>&1)
  RC=$?
  OUTCOME=$(cat "$1/outcome.json" 2>/dev/null)
}
