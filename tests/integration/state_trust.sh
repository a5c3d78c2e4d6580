#!/bin/bash
# The state root and the runtime's own files cannot be turned against the
# user who runs sbx-oci: a state root another user made or can
# write is refused, everything under it is opened without following
# symlinks, the probe cache is believed only when it is the caller's own,
# atomic writes cannot be redirected, and `run` checks its input before
# anything runs.  The attacks need two users: run as root, the attacker is
# uid 65534 and the victim root or a uid no one else uses; run as anyone
# else, only the one-user cases run.  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
WORK=$(mktemp -d /tmp/sbx-trust.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"
PY=/usr/bin/python3
ATTACKER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# A victim uid of this run alone, so that its fallback state root
# (/tmp/sbx-oci-UID) is no other run's.
VUID=$((60000 + $$ % 4000))
while [ -e "/tmp/sbx-oci-$VUID" ]; do VUID=$((VUID + 1)); done
VICTIM=(setpriv --reuid=$VUID --regid=$VUID --clear-groups)
trap 'rm -rf "/tmp/sbx-oci-$VUID"' EXIT

# agent_bundle DIR UID ARG...: a read-only agent bundle running ARG... as
# UID, its workspace DIR/ws (writable by everyone, for the cases' marks).
agent_bundle () {
  local dir=$1 uid=$2
  shift 2
  mkdir -p "$dir/ws"
  chmod 755 "$dir"
  chmod 777 "$dir/ws"
  $PY - "$dir" "$uid" "$@" <<'PY'
import json, sys
d, uid, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
c = {"ociVersion": "1.2.0", "root": {"path": "/", "readonly": True},
     "process": {"args": args, "cwd": d + "/ws", "user": {"uid": uid, "gid": uid},
                 "env": ["PATH=/usr/bin:/bin"], "noNewPrivileges": True},
     "sbx": {"mode": "workspace-write", "workspace": d + "/ws", "network": "deny"}}
json.dump(c, open(d + "/config.json", "w"))
PY
}

# forge_state ROOT ID BUNDLE PID START: what an attacker writes as ROOT/ID.
forge_state () {
  mkdir -p "$1/$2" && cat > "$1/$2/state.json" <<EOF
{"ociVersion": "1.2.0", "id": "$2", "pid": $4, "bundle": "$3",
 "org.sbx-oci": {"startTime": $5}}
EOF
}

# A bundle whose poststop hook leaves a mark: the attacker's bundle.
hook_bundle () {
  local dir=$1 mark=$2
  agent_bundle "$dir" 0 true
  $PY - "$dir/config.json" "$mark" <<'PY'
import json, sys
path, mark = sys.argv[1], sys.argv[2]
c = json.load(open(path))
c["hooks"] = {"poststop": [{"path": "/bin/sh", "args": ["sh", "-c", "touch " + mark]}]}
json.dump(c, open(path, "w"))
PY
}

# The fallback state root, made by another user: a forged state.json
# whose bundle's hook would run as the victim, and a planted symlink into
# a directory of the victim's.
case_foreign_fallback () {
  local root=/tmp/sbx-oci-$VUID mark=$WORK/ws-hook/hooked
  hook_bundle "$WORK/evil" "$mark"
  mkdir -p "$WORK/ws-hook"; chmod 777 "$WORK/ws-hook"
  mkdir -p "$WORK/victim-files"; echo keep > "$WORK/victim-files/precious"
  chown -R $VUID:$VUID "$WORK/victim-files"
  "${ATTACKER[@]}" sh -c "mkdir -m 755 $root" || { not_ok "attacker made $root"; return; }
  # The lock file too, open to all, or the victim could not lock the id.
  "${ATTACKER[@]}" sh -c "mkdir -p $root/h-$RUN && umask 0 && touch $root/h-$RUN/lock && cat > $root/h-$RUN/state.json" <<EOF
{"ociVersion": "1.2.0", "id": "h-$RUN", "pid": 1, "bundle": "$WORK/evil",
 "org.sbx-oci": {"startTime": 1}}
EOF
  "${ATTACKER[@]}" ln -s "$WORK/victim-files" "$root/l-$RUN"
  out=$("${VICTIM[@]}" env -i PATH=/usr/bin:/bin "$SBX" delete --force "h-$RUN" 2>&1)
  check "fallback root of another user: the forged bundle's hook does not run" [ ! -e "$mark" ]
  case $out in
    *"$root"*"owned by"*) ok "fallback root of another user: refused, naming it" ;;
    *) not_ok "fallback root of another user: refused, naming it" "got: $out" ;;
  esac
  check "the refusal is one line" [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]
  "${VICTIM[@]}" env -i PATH=/usr/bin:/bin "$SBX" delete --force "l-$RUN" >/dev/null 2>&1
  check "fallback root of another user: a planted symlink does not make delete --force empty the victim's directory" \
    [ -e "$WORK/victim-files/precious" ]
  # The probe cache it holds is not believed either: a forged answer
  # would make the report say what the attacker wants.
  local key
  agent_bundle "$WORK/vcheck" $VUID true
  mkdir -m 700 "$WORK/vroot"; chown $VUID:$VUID "$WORK/vroot"
  "${VICTIM[@]}" env -i PATH=/usr/bin:/bin "$SBX" --root "$WORK/vroot" check --bundle "$WORK/vcheck" >/dev/null 2>&1
  key=$(head -n 1 "$WORK/vroot/+probe.cache" 2>/dev/null)
  if [ -z "$key" ]; then not_ok "the victim's own root holds a probe cache"; return; fi
  printf '%s\n99.0.0 1 1\n' "$key" | "${ATTACKER[@]}" sh -c "cat > $root/+probe.cache"
  out=$("${VICTIM[@]}" env -i PATH=/usr/bin:/bin "$SBX" check --bundle "$WORK/vcheck" 2>&1)
  tap_lacks_n "$out" "bubblewrap 99.0.0" "fallback root of another user: its forged probe cache is not believed"
}

# A world-writable --root: a forged state.json must not make root's kill
# signal a process of root's.
case_world_writable_kill () {
  local root=$WORK/ww
  mkdir -m 777 "$root"; chmod 777 "$root"
  sleep 1000 & local victim=$!
  local start
  start=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$victim/stat")
  "${ATTACKER[@]}" sh -c "mkdir $root/k-$RUN && cat > $root/k-$RUN/state.json" <<EOF
{"ociVersion": "1.2.0", "id": "k-$RUN", "pid": $victim, "bundle": "$WORK",
 "org.sbx-oci": {"startTime": $start}}
EOF
  out=$("$SBX" --root "$root" kill "k-$RUN" TERM 2>&1)
  sleep 0.2
  check "world-writable --root: root's kill does not signal a process named by a forged state" \
    kill -0 "$victim"
  case $out in
    *"$root"*"writable by group or others"*) ok "world-writable --root: refused, naming it" ;;
    *) not_ok "world-writable --root: refused, naming it" "got: $out" ;;
  esac
  kill "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
}

# Temporary names that can be guessed: symlinks planted for the pids the
# run will have (it is pid 1 of a fresh pid namespace) must not make the
# outcome overwrite a file the attacker cannot write.  WHO runs it.
case_outcome_redirect () {
  local who=$1 uid=$2; shift 2
  local d=$WORK/o-$uid host=$WORK/host-file-$uid
  mkdir -p "$d"
  agent_bundle "$d/b" "$uid" true
  echo sentinel > "$host"; chmod 644 "$host"; chown "$uid:$uid" "$host"
  mkdir -p "$d/out"; chown 65534:65534 "$d/out"; chmod 777 "$d/out"
  for p in $(seq 1 40); do "${ATTACKER[@]}" ln -s "$host" "$d/out/out.json.tmp.$p"; done
  mkdir -p "$d/state"; [ "$uid" = 0 ] || chown "$uid:$uid" "$d/state"
  unshare --pid --fork --mount-proc "$@" "$SBX" --root "$d/state" run --bundle "$d/b" \
    --outcome "$d/out/out.json" "o-$RUN" >/dev/null 2>&1
  check "$who's run --outcome into a directory others write: a planted symlink does not redirect it" \
    [ "$(cat "$host")" = sentinel ]
  check "$who's run --outcome: the outcome is written" grep -q '"exitCode"' "$d/out/out.json"
}

# State roots, as their owner: refusals and what is made.  AS runs as the
# mode's user, ROOTS is a directory it owns.
case_root_rules () {
  local r=$ROOTS
  $AS "$SBX" --root "$r/new/deeper" list >/dev/null 2>&1
  $AS "$SBX" --root "$r/made" list > /dev/null 2>&1
  $AS mkdir -p "$r/made2"
  agent_bundle "$r/b" "$(${AS:-env} id -u)" true
  $AS "$SBX" --root "$r/made" run --bundle "$r/b" "m-$RUN" >/dev/null 2>&1
  check "a missing state root is made 0700" [ "$(stat -c %a "$r/made" 2>/dev/null)" = 700 ]
  $AS mkdir -m 775 "$r/g"; $AS chmod 775 "$r/g"
  out=$($AS "$SBX" --root "$r/g" list 2>&1)
  case $out in
    *"$r/g"*"writable by group or others"*"chmod"*) ok "a group-writable state root is refused, naming it and the fix" ;;
    *) not_ok "a group-writable state root is refused, naming it and the fix" "got: $out" ;;
  esac
  $AS ln -s "$r/made" "$r/link"
  out=$($AS "$SBX" --root "$r/link" list 2>&1)
  check "a state root that is a symlink is refused" [ $? -ne 0 ]
  case $out in *"$r/link"*"symlink"*) ok "the symlink refusal names it" ;; *) not_ok "the symlink refusal names it" "got: $out" ;; esac
  # Inside a root of one's own: a container entry that is a symlink is
  # not followed, neither by state nor by delete --force.
  $AS mkdir -p "$r/own" "$r/mine"; $AS chmod 700 "$r/own"
  $AS sh -c "echo keep > $r/mine/precious"
  $AS ln -s "$r/mine" "$r/own/s-$RUN"
  $AS "$SBX" --root "$r/own" delete --force "s-$RUN" >/dev/null 2>&1
  check "a container entry that is a symlink: delete --force leaves its target's files" [ -e "$r/mine/precious" ]
  out=$($AS "$SBX" --root "$r/own" state "s-$RUN" 2>&1)
  check "a container entry that is a symlink: state refuses it" [ $? -ne 0 ]
  # A probe cache that is not a private regular file is not believed.
  $AS "$SBX" --root "$r/made" check --bundle "$r/b" >/dev/null 2>&1
  local key
  key=$(head -n 1 "$r/made/+probe.cache" 2>/dev/null)
  if [ -z "$key" ]; then not_ok "the root holds a probe cache"; return; fi
  $AS sh -c "printf '%s\n99.0.0 1 1\n' '$key' > $r/forged; chmod 666 $r/forged; rm -f $r/made/+probe.cache; ln -s $r/forged $r/made/+probe.cache"
  out=$($AS "$SBX" --root "$r/made" check --bundle "$r/b" 2>&1)
  tap_lacks_n "$out" "bubblewrap 99.0.0" "a probe cache that is a symlink is not believed"
  $AS sh -c "rm -f $r/made/+probe.cache; cp $r/forged $r/made/+probe.cache; chmod 666 $r/made/+probe.cache"
  out=$($AS "$SBX" --root "$r/made" check --bundle "$r/b" 2>&1)
  tap_lacks_n "$out" "bubblewrap 99.0.0" "a probe cache writable by others is not believed"
}

# refused DESC NEEDLE ARG...: `run ARG...` fails saying NEEDLE (a glob)
# and its command, which touches ws/ran, never runs.
refused () {
  local desc=$1 needle=$2
  shift 2
  rm -f "$B/ws/ran"
  out=$($AS "$SBX" --root "$ROOTS/in-state" run --bundle "$B" "$@" 2>&1)
  local rc=$?
  # shellcheck disable=SC2254
  case $out in
    $needle) check "$desc" [ $rc -ne 0 ] ;;
    *) not_ok "$desc" "got: $out" ;;
  esac
  check "$desc: nothing ran" [ ! -e "$B/ws/ran" ]
}

# `run` checks what it is given before anything runs.
case_run_input () {
  B=$ROOTS/in
  agent_bundle "$B" "$(${AS:-env} id -u)" touch ran
  local id
  for id in "" "../../evil-$RUN" "a b"; do
    refused "run refuses the id \"$id\"" "*invalid container id*" "$id"
  done
  refused "run refuses an extra argument, naming it" "*extra*" "x-$RUN" extra
  refused "run refuses an --outcome whose directory is missing, naming it" \
    "*$ROOTS/no-such-dir*" --outcome "$ROOTS/no-such-dir/out.json" "x-$RUN"
  limit_bundle "$B" memory -5
  refused "run refuses a negative memory limit, naming it" \
    "*linux.resources.memory.limit*negative*" "x-$RUN"
  limit_bundle "$B" pids -5
  refused "run refuses a negative pids limit, naming it" \
    "*linux.resources.pids.limit*negative*" "x-$RUN"
  limit_bundle "$B" wall -5
  refused "run refuses a negative wall clock limit, naming it" \
    "*sbx.limits.wallClockSeconds*" "x-$RUN"
  limit_bundle "$B" memory 4096
  refused "a 4096-byte memory limit is said to be too small" \
    "*linux.resources.memory.limit*too small*" "x-$RUN"
}

# limit_bundle BUNDLE FIELD VALUE: BUNDLE's config.json with that limit.
limit_bundle () {
  $PY - "$1/config.json" "$2" "$3" <<'PY'
import json, sys
path, field, value = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = json.load(open(path))
c.pop("linux", None); c["sbx"].pop("limits", None)
if field == "wall":
    c["sbx"]["limits"] = {"wallClockSeconds": value}
else:
    c["linux"] = {"resources": {field: {"limit": value}}}
json.dump(c, open(path, "w"))
PY
}

# tap_lacks_n TEXT NEEDLE DESC, in this suite's numbering.
tap_lacks_n () {
  case $1 in
    *"$2"*) not_ok "$3" "$2 found in: $1" ;;
    *) ok "$3" ;;
  esac
}

one_user () {
  ROOTS=$WORK/$MODE
  mkdir -p "$ROOTS"; chmod 755 "$ROOTS"
  [ -n "$AS" ] && chown 65534:65534 "$ROOTS"
  case_root_rules
  case_run_input
}

if [ "$(id -u)" = 0 ]; then
  case_foreign_fallback
  case_world_writable_kill
  MODE=root case_outcome_redirect root 0
  MODE=uid case_outcome_redirect "uid $VUID" "$VUID" "${VICTIM[@]}"
else
  echo "# not root: the two-user attacks are skipped"
fi
run_as_root_and_user one_user
finish
