#!/bin/bash
# Attacks that act after the checks of `create` (TAP), each tried from a
# real agent sandbox under the operator's ceiling, as root and as uid 65534:
#   - a set-user-ID or set-group-ID file left in the workspace, which a
#     host user runs after the sandbox has ended (SETID_PROBE: setid_probe.c
#     tries every way to make one);
#   - `exec --process FILE` into a sandbox created under a ceiling: the
#     process object must meet the same gates as create's config did;
#   - a unix socket the host binds after the sandbox was launched (the
#     launch-time hiding cannot know it).
# SBX_ADV_OLD=1 runs them with an empty --approve file instead of the
# ceiling, as attacks.sh does.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../integration/lib.sh"
: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${SETID_PROBE:?set SETID_PROBE to tests/adversarial/setid_probe}"
WORK=${SBX_IT_WORK:-}
N=0
# The system's python: a version manager's shim starts slowly, and is not
# for every user.
PY=/usr/bin/python3

sbx ()
{
  if [ -n "${SBX_ADV_OLD:-}" ]; then
    "$SBX_OCI" --root "$WORK/state" --approve "$WORK/empty" "$@"
  else
    "$SBX_OCI" --root "$WORK/state" --ceiling "$WORK/ceiling" "$@"
  fi
}

as_root () { [ "$(id -u)" = 0 ]; }

# The ways setid_probe.c tries, each leaving WS/setid/WAY.
SETID_WAYS="chmod-suid chmod-sgid fchmod fchmodat fchmodat2 open-creat
  openat-creat creat open-tmpfile mknod mknodat openat2 sgid-dir"

case_setid_files ()
{
  local d="$WS/setid" way mode b="$WORK/setid"
  rm -rf "$d"
  mkdir -p "$d"
  write_agent "$b" workspace-write "$WS" "" sh -c \
    "$SETID_PROBE $d; cp /bin/sh $d/shell && chmod 4755 $d/shell; ls -l $d"
  run_bundle "$b"
  tap_is "$RC" 0 "setid: the probe ran"
  for way in $SETID_WAYS; do
    if [ ! -e "$d/$way" ]; then
      tap_skip "setid: $way leaves no set-id file" "not on this architecture"
      continue
    fi
    mode=$(stat -c %a "$d/$way")
    tap_ok "setid: $way leaves no set-id file (mode $mode)" \
      test -z "$(find "$d/$way" -maxdepth 0 -perm /6000)"
  done
  tap_lacks "$OUT" "fcaps: ok" \
    "setid: no file capability can be set (the agent holds no CAP_SETFCAP)"
  tap_lacks "$OUT" "hardlink: ok" \
    "setid: no setuid binary of the host can be hard-linked in (EXDEV)"
  if as_root; then
    # The evidence as a host user would meet it: another account runs the
    # file the sandbox left.
    local who
    who=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
      "$d/shell" -p -c 'id -u' 2>/dev/null)
    tap_is "${who:-none}" "$( [ -x "$d/shell" ] && echo 65534 || echo none)" \
      "setid: a host user running the sandbox's shell does not become root"
  else
    tap_lacks "$OUT" "chown-root: ok" "setid: no file can be given to root"
  fi
}

write_ceiling ()
{
  local approve="" a
  for a in "$@"; do approve="$approve${approve:+, }$(json_str "$a")"; done
  printf '{"workspaces": [%s], "approve": [%s]}\n' "$(json_str "$WS")" \
    "$approve" > "$WORK/ceiling"
}

run_cases ()
{
  WS="$WORK/ws"
  mkdir -p "$WS" "$WORK/state"
  : > "$WORK/empty"
  write_ceiling
  case_setid_files
}

tap_suite "$HERE/after_launch.sh" late SBX_OCI SETID_PROBE SBX_ADV_OLD
