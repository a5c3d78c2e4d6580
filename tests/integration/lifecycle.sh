#!/bin/bash
# The OCI lifecycle as runc users drive it: create, start, state, kill,
# delete, list, ps, with a busybox-static rootfs.  Run as root, the suite
# runs twice: as root, then as uid 65534 (setpriv) with --root in a temp
# dir.  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
HERE=$(cd "$(dirname "$0")" && pwd)
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-lifecycle.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

# The runtime as the current mode's user, with no PATH and no HOME, as
# podman runs kill and delete.
sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }

make_bundle () { # DIR ARGS-AS-JSON
  local dir=$1 args=$2
  busybox_bundle "$dir" sh sleep touch cat echo true ls || return 1
  python3 - "$dir/config.json" "$args" <<'PY'
import json, sys
path, args = sys.argv[1], json.loads(sys.argv[2])
c = json.load(open(path))
c["process"]["args"] = args
c["root"]["readonly"] = False
c["annotations"] = {"org.example.test": "lifecycle"}
caps = ["CAP_CHOWN", "CAP_KILL", "CAP_NET_BIND_SERVICE"]
c["process"]["capabilities"] = {s: caps for s in ("bounding", "effective", "permitted")}
json.dump(c, open(path, "w"))
PY
  chmod -R a+rX "$dir"
}

status_of () { sbx state "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])'; }
pid_of () { sbx state "$1" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])'; }

wait_status () { # ID STATUS
  for _ in $(seq 50); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.1; done
  return 1
}

suite () {
  B=$WORK/$MODE
  mkdir -p "$B"; chmod 755 "$B"
  make_bundle "$B/long" '["sh","-c","touch /tmp/ran; sleep 30"]'
  # A script without "#!": execvp's way is to give it to /bin/sh.
  printf 'echo script-ran "$@"\n' > "$B/long/rootfs/bin/noshebang"
  chmod 755 "$B/long/rootfs/bin/noshebang"
  make_bundle "$B/exit7" '["sh","-c","exit 7"]'
  make_bundle "$B/noexec" '["no-such-command"]'
  chmod 777 "$B"
  # A rootless container owns its rootfs (bwrap makes mount points in it).
  [ -n "$AS" ] && chown -R 65534:65534 "$B"

  # create: held before exec, silent, pid in its own pid namespace
  sbx create --bundle "$B/long" --pid-file "$B/pid" c1 >"$B/c1.out" 2>"$B/c1.err"
  check "create succeeds" [ $? -eq 0 ]
  if [ -s "$B/c1.err" ]; then not_ok "create is silent on stderr" "$(cat "$B/c1.err")"; else ok "create is silent on stderr"; fi
  check "state says created" [ "$(status_of c1)" = created ]
  sleep 0.3
  check "the workload has not run before start" [ ! -e "$B/long/rootfs/tmp/ran" ]
  pid=$(pid_of c1)
  # An empty pid (state failed) or a gone process would make both
  # comparisons pass: each side must be there.
  check "--pid-file holds state.pid ($pid)" \
    eval '[ -n "$pid" ] && [ "$(cat "$B/pid" 2>/dev/null)" = "$pid" ]'
  check "that pid lives in its own pid namespace" eval 'ns=$(readlink /proc/"$pid"/ns/pid) \
    && [ -n "$pid" ] && [ "$ns" != "$(readlink /proc/self/ns/pid)" ]'
  state=$(sbx state c1)
  check "state has the annotations and sbx's facts" \
    python3 -c 'import json,sys; s=json.loads(sys.argv[1]); assert s["annotations"]=={"org.example.test":"lifecycle"} and "enforcement" in s["org.sbx-oci"] and s["bundle"]==sys.argv[2]' "$state" "$B/long"
  check "ps lists the sandbox pid" [ "$(sbx ps --format json c1)" = "[$pid]" ]
  check "list -q shows the id" [ "$(sbx list -q)" = c1 ]
  check "list --format json parses" python3 -c 'import json,sys; assert json.loads(sys.argv[1])[0]["id"]=="c1"' "$(sbx list --format json)"
  # A bundle's path is shown as text: a terminal escape in it as \x1b.
  local esc=$B/esc$'\033'"[7m"
  make_bundle "$esc" '["sleep","30"]'
  [ -n "$AS" ] && chown -R 65534:65534 "$esc"
  sbx create --bundle "$esc" c-esc > /dev/null 2>&1 < /dev/null
  out=$(sbx list)
  check "list shows a bundle's escape as \\xHH ($(cat -v <<<"$out" | tr '\n' ' '))" \
    eval '[[ "$out" == *"esc\\x1b[7m"* ]] && [[ "$out" != *$'"'"'\033'"'"'* ]]'
  sbx delete --force c-esc > /dev/null 2>&1 < /dev/null
  rm -rf "$esc"
  # One whose path is not valid UTF-8 cannot be named in the state's
  # JSON (which then could not be read back: start, state and kill
  # failed): a failure, as for a bundle that is not there, nothing made.
  local odd=$B/odd$'\xfe'
  make_bundle "$odd" '["true"]'
  [ -n "$AS" ] && chown -R 65534:65534 "$odd"
  for cmd in create run; do
    sbx $cmd --bundle "$odd" c-odd > "$B/odd.out" 2>&1 < /dev/null
    rc=$? out=$(cat "$B/odd.out") left=
    [ -e "$ROOT/c-odd" ] && left=" (its state directory is left)"
    sbx delete --force c-odd > /dev/null 2>&1 < /dev/null
    check "$cmd fails on a bundle path that is not UTF-8 with 125, naming it, making nothing ($rc: $out$left)" \
      eval '[ "$rc" -eq 125 ] && [ -z "$left" ] && [[ "$out" == *"--bundle"*"odd\\xfe"* ]]'
  done
  rm -rf "$odd"
  out=$(sbx exec c1 true 2>&1)
  check "exec before start fails, naming the container (\"$out\")" \
    grep -q 'container "c1": it is created but not started' <<<"$out"

  # start: released, running
  check "start succeeds" sbx start c1
  check "state says running" wait_status c1 running
  for _ in $(seq 30); do [ -e "$B/long/rootfs/tmp/ran" ] && break; sleep 0.1; done
  check "the workload ran after start" [ -e "$B/long/rootfs/tmp/ran" ]
  out=$(sbx start c1 2>&1)
  check "start of a running container fails" [ $? -ne 0 ]
  out=$(sbx delete c1 2>&1)
  check "delete of a running container refuses without --force" [ $? -ne 0 ]
  check "and says so (\"$out\")" grep -q "not stopped" <<<"$out"

  # kill: signal names and numbers; pid 1 without a handler ignores TERM
  # exec: joins the sandbox (pid namespace, /proc), exit status, detach
  check "exec runs a command" [ "$(sbx exec c1 echo hi 2>&1)" = hi ]
  out=$(sbx exec c1 noshebang a b 2>&1)
  check "exec of a script without #!, found on PATH, runs it with sh (\"$out\")" [ "$out" = "script-ran a b" ]
  out=$(sbx exec c1 /bin/noshebang 2>&1)
  check "and named by its path (\"$out\")" [ "$out" = "script-ran" ]
  # exec sets the capabilities itself (the first process got them from
  # bwrap): the same effective and bounding sets, nothing more.
  caps_of () { grep -E '^Cap(Eff|Prm|Bnd):' "$@"; }
  want=$(caps_of "/proc/$(pid_of c1)/status"); got=$(sbx exec c1 cat /proc/self/status | caps_of)
  check "exec as uid 0 holds the first process's capabilities ($(echo $got))" \
    eval '[ -n "$want" ] && [ "$got" = "$want" ]'
  # As root those are the three the config grants (bits 0, 5 and 10).
  [ -z "$AS" ] && check "as root, the three granted ones" \
    grep -qx 'CapEff:.*0000000000000421' <<<"$got"
  # A uid 0 in a user namespace of its own (rootless podman) holds every
  # capability there: neither the first process nor an exec gets one.
  got=$($AS unshare -Ur sh -c '
    S=$0 R=$1 B=$2
    "$S" --root "$R" create --bundle "$B" u1 > /dev/null 2>&1 || exit 1
    "$S" --root "$R" start u1 || exit 1
    pid=$("$S" --root "$R" state u1 | sed -n "s/.*\"pid\": *\([0-9]*\).*/\1/p")
    grep -E "^Cap(Eff|Prm|Bnd):" "/proc/$pid/status"
    "$S" --root "$R" exec u1 cat /proc/self/status | grep -E "^Cap(Eff|Prm|Bnd):"
    "$S" --root "$R" delete --force u1' "$SBX" "$B/userns-state" "$B/long" 2>&1)
  check "uid 0 in a user namespace: create and exec ran ($(echo $got))" \
    [ "$(grep -c '^Cap' <<<"$got")" -eq 6 ]
  check "uid 0 in a user namespace: no capability in the sandbox" \
    [ "$(grep '^Cap' <<<"$got" | grep -cv '[[:space:]]0*$')" -eq 0 ]
  out=$(sbx exec --cap CAP_SYS_ADMIN c1 true 2>&1)
  check "exec --cap is refused, not ignored ($out)" grep -q 'exec --cap: not supported' <<<"$out"
  # Taken now (sbx-oci-init and exec apply labels), and checked as a
  # config's: this host has neither module, so each is refused, saying so.
  out=$(sbx exec --apparmor unconfined c1 true 2>&1)
  check "exec --apparmor without AppArmor is refused, not ignored ($out)" \
    grep -q 'process.apparmorProfile: AppArmor is not enabled on this host' <<<"$out"
  out=$(sbx exec --process-label u:r:t:s0 c1 true 2>&1)
  check "exec --process-label without SELinux is refused, not ignored ($out)" \
    grep -q 'process.selinuxLabel: SELinux is not enabled on this host' <<<"$out"
  sbx exec c1 sh -c 'exit 4'
  check "exec: exit status 4 propagates" [ $? -eq 4 ]
  check "exec passes the caller's fds 0-2 but not its fd 9" \
    sbx exec c1 sh -c 'test -e /proc/self/fd/2 && ! test -e /proc/self/fd/9' 9</dev/null
  check "exec --preserve-fds 1 passes fd 3 and not fd 4" \
    sbx exec --preserve-fds 1 c1 sh -c 'test -e /proc/self/fd/3 && ! test -e /proc/self/fd/4' 3</dev/null 4</dev/null
  out=$(sbx exec c1 ls /proc 2>&1)
  check "exec sees the sandbox's pid 1 in its /proc" grep -qx 1 <<<"$out"
  printf '{"args":["sh","-c","echo $BAR; pwd"],"cwd":"/tmp","env":["PATH=/bin","BAR=baz"],"user":{"uid":0,"gid":0}}' >"$B/proc.json"
  chmod 644 "$B/proc.json"
  check "exec --process applies env and cwd" [ "$(sbx exec --process "$B/proc.json" c1 2>&1)" = $'baz\n/tmp' ]
  sbx exec --detach --pid-file "$B/xpid" c1 sleep 30
  xpid=$(cat "$B/xpid" 2>/dev/null)
  check "exec --detach writes a pid in the sandbox's pid namespace" eval '[ -n "$xpid" ] \
    && ns=$(readlink /proc/"$xpid"/ns/pid) && [ "$ns" = "$(readlink /proc/"$pid"/ns/pid)" ]'
  # Both are listed; an exec still on its way in (a slow, sanitized build)
  # may briefly be listed too.
  check "ps lists both processes" python3 -c \
    'import json,sys; p=json.loads(sys.argv[1]); assert int(sys.argv[2]) in p and int(sys.argv[3]) in p, p' \
    "$(sbx ps --format json c1)" "$pid" "$xpid"
  out=$(sbx exec c1 no-such-command 2>&1)
  check "exec of a missing executable: runc's words" grep -qF 'executable file not found in $PATH' <<<"$out"
  # A process names itself (its comm is its own to write): ps's table
  # shows a terminal escape in that name as text, never raw on the
  # operator's terminal.
  sbx exec --detach c1 sh -c 'printf "x\033[2Jy" > /proc/self/comm; sleep 30 & wait'
  for _ in $(seq 30); do out=$(sbx ps c1); [[ "$out" == *'x\x1b[2Jy'* ]] && break; sleep 0.1; done
  check "ps shows a process's own name's escape as \\xHH ($(cat -v <<<"$out" | tr '\n' ' '))" \
    eval '[[ "$out" == *"x\\x1b[2Jy"* ]] && [[ "$out" != *$'"'"'\033'"'"'* ]]'

  check "kill by name (KILL)" sbx kill c1 KILL
  check "state says stopped after kill" wait_status c1 stopped
  check "stopped state has pid 0" [ "$(pid_of c1)" = 0 ]
  out=$(sbx kill c1 TERM 2>&1)
  check "kill of a stopped container: \"container not running\"" grep -q "container not running" <<<"$out"
  check "delete of a stopped container" sbx delete c1
  out=$(sbx state c1 2>&1)
  check "state after delete: does not exist" grep -q 'container "c1" does not exist' <<<"$out"

  out=$(sbx kill c1 NOSUCH 2>&1); rc=$?
  check "kill with an unknown signal name: usage, named" eval '[ $rc -ne 0 ] && [[ "$out" == *"invalid signal \"NOSUCH\""* ]]'
  for sig in 9 SIGKILL sigkill; do
    sbx create --bundle "$B/long" "k-$sig" >/dev/null 2>&1
    sbx start "k-$sig"
    check "kill by $sig" sbx kill "k-$sig" "$sig"
    check "stopped after kill $sig" wait_status "k-$sig" stopped
    sbx delete "k-$sig"
  done
  sbx create --bundle "$B/long" kall >/dev/null 2>&1; sbx start kall
  check "kill --all" sbx kill --all kall 9
  check "stopped after kill --all" wait_status kall stopped
  sbx delete kall
  out=$(sbx kill c1 2>&1)
  check "kill of a missing id says does not exist" grep -q 'does not exist' <<<"$out"

  # the exit status reaches a subreaper that waitpid()s the --pid-file pid
  code=$($AS env -i /usr/bin/python3 "$HERE/lifecycle_subreaper.py" "$B/exit7" "$B/pid7" e7 -- "$SBX" --root "$ROOT")
  check "a subreaper's waitpid sees the workload's exit code 7 (got $code)" [ "$code" = 7 ]
  check "a finished container reads stopped" wait_status e7 stopped
  check "delete of a finished container" sbx delete e7

  # ids
  sbx create --bundle "$B/long" dup >/dev/null 2>&1
  out=$(sbx create --bundle "$B/long" dup 2>&1 >/dev/null)
  check "duplicate id: already exists" grep -q 'container "dup" already exists' <<<"$out"
  check "the first container is untouched" [ "$(status_of dup)" = created ]
  check "delete --force of a created container" sbx delete --force dup
  out=$(sbx create --bundle "$B/long" "../x" 2>&1 >/dev/null)
  check "an id with / is refused" grep -q "invalid container id" <<<"$out"

  wins=0
  for i in $(seq 20); do
    (sbx create --bundle "$B/long" race >/dev/null 2>&1 && echo win >"$B/race.$i") &
  done
  wait
  wins=$(ls "$B"/race.* 2>/dev/null | wc -l)
  check "20 concurrent creates of one id: exactly one wins ($wins)" [ "$wins" -eq 1 ]
  check "the winner is created" [ "$(status_of race)" = created ]
  sbx delete --force race

  # corrupt state
  sbx create --bundle "$B/long" bad >/dev/null 2>&1
  badpid=$(pid_of bad)
  printf '{"ociVersion": "1.2.0", "id": "ba' >"$ROOT/bad/state.json"
  out=$(sbx state bad 2>&1)
  check "corrupt state.json: state fails" [ $? -ne 0 ]
  check "and names the file (\"$out\")" grep -q "$ROOT/bad/state.json" <<<"$out"
  check "delete --force cleans a corrupt container" sbx delete --force bad
  check "its directory is gone" [ ! -e "$ROOT/bad" ]
  sleep 0.2
  check "and its held sandbox is ended" bash -c "! grep -qs '^[^ ]* ([^)]*) [^Z]' /proc/$badpid/stat"

  # missing executable
  out=$(sbx create --bundle "$B/noexec" nx 2>&1 >/dev/null)
  check "create fails on a missing executable" [ $? -ne 0 ]
  check "with runc's words (\"$out\")" grep -qF 'executable file not found in $PATH' <<<"$out"
  check "and leaves no state" [ ! -e "$ROOT/nx" ]

  # process.terminal: the pty master arrives on --console-socket (root
  # only: the sandbox's devpts instance is mounted by sbx)
  if [ -z "$AS" ]; then
    make_bundle "$B/tty" '["sh","-c","tty; exit 3"]'
    python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["process"]["terminal"]=True; json.dump(c,open(sys.argv[1],"w"))' "$B/tty/config.json"
    out=$(timeout 20 python3 "$HERE/lifecycle_console.py" "$B/tty" "$B/console.sock" t1 -- "$SBX" --root "$ROOT" 2>&1)
    check "terminal: the workload's stdio is /dev/pts/0 (\"$out\")" grep -qx /dev/pts/0 <<<"$out"
    check "terminal: no devpts mount is left on the host" bash -c "! grep -q '$ROOT/t1/pts' /proc/self/mountinfo"
    sbx delete --force t1
    out=$(sbx create --bundle "$B/tty" t2 2>&1 >/dev/null)
    check "terminal without --console-socket: a clear error" grep -q "console-socket is required" <<<"$out"
  fi

  # uid 0 of a user namespace of its own, as rootless podman runs a
  # runtime (podman passes no --root): the state root is the caller's
  # $XDG_RUNTIME_DIR/sbx-oci, not host root's /run/sbx-oci ("cannot open
  # state root /run/sbx-oci: Permission denied" before).
  mkdir -p "$B/xdg"; chmod 700 "$B/xdg"
  [ -n "$AS" ] && chown 65534:65534 "$B/xdg"
  $AS unshare -r env -i XDG_RUNTIME_DIR="$B/xdg" "$SBX" create --bundle "$B/long" rl1 \
    > "$B/rl1.err" 2>&1
  check "in a user namespace's uid 0, the default state root is \$XDG_RUNTIME_DIR/sbx-oci ($(cat "$B/rl1.err"))" \
    [ -d "$B/xdg/sbx-oci/rl1" ]
  $AS unshare -r env -i XDG_RUNTIME_DIR="$B/xdg" "$SBX" delete --force rl1 > /dev/null 2>&1
  # ... and with no $XDG_RUNTIME_DIR (or USER=root), /run/sbx-oci, as runc
  # does: the container's own /run for a runtime in a container.
  if [ -z "$AS" ]; then
    unshare -r env -i USER=root XDG_RUNTIME_DIR="$B/xdg" "$SBX" create --bundle "$B/long" "rl2-$RUN" \
      > "$B/rl2.err" 2>&1
    check "... and /run/sbx-oci for USER=root ($(cat "$B/rl2.err"))" [ -d "/run/sbx-oci/rl2-$RUN" ]
    unshare -r env -i USER=root "$SBX" delete --force "rl2-$RUN" > /dev/null 2>&1
  fi

  check "delete --force of a missing id succeeds" sbx delete --force never-was
  out=$(sbx delete never-was 2>&1)
  check "delete of a missing id fails: does not exist" grep -q 'does not exist' <<<"$out"
  check "list is empty at the end" [ -z "$(sbx list -q)" ]
}

run_as_root_and_user suite
finish
