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

# refused PHRASE NAME: the last command was refused with PHRASE in its
# line (nothing to refuse with SBX_ADV_OLD).
refused ()
{
  [ -n "${SBX_ADV_OLD:-}" ] && return 0
  tap_ok "$2: refused" test "$RC" -ne 0
  tap_has "$OUT" "$1" "$2: the refusal names $1"
}

# exec_process ID MEMBERS ARG...: `exec --process` into ID with a process
# object running ARG... as the caller, with MEMBERS (JSON text, may be
# empty) added; OUT and RC as run_bundle sets them.
exec_process ()
{
  local id=$1 members=$2 args="" a
  shift 2
  for a in "$@"; do args="$args${args:+, }$(json_str "$a")"; done
  printf '{"args": [%s], "cwd": %s, "user": {"uid": %s, "gid": %s}%s}\n' \
    "$args" "$(json_str "$WS")" "$(id -u)" "$(id -g)" \
    "${members:+, $members}" > "$WORK/process.json"
  OUT=$(sbx exec --process "$WORK/process.json" "$id" 2>&1)
  RC=$?
}

# A sandbox created under the ceiling, then `exec --process FILE` into it:
# the process object is what an agent (or a tool acting for one) may have
# composed, and it must meet the gates create's config met.
case_exec_process ()
{
  local b="$WORK/execb" id
  write_agent "$b" workspace-write "$WS" "" sleep 120
  N=$((N + 1))
  id="late-$N"
  sbx create --bundle "$b" "$id" > "$WORK/create.out" 2>&1
  sbx start "$id" > /dev/null 2>&1
  exec_process "$id" "" true
  tap_is "$RC" 0 "exec: a plain process runs (control)"
  exec_process "$id" '"capabilities": {"bounding": ["CAP_DAC_READ_SEARCH"], "effective": ["CAP_DAC_READ_SEARCH"], "permitted": ["CAP_DAC_READ_SEARCH"]}' \
    grep CapEff /proc/self/status
  refused "add \"capabilities\" to the ceiling's \"approve\"" \
    "exec: capabilities"
  tap_lacks "$OUT" "CapEff:	0000000000000004" "exec: capabilities: none granted"
  exec_process "$id" '"env": ["PATH=/usr/bin:/bin", "MYTOKEN=sbx-tok", "DATABASE_URL=postgres://app:sbx-pw@db/x"]' env
  tap_lacks "$OUT" sbx-tok "exec: a credential-shaped name is not passed"
  tap_lacks "$OUT" sbx-pw "exec: a URL's password is removed"
  tap_has "$OUT" "credential-shaped names not passed: MYTOKEN" \
    "exec: the dropped name is reported"
  exec_process "$id" '"oomScoreAdj": -1000' cat /proc/self/oom_score_adj
  refused "add \"oom-score-adj\" to the ceiling's \"approve\"" \
    "exec: oomScoreAdj"
  exec_process "$id" '"ioPriority": {"class": "IOPRIO_CLASS_RT", "priority": 0}' true
  refused "process.ioPriority: not a field an untrusted config may set" \
    "exec: a field the allow-list does not know"
  exec_process "$id" '"apparmorProfile": "unconfined"' true
  refused "process.apparmorProfile: bubblewrap cannot apply" \
    "exec: an AppArmor profile"
  local above=$((($(ulimit -Hl) + 1) * 1024))
  exec_process "$id" "\"rlimits\": [{\"type\": \"RLIMIT_MEMLOCK\", \"hard\": $above, \"soft\": $above}]" \
    sh -c 'echo "memlock=$(ulimit -Hl)"'
  refused "add \"rlimits\" to the ceiling's \"approve\"" \
    "exec: a resource limit above the caller's"
  tap_lacks "$OUT" "memlock=$((above / 1024))" "exec: the limit is not raised"
  if as_root; then
    printf '{"args": ["id", "-u"], "cwd": %s, "user": {"uid": 4242, "gid": 4242}}\n' \
      "$(json_str "$WS")" > "$WORK/process.json"
    OUT=$(sbx exec --process "$WORK/process.json" "$id" 2>&1)
    RC=$?
    refused "add \"user\" to the ceiling's \"approve\"" \
      "exec: another identity than the caller's"
    tap_lacks "$OUT" 4242 "exec: another identity: not taken"
  fi
  sbx delete --force "$id" > /dev/null 2>&1
}

write_ceiling ()
{
  local approve="" a
  for a in "$@"; do approve="$approve${approve:+, }$(json_str "$a")"; done
  printf '{"workspaces": [%s], "maxNetwork": "loopback", "approve": [%s]}\n' \
    "$(json_str "$WS")" "$approve" > "$WORK/ceiling"
}

run_cases ()
{
  WS="$WORK/ws"
  mkdir -p "$WS" "$WORK/state"
  : > "$WORK/empty"
  write_ceiling
  case_setid_files
  case_exec_process
}

tap_suite "$HERE/after_launch.sh" late SBX_OCI SETID_PROBE SBX_ADV_OLD
