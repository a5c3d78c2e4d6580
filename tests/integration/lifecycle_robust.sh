#!/bin/bash
# Robustness of the lifecycle, beyond lifecycle.sh, which
# already covers 20 racing creates of one id and a truncated state.json:
# - SBX_CYCLES (default 1000) create/start/wait/delete cycles of `true`
#   leave no process, open fd, mount or state directory behind;
# - SIGKILL of a foreground `sbx-oci run` takes its sandbox with it;
# - a sandbox whose processes were killed from outside reads as stopped;
# - an empty state.json gives a clear error and delete --force cleans up;
# - creates racing delete --force loops of the same id all succeed (a
#   create's state directory is never removed under it) and leave nothing.
# Runs as root (the cycles take 25 to 45 ms each here, see
# docs/conformance.md).  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
CYCLES=${SBX_CYCLES:-1000}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-robust.XXXXXX)
chmod 755 "$WORK"
ROOT=$WORK/state
. "$(dirname "$0")/suite_lib.sh"

sbx () { env -i "$SBX" --root "$ROOT" "$@"; }

make_bundle () { # DIR ARGS-AS-JSON
  local dir=$1 args=$2
  busybox_bundle "$dir" sh sleep true || return 1
  python3 - "$dir/config.json" "$args" <<'PY'
import json, sys
path, args = sys.argv[1], json.loads(sys.argv[2])
c = json.load(open(path))
c["process"]["args"] = args
c["process"]["terminal"] = False
json.dump(c, open(path, "w"))
PY
}

status_of () { sbx state "$1" 2>/dev/null | sed -n 's/.*"status": *"\([a-z]*\)".*/\1/p'; }
pid_of () { sbx state "$1" 2>/dev/null | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p'; }
wait_status () { # ID STATUS [TRIES of 5 ms]
  for _ in $(seq "${3:-1000}"); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.005; done
  return 1
}

# Processes of this test's runtime and sandboxes: sbx-oci with this --root,
# bwrap with a bundle under WORK.  Other users of the host are not counted.
our_pids () {
  local p comm
  for p in /proc/[0-9]*; do
    comm=$(cat "$p/comm" 2>/dev/null) || continue
    case $comm in sbx-oci | bwrap) ;; *) continue ;; esac
    tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$WORK" && echo "${p#/proc/}"
  done
}
our_fds () { local p c=0; for p in $(our_pids); do c=$((c + $(ls "/proc/$p/fd" 2>/dev/null | wc -l))); done; echo $c; }
our_mounts () { awk -v w="$WORK/" 'index($5, w) == 1 { print $5 }' /proc/self/mountinfo; }
# A container's directory or a temporary one; not the root's own fixed
# directories where root's runner mounts its tmpfs for the nodes and the
# config's tmpfs mounts, in a mount namespace of its own: on the host they
# stay empty, and any entry in one is listed too.
state_dirs () {
  find "$ROOT" -mindepth 1 -maxdepth 1 -type d ! -name +devices ! -name +mqueue 2>/dev/null
  find "$ROOT/+devices" "$ROOT/+mqueue" -mindepth 1 2>/dev/null
}
gone () { ! grep -qs '^[^ ]* ([^)]*) [^Z]' "/proc/$1/stat"; }

make_bundle "$WORK/true" '["true"]'
make_bundle "$WORK/long" '["sleep","30"]'
# The foreground run's workload is found among all the host's processes
# by its unusual argv: a number of this run's own (pgrep -x matches it
# whole, so no other run's is taken for it).
FG_SLEEP=3179.$$
make_bundle "$WORK/fg" "[\"sleep\",\"$FG_SLEEP\"]"

# 1. cycles
start=$(date +%s.%N)
bad=0 first=
for i in $(seq "$CYCLES"); do
  step=create
  if ! sbx create --bundle "$WORK/true" "cy$i" >/dev/null 2>"$WORK/cy.err" \
     || ! { step=start; sbx start "cy$i" 2>"$WORK/cy.err"; } \
     || ! { step=wait; wait_status "cy$i" stopped; } \
     || ! { step=delete; sbx delete "cy$i" 2>"$WORK/cy.err"; }; then
    bad=$((bad + 1))
    [ -n "$first" ] || first="cycle $i, $step: $(cat "$WORK/cy.err" 2>/dev/null) (state: $(status_of "cy$i"))"
    sbx delete --force "cy$i" 2>/dev/null
  fi
done
[ -z "$first" ] || echo "# first failure: $first"
secs=$(echo "$start $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}')
check "$CYCLES create/start/wait/delete cycles of true all succeed ($bad failed, ${secs}s)" [ "$bad" -eq 0 ]
left=$(our_pids | tr '\n' ' ')
check "no sbx-oci or bwrap process is left ($left)" [ -z "$left" ]
check "no fd is held by such a process ($(our_fds))" [ "$(our_fds)" -eq 0 ]
check "no mount is left under the test dir ($(our_mounts | head -3 | tr '\n' ' '))" [ -z "$(our_mounts)" ]
check "no state directory is left ($(state_dirs | head -3 | tr '\n' ' '))" [ -z "$(state_dirs)" ]

# 2. SIGKILL of a foreground run (run keeps no state: its workload is found
# by its unusual argv, FG_SLEEP)
sleepers () { pgrep -x -f "sleep $FG_SLEEP" | tr '\n' ' '; }
# started from a subshell so that this shell reports nothing when it dies
runpid=$( (env -i "$SBX" --root "$ROOT" run --bundle "$WORK/fg" fg \
             </dev/null >/dev/null 2>&1 & echo $!) )
for _ in $(seq 500); do [ -n "$(sleepers)" ] && break; sleep 0.01; done
wpids=$(sleepers)
check "run: the workload runs ($wpids)" [ -n "$wpids" ]
kill -KILL "$runpid"
for _ in $(seq 200); do [ -z "$(sleepers)" ] && break; sleep 0.01; done
check "SIGKILL of the foreground run ends its workload ($(sleepers))" [ -z "$(sleepers)" ]
left=$(our_pids | tr '\n' ' ')
check "and leaves no sbx-oci or bwrap process ($left)" [ -z "$left" ]
check "nor a state directory or a mount" eval '[ -z "$(state_dirs)" ] && [ -z "$(our_mounts)" ]'

# 3. processes killed from outside the runtime
sbx create --bundle "$WORK/long" ext >/dev/null && sbx start ext
check "an externally killed sandbox: it was running" wait_status ext running
kill -KILL "$(pid_of ext)"
check "after kill -9 of its pid from outside, it reads stopped" wait_status ext stopped
check "and delete (no --force) removes it" sbx delete ext

# 4. empty state.json
sbx create --bundle "$WORK/long" empty >/dev/null
epid=$(pid_of empty)
: >"$ROOT/empty/state.json"
out=$(sbx state empty 2>&1)
check "empty state.json: state fails" [ $? -ne 0 ]
check "with a clear error naming the file (\"$out\")" grep -qF "$ROOT/empty/state.json" <<<"$out"
check "delete --force cleans it up" sbx delete --force empty
sleep 0.2
check "its directory is gone and its held sandbox ended" eval '[ ! -e "$ROOT/empty" ] && gone "$epid"'

# 5. create racing delete --force of the same id: the delete waits for the
# create's lock, so each create succeeds; before, a delete landing between
# the create's mkdir and its lock removed the directory under it, and the
# held sandbox was left with no state to find it by.
race_rounds=${SBX_RACE_ROUNDS:-40}
deleter () { while [ ! -e "$WORK/race.stop" ]; do sbx delete --force rd >/dev/null 2>&1; done; }
deleter & d1=$!
deleter & d2=$!
bad=0 first=
for i in $(seq "$race_rounds"); do
  # Not through a pipe: a sandbox orphaned by the race would hold it open.
  if ! sbx create --bundle "$WORK/long" rd >/dev/null 2>"$WORK/rd.err"; then
    bad=$((bad + 1))
    [ -n "$first" ] || first=$(cat "$WORK/rd.err")
  fi
  sbx delete --force rd 2>/dev/null
done
touch "$WORK/race.stop"
wait "$d1" "$d2"
sbx delete --force rd
check "$race_rounds creates racing two delete --force loops all succeed ($bad failed${first:+, first: $first})" [ "$bad" -eq 0 ]
left=$(our_pids | tr '\n' ' ')
check "and leave no sbx-oci or bwrap process ($left)" [ -z "$left" ]
check "nor a state or temporary directory ($(state_dirs | head -3 | tr '\n' ' '))" [ -z "$(state_dirs)" ]

for id in $(sbx list -q 2>/dev/null); do sbx delete --force "$id"; done
for m in $(our_mounts | sort -r); do umount -l "$m"; done
finish
