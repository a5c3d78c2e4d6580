#!/bin/sh
# The command strings given to in_sandbox are expanded inside the sandbox,
# not here:
# shellcheck disable=SC2016
# The first run on a Mac.  Run it from a checkout, as the user
# who will use sbx-oci (not root), on a Mac with meson, ninja, pkg-config
# and yajl (`brew install meson pkg-config yajl`):
#
#   sh tests/macos/first-run.sh [BUILD_DIR]
#
# It builds sbx-oci, runs the unit tests, regenerates the profiles of the
# golden table (tests/unit/test_sbpl.c) with the build, feeds each one to
# the real /usr/bin/sandbox-exec, and then runs commands under sbx-oci to
# check what the profiles are meant to do.  It prints a TAP report; paste
# it into a report to the project.  Everything it writes is below a temporary directory
# in your home, removed at the end.  Some checks, if the sandbox does NOT
# hold, open a Terminal window or ask for automation permission: refuse
# the permission and close the window; the report records the failure.
#
# Not yet run on a Mac.  On Linux it has only been parsed (`sh -n`) and
# linted (tests/integration/macos_first_run_lint.sh).
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd -P)
BUILD=${1:-$ROOT/build-macos}
SANDBOX_EXEC=/usr/bin/sandbox-exec
N=0
FAILED=0

ok () { N=$((N + 1)); echo "ok $N - $1"; }
not_ok () { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $1"; }
skip () { N=$((N + 1)); echo "ok $N - $1 # SKIP $2"; }
note () { echo "# $*"; }
# result STATUS DESCRIPTION: ok when STATUS is 0.
result () { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
# result_fails STATUS DESCRIPTION: ok when STATUS is not 0.
result_fails () { if [ "$1" -ne 0 ]; then ok "$2"; else not_ok "$2"; fi; }

if [ "$(uname -s)" != Darwin ]; then
  echo "1..0 # SKIP not macOS: this script is for a Mac"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "Bail out! run as the user who will use sbx-oci, not as root"
  exit 1
fi
note "macOS $(sw_vers -productVersion) ($(sw_vers -buildVersion)), $(uname -m)"
note "checkout $ROOT at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"

# 1. Build.
if [ ! -d "$BUILD" ]; then
  meson setup "$BUILD" "$ROOT" > "$BUILD.setup.log" 2>&1 \
    || { echo "Bail out! meson setup failed: see $BUILD.setup.log"; exit 1; }
fi
meson compile -C "$BUILD" > "$BUILD.compile.log" 2>&1 \
  || { echo "Bail out! meson compile failed: see $BUILD.compile.log"; exit 1; }
ok "sbx-oci builds on macOS"
SBX=$BUILD/sbx-oci
meson test -C "$BUILD" --suite unit > "$BUILD.unit.log" 2>&1
result $? "the unit tests pass on macOS (log: $BUILD.unit.log)"

WORK=$(mktemp -d "$HOME/.sbx-first-run.XXXXXX") || {
  echo "Bail out! cannot make a directory in $HOME"
  exit 1
}
WORK=$(cd "$WORK" && pwd -P)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# 2. The golden table, regenerated here, each profile fed to sandbox-exec.
mkdir -p "$WORK/gold/tests/golden/sbpl"
SBX_SOURCE_ROOT=$WORK/gold SBX_UPDATE_GOLDEN=1 "$BUILD/tests/unit/test_sbpl" \
  > "$WORK/gold.log" 2>&1
result $? "the golden table's profiles are generated on macOS"
for sb in "$WORK"/gold/tests/golden/sbpl/*.sb; do
  [ -e "$sb" ] || continue
  name=$(basename "$sb" .sb)
  cmp -s "$sb" "$ROOT/tests/golden/sbpl/$name.sb"
  result $? "golden $name: generated on macOS as on Linux"
  out=$("$SANDBOX_EXEC" -f "$sb" /usr/bin/true 2>&1)
  st=$?
  result "$st" "golden $name: sandbox-exec accepts the profile"
  [ "$st" -eq 0 ] || note "sandbox-exec said (status $st): $out"
done

# 3. A profile with a deliberate syntax error: what sandbox-exec exits
# with, which sbx-oci cannot tell from the command's own status.
printf '(version 1)\n(allow default)\n(deny file-wrte*)\n' > "$WORK/bad.sb"
out=$("$SANDBOX_EXEC" -f "$WORK/bad.sb" /usr/bin/true 2>&1)
st=$?
result_fails "$st" "sandbox-exec refuses a profile with a misspelt operation"
note "sandbox-exec exits $st on a profile it rejects: $out"
"$SANDBOX_EXEC" -p "$(cat "$WORK/bad.sb")" -- /usr/bin/true > /dev/null 2>&1
note "with -p PROFILE -- it exits $?"

# 4. Commands under sbx-oci.
WS=$WORK/ws
mkdir -p "$WS"
UID_=$(id -u)
GID_=$(id -g)

json_str ()
{
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# sh_quote S: S as one single-quoted shell word.
sh_quote ()
{
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# write_config BUNDLE MODE NETWORK WORKSPACE MOUNTS SBX_EXTRA ARG...
write_config ()
{
  b=$1 mode=$2 net=$3 ws=$4 mounts=$5 extra=$6
  shift 6
  args=
  for a in "$@"; do
    args="$args${args:+, }$(json_str "$a")"
  done
  mkdir -p "$b"
  cat > "$b/config.json" <<EOF
{
  "ociVersion": "1.2.0",
  "root": {"path": "/", "readonly": true},
  "mounts": [$mounts],
  "process": {
    "args": [$args],
    "cwd": $(json_str "$ws"),
    "user": {"uid": $UID_, "gid": $GID_},
    "env": ["PATH=/usr/bin:/bin:/usr/sbin:/sbin"],
    "noNewPrivileges": true
  },
  "sbx": {
    "mode": "$mode",
    "workspace": $(json_str "$ws"),
    "network": "$net"${extra:+, $extra}
  }
}
EOF
}

deny_mount () { printf '{"destination": %s, "type": "tmpfs", "options": ["ro"]}' "$(json_str "$1")"; }
rw_mount () { printf '{"destination": %s, "type": "bind", "source": %s, "options": ["rbind", "rw"]}' "$(json_str "$1")" "$(json_str "$1")"; }

RUNS=0
# in_sandbox MODE NETWORK MOUNTS SCRIPT: run sh -c SCRIPT in the workspace
# under sbx-oci; its status is the command's.
in_sandbox ()
{
  RUNS=$((RUNS + 1))
  write_config "$WORK/b" "$1" "$2" "$WS" "$3" "" sh -c "$4"
  "$SBX" run --bundle "$WORK/b" "first-run-$$-$RUNS" 2> "$WORK/err"
}

# The agent quick start, as the README gives it.
mkdir -p "$WORK/q"
"$SBX" spec --agent --workspace "$WS" --bundle "$WORK/q" > /dev/null 2>&1
"$SBX" run --bundle "$WORK/q" "first-run-$$-q" > /dev/null 2> "$WORK/err"
st=$?
result "$st" "the agent quick start (spec --agent, run) runs"
[ "$st" -eq 0 ] || note "$(cat "$WORK/err")"
"$SBX" run --dry-run --bundle "$WORK/q" > "$WORK/q.sb" 2> "$WORK/err"
"$SANDBOX_EXEC" -f "$WORK/q.sb" /usr/bin/true > /dev/null 2>&1
result $? "the quick start's real profile (with this Mac's paths) is accepted"

in_sandbox workspace-write deny "" 'echo x > inside'
result $? "workspace-write: the workspace is writable"
in_sandbox workspace-write deny "" "echo x > $(sh_quote "$WORK/outside")"
result_fails $? "workspace-write: outside the workspace is not writable"
in_sandbox workspace-write deny "" 'f=$(mktemp /tmp/sbx.XXXXXX) && rm -f "$f"'
result $? "workspace-write: /tmp is writable"
touch "$WORK/outside-mode"
chmod 644 "$WORK/outside-mode"
in_sandbox workspace-write deny "" "chmod 600 $(sh_quote "$WORK/outside-mode")"
result_fails $? "file-write-mode: chmod outside the workspace is refused"

# Nested layers: /ws write, /ws/vendor hidden, /ws/vendor/cache write.
mkdir -p "$WS/vendor/cache"
echo secret > "$WS/vendor/secret"
echo TOKEN=1 > "$WS/.env"
NEST="$(deny_mount "$WS/vendor"), $(rw_mount "$WS/vendor/cache"), $(deny_mount "$WS/.env")"
in_sandbox workspace-write deny "$NEST" 'cat vendor/secret'
result_fails $? "nested: a hidden directory's file is unreadable"
in_sandbox workspace-write deny "$NEST" 'echo x > vendor/new'
result_fails $? "nested: a hidden directory is unwritable"
in_sandbox workspace-write deny "$NEST" 'echo x > vendor/cache/new'
result $? "nested: a grant inside the hidden directory is writable"
in_sandbox workspace-write deny "$NEST" 'cd vendor/cache && /bin/pwd -P > /dev/null'
result $? "nested: the way to the nested grant resolves (getcwd, realpath)"
in_sandbox workspace-write deny "$NEST" 'cat .env'
result_fails $? "a hidden file's contents are unreadable"
in_sandbox workspace-write deny "$NEST" 'ls -ld .env vendor > /dev/null'
result $? "a hidden file and directory can still be stat'ed (ls -l)"

# The rename bypass: walk .git away from its protected hooks and back.
mkdir -p "$WS/.git/hooks"
echo '[core]' > "$WS/.git/config"
in_sandbox workspace-write deny "" 'echo evil > .git/hooks/pre-commit'
result_fails $? "protected: .git/hooks is read-only"
in_sandbox workspace-write deny "" 'mv .git .git2 && mkdir -p .git2/hooks && echo evil > .git2/hooks/pre-commit && mv .git2 .git'
result_fails $? "protected: renaming .git away is refused"
if [ -e "$WS/.git/hooks/pre-commit" ] || [ -e "$WS/.git2" ]; then
  not_ok "protected: the rename bypass left no hook behind"
  rm -rf "$WS/.git2" "$WS/.git/hooks/pre-commit"
else
  ok "protected: the rename bypass left no hook behind"
fi

# A pty, as script(1), expect, Python's pty and tmux open one.
in_sandbox workspace-write deny "" 'script -q /dev/null /usr/bin/true < /dev/null'
result $? "pty: script(1) opens /dev/ptmx and a /dev/ttys* under the sandbox"

# Apple's per-user temporary and cache directories.
in_sandbox workspace-write deny "" 'd=$(getconf DARWIN_USER_TEMP_DIR) && f="${d%/}/sbx-first-run.$$" && : > "$f" && rm "$f"'
result $? "the DARWIN_USER_TEMP_DIR (confstr) is writable"
in_sandbox workspace-write deny "" 'd=$(getconf DARWIN_USER_CACHE_DIR) && f="${d%/}/sbx-first-run.$$" && : > "$f" && rm "$f"'
result $? "the DARWIN_USER_CACHE_DIR (confstr) is writable"
if xcode-select -p > /dev/null 2>&1; then
  in_sandbox workspace-write deny "" 'xcrun --show-sdk-path 2>&1 > /dev/null | grep . && exit 1; git --version > /dev/null'
  result $? "/usr/bin shims (xcrun, git) run without complaint"
else
  skip "/usr/bin shims (xcrun, git) run without complaint" "no command line tools"
fi

# setuid programs: the enforcement report says they are refused.
in_sandbox workspace-write deny "" '/bin/ps -p $$ > /dev/null 2>&1'
st=$?
result_fails "$st" "setuid: /bin/ps (setuid root) is refused under the sandbox"
note "/bin/ps under the sandbox exited $st"

# LaunchServices and AppleEvents would run code outside the sandbox.
printf '#!/bin/sh\ntouch %s\n' "$(sh_quote "$WORK/opened")" > "$WS/x.command"
chmod +x "$WS/x.command"
in_sandbox workspace-write deny "" 'open x.command'
note "open x.command exited $?"
sleep 5
if [ -e "$WORK/opened" ]; then
  not_ok "launchservices: open x.command ran nothing outside the sandbox"
else
  ok "launchservices: open x.command ran nothing outside the sandbox"
fi
in_sandbox workspace-write deny "" "osascript -e 'tell application \"Terminal\" to do script \"touch $WORK/scripted\"'"
note "osascript exited $?"
sleep 3
if [ -e "$WORK/scripted" ]; then
  not_ok "appleevents: Terminal ran no script for the sandbox"
else
  ok "appleevents: Terminal ran no script for the sandbox"
fi

# A grant spelt under /System/Volumes/Data names the same directory.
write_config "$WORK/b" workspace-write deny "/System/Volumes/Data$WS" "" "" \
  sh -c "echo x > $(sh_quote "$WS/data-spelling")"
"$SBX" run --bundle "$WORK/b" "first-run-$$-data" 2> "$WORK/err"
result $? "a workspace spelt under /System/Volumes/Data is writable"

# Loopback, from the sandbox and from outside it.
PORT_LO=38517
PORT_LAN=38518
LAN=$(ipconfig getifaddr en0 2> /dev/null || ipconfig getifaddr en1 2> /dev/null)
write_config "$WORK/lo" workspace-write loopback "$WS" "" \
  '"limits": {"wallClockSeconds": 15}' \
  sh -c "nc -l 127.0.0.1 $PORT_LO > got-lo & nc -l $PORT_LAN > got-lan & wait"
"$SBX" run --bundle "$WORK/lo" "first-run-$$-lo" 2> "$WORK/lo.err" &
LISTENER=$!
sleep 2
echo hello | nc -G 2 -w 2 127.0.0.1 "$PORT_LO" > /dev/null 2>&1
sleep 1
grep -q hello "$WS/got-lo" 2> /dev/null
result $? "loopback: a client on 127.0.0.1 reaches a sandboxed listener"
if [ -n "$LAN" ]; then
  echo hello | nc -G 2 -w 2 "$LAN" "$PORT_LAN" > /dev/null 2>&1
  note "connecting from outside to $LAN:$PORT_LAN exited $?"
  sleep 1
  if grep -q hello "$WS/got-lan" 2> /dev/null; then
    not_ok "loopback: a client on the LAN address ($LAN) is not answered"
  else
    ok "loopback: a client on the LAN address ($LAN) is not answered"
  fi
else
  skip "loopback: a client on the LAN address is not answered" "no address on en0/en1"
fi
wait "$LISTENER"
note "the loopback listener's run exited $?: $(tr '\n' ' ' < "$WORK/lo.err")"
in_sandbox workspace-write loopback "" 'nc -z -G 2 1.1.1.1 443'
result_fails $? "loopback: the internet is unreachable"

echo "1..$N"
note "$FAILED of $N checks failed"
[ "$FAILED" -eq 0 ]
