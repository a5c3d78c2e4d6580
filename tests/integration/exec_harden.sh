#!/bin/bash
# `exec` against a hostile sandbox and for an unprivileged caller, into an
# agent sandbox and into a busybox container alike:
#  - the CVE-2019-5736 attack: a process of the sandbox takes hold of the
#    sbx-oci that execs into it (/proc/PID/exe of the joining process, or
#    `exec ID /proc/self/exe`) and overwrites it once it is no longer
#    running.  The sbx-oci under attack is a copy in a temp dir, so a
#    successful attack never damages the build;
#  - `exec --tty` when the sandbox has made /dev/ptmx a symlink to a host
#    path: the host file must not be opened;
#  - exec joins exactly the sandbox's namespaces, also unprivileged (the
#    sandbox has a second, nested user namespace then), and stays confined.
# Run as root, the suite runs twice: as root, then as uid 65534 (setpriv).
# Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
WATCHER=${EXE_OVERWRITE:?set EXE_OVERWRITE to tests/integration/exe_overwrite}
HERE=$(cd "$(dirname "$0")" && pwd)
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-xharden.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }
# The sbx-oci under attack (fresh_copy): a copy, owned by the mode's user
# as a rootless install would be.
sbx_copy () { $AS env -i "$COPY" --root "$ROOT" "$@"; }

pid_of () { sbx state "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])'; }

# container_bundle DIR ARG...: a busybox container (the rootfs writable,
# its user uid 0) running ARG...
container_bundle () {
  local dir=$1
  shift
  busybox_bundle "$dir" sh sleep true cat rm ln readlink grep touch || return 1
  cp "$WATCHER" "$dir/rootfs/bin/exe_overwrite"
  python3 - "$dir/config.json" "$@" <<'PY'
import json, sys
path, args = sys.argv[1], sys.argv[2:]
c = json.load(open(path))
c["process"]["args"] = args
c["root"]["readonly"] = False
json.dump(c, open(path, "w"))
PY
  hand_over "$dir"
}

# agent_bundle DIR WORKSPACE ARG...: an agent sandbox (workspace-write,
# network "deny") running ARG... as the mode's user.
agent_bundle () {
  local dir=$1 ws=$2 uid=0
  shift 2
  [ -n "$AS" ] && uid=65534
  mkdir -p "$dir" "$ws"
  agent_config "$dir/config.json" "$ws" "$uid" "$@"
  chmod -R a+rX "$dir"
  [ -n "$AS" ] && chown -R 65534:65534 "$dir" "$ws"
  return 0
}

start_sandbox () { # BUNDLE ID
  sbx create --bundle "$1" "$2" > /dev/null && sbx start "$2"
}

# fresh_copy KIND: COPY, a copy of sbx-oci of KIND's own, and its
# "device inode" in ST.
fresh_copy () {
  COPY=$B/copy-$1/sbx-oci
  mkdir -p "$B/copy-$1"
  cp "$SBX" "$COPY"
  chmod 755 "$B/copy-$1" "$COPY"
  [ -n "$AS" ] && chown -R 65534:65534 "$B/copy-$1"
  ST=$(stat -c '%d %i' "$COPY")
}

# attack KIND ID DIR INNER: the CVE-2019-5736 attack against COPY from the
# sandbox ID, whose first process is exe_overwrite watching DIR (INNER
# inside the sandbox).  First an exec of COPY itself (FIRST: the path it
# is exec'd by), held by its --log FIFO until the watcher has looked at
# it; then execs of `true`, the watcher trying to catch each before it
# execs.  A container's exec'd process is COPY through /proc/self/exe; an
# agent sandbox's is exec'd by the Landlock helper, a sealed memfd, whose
# /proc/self/exe is the helper: there COPY is named by its host path (and
# is out of the watcher's reach anyway: another Landlock domain).
attack () {
  local kind=$1 id=$2 dir=$3 inner=$4 first=$5
  $AS mkfifo -m 666 "$dir/log.fifo"
  timeout 20 env -i $AS "$COPY" --root "$ROOT" exec "$id" "$first" \
    --log "$inner/log.fifo" x > /dev/null 2>&1
  for _ in $(seq 3); do
    grep -q OVERWRITTEN "$dir/result" 2>/dev/null && break
    sbx_copy exec "$id" true
    sbx_copy exec --detach "$id" true
  done
  $AS touch "$dir/stop"
  for _ in $(seq 100); do
    grep -q 'OVERWRITTEN\|done' "$dir/result" 2>/dev/null && break
    sleep 0.1
  done
  # A dynamically linked sbx-oci (the sanitized and -Dstatic_binary=
  # disabled builds) cannot start inside a busybox rootfs, which has no
  # loader: there the exec of /proc/self/exe is never seen, and only the
  # overwrite check below speaks.
  if [[ "$kind" == agent* ]]; then
    # Landlock: every exec'd process gets its own domain, which the
    # sandbox's processes (another domain) may not inspect: the watcher
    # sees the processes and is refused their exe.
    check "$kind: the sandbox's process looked at the exec'd processes and was refused (landlock domains)" \
      grep -q 'cannot open its exe: Permission denied' "$dir/result"
  elif [ "$kind" = container ] && readelf -l "$SBX" | grep -q INTERP; then
    ok "$kind: the sandbox's process saw the exec'd /proc/self/exe # SKIP a dynamically linked sbx-oci cannot start in a busybox rootfs"
  else
    check "$kind: the sandbox's process saw the exec'd /proc/self/exe (else the attack proved nothing)" \
      grep -q 'released the writer' "$dir/result"
  fi
  if cmp -s "$COPY" "$SBX"; then
    ok "$kind: the sandbox could not overwrite the sbx-oci that exec'd into it"
    sed 's/^/# /' "$dir/result"
  else
    not_ok "$kind: the sandbox could not overwrite the sbx-oci that exec'd into it" \
      "$(cat "$dir/result")"
  fi
  sbx delete --force "$id"
}

case_exe_overwrite () {
  fresh_copy container
  container_bundle "$B/cx" /bin/exe_overwrite $ST /tmp/attack
  mkdir -p "$B/cx/rootfs/tmp/attack"
  [ -n "$AS" ] && chown 65534:65534 "$B/cx/rootfs/tmp/attack"
  if start_sandbox "$B/cx" "cx-$RUN"; then
    attack container "cx-$RUN" "$B/cx/rootfs/tmp/attack" /tmp/attack \
      /proc/self/exe
  else
    not_ok "container: the attack's sandbox starts"
  fi

  fresh_copy agent
  mkdir -p "$B/ax-ws/bin" "$B/ax-ws/attack"
  cp "$WATCHER" "$B/ax-ws/bin/exe_overwrite"
  agent_bundle "$B/ax" "$B/ax-ws" "$B/ax-ws/bin/exe_overwrite" $ST "$B/ax-ws/attack"
  if start_sandbox "$B/ax" "ax-$RUN"; then
    attack agent "ax-$RUN" "$B/ax-ws/attack" "$B/ax-ws/attack" "$COPY"
  else
    not_ok "agent: the attack's sandbox starts"
  fi
  [ -z "$AS" ] && agent_ptrace_case
}

# exec into an agent sandbox runs the command through the Landlock helper,
# not from a sealed copy of sbx-oci: the claim is that the joining
# processes, outside the sandbox's Landlock domain, stay out of its reach
# even when it holds CAP_SYS_PTRACE in the host's user namespace and the
# host's fs.suid_dumpable is 1 (a change of uid makes a process dumpable
# then).  What holds is the sandbox's own domain, which may not inspect a
# process outside it: the attack was also refused with the exec'd
# process given no domain of its own; where the sandbox has no domain at
# all, exec runs from the sealed copy (the container case above, which
# overwrote sbx-oci with neither the copy nor the helper).  Root only: a
# root agent granted CAP_SYS_PTRACE by its own (trusted, ceiling-less)
# config.
agent_ptrace_case () {
  local dumpable
  dumpable=$(cat /proc/sys/fs/suid_dumpable)
  fresh_copy agent-ptrace
  mkdir -p "$B/apx-ws/bin" "$B/apx-ws/attack"
  cp "$WATCHER" "$B/apx-ws/bin/exe_overwrite"
  agent_bundle "$B/apx" "$B/apx-ws" "$B/apx-ws/bin/exe_overwrite" $ST \
    "$B/apx-ws/attack"
  python3 - "$B/apx/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
caps = ["CAP_SYS_PTRACE", "CAP_DAC_OVERRIDE"]
c["process"]["capabilities"] = {k: caps for k in ("bounding", "effective", "permitted")}
json.dump(c, open(sys.argv[1], "w"))
PY
  echo 1 > /proc/sys/fs/suid_dumpable
  if start_sandbox "$B/apx" "apx-$RUN"; then
    attack "agent holding CAP_SYS_PTRACE, fs.suid_dumpable 1" "apx-$RUN" \
      "$B/apx-ws/attack" "$B/apx-ws/attack" "$COPY"
  else
    not_ok "agent with CAP_SYS_PTRACE: the attack's sandbox starts"
  fi
  echo "$dumpable" > /proc/sys/fs/suid_dumpable
}

# A symlink the sandbox makes at /dev/ptmx to a host FIFO: a process
# blocked opening the FIFO for writing is let go by any open for reading,
# so an exec --tty that follows the link is seen.
case_tty_symlink () {
  local id=tty-$RUN sentinel=/tmp/sbx-ptmx-sentinel-$RUN out
  container_bundle "$B/tty" sleep 60
  if ! start_sandbox "$B/tty" "$id"; then
    not_ok "exec --tty: the sandbox starts"
    return
  fi
  out=$(timeout 30 $AS /usr/bin/python3 "$HERE/exec_tty.py" "$B/tty.sock" -- \
    env -i "$SBX" --root "$ROOT" exec --tty --console-socket "$B/tty.sock" \
    "$id" sh -c 'tty; readlink /proc/self/fd/0' 2>&1)
  check "exec --tty gives the process a terminal of the sandbox's devpts ($(echo $out))" \
    grep -qx '/dev/pts/[0-9]*' <<<"$out"
  rm -f "$B/tty.sock"

  mkfifo -m 666 "$sentinel"
  rm -f "$B/opened"
  timeout 20 sh -c 'exec 3> "$0"; echo opened > "$1"' "$sentinel" "$B/opened" &
  local holder=$!
  sbx exec "$id" sh -c "rm /dev/ptmx && ln -s $sentinel /dev/ptmx"
  check "the sandbox replaced its /dev/ptmx with a symlink to $sentinel" \
    [ "$(sbx exec "$id" readlink /dev/ptmx)" = "$sentinel" ]
  out=$(timeout 30 $AS /usr/bin/python3 "$HERE/exec_tty.py" "$B/tty.sock" -- \
    env -i "$SBX" --root "$ROOT" exec --tty --console-socket "$B/tty.sock" \
    "$id" true 2>&1)
  local rc=$?
  sleep 0.3
  check "exec --tty did not open the host file the sandbox's /dev/ptmx points to" \
    [ ! -e "$B/opened" ]
  check "exec --tty is refused, naming the terminal ($(echo $out))" \
    eval '[ $rc -ne 0 ] && grep -q "dev/ptmx" <<<"$out"'
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
  rm -f "$sentinel" "$B/tty.sock"
  sbx delete --force "$id"
}

# The exec'd process's namespaces, seen from inside, against the
# sandbox's first process's, seen from the host.
same_namespaces () { # ID
  local pid ns want="" got
  pid=$(pid_of "$1")
  [ -n "$pid" ] || return 1
  for ns in user mnt pid net ipc uts cgroup; do
    want="$want$(readlink "/proc/$pid/ns/$ns") " || return 1
  done
  got=$(sbx exec "$1" sh -c \
    'for ns in user mnt pid net ipc uts cgroup; do printf "%s " "$(readlink /proc/self/ns/$ns)"; done')
  [ "$got" = "$want" ] || { echo "# got:  $got"; echo "# want: $want"; return 1; }
}

seccomp_filters () { grep '^Seccomp_filters:' | tr -dc 0-9; }

case_joins () {
  local cid=jc-$RUN aid=ja-$RUN ws=$B/ja-ws pid out rc
  container_bundle "$B/jc" sleep 60
  agent_bundle "$B/ja" "$ws" sleep 60
  if ! start_sandbox "$B/jc" "$cid" || ! start_sandbox "$B/ja" "$aid"; then
    not_ok "exec: the sandboxes start"
    return
  fi
  for id in "$cid" "$aid"; do
    kind=container
    [ "$id" = "$aid" ] && kind=agent
    out=$(sbx exec "$id" true 2>&1)
    check "$kind: exec runs ($out)" [ $? -eq 0 ]
    check "$kind: exec joins exactly the sandbox's namespaces" same_namespaces "$id"
    pid=$(pid_of "$id")
    got=$(sbx exec "$id" cat /proc/self/status | seccomp_filters)
    want=$(seccomp_filters < "/proc/$pid/status")
    check "$kind: exec takes the sandbox's seccomp programs ($got of $want)" \
      eval '[ -n "$want" ] && [ "$got" = "$want" ]'
    check "$kind: exec sets no_new_privs" \
      eval 'sbx exec "$id" cat /proc/self/status | grep -q "^NoNewPrivs:[[:space:]]*1"'
  done
  check "agent: its filters are there (2: the agent's and network deny's)" \
    [ "$(seccomp_filters < "/proc/$(pid_of "$aid")/status")" = 2 ]
  out=$(sbx exec "$aid" sh -c "echo in > $ws/in.txt && touch /etc/sbx-xh-$RUN" 2>&1)
  check "agent: exec writes in the workspace" [ "$(cat "$ws/in.txt" 2>/dev/null)" = in ]
  check "agent: exec cannot write outside it ($out)" \
    eval '[ ! -e /etc/sbx-xh-$RUN ] && grep -q "Read-only file system" <<<"$out"'
  # network "deny"'s filter refuses an inet socket, namespace or not
  out=$(sbx exec "$aid" python3 -c 'import socket; socket.socket()' 2>&1)
  rc=$?
  check "agent: exec cannot make an inet socket ($(tail -1 <<<"$out"))" \
    eval '[ $rc -ne 0 ] && grep -q "Address family not supported" <<<"$out"'
  sbx delete --force "$cid"
  sbx delete --force "$aid"
}

# `exec` without --tty from an operator's terminal (script(1) makes one):
# the process shared the caller's session and controlling terminal, so a
# container's TIOCSTI typed a command into the operator's shell (a review
# ran one as root; only the agent filter refuses TIOCSTI).  It must be in
# a session of its own, without a controlling terminal, as run's bwrap
# (--new-session) puts the sandbox.
case_exec_session () {
  local b=$B/session id=xs-$RUN-$MODE out
  container_bundle "$b" sleep 600
  start_sandbox "$b" "$id" < /dev/null > /dev/null 2>&1
  out=$(script -qec "env -i $AS $SBX --root $ROOT exec $id cat /proc/self/stat" /dev/null)
  # stat's fields 6 and 7: session, controlling terminal (0: none).
  local tty_nr
  tty_nr=$(printf '%s\n' "$out" | tr -d '\r' | sed 's/.*) //' | awk 'NF {print $5; exit}')
  check "exec without --tty from a terminal: no controlling terminal (tty_nr ${tty_nr:-?})" \
    [ "$tty_nr" = 0 ]
  sbx delete --force "$id"
}

suite () {
  B=$WORK/$MODE
  mkdir -p "$B"
  chmod 777 "$B"
  case_exec_session
  case_joins
  case_tty_symlink
  case_exe_overwrite
}

run_as_root_and_user suite
finish
