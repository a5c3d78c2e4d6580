#!/bin/bash
# Host services by port ("network": {"mode": "loopback", "hostPorts"}),
# tried from inside real sandboxes (TAP), as root and again as uid 65534:
# a host listener on an approved port answers at the sandbox's
# 127.0.0.1:PORT with bytes going both ways; one on a port not listed does
# not (Landlock's TCP connect rule refuses it first), nor does any address
# off the loopback; a port the operator did not
# approve ("port:N") is refused with one line naming the field; and the
# forwarder is gone when the sandbox is, for `run` and for
# `create`/`start`/`delete`.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
WORK=${SBX_IT_WORK:-}
N=0
# The system's python: a version manager's shim starts slowly.
PY=$(command -v /usr/bin/python3 || command -v python3)

# serve NAME: a host server on 127.0.0.1, a free port (in WORK/NAME.port),
# in the background until the cases end (or 600 s without a client); it
# answers each connection with "host:" and the line it read, upper-cased.
serve ()
{
  rm -f "$WORK/$1.port"
  "$PY" -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16); s.settimeout(600)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    try:
        c, _ = s.accept()
    except OSError:
        break
    data = b""
    while not data.endswith(b"\n"):
        d = c.recv(4096)
        if not d:
            break
        data += d
    c.sendall(b"host:" + data.upper()); c.close()' "$WORK/$1.port" \
    > /dev/null 2>&1 &
  SERVERS="${SERVERS:-} $!"
  local i
  for i in $(seq 100); do
    [ -s "$WORK/$1.port" ] && break
    sleep 0.05
  done
}

# write_client: WS/ask.py HOST:PORT...: one line per target, "HOST:PORT
# said REPLY" or "HOST:PORT failed ERRNO-NAME".  WAIT_FOR, when given as
# the first argument "--wait FILE", waits for FILE first.
write_client ()
{
  cat > "$WS/ask.py" <<'PY'
import errno, os, socket, sys, time
args = sys.argv[1:]
if args[:1] == ["--wait"]:
    while not os.path.exists(args[1]):
        time.sleep(0.02)
    args = args[2:]
out = []
for t in args:
    host, port = t.rsplit(":", 1)
    try:
        s = socket.create_connection((host, int(port)), timeout=5)
        s.sendall(b"ping from inside\n")
        reply = b""
        while True:
            d = s.recv(4096)
            if not d:
                break
            reply += d
        out.append("%s said %s" % (t, reply.decode().strip()))
    except OSError as e:
        out.append("%s failed %s" % (t, errno.errorcode.get(e.errno, e.errno)))
print("\n".join(out), flush=True)
PY
}

# bundle DIR PORT... ARG...: an agent bundle whose network is loopback
# with host ports PORTS (a JSON list), running ARG...
bundle ()
{
  local b=$1 ports=$2
  shift 2
  write_agent "$b" workspace-write "$WS" "" "$@"
  sed -i "s/\"network\": \"deny\"/\"network\": {\"mode\": \"loopback\", \"hostPorts\": $ports}/" \
    "$b/config.json"
}

# forwarders ID: the pids of live forwarders (comm sbx-oci-ports) started
# by an sbx-oci invocation for ID (whose command line the forwarder keeps).
forwarders ()
{
  local p
  for p in $(pgrep -x sbx-oci-ports); do
    { tr '\0' ' ' < "/proc/$p/cmdline"; } 2>/dev/null | grep -q -- " $1 \?$" \
      && echo "$p"
  done
}

# gone_within ID MS: no forwarder of ID is left, waiting up to MS.
gone_within ()
{
  local end=$(($(date +%s%3N) + $2))
  while [ -n "$(forwarders "$1")" ]; do
    [ "$(date +%s%3N)" -ge "$end" ] && return 1
    sleep 0.02
  done
}

sbx () { "$SBX_OCI" --root "$WORK/state" "$@"; }

# stopped_within ID MS: `state` says stopped, waiting up to MS.
stopped_within ()
{
  local end=$(($(date +%s%3N) + $2))
  until sbx state "$1" 2>/dev/null | grep -q '"stopped"'; do
    [ "$(date +%s%3N)" -ge "$end" ] && return 1
    sleep 0.02
  done
}

case_run ()
{
  local id="hp-run-$RUN-$N" b="$WORK/b-run"
  bundle "$b" "[$A]" "$PY" "$WS/ask.py" "127.0.0.1:$A" "127.0.0.1:$B" \
    "$OFF:$A" "192.0.2.1:$A"
  OUT=$(sbx --approve "$WORK/approve" run --bundle "$b" "$id" 2>&1)
  RC=$?
  tap_is "$RC" 0 "run: the sandbox ran"
  tap_has "$OUT" "127.0.0.1:$A said host:PING FROM INSIDE" \
    "run: the host's listener on the approved port answered (both ways)"
  # Refused twice over: the sandbox's own loopback has no listener there,
  # and before that Landlock's TCP rule allows the listed ports only.
  tap_has "$OUT" "127.0.0.1:$B failed EACCES" \
    "run: the host's listener on a port not listed is not reached (landlock's TCP rule refuses the connect)"
  tap_has "$OUT" "$OFF:$A failed" \
    "run: the host's own address off the loopback ($OFF) is not reached"
  tap_has "$OUT" "192.0.2.1:$A failed" \
    "run: an address beyond the host is not reached"
  tap_ok "run: no forwarder is left when run returns" gone_within "$id" 0
}

# Landlock's TCP rule checks connect(2) of plain TCP only: a TCP Fast
# Open sendto and an MPTCP socket went past it to a port not listed (the
# adversarial review).  Both are off in the sandbox's namespace.
case_side_doors ()
{
  local b="$WORK/b-doors"
  cat > "$WS/doors.py" <<'PY'
import socket, threading
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0)); srv.listen(5)
port = srv.getsockname()[1]
def serve():
    while True:
        c, _ = srv.accept(); c.sendall(b"pong"); c.close()
threading.Thread(target=serve, daemon=True).start()
for knob in ("ipv4/tcp_fastopen", "mptcp/enabled"):
    try:
        print(knob, open("/proc/sys/net/" + knob).read().strip())
    except OSError:
        print(knob, "absent")
try:
    s = socket.socket()
    s.sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", port))
    print("tfo reached", s.recv(10))
except OSError as e:
    print("tfo refused", e.errno)
try:
    m = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
    m.connect(("127.0.0.1", port))
    print("mptcp reached", m.recv(10))
except OSError as e:
    print("mptcp refused", e.errno)
PY
  bundle "$b" "[$A]" "$PY" "$WS/doors.py"
  OUT=$(sbx --approve "$WORK/approve" run --bundle "$b" "hp-doors-$RUN" 2>&1)
  # Switched off, not refused for some other reason.
  tap_has "$OUT" "ipv4/tcp_fastopen 0" "TCP Fast Open is off in the sandbox's namespace"
  tap_has "$OUT" "tfo refused" "a TCP Fast Open connect to a port not listed is refused"
  if [ -e /proc/sys/net/mptcp/enabled ]; then
    tap_has "$OUT" "mptcp/enabled 0" "MPTCP is off in the sandbox's namespace"
    tap_has "$OUT" "mptcp refused" "an MPTCP connect to a port not listed is refused"
  else
    tap_skip "MPTCP is off in the sandbox's namespace" "this kernel has no MPTCP"
  fi
}

case_unapproved ()
{
  local b="$WORK/b-unapproved"
  bundle "$b" "[$A]" "$PY" "$WS/ask.py" "127.0.0.1:$A"
  OUT=$(sbx run --bundle "$b" "hp-no-$RUN" 2>&1)
  RC=$?
  tap_is "$RC" 121 "no approval: refused (121)"
  tap_has "$OUT" "sbx.network.hostPorts[0]: host port $A needs the operator's approval: add a line \"port:$A\"" \
    "no approval: one line names the field and the token"
  tap_lacks "$OUT" "said" "no approval: nothing ran"
  bundle "$b" "[$A]" "$PY" "$WS/ask.py" "127.0.0.1:$A"
  sed -i "s/\"mode\": \"loopback\", \"hostPorts\"/\"mode\": \"deny\", \"hostPorts\"/" \
    "$b/config.json"
  OUT=$(sbx --approve "$WORK/approve" run --bundle "$b" "hp-deny-$RUN" 2>&1)
  tap_has "$OUT" "sbx.network.hostPorts: needs \"mode\": \"loopback\"" \
    "network deny with host ports: refused, naming the mode"
}

case_create ()
{
  local id="hp-c-$RUN" b="$WORK/b-create"
  bundle "$b" "[$A]" "$PY" "$WS/ask.py" --wait "$WS/go" "127.0.0.1:$A"
  rm -f "$WS/go"
  sbx --approve "$WORK/approve" create --bundle "$b" "$id" \
    > "$WORK/create.out" 2>&1
  tap_is "$?" 0 "create: the sandbox is created"
  tap_ok "create: its forwarder runs while it is held" \
    test -n "$(forwarders "$id")"
  sbx start "$id"
  touch "$WS/go"
  tap_ok "create/start: the command ended" stopped_within "$id" 10000
  tap_ok "create/start: its forwarder ended with the sandbox" \
    gone_within "$id" 2000
  sbx delete "$id"
  # The reply went to the command's stdout, create's: its log.
  tap_has "$(cat "$WORK/create.out")" "127.0.0.1:$A said host:PING FROM INSIDE" \
    "create/start: the host's listener answered the held sandbox"
}

case_delete ()
{
  local id="hp-d-$RUN" b="$WORK/b-delete"
  bundle "$b" "[$A]" sleep 60
  sbx --approve "$WORK/approve" create --bundle "$b" "$id" > /dev/null 2>&1
  sbx start "$id"
  local f
  f=$(forwarders "$id")
  tap_ok "delete: the running sandbox has a forwarder" test -n "$f"
  tap_has "$(grep -E '^(CapEff|NoNewPrivs):' "/proc/${f:-0}/status" 2>&1)" \
    "$(printf 'CapEff:\t0000000000000000\nNoNewPrivs:\t1')" \
    "the forwarder keeps no capability, no_new_privs set"
  # Root's forwarder is nobody: a capless uid 0 could still write root's
  # files and signal root's processes (the second review).
  local u=65534
  [ "$(id -u)" = 0 ] || u=$(id -u)
  tap_has "$(grep -E '^Uid:' "/proc/${f:-0}/status" 2>&1)" \
    "$(printf 'Uid:\t%s\t%s\t%s\t%s' $u $u $u $u)" \
    "the forwarder runs as uid $u (root's as nobody, anyone else's as its own)"
  sbx delete --force "$id"
  tap_ok "delete --force: no forwarder is left when delete returns" \
    gone_within "$id" 0
}

run_cases ()
{
  WS="$WORK/ws"
  mkdir -p "$WS"
  # Ids and markers of this pass only: two runs at once never meet.
  RUN=$(printf '%s' "$WORK" | md5sum | cut -c1-10)
  write_client
  serve approved
  serve other
  A=$(cat "$WORK/approved.port")
  B=$(cat "$WORK/other.port")
  printf 'port:%s\n' "$A" > "$WORK/approve"
  # The host's own address on a network interface, when it has one.
  OFF=$(ip -4 -o addr show scope global 2>/dev/null \
    | awk '{ sub("/.*", "", $4); print $4; exit }')
  OFF=${OFF:-198.51.100.1}
  case_run
  case_side_doors
  case_unapproved
  case_create
  case_delete
  # What a failed case left: held sandboxes end with their forwarders.
  sbx delete --force "hp-c-$RUN" 2>/dev/null
  sbx delete --force "hp-d-$RUN" 2>/dev/null
  kill $SERVERS 2>/dev/null
}

tap_suite "$HERE/host_ports.sh" hp SBX_OCI
