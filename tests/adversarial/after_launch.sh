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
    case $OUT in
      *"$way: "*) ;;
      *)
        tap_skip "setid: $way leaves no set-id file" "not on this architecture"
        continue
        ;;
    esac
    # A refused create leaves no file at all.
    mode=$(stat -c %a "$d/$way" 2>/dev/null || echo none)
    tap_ok "setid: $way leaves no set-id file (mode $mode)" \
      test -z "$(find "$d/$way" -maxdepth 0 -perm /6000 2>/dev/null)"
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
  refused "process.apparmorProfile: not a field an untrusted config may set" \
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

# late_connector: WS/late.py DIR, run inside: it says "ready", waits for
# WS/go (the host binds its sockets in between), then tries to reach
# DIR/late.sock (stream) and DIR/late.dgram (a datagram socket, and a
# socketpair's datagram socket naming it per message).
write_late_connector ()
{
  cat > "$WS/late.py" <<'PY'
import os, socket, sys, time
d, ws = sys.argv[1], os.path.dirname(os.path.abspath(sys.argv[0]))
open(ws + "/ready", "w").close()
while not os.path.exists(ws + "/go"):
    time.sleep(0.05)
def stream():
    socket.socket(socket.AF_UNIX).connect(d + "/late.sock")
def dgram():
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"x", d + "/late.dgram")
def pair():
    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0].sendmsg(
        [b"x"], [], 0, d + "/late.dgram")
for name, f in (("stream", stream), ("dgram", dgram), ("pair", pair)):
    try:
        f()
        print(name, "reached")
    except OSError as e:
        print(name, "refused", e.errno)
PY
}

# late_listener DIR LOG: bind DIR/late.sock and DIR/late.dgram now, and
# write to LOG what reaches them, for 20 s.
late_listener ()
{
  "$PY" -c '
import os, select, socket, sys, time
d, log = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX); s.bind(d + "/late.sock"); s.listen(4)
g = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); g.bind(d + "/late.dgram")
os.chmod(d + "/late.sock", 0o777); os.chmod(d + "/late.dgram", 0o777)
end = time.time() + 20
while time.time() < end:
    r, _, _ = select.select([s, g], [], [], 0.2)
    for x in r:
        if x is s:
            s.accept(); open(log, "a").write("accepted\n")
        else:
            g.recv(16); open(log, "a").write("received\n")
' "$1" "$2"
}

# A host socket bound after the sandbox was launched (the launch-time
# hiding cannot know it), reached from inside: stream and datagram, in
# "deny" and in "loopback".  Below /var/tmp: the sandbox sees it
# read-only (/tmp is private).
case_late_socket ()
{
  local mode d b log listener runner i
  write_late_connector
  for mode in deny loopback; do
    d=$(mktemp -d /var/tmp/sbx-late.XXXXXX)
    chmod 755 "$d"
    log="$d/log"
    b="$WORK/late-$mode"
    rm -f "$WS/ready" "$WS/go"
    SBX_NETWORK=$mode write_agent "$b" workspace-write "$WS" "" "$PY" \
      "$WS/late.py" "$d"
    N=$((N + 1))
    sbx run --bundle "$b" --outcome "$b/outcome.json" "late-$N" \
      > "$b/out" 2>&1 &
    runner=$!
    for i in $(seq 200); do [ -e "$WS/ready" ] && break; sleep 0.1; done
    late_listener "$d" "$log" &
    listener=$!
    for i in $(seq 100); do [ -S "$d/late.dgram" ] && break; sleep 0.1; done
    touch "$WS/go"
    wait "$runner"
    sleep 0.3
    kill "$listener" 2>/dev/null
    wait "$listener" 2>/dev/null
    OUT=$(cat "$b/out")
    tap_has "$OUT" "pair " "late socket ($mode): the sandbox tried"
    tap_ok "late socket ($mode): a host stream socket bound after launch is unreachable" \
      test -z "$(grep accepted "$log" 2>/dev/null)"
    tap_ok "late socket ($mode): a host datagram socket bound after launch gets nothing" \
      test -z "$(grep received "$log" 2>/dev/null)"
    tap_has "$(cat "$b/outcome.json" 2>/dev/null)" '"network":"full"' \
      "late socket ($mode): network enforcement says full"
    rm -rf "$d"
  done
  rm -f "$WS/late.py" "$WS/ready" "$WS/go"
}

# What a no-network sandbox must keep doing with unix sockets closed:
# pipes, socketpairs (python's multiprocessing, node's child IPC), git.
write_controls ()
{
  cat > "$WS/ctl.py" <<'PY'
import multiprocessing as mp
if __name__ == "__main__":
    with mp.Pool(2) as p:
        print("mp", sum(p.map(abs, [-1, -2])))
    a, b = mp.Pipe()
    a.send(1)
    print("pipe", b.recv())
PY
  cat > "$WS/ctl.js" <<'JS'
const { spawn } = require("child_process");
const c = spawn(process.execPath,
  ["-e", "process.on('message', m => { process.send(m + 1); process.exit(0) })"],
  { stdio: ["inherit", "inherit", "inherit", "ipc"] });
c.on("message", m => console.log("node", m));
c.send(41);
JS
}

case_network_controls ()
{
  local mode b
  write_controls
  for mode in deny loopback; do
    b="$WORK/ctl-$mode"
    SBX_NETWORK=$mode write_agent "$b" workspace-write "$WS" "" sh -c '
      echo abc | tr b x
      cd "$1" && git init -q "repo-$2" && cd "repo-$2" &&
        git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x &&
        echo git-ok
      cd "$1" && /usr/bin/python3 ctl.py
      command -v node > /dev/null && node ctl.js' sh "$WS" "$mode"
    run_bundle "$b"
    tap_has "$OUT" axc "controls ($mode): a shell pipeline"
    tap_has "$OUT" git-ok "controls ($mode): git init and commit"
    tap_has "$OUT" "mp 3" "controls ($mode): python's multiprocessing pool"
    tap_has "$OUT" "pipe 1" "controls ($mode): python's multiprocessing pipe"
    if command -v node > /dev/null; then
      tap_has "$OUT" "node 42" "controls ($mode): node's child process IPC"
    fi
  done
  rm -rf "$WS/ctl.py" "$WS/ctl.js"
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
  case_late_socket
  case_network_controls
}

tap_suite "$HERE/after_launch.sh" late SBX_OCI SETID_PROBE SBX_ADV_OLD
