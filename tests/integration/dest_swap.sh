#!/bin/bash
# A mount destination swapped for a symbolic link while bubblewrap sets up
# the sandbox (issue 12, point 2), by another sandbox of the same agent.
# The workspace is the home ($HOME), so the hardened defaults hide its
# .docker/config.json (an empty read-only file bound over it).  An
# attacker sandbox with the same config exchanges .docker with a link to
# a decoy directory, in a loop: bubblewrap follows a link in a
# destination, so a victim's hide can land in the decoy, leaving the real
# .docker/config.json readable under the name .docker has at that moment.
# Or, simpler, renames it away: the next victim, planned with nothing at
# .docker/config.json, hides nothing.  Every victim run prints whatever it
# can read of it: none may print the secret.  A sandbox cannot rename a
# directory that is a mount point in its own namespace (EBUSY), so the
# plan pins the way to every hidden store (policy_pin_parents), as it
# pins .git and its hooks.  Run as root, then as uid 65534 (setpriv).
# Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
TRIES=${SBX_DEST_SWAP_TRIES:-40}
WORK=$(mktemp -d /tmp/sbx-dswap.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

# sbx_home WS ARG...: sbx-oci as the mode's user, its HOME the workspace.
sbx_home () { local ws=$1; shift; $AS env -i HOME="$ws" "$SBX" --root "$ROOT" "$@"; }

bundle () { # DIR WS UID ARG...
  local dir=$1 ws=$2 uid=$3
  shift 3
  mkdir -p "$dir"
  agent_config "$dir/config.json" "$ws" "$uid" "$@"
  chmod -R a+rX "$dir"
}

SWAPPER='
import ctypes, os, sys, time
ws = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
a, b = (os.path.join(ws, n).encode() for n in (".docker", "dswap"))
n, end = 0, time.time() + 120
while time.time() < end and not os.path.exists(os.path.join(ws, "stop")):
    for _ in range(1000):
        n += libc.renameat2(-100, a, -100, b, 2) == 0
print("swapped", n)
'

suite () {
  local B=$WORK/$MODE uid=0 ws pid ran=0 refused=0 leaked=0 i out swaps
  [ -n "$AS" ] && uid=65534
  ws=$B/ws
  mkdir -p "$ws/.docker" "$ws/decoy"
  echo "sbx-secret-$RUN" > "$ws/.docker/config.json"
  ln -s decoy "$ws/dswap"
  bundle "$B/attacker" "$ws" "$uid" /usr/bin/python3 -c "$SWAPPER" "$ws"
  bundle "$B/victim" "$ws" "$uid" sh -c \
    'cat .docker/config.json dswap/config.json 2>/dev/null; true'
  [ -n "$AS" ] && chown -R 65534:65534 "$B"
  sbx_home "$ws" run --bundle "$B/attacker" "attacker-$RUN" > "$B/swaps" 2>&1 < /dev/null &
  pid=$!
  for i in $(seq "$TRIES"); do
    out=$(sbx_home "$ws" run --bundle "$B/victim" "victim-$i-$RUN" 2>&1 < /dev/null)
    case $? in
      0) ran=$((ran + 1)) ;;
      *) refused=$((refused + 1)) ;;
    esac
    [[ "$out" == *"sbx-secret-$RUN"* ]] && leaked=$((leaked + 1))
  done
  $AS touch "$ws/stop"
  wait "$pid"
  swaps=$(cat "$B/swaps")
  # Before the plan pinned .docker, the attacker swapped it tens of
  # thousands of times and 5 to 7 of 40 victims read the secret.
  check "the attacker sandbox could not move .docker, pinned in its own namespace ($swaps)" \
    [ "$swaps" = "swapped 0" ]
  check "no victim read the hidden .docker/config.json ($leaked of $TRIES read it; $ran ran, $refused refused)" \
    [ "$leaked" -eq 0 ]
  check "some victims ran their command (else the test shows nothing)" [ "$ran" -gt 0 ]
}

# The helper's own check (-m, -M), which holds where no pin does (a
# writer outside every sandbox, a sandbox of another config): bwrap run
# directly with the helper `run --seccomp-dir` writes, each mount as the
# check expects it or not.  HELPER ARGS...: the helper's status.
helper_case () {
  local B=$WORK/$MODE-helper d
  mkdir -p "$B/ws/a/real" "$B/ws/b" "$B/state" "$B/sd"
  ln -s real "$B/ws/a/link"
  bundle "$B/bundle" "$B/ws" 0 true
  [ -n "$AS" ] && chown -R 65534:65534 "$B"
  $AS env -i "$SBX" --root "$B/state" run --dry-run --seccomp-dir "$B/sd" \
    --bundle "$B/bundle" helper-$RUN > /dev/null 2>&1
  local h=$B/sd/sbx-landlock
  if [ ! -x "$h" ]; then
    not_ok "helper: run --seccomp-dir wrote the helper"
    return
  fi
  d=$B/ws
  hc () { # WANT WHAT BWRAP-MOUNTS... -- CHECKS...
    local want=$1 what=$2 out rc
    shift 2
    local mounts=() checks=()
    while [ "$1" != -- ]; do mounts+=("$1"); shift; done
    shift
    checks=("$@")
    out=$($AS bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc \
      --bind "$d" "$d" "${mounts[@]}" -- "$h" -A 0 "${checks[@]}" -- true 2>&1)
    rc=$?
    check "helper: $what (status $rc: $(echo $out))" [ "$rc" = "$want" ]
  }
  hc 0 "a read-only bind in place passes -M" \
    --ro-bind "$d/b" "$d/b" -- -M "$d/b"
  hc 125 "no mount where -m expects one: refused" -- -m "$d/b"
  hc 125 "a writable bind where -M expects a read-only one: refused" \
    --bind "$d/b" "$d/b" -- -M "$d/b"
  hc 125 "a link on the way: refused" \
    --ro-bind "$d/b" "$d/a/real" -- -M "$d/a/link"
}

# Runs the checks must not refuse (the review found both refused): a
# git-backed store inside a hidden one (a later mount covers the earlier),
# and a writable root nested below a pinned directory.
controls_case () {
  local B=$WORK/$MODE-controls uid=0 out
  [ -n "$AS" ] && uid=65534
  local ws=$B/ws
  mkdir -p "$ws/.password-store/.git/hooks" "$ws/.config/gcloud" \
    "$ws/.config/myapp"
  : > "$ws/.password-store/.git/config"
  echo "sbx-secret-$RUN" > "$ws/.config/gcloud/token"
  bundle "$B/pass" "$ws" "$uid" sh -c 'cat .config/gcloud/token 2>&1; echo ran'
  python3 - "$B/pass/config.json" "$ws" <<'PYEOF2'
import json, sys
c = json.load(open(sys.argv[1]))
c["sbx"]["writableRoots"] = [sys.argv[2] + "/.config/myapp"]
json.dump(c, open(sys.argv[1], "w"))
PYEOF2
  [ -n "$AS" ] && chown -R 65534:65534 "$B"
  out=$(sbx_home "$ws" run --bundle "$B/pass" "ctl-$RUN" 2>&1 < /dev/null)
  check "a home with a git-backed store and a nested writable root runs ($(echo $out | head -c 200))" \
    eval '[[ "$out" == *ran* ]]'
  check "... and its gcloud store stays hidden" \
    eval '[[ "$out" != *"sbx-secret-$RUN"* ]]'
}

suite_all () {
  suite
  helper_case
  controls_case
}

run_as_root_and_user suite_all
finish
