#!/bin/bash
# The Landlock layer under agent sandboxes (TAP), as root and as uid 65534:
# the report names the layers that hold; git, a compiler and a package
# cache's writes keep working under it; nested grants behave the same with
# and without it; and each file-system layer refuses a write outside the
# grants on its own.  The last needs SBX_OCI_BROKEN (sbx-oci-broken, built
# with -Dtest_layer_breaks=true, never installed): one wrong writable bind
# the plan does not know of, and Landlock switchable off.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
SBX_OCI_BROKEN=${SBX_OCI_BROKEN:-}
LANDLOCK_HELPER=${LANDLOCK_HELPER:-}
WORK=${SBX_IT_WORK:-}
N=0
BIN=$SBX_OCI

sbx () { "$BIN" --root "$WORK/state" "$@"; }

# agent MOUNTS ARG...: ARG... in a fresh workspace-write sandbox on WS.
agent ()
{
  local m=$1
  shift
  write_agent "$WORK/b$((N + 1))" workspace-write "$WS" "$m" "$@"
  run_bundle "$WORK/b$((N + 1))"
}

landlock_abi ()
{
  local abi
  abi=$(printf '%s' "$OUTCOME" | sed -n 's/.*"landlockAbi":\([0-9]*\).*/\1/p')
  echo "${abi:-0}"
}

case_report ()
{
  agent "" true
  tap_has "$OUTCOME" '"layers":["namespaces","seccomp","landlock"]' \
    "the outcome lists the layers: namespaces, seccomp, landlock"
  tap_ok "the outcome names the landlock ABI ($(landlock_abi))" \
    test "$(landlock_abi)" -ge 1
}

# What a developer's tools do in a workspace: git, a compiler, and the
# writes of a package manager's cache (make, rename across directories,
# hard and symbolic links, truncate, a fifo, remove).
case_tools ()
{
  local script
  script='set -e
cd "$1"
git init -q repo && cd repo
echo hello > f && git add f
git -c user.name=t -c user.email=t@e commit -qm one && git log --oneline | wc -l
printf "int main(void){return 7;}\n" > p.c && cc -o p p.c && { ./p || echo "cc-built exit $?"; }
mkdir -p ../cache/a ../cache/b && echo pkg > ../cache/a/x.tar
mv ../cache/a/x.tar ../cache/b/x.tar && ln ../cache/b/x.tar ../cache/b/hard
ln -s x.tar ../cache/b/sym && truncate -s 0 ../cache/b/x.tar
mkfifo ../cache/fifo && rm -r ../cache && echo tools-done'
  mkdir -p "$WS/tools"
  agent "" sh -c "$script" sh "$WS/tools"
  tap_has "$OUT" "cc-built exit 7" "a compiler builds and runs a program"
  tap_has "$OUT" "tools-done" "git and a package cache's writes work"
  rm -rf "$WS/tools"
}

# /repo writable, /repo/vendor hidden, /repo/vendor/cache writable: the
# same answers with the Landlock layer and (sbx-oci-broken) without it.
nested_once ()
{
  local r="$WS/nested" m
  rm -rf "$r"
  mkdir -p "$r/vendor/cache"
  m="$(bind_rw "$r"), $(deny "$r/vendor"), $(bind_rw "$r/vendor/cache")"
  agent "$m" sh -c 'echo a > "$1/a" && echo top-ok
    { echo b > "$1/vendor/b"; } 2>/dev/null || echo vendor-refused
    echo c > "$1/vendor/cache/c" && echo cache-ok' sh "$r"
  tap_has "$OUT" "top-ok" "$1: the writable root takes a write"
  tap_has "$OUT" "vendor-refused" "$1: the hidden directory inside it refuses one"
  tap_has "$OUT" "cache-ok" "$1: the writable grant inside that takes one"
  tap_ok "$1: the host sees exactly the granted writes" \
    test -f "$r/vendor/cache/c" -a ! -e "$r/vendor/b"
}

case_nested ()
{
  nested_once "nested grants, landlock on"
  if [ -n "$SBX_OCI_BROKEN" ]; then
    BIN=$SBX_OCI_BROKEN SBX_TEST_NO_LANDLOCK=1 nested_once \
      "nested grants, landlock off"
  else
    tap_skip "nested grants, landlock off" "no sbx-oci-broken (-Dtest_layer_breaks=true)"
  fi
}

# write_outside: a write to OUTSIDE, a directory no grant covers, from a
# fresh sandbox of BIN; RESULT: what the shell said.
write_outside ()
{
  rm -f "$OUTSIDE/escape"
  agent "" sh -c 'echo escaped > "$1/escape" && echo write-went-through' sh "$OUTSIDE"
}

# break_mount_layer WHAT: from here on BIN is sbx-oci-broken, whose mount
# layer adds a wrong writable bind of OUTSIDE (a fresh directory); WHAT is
# skipped, and it fails, without sbx-oci-broken.
break_mount_layer ()
{
  if [ -z "$SBX_OCI_BROKEN" ]; then
    tap_skip "$1" "no sbx-oci-broken (-Dtest_layer_breaks=true)"
    return 1
  fi
  # Not below /tmp: the sandbox's /tmp is its own, and a grant.
  OUTSIDE=$(mktemp -d /var/tmp/sbx-ll.XXXXXX)
  chmod 777 "$OUTSIDE"
  BIN=$SBX_OCI_BROKEN
  export SBX_TEST_WRONG_BIND=$OUTSIDE
}

case_each_layer_alone ()
{
  break_mount_layer "each layer alone" || return
  write_outside
  tap_has "$OUT" "Permission denied" \
    "a wrong writable bind: landlock alone refuses the write"
  tap_ok "a wrong writable bind: nothing reached the host" \
    test ! -e "$OUTSIDE/escape"
  SBX_TEST_NO_LANDLOCK=1 write_outside
  tap_has "$OUT" "write-went-through" \
    "a wrong writable bind, landlock off: the write goes through (the test can fail)"
  tap_has "$OUTCOME" '"layers":["namespaces","seccomp"]' \
    "landlock off: the outcome lists the layers left"
  tap_has "$OUTCOME" "landlock: left out by the test-only build" \
    "landlock off: a reason says so"
  unset SBX_TEST_WRONG_BIND
  SBX_TEST_NO_LANDLOCK=1 write_outside
  tap_has "$OUT" "Read-only file system" \
    "landlock off, no wrong bind: the mount layer alone refuses the write"
  tap_ok "the mount layer alone: nothing reached the host" \
    test ! -e "$OUTSIDE/escape"
  BIN=$SBX_OCI
  rm -rf "$OUTSIDE"
}

# exec_write ID: a process exec'd into the started agent sandbox ID writes
# outside the grants.
exec_write ()
{
  rm -f "$OUTSIDE/escape"
  write_agent "$WORK/bx" workspace-write "$WS" "" sleep 60
  sbx create --bundle "$WORK/bx" "$1" > /dev/null 2>&1 && sbx start "$1"
  OUT=$(sbx exec "$1" sh -c 'echo escaped > "$1/escape" && echo write-went-through' \
    sh "$OUTSIDE" 2>&1)
  sbx delete --force "$1" > /dev/null 2>&1
}

# The second layer holds for exec'd processes too: exec runs them under
# the domain create's plan made (the kept policy's rules).
case_exec ()
{
  # Its own domain, but the signal scope is left out where the pid
  # namespace holds it: an exec'd process signals the sandbox's pid 1.
  write_agent "$WORK/bs" workspace-write "$WS" "" sleep 60
  sbx create --bundle "$WORK/bs" "lls-$N" > /dev/null 2>&1 && sbx start "lls-$N"
  OUT=$(sbx exec "lls-$N" sh -c 'kill -0 1 && echo signal-ok' 2>&1)
  sbx delete --force "lls-$N" > /dev/null 2>&1
  tap_has "$OUT" signal-ok "exec: the exec'd process may signal the sandbox's pid 1"
  break_mount_layer "exec under the landlock layer" || return
  exec_write "llx-$N"
  tap_has "$OUT" "Permission denied" \
    "exec, a wrong writable bind: landlock alone refuses the exec'd process's write"
  tap_ok "exec, a wrong writable bind: nothing reached the host" \
    test ! -e "$OUTSIDE/escape"
  SBX_TEST_NO_LANDLOCK=1 exec_write "llx-off-$N"
  tap_has "$OUT" "write-went-through" \
    "exec, landlock off: the write goes through (the test can fail)"
  unset SBX_TEST_WRONG_BIND
  BIN=$SBX_OCI
  rm -rf "$OUTSIDE"
}

# exec builds its domain from the kept rule paths, after the sandbox has
# run: a link it planted on the way to a nested writable root must not
# carry that root's rule elsewhere.  The sandbox moves WS/lk (which holds
# the nested root at DEST) aside and links WS/lk to OUTSIDE, then an
# exec'd process writes OUTSIDE/b, which only the wrong bind makes
# writable: Landlock alone must refuse it.  DEST is spelled plainly, with
# "//" (the first review's way round a text prefix), or through a
# read-only view of the workspace (the second review's: a link there is
# the sandbox's too); MORE is more mount entries.
planted_link_once ()
{
  local what=$1 dest=$2 ws=$3 more=${4:-} id="llk-$N-$RANDOM"
  rm -rf "$OUTSIDE/b" && mkdir -p "$ws/lk/b" "$OUTSIDE/b" && chmod 777 "$OUTSIDE/b"
  write_agent "$WORK/bk" workspace-write "$ws" \
    "$more$(printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "rw"]}' \
      "$(json_str "$dest")" "$(json_str "$ws/lk/b")")" sleep 60
  sbx create --bundle "$WORK/bk" "$id" > /dev/null 2>&1 && sbx start "$id"
  OUT=$(sbx exec "$id" sh -c 'mv "$1/lk" "$1/lk2" && ln -s "$2" "$1/lk" && echo planted' \
    sh "$ws" "$OUTSIDE" 2>&1)
  tap_has "$OUT" planted "exec, $what: the sandbox plants a link on the way to a nested root"
  OUT=$(sbx exec "$id" sh -c 'echo escaped > "$1/b/escape" && echo write-went-through' \
    sh "$OUTSIDE" 2>&1)
  tap_has "$OUT" "Permission denied" \
    "exec after a planted link, $what: landlock alone still refuses the write"
  tap_ok "exec after a planted link, $what: nothing reached the host" \
    test ! -e "$OUTSIDE/b/escape"
  # A directory on the way that it made unsearchable on its own mount
  # leaves exec working (the rule is its own to lose).
  sbx exec "$id" sh -c 'rm "$1/lk" && mv "$1/lk2" "$1/lk" && chmod 0 "$1/lk"' \
    sh "$ws" > /dev/null 2>&1
  OUT=$(sbx exec "$id" echo still-runs 2>&1)
  tap_has "$OUT" still-runs "exec, $what: a directory the sandbox made unsearchable stops no exec"
  chmod 755 "$ws/lk"
  sbx delete --force "$id" > /dev/null 2>&1
  rm -rf "$ws"
}

case_exec_planted_link ()
{
  break_mount_layer "exec through a planted link" || return
  local ws="$WORK/wsl" view lnk
  planted_link_once "plain" "$ws/lk/b" "$ws"
  planted_link_once "spelled //" "/$ws/./lk/b" "$ws"
  view=$(mktemp -d /var/tmp/sbx-ll-view.XXXXXX) && mkdir -p "$view/lk/b"
  planted_link_once "through a read-only view of the workspace" "$view/lk/b" "$ws" \
    "$(printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "ro"]}, ' \
      "$(json_str "$view")" "$(json_str "$ws")")"
  rm -rf "$view"
  # A grant reached through a link at launch (here a relative one on the
  # read-only root; bwrap cannot make a mount point through an absolute
  # one) is refused: the layer follows no link.
  ws=$(mktemp -d /var/tmp/sbx-ll-ws.XXXXXX)
  lnk=$(mktemp -u /var/tmp/sbx-ll-lnk.XXXXXX)
  ln -s "${ws##*/}" "$lnk"
  mkdir -p "$ws/lk/b"
  write_agent "$WORK/bl" workspace-write "$ws" \
    "$(printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "rw"]}' \
      "$(json_str "$lnk/lk/b")" "$(json_str "$ws/lk/b")")" true
  run_bundle "$WORK/bl"
  tap_ok "a grant reached through a link is refused, naming it ($RC: $OUT)" \
    test "$RC" = 121 -a -n "$(printf '%s' "$OUT" | grep "symbolic link $lnk")"
  rm -f "$lnk"
  rm -rf "$ws"
  unset SBX_TEST_WRONG_BIND
  BIN=$SBX_OCI
  rm -rf "$OUTSIDE"
}

# A rule path that is not valid UTF-8 (a nested repository the sandbox
# made under such a name gets rules of its own) is kept exactly: exec
# into the container still works, with that rule (a write there goes
# through; the kept policy used to be unreadable JSON: "corrupt kept
# policy").
case_exec_non_utf8 ()
{
  local ws="$WORK/wsu" id="llu-$N" odd=$'\xff'
  mkdir -p "$ws/$odd/.git"
  write_agent "$WORK/bu" workspace-write "$ws" "" sleep 60
  sbx create --bundle "$WORK/bu" "$id" > /dev/null 2>&1 && sbx start "$id"
  OUT=$(sbx exec "$id" sh -c 'echo x > "$1/f" && echo exec-wrote' sh "$ws/$odd" 2>&1)
  sbx delete --force "$id" > /dev/null 2>&1
  tap_has "$OUT" exec-wrote "exec, a rule path that is not UTF-8: the exec'd process runs under it"
  tap_ok "exec, a rule path that is not UTF-8: its write is there" test -s "$ws/$odd/f"
  rm -rf "$ws"
}

# A container opts in with "sbx": {"landlock": true}: its read-only
# rootfs refuses a write by both layers, its /dev/shm takes one.
case_container ()
{
  local b="$WORK/container"
  rm -rf "$b"
  mkdir -p "$b/rootfs/bin" "$b/rootfs/proc" "$b/rootfs/dev" "$b/rootfs/sys"
  cp /usr/bin/busybox "$b/rootfs/bin/busybox"
  ln -s busybox "$b/rootfs/bin/sh"
  (cd "$b" && "$SBX_OCI" spec) || return
  /usr/bin/python3 - "$b/config.json" <<'PY'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
c["process"]["args"] = ["/bin/busybox", "sh", "-c",
  "echo x > /dev/shm/ok && echo shm-ok; echo y > /bin/new || echo root-refused"]
c["process"]["env"] = ["PATH=/bin"]
c["sbx"] = {"landlock": True}
json.dump(c, open(p, "w"))
PY
  run_bundle "$b"
  tap_has "$OUTCOME" '"layers":["namespaces","landlock"]' \
    "a container opts in: the outcome lists the landlock layer"
  tap_has "$OUT" "shm-ok" "a container with landlock: /dev/shm takes a write"
  tap_has "$OUT" "root-refused" "a container with landlock: its read-only root refuses one"
}

# The helper's -a FD: its arguments, NUL-separated, from a descriptor (how
# `run` hands them to a bwrap started before the plan: runtime/linux/
# bwrap/prestart.h).  They are parsed as a command line's, rules included,
# and the descriptor is closed before the command runs.
case_helper_args ()
{
  if [ -z "$LANDLOCK_HELPER" ]; then
    tap_skip "the helper reads its arguments from -a" "no LANDLOCK_HELPER"
    return
  fi
  local f="$WORK/helper-args" out rc
  printf '%s\0' -A 0 -- /bin/sh -c \
    'echo "args $# $1"; { echo x >&3; } 2> /dev/null && echo fd-open || echo fd-closed' \
    sh 'one two' > "$f"
  out=$("$LANDLOCK_HELPER" -a 3 3< "$f" 2>&1)
  tap_is "$out" "args 1 one two
fd-closed" "-a: the command and its arguments come from the descriptor, which is closed"
  printf '%s\0' -A 1 -r / -w "$WORK" -- /bin/sh -c \
    'echo in > "$0"/ll-in; echo out > "$1"' "$WORK" "/tmp/sbx-ll-out-$$" > "$f"
  "$LANDLOCK_HELPER" -a 3 3< "$f" > /dev/null 2>&1
  tap_ok "-a: its rules hold (a write inside -w lands, one in /tmp is refused)" \
    test -s "$WORK/ll-in" -a ! -e "/tmp/sbx-ll-out-$$"
  rm -f "/tmp/sbx-ll-out-$$"
  printf '%s\0%s' -A 0 > "$f"
  out=$("$LANDLOCK_HELPER" -a 3 3< "$f" 2>&1)
  rc=$?
  tap_is "$rc:$out" "125:sbx-landlock: the arguments do not end with a NUL" \
    "-a: arguments cut short are refused (125)"
  "$LANDLOCK_HELPER" -a 9 > /dev/null 2>&1
  tap_is "$?" 125 "-a: a descriptor that is not open: 125"
  # Its footprint stays out of a config's RLIMIT_DATA (process.rlimits):
  # the arguments are mapped from the file, not copied into a buffer of
  # the helper's image.
  printf '%s\0' -A 0 -- /bin/echo small > "$f"
  out=$(prlimit --data=524288 "$LANDLOCK_HELPER" -a 3 3< "$f" 2>&1)
  tap_is "$?:$out" "0:small" "-a: the helper runs under an RLIMIT_DATA of 512 KiB"
}

# A rule on a path the helper cannot reach (a directory on its way that
# denies search: a root caller on the rung loses what it reached only
# through capabilities) is left out, and access there stays denied; the
# helper says so in one line instead of leaving it unsaid.  As root it
# runs without capabilities, as the rung's command does.
case_helper_unreachable ()
{
  if [ -z "$LANDLOCK_HELPER" ]; then
    tap_skip "a rule the helper cannot reach is named" "no LANDLOCK_HELPER"
    return
  fi
  # Its name holds a terminal escape, which must reach stderr as \x1b.
  local d="$WORK/unsearchable"$'\033'"[7m" f="$WORK/helper-args-unreachable"
  local out rc
  local no_caps=()
  [ "$(id -u)" -eq 0 ] && no_caps=(setpriv --bounding-set=-all --inh-caps=-all)
  mkdir -p "$d/ws"
  chmod 000 "$d"
  printf '%s\0' -A 1 -r / -w "$d/ws" -- /bin/sh -c 'echo ran' > "$f"
  out=$("${no_caps[@]}" "$LANDLOCK_HELPER" -a 3 3< "$f" 2>&1)
  rc=$?
  chmod 700 "$d"
  tap_is "$rc" 0 "a rule the helper cannot reach: the command still runs"
  tap_has "$out" "sbx-landlock: $WORK/unsearchable\\x1b[7m/ws: cannot be reached" \
    "a rule the helper cannot reach: it says so, naming the path"
  tap_lacks "$out" $'\033' "a rule the helper cannot reach: no raw escape in its line"
  tap_has "$out" "ran" "a rule the helper cannot reach: the command's output"
}

run_cases ()
{
  WS="$WORK/ws"
  mkdir -p "$WS" "$WORK/state"
  case_report
  case_tools
  case_nested
  case_each_layer_alone
  case_exec
  case_exec_planted_link
  case_exec_non_utf8
  case_container
  case_helper_args
  case_helper_unreachable
}

tap_suite "$0" landlock SBX_OCI SBX_OCI_BROKEN LANDLOCK_HELPER
