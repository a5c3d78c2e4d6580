#!/bin/bash
# The rung without namespaces (TAP), as root and as uid 65534: sbx-oci
# runs in a user namespace of the test's own whose user.max_user_namespaces
# is 0, so bubblewrap can make no namespace, as inside a container with a
# default seccomp profile.  Agent sandboxes then run under Landlock and
# seccomp alone: writes only beneath the grants, hidden stores unreadable,
# nested grants as with namespaces, network deny, loopback refused, the
# report partial and naming the missing layer; git, a compiler and a
# package cache still work; a wall-clock limit ends the whole tree.
# With SBX_NONS_IN=podman (tests/peers/meson.build's podman_rung) the same
# cases run where it matters: each sbx-oci call inside a podman container
# with podman's defaults (root in the container, its default seccomp
# profile, its own namespaces), the host's /usr and /etc read-only.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
WORK=${SBX_IT_WORK:-}
N=0

# sbx ARGS...: sbx-oci where no namespace can be made.
sbx ()
{
  if [ "${SBX_NONS_IN:-}" = podman ]; then
    in_podman "$SBX_OCI" --root "$WORK/state" "$@"
    return
  fi
  unshare -U -r sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"' \
    sh "$SBX_OCI" --root "$WORK/state" "$@"
}

# in_podman ARGV...: ARGV in a podman container of default settings but
# two: runc (crun refuses this host's hybrid cgroups) and soft limits
# below the host's hard ones (podman's defaults raise them, which needs a
# CAP_SYS_RESOURCE this host's root may lack).  Paths are the host's, so
# the bundles' absolute paths hold inside.
in_podman ()
{
  local top=$WORK/podroot d
  if [ ! -d "$top" ]; then
    mkdir -p "$top/usr" "$top/etc" "$top/var/tmp" "$top/tmp"
    for d in bin sbin lib lib64; do [ -e "/$d" ] && ln -s "usr/$d" "$top/$d"; done
  fi
  podman --runtime runc run --rm --log-driver none \
    --ulimit "nofile=1024:$(ulimit -Hn)" --ulimit "nproc=4096:4096" \
    -v /usr:/usr:ro -v /etc:/etc:ro -v /var/tmp:/var/tmp \
    -v "$WORK:$WORK" -v "$HOME:$HOME" \
    -v "$(dirname "$SBX_OCI"):$(dirname "$SBX_OCI"):ro" \
    -e HOME="$HOME" -e PATH=/usr/local/bin:/usr/bin:/bin \
    --rootfs "$top" "$@"
}

agent ()
{
  local m=$1
  shift
  write_agent "$WORK/b$((N + 1))" workspace-write "$WS" "$m" "$@"
  run_bundle "$WORK/b$((N + 1))"
}

# An alias of one of a hidden store's own directories beside its path
# (here / bound again below WORK, as podman's rootfs below WORK was in the
# podman run): a rule on that entry is a rule on the directory it
# aliases, which holds the store.  Not inside podman (its own mounts).
case_alias_of_ancestor ()
{
  [ "${SBX_NONS_IN:-}" = podman ] && return
  local h="$WORK/ahome" b="$WORK/b-alias"
  mkdir -p "$h/.ssh" "$WORK/aroot"
  echo sbx-alias-secret > "$h/.ssh/id"
  write_agent "$b" workspace-write "$WS" "" \
    sh -c 'cat "$1/.ssh/id" 2>/dev/null || echo store-refused' sh "$h"
  OUT=$(HOME=$h unshare -U -r -m sh -c \
    'mount --rbind / "$1" && echo 0 > /proc/sys/user/max_user_namespaces && shift && exec "$@"' \
    sh "$WORK/aroot" "$SBX_OCI" --root "$WORK/state" run --bundle "$b" alias-1 2>&1)
  tap_lacks "$OUT" sbx-alias-secret \
    "a hidden store with an alias of its own / beside its path stays unreadable"
  tap_has "$OUT" store-refused "  the read is refused"
  rm -rf "$h"
  rmdir "$WORK/aroot"
}

# bwrap gives an agent no capability; without it the rung drops the
# caller's (uid 0's of a user namespace here, podman's default set for
# root inside podman) before the command: none is left in any set.
case_capabilities ()
{
  agent "" sh -c 'grep -E "^Cap(Inh|Prm|Eff|Amb):" /proc/self/status'
  local set
  for set in Inh Prm Eff Amb; do
    tap_has "$OUT" "Cap$set:	0000000000000000" "the command holds no capability (Cap$set)"
  done
}

# A grant the command cannot reach once its capabilities are gone (a
# writable bind below a directory that denies search, which sbx-oci, as
# root of its namespace, reached through CAP_DAC_READ_SEARCH): the write
# there fails, as it would for the caller without them, and the run says
# which grant was left out instead of leaving it unsaid (helper-48 F3).
case_unreachable_grant ()
{
  local d="$WORK/locked"
  mkdir -p "$d/ws"
  chmod 000 "$d"
  agent "$(bind_rw "$d/ws")" sh -c \
    '{ echo x > "$1/f"; } 2>/dev/null && echo write-landed || echo write-refused' sh "$d/ws"
  chmod 700 "$d"
  tap_has "$OUT" write-refused "a grant below a directory that denies search: the write fails"
  tap_has "$OUT" "sbx-landlock: $d/ws: cannot be reached" \
    "a grant below a directory that denies search: the run names it"
  rm -rf "$d"
}

case_report ()
{
  agent "" true
  tap_has "$OUTCOME" '"outcome":"exited"' "a command runs without namespaces"
  tap_has "$OUTCOME" '"layers":["seccomp","landlock"]' \
    "the outcome lists the layers that hold: seccomp, landlock"
  tap_has "$OUTCOME" '"level":"partial"' "the level is partial"
  tap_has "$OUTCOME" "no namespaces (bubblewrap cannot make any" \
    "a reason names the missing layer"
  tap_has "$OUTCOME" "no private /tmp" "a reason names the missing private /tmp"
}

case_files ()
{
  local out r="$WS/nested" m
  out=$(mktemp -d /var/tmp/sbx-nons.XXXXXX)
  chmod 777 "$out"
  mkdir -p "$HOME/.ssh" "$HOME/visible"
  echo sbx-secret-key > "$HOME/.ssh/id_nons"
  echo seen > "$HOME/visible/f"
  # A link beside the hidden store, made before launch: its rule lands on
  # the link itself (never followed), so it does not reach the store.
  ln -sfn .ssh "$HOME/ssh-link"
  agent "" sh -c 'echo w > "$1/w" && echo ws-ok
    { echo x > "$2/escape"; } 2>/dev/null || echo outside-refused
    cat "$3/.ssh/id_nons" 2>/dev/null || echo store-refused
    cat "$3/ssh-link/id_nons" 2>/dev/null || echo link-refused
    cat "$3/visible/f"
    echo t > "$TMPDIR/t" && echo tmpdir-ok' sh "$WS" "$out" "$HOME"
  tap_has "$OUT" ws-ok "the workspace takes a write"
  tap_has "$OUT" outside-refused "a write outside the grants is refused"
  tap_ok "nothing reached the host outside the grants" test ! -e "$out/escape"
  tap_has "$OUT" store-refused "a hidden credential store is unreadable"
  tap_has "$OUT" link-refused "a symbolic link beside it does not reach it"
  tap_lacks "$OUT" sbx-secret-key "its content never shows"
  tap_has "$OUT" seen "a sibling of the hidden store stays readable"
  tap_has "$OUT" tmpdir-ok "TMPDIR (the run's own) takes a write"
  rm -rf "$out" "$HOME/.ssh" "$HOME/visible" "$HOME/ssh-link"
  rm -rf "$r"
  mkdir -p "$r/vendor/cache" "$r/src"
  m="$(bind_rw "$r"), $(deny "$r/vendor"), $(bind_rw "$r/vendor/cache")"
  agent "$m" sh -c 'echo a > "$1/src/a" && echo top-ok
    { echo b > "$1/vendor/b"; } 2>/dev/null || echo vendor-refused
    echo c > "$1/vendor/cache/c" && echo cache-ok
    { echo n > "$1/new"; } 2>/dev/null || echo new-top-refused' sh "$r"
  tap_has "$OUT" top-ok "nested: the writable root takes a write (in an entry there at launch)"
  # The documented price of carving without a mount namespace: the
  # directories along the path to the denied one get no rule of their own.
  tap_has "$OUT" new-top-refused \
    "nested: a new entry directly in the root is refused (fails closed, reported)"
  tap_has "$OUT" vendor-refused "nested: the denied directory inside it refuses one"
  tap_has "$OUT" cache-ok "nested: the grant inside that takes one"
}

case_tools ()
{
  mkdir -p "$WS/tools"
  agent "" sh -c 'set -e; cd "$1"; git init -q repo; cd repo
echo hello > f; git add f; git -c user.name=t -c user.email=t@e commit -qm one
printf "int main(void){return 7;}\n" > p.c; cc -o p p.c; ./p || echo "cc-built exit $?"
mkdir -p ../cache/a ../cache/b; echo pkg > ../cache/a/x; mv ../cache/a/x ../cache/b/x
ln ../cache/b/x ../cache/b/h; truncate -s 0 ../cache/b/x; rm -r ../cache; echo tools-done' \
    sh "$WS/tools"
  tap_has "$OUT" "cc-built exit 7" "a compiler builds and runs a program"
  tap_has "$OUT" tools-done "git and a package cache's writes work"
  rm -rf "$WS/tools"
}

case_network ()
{
  agent "" /usr/bin/python3 -c 'import socket
try:
    socket.socket(socket.AF_INET); print("inet-made")
except OSError as e:
    print("inet-refused", e.errno)'
  tap_has "$OUT" inet-refused "network deny: an IP socket is refused (seccomp)"
  SBX_NETWORK=loopback agent "" true
  tap_has "$OUT" '"loopback" needs a network namespace' \
    "network loopback is refused, naming the cause"
  SBX_EXTRA='"requireEnforcement": "full"' agent "" true
  tap_has "$OUT" 'requireEnforcement: "full" is required' \
    "requireEnforcement full refuses the rung"
}

case_termination ()
{
  # A duration no other process on the host has: the marker pgrep finds.
  local tag="600.$$$N"
  SBX_EXTRA='"limits": {"wallClockSeconds": 1}' agent "" sh -c \
    "setsid sleep $tag & sleep $tag"
  tap_has "$OUTCOME" '"breach":"wall-clock"' "the wall clock ends the run"
  sleep 0.5
  tap_ok "nothing of the sandbox outlives it, not even a setsid child (process group + subreaper sweep)" \
    sh -c "! pgrep -f '^sleep $tag' > /dev/null"
}

run_cases ()
{
  WS="$WORK/ws"
  # A home of the suite's own: case_files makes and removes a ~/.ssh,
  # which in root's real home raced every other test planning with it
  # (bwrap: "Can't mkdir /root/.ssh" in front_door, under ASan's load).
  # Inside podman it is a directory of /var/tmp, which the container
  # shares, rather than one below WORK.
  export HOME="$WORK/home"
  [ "${SBX_NONS_IN:-}" = podman ] && [ "$(id -u)" = 0 ] &&
    HOME=$(mktemp -d /var/tmp/sbx-nons-home.XXXXXX)
  mkdir -p "$WS" "$WORK/state" "$HOME"
  if [ "${SBX_NONS_IN:-}" = podman ]; then
    if [ "$(id -u)" != 0 ]; then
      tap_skip "the rung inside podman" "podman is driven as root here (rootless podman is not set up)"
      return
    fi
    if ! in_podman /usr/bin/true > "$WORK/podman.err" 2>&1; then
      tap_skip "the rung inside podman" "no podman container can start: $(tail -1 "$WORK/podman.err")"
      return
    fi
    # The premise: podman's defaults leave root's bubblewrap no namespace
    # (no CAP_SYS_ADMIN), whatever a user namespace could do there.
    tap_has "$(in_podman bwrap --ro-bind / / true 2>&1)" \
      "Operation not permitted" "inside podman, root's bubblewrap cannot make a namespace"
  elif ! unshare -U -r sh -c 'echo 0 > /proc/sys/user/max_user_namespaces' 2> /dev/null; then
    tap_skip "the rung without namespaces" "no user namespace to simulate it in"
    return
  fi
  case_report
  case_capabilities
  case_files
  case_alias_of_ancestor
  case_unreachable_grant
  case_tools
  case_network
  case_termination
  [ "${SBX_NONS_IN:-}" != podman ] || [ "$(id -u)" != 0 ] || rm -rf "$HOME"
}

tap_suite "$0" no-namespaces SBX_OCI
