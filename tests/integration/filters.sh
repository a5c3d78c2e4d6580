#!/bin/bash
# Filters that must hold in agent sandboxes, tried from inside real ones
# (TAP): the seccomp side doors (every way to make a socket: socket,
# socketpair, socketcall, io_uring; file handles) with the positive
# controls that must keep working, and credentials in the environment.
# NET_PROBE (net_probe.c) makes the socket attempts.  Run as root, the
# cases run as root and again as uid 65534, as run.sh does.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${NET_PROBE:?set NET_PROBE to tests/integration/net_probe}"
WORK=${SBX_IT_WORK:-}
N=0
# The system's python: a version manager's shim starts slowly.
PY=$(command -v /usr/bin/python3 || command -v python3)
APPROVE=

# probe ARG...: run net_probe ARG... in a fresh agent sandbox (the
# network mode from SBX_NETWORK, default deny); OUT is its output.
probe ()
{
  N=$((N + 1))
  local b="$WORK/b$N"
  write_agent "$b" workspace-write "$WS" "" "$NET_PROBE" "$@"
  OUT=$("$SBX_OCI" --root "$WORK/state" ${APPROVE:+--approve "$APPROVE"} \
    run --bundle "$b" "nf-$N" 2>&1)
  RC=$?
}

# refused CASE WHY / works CASE WHY: the line net_probe printed for CASE.
refused ()
{
  case $OUT in
    *"$1: refused "*) tap_result ok "$2" ;;
    *"$1: unavailable"*) tap_skip "$2" "not available on this kernel" ;;
    *)
      tap_result "not ok" "$2"
      printf '%s\n' "$OUT" | sed 's/^/#   /'
      ;;
  esac
}

works ()
{
  tap_has "$OUT" "$1: ok" "$2"
}

# listen_unix PATH...: unix stream servers on PATH... for 30 s;
# write_connector: WS/conn.py, which connects to each path it is given and
# says "connected PATH" or "refused PATH ERRNO".
listen_unix ()
{
  "$PY" -c 'import socket,sys,time
ss=[]
for p in sys.argv[1:]:
    s=socket.socket(socket.AF_UNIX); s.bind(p); s.listen(1); ss.append(s)
time.sleep(30)' "$@"
}

write_connector ()
{
  cat > "$WS/conn.py" <<'EOF'
import socket, sys
for p in sys.argv[1:]:
    try:
        socket.socket(socket.AF_UNIX).connect(p)
        print("connected", p)
    except OSError as e:
        print("refused", p, e.errno)
EOF
}

# Network deny: an allow-list of one address family, AF_UNIX.
case_deny ()
{
  probe socket:unix socket:inet socket:inet6 socket:packet socket:netlink \
    socket:vsock socket:alg socketpair:unix socketpair:inet socketcall:inet \
    socketcall:unix uring-socket unix-server
  tap_is "$RC" 0 "deny: the probe ran"
  works socket:unix "deny: AF_UNIX sockets can be made"
  works socketpair:unix "deny: an AF_UNIX socketpair can be made"
  # No socket names a path: host sockets bound after launch would be
  # reached too (tests/adversarial/after_launch.sh).
  refused unix-server "deny: a unix server and client cannot talk (connect refused)"
  local f
  for f in inet inet6 packet netlink vsock alg; do
    refused "socket:$f" "deny: socket(AF_${f^^}) is refused"
  done
  refused socketpair:inet "deny: socketpair(AF_INET) is refused"
  refused socketcall:inet "deny: 32-bit socketcall(SYS_SOCKET) is refused"
  refused uring-socket "deny: io_uring cannot make an AF_INET socket"
}

# The default agent filter, whatever the network mode.
case_agent_default ()
{
  SBX_NETWORK=loopback probe inet-loopback unix-server socket:vsock \
    socket:alg uring-socket name-to-handle open-by-handle socket:netlink \
    socketpair:unix
  tap_is "$RC" 0 "loopback: the probe ran"
  works inet-loopback "loopback: TCP over the sandbox's own loopback works"
  refused unix-server "loopback: socket(AF_UNIX) is refused (socketpair stays)"
  works socket:netlink "loopback: netlink stays (ip, getifaddrs)"
  works socketpair:unix "loopback: an AF_UNIX socketpair can be made"
  refused socket:vsock "agent filter: socket(AF_VSOCK) is refused"
  refused socket:alg "agent filter: socket(AF_ALG) is refused"
  refused uring-socket "agent filter: io_uring is refused"
  refused name-to-handle "agent filter: name_to_handle_at is refused"
  refused open-by-handle "agent filter: open_by_handle_at is refused"
}

# A config's own filter replaces the agent default, but network deny's is
# stacked on top of it: io_uring and IP sockets stay closed.
case_own_filter ()
{
  printf '%s\n' seccomp > "$WORK/approve"
  APPROVE="$WORK/approve" \
    probe_own socket:inet socket:netlink uring-socket socket:unix
  tap_is "$RC" 0 "own filter + deny: the probe ran"
  works socket:unix "own filter + deny: AF_UNIX sockets can be made"
  refused socket:inet "own filter + deny: socket(AF_INET) is refused"
  refused socket:netlink "own filter + deny: socket(AF_NETLINK) is refused"
  refused uring-socket "own filter + deny: io_uring is refused"
}

# probe_own ARG...: probe with a config filter that allows everything.
probe_own ()
{
  N=$((N + 1))
  local b="$WORK/b$N"
  SBX_EXTRA= write_agent "$b" workspace-write "$WS" "" "$NET_PROBE" "$@"
  python3 - "$b/config.json" <<'EOF'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
c.setdefault("linux", {})["seccomp"] = {"defaultAction": "SCMP_ACT_ALLOW",
    "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO"}]}
json.dump(c, open(p, "w"))
EOF
  OUT=$("$SBX_OCI" --root "$WORK/state" --approve "$APPROVE" \
    run --bundle "$b" "nf-$N" 2>&1)
  RC=$?
}

# Credential-shaped names are dropped and said so, URL passwords removed;
# the operator passes one on purpose with "env:NAME".
case_environment ()
{
  local b="$WORK/env" out
  SBX_EXTRA='"env": {"mode": "inherit"}' write_agent "$b" read-only "$WS" "" \
    sh -c 'echo "pg=$PGPASSWORD tok=$MYTOKEN url=$DATABASE_URL"'
  out=$(PGPASSWORD=sbx-pg MYTOKEN=sbx-tok KUBECONFIG=/k \
    DATABASE_URL=postgres://app:sbx-pw@db/x "$SBX_OCI" --root "$WORK/state" \
    run --bundle "$b" --outcome "$b/outcome.json" env-1 2>&1)
  tap_has "$out" "pg= tok= url=postgres://app@db/x" \
    "env: PGPASSWORD and MYTOKEN dropped, DATABASE_URL's password removed"
  tap_lacks "$out" sbx-pw "env: the URL's password stays out"
  tap_has "$out" "credential-shaped names not passed: " \
    "env: one line on stderr says what was dropped"
  tap_is "$(python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["environment"]
print(sorted(e["dropped"]), e["redacted"])' "$b/outcome.json" 2>&1)" \
    "['KUBECONFIG', 'MYTOKEN', 'PGPASSWORD'] ['DATABASE_URL']" \
    "env: the outcome lists the dropped and redacted names"
  printf '%s\n' env:PGPASSWORD env:DATABASE_URL > "$WORK/approve-env"
  out=$(PGPASSWORD=sbx-pg MYTOKEN=sbx-tok \
    DATABASE_URL=postgres://app:sbx-pw@db/x "$SBX_OCI" --root "$WORK/state" \
    --approve "$WORK/approve-env" run --bundle "$b" env-2 2>&1)
  tap_has "$out" "pg=sbx-pg tok= url=postgres://app:sbx-pw@db/x" \
    "env: env:NAME approvals pass exactly those names"
  # A name the config chose reaches the operator's terminal in that line:
  # a terminal escape in it must arrive as text (\x1b), like every message.
  PROCESS_EXTRA='"env": ["PATH=/usr/bin:/bin", "X\u001b[2J_TOKEN=1"]' \
    write_agent "$b" read-only "$WS" "" true
  out=$("$SBX_OCI" --root "$WORK/state" run --bundle "$b" env-3 2>&1)
  tap_has "$out" 'not passed: X\x1b[2J_TOKEN' \
    "env: a dropped name's control characters are shown as \\xHH"
  tap_lacks "$out" $'\033' "env: no raw terminal escape reaches stderr"
}

# Hardened defaults: the extended stores of $HOME, and the agent sockets
# of $XDG_RUNTIME_DIR (gpg-agent's, the systemd user manager's).
case_home_and_runtime_dir ()
{
  # Below the workspace: the rest of WORK is under the private /tmp.
  local home="$WS/home" xdg="$WS/xdg" f out
  mkdir -p "$home/.config/rclone" "$home/.password-store" \
    "$home/.local/share/fish" "$xdg/gnupg" "$xdg/systemd"
  for f in .pgpass .vault-token .bash_history .local/share/fish/fish_history \
    .config/rclone/rclone.conf .password-store/p.gpg; do
    echo "sbx-secret-$f" > "$home/$f"
  done
  out=$(HOME="$home" probe_cmd sh -c "cd $home && cat .pgpass .vault-token \
.bash_history .local/share/fish/fish_history .config/rclone/rclone.conf \
.password-store/p.gpg 2>&1")
  tap_lacks "$out" sbx-secret \
    "hardened: .pgpass, .vault-token, histories, rclone, pass are unreadable"
  listen_unix "$xdg/gnupg/S.gpg-agent" "$xdg/systemd/private" &
  local listener=$!
  wait_socket "$xdg/systemd/private"
  write_connector
  out=$(XDG_RUNTIME_DIR="$xdg" HOME="$home" SBX_NETWORK=loopback \
    probe_cmd "$PY" conn.py "$xdg/gnupg/S.gpg-agent" "$xdg/systemd/private")
  tap_lacks "$out" connected \
    "hardened: gpg-agent's and systemd's private socket in \$XDG_RUNTIME_DIR are unreachable"
  tap_has "$out" "refused $xdg/systemd/private" "hardened: ... the connect was tried"
  kill "$listener" 2>/dev/null
  wait "$listener" 2>/dev/null
  rm -f "$WS/conn.py"
}

# Host unix sockets: any socket listening at launch outside the writable
# roots is hidden, not only the known daemons'; one the operator names
# ("socket:PATH") stays, and so does a server in the workspace.  Below
# /var/tmp: the sandbox sees it read-only (/tmp is private).
case_host_sockets ()
{
  local d out listener
  d=$(mktemp -d /var/tmp/sbx-nf.XXXXXX)
  chmod 755 "$d"
  listen_unix "$d/daemon.sock" "$d/allowed.sock" &
  listener=$!
  wait_socket "$d/allowed.sock"
  write_connector
  printf '%s\n' "socket:$d/allowed.sock" > "$WORK/approve-sock"
  out=$(APPROVE="$WORK/approve-sock" probe_cmd "$PY" conn.py \
    "$d/daemon.sock" "$d/allowed.sock")
  tap_has "$out" "refused $d/daemon.sock" \
    "host sockets: one listening outside the workspace is unreachable"
  tap_has "$out" "connected $d/allowed.sock" \
    "host sockets: one the operator names (socket:PATH) stays reachable"
  APPROVE="$WORK/approve-sock" probe unix-server
  works unix-server \
    "host sockets: with one approved, a unix server and client in the workspace talk"
  kill "$listener" 2>/dev/null
  wait "$listener" 2>/dev/null
  rm -rf "$d" "$WS/conn.py"
}

# wait_socket PATH: until the listener made it (10 s at most: python
# starts slowly on a loaded host).
wait_socket ()
{
  local i
  for i in $(seq 100); do
    [ -S "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# probe_cmd ARG...: ARG... in a fresh agent sandbox; prints its output.
probe_cmd ()
{
  N=$((N + 1))
  write_agent "$WORK/b$N" workspace-write "$WS" "" "$@"
  "$SBX_OCI" --root "$WORK/state" ${APPROVE:+--approve "$APPROVE"} \
    run --bundle "$WORK/b$N" "nf-$N" 2>&1
}

run_cases ()
{
  WS="$WORK/ws"
  mkdir -p "$WS" "$WORK/state"
  case_deny
  case_agent_default
  case_own_filter
  case_environment
  case_home_and_runtime_dir
  case_host_sockets
}

# The account's own home (its passwd entry) keeps its stores hidden when
# HOME points elsewhere.  Root only: /etc/passwd is replaced in a mount
# namespace of the test's own, for root and then for uid 65534 ($1: the
# prefix that switches users, $2: a state root that user owns, $3: who).
case_account_home ()
{
  local as=$1 state=$2 who=$3 ws="$WORK/acct-ws-${3// /}" out acct
  # Below the workspace: the rest of WORK is under the private /tmp.
  acct="$ws/acct"
  mkdir -p "$acct/.ssh" "$ws/scratch"
  echo sbx-account-key > "$acct/.ssh/id_sbx"
  chmod -R a+rX "$ws"
  sed -E "s|^([^:]*:[^:]*:(0\|65534):[^:]*:[^:]*:)[^:]*|\\1$acct|" \
    /etc/passwd > "$ws.passwd"
  write_agent "$ws.b" read-only "$ws" "" cat "$acct/.ssh/id_sbx"
  chmod -R a+rX "$ws.b"
  out=$(unshare -m sh -c 'mount --bind "$1" /etc/passwd && shift && exec "$@"' \
    sh "$ws.passwd" $as env HOME="$ws/scratch" "$SBX_OCI" \
    --root "$state" run --bundle "$ws.b" "acct-${who// /}" 2>&1)
  tap_lacks "$out" sbx-account-key \
    "[$who] hardened: the account's ~/.ssh stays hidden with HOME elsewhere"
}

# The account's home, seen as root and as uid 65534 with a passwd file of
# the test's own: root only, as it mounts over /etc/passwd.
root_only_cases ()
{
  mkdir -p "$WORK/acct-state"
  chown 65534:65534 "$WORK/acct-state"
  case_account_home "" "$WORK/root/state" root
  case_account_home "setpriv --reuid=65534 --regid=65534 --clear-groups" \
    "$WORK/acct-state" "uid 65534"
}

tap_suite "$HERE/filters.sh" nf SBX_OCI NET_PROBE
