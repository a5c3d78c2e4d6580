#!/bin/bash
# shellcheck disable=SC2016 # single-quoted scripts are the container's
# podman_rootless.sh SBX_OCI [RUNC]: what a rootless podman workload and
# the host see, under sbx-oci and under runc in the same run, row by row:
# host-side uid, gid, groups and capabilities, file permissions on a
# volume, --group-add, --uidmap, --userns=keep-id, --pid container:X, -t,
# exec -u and podman's default (slirp4netns) network.
#
# Rootless podman runs its runtime as uid 0 of a user namespace of the
# caller's subordinate ids.  The peer is runc: crun 1.8.1 cannot run
# rootless on a hybrid cgroup host.  Each row runs the same podman command
# under both runtimes and compares one observed value.  A row passes when
# sbx-oci's value is runc's.  A mismatch is "not ok", unless the row is
#   - a bubblewrap limit documented in LIMIT below (with the reason):
#     "ok ... # SKIP" naming it; or
#   - a gap still being worked on, in PENDING below: "not ok ... # TODO",
#     shown, not hidden.
# runc failing a row itself (this host cannot do it) skips the row.
#
# Prints TAP.  Exits 0 with a TAP skip and the reason when not root, when
# podman, runc or newuidmap is missing (`SBX_SETUP_PODMAN=1 sh
# scripts/setup-debian.sh` installs them), or when rootless podman cannot
# run a container here at all.  Needs root only to make the rootless user,
# and only inside a private mount namespace: scratch copies of /etc/passwd,
# /etc/group, /etc/subuid and /etc/subgid that add a test user (a free uid
# from 60900, subordinate ids from 200000) are bound over the real ones
# there, and podman runs as that user with its home, runtime directory and
# store in a scratch directory.  Nothing on the host is changed.  Half a
# minute or so.
set -u
SBX=${1:?usage: podman_rootless.sh SBX_OCI [RUNC]}
SBX=$(cd "$(dirname "$SBX")" && pwd)/$(basename "$SBX")
RUNC=${2:-$(command -v runc || echo /usr/sbin/runc)}
skip_all () { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "needs root (to make a rootless user in a private mount namespace)"
command -v podman > /dev/null || skip_all "podman is not installed (SBX_SETUP_PODMAN=1 scripts/setup-debian.sh)"
[ -x "$RUNC" ] || skip_all "runc is not installed (SBX_SETUP_PODMAN=1 scripts/setup-debian.sh)"
if ! command -v newuidmap > /dev/null || ! command -v newgidmap > /dev/null; then
  skip_all "newuidmap or newgidmap is missing: package uidmap (SBX_SETUP_PODMAN=1 scripts/setup-debian.sh)"
fi
for f in /etc/passwd /etc/group /etc/subuid /etc/subgid; do
  # A scratch copy is bound over each; a missing one would have to be made.
  [ -f "$f" ] || skip_all "no $f to stand a scratch copy in for"
done
if [ "$(cat /proc/sys/user/max_user_namespaces 2> /dev/null || echo 1)" = 0 ] ||
  [ "$(cat /proc/sys/kernel/unprivileged_userns_clone 2> /dev/null || echo 1)" = 0 ]; then
  skip_all "unprivileged user namespaces are disabled (rootless podman needs them)"
fi
BUSYBOX=
for bb in /bin/busybox /usr/bin/busybox; do
  [ -x "$bb" ] && ! ldd "$bb" > /dev/null 2>&1 && BUSYBOX=$bb && break
done
[ -n "$BUSYBOX" ] || skip_all "no static busybox (busybox-static)"

# A private mount namespace: the scratch passwd, group and subordinate id
# files are bound there only, and nothing podman mounts reaches the host.
if [ -z "${_SBX_ROOTLESS_INNER:-}" ]; then
  _SBX_ROOTLESS_INNER=1 exec unshare --mount --propagation private "$BASH" "$0" "$SBX" "$RUNC"
fi
# Shared again, but in a peer group of this namespace's own: rootless
# podman warns when "/" is not shared, and its mounts stay here.
mount --make-rshared /

# The rootless user: a uid with no account and no process, and a
# subordinate range no account on the host has.
RU=60900
while getent passwd "$RU" > /dev/null || getent group "$RU" > /dev/null ||
  pgrep -U "$RU" > /dev/null; do
  RU=$((RU + 1))
done
SUB=200000
for f in /etc/subuid /etc/subgid; do
  SUB=$(awk -F: -v s="$SUB" 'NF == 3 && $2 + $3 > s && $2 < s + 65536 {s = $2 + $3} END {print s}' "$f")
done
RNAME=sbxrootless

D=$(mktemp -d /var/tmp/sbx-rootless.XXXXXX)
chmod 755 "$D"
trap 'cleanup' EXIT
mkdir -p "$D/etc" "$D/home" "$D/xdg"
cp /etc/passwd /etc/group /etc/subuid /etc/subgid "$D/etc/"
echo "$RNAME:x:$RU:$RU:sbx-oci rootless test:$D/home:/bin/sh" >> "$D/etc/passwd"
echo "$RNAME:x:$RU:" >> "$D/etc/group"
echo "$RNAME:$SUB:65536" >> "$D/etc/subuid"
echo "$RNAME:$SUB:65536" >> "$D/etc/subgid"
for f in passwd group subuid subgid; do mount --bind "$D/etc/$f" "/etc/$f"; done
chown "$RU:$RU" "$D/home" "$D/xdg"
chmod 700 "$D/xdg"
# slirp4netns, podman's default rootless network, opens /dev/net/tun,
# which udev makes 0666 on most hosts; where it is root's alone, a 0666
# node of it is bound over it here (the host's is left as it is).
if [ -c /dev/net/tun ] && [ "$(stat -c %a /dev/net/tun)" != 666 ] &&
  mknod -m 666 "$D/tun" c 10 200 2> /dev/null; then
  mount --bind "$D/tun" /dev/net/tun
fi
driver=vfs
grep -qw overlay /proc/filesystems && [ "$(stat -fc %T /var/tmp)" != overlayfs ] && driver=overlay
# No host storage.conf or containers.conf of the user's: its own, empty.
printf '[storage]\ndriver = "%s"\n' "$driver" > "$D/home/storage.conf"
: > "$D/home/containers.conf"
ROOTLESS_ENV=(HOME="$D/home" XDG_RUNTIME_DIR="$D/xdg" XDG_CONFIG_HOME="$D/home/.config"
  CONTAINERS_STORAGE_CONF="$D/home/storage.conf" CONTAINERS_CONF="$D/home/containers.conf")
# podman as the rootless user (its environment otherwise kept: an
# ASan build's ASAN_OPTIONS reaches sbx-oci as podman passes it on).
PODMAN=(timeout -k 5 40 env "${ROOTLESS_ENV[@]}" setpriv --reuid "$RU" --regid "$RU" --init-groups
  podman --root "$D/home/storage" --runroot "$D/xdg/storage" --tmpdir "$D/xdg/libpod"
  --cgroup-manager cgroupfs --events-backend file)
IMG=localhost/sbx-rootless:1

cleanup () {
  local pause
  "${PODMAN[@]}" rm -a -f -t 0 > /dev/null 2>&1
  "${PODMAN[@]}" rmi -a -f > /dev/null 2>&1
  # The user namespace's keeper, which podman leaves running.
  pause=$(cat "$D/xdg/libpod/tmp/pause.pid" 2> /dev/null)
  [ -n "$pause" ] && kill "$pause" 2> /dev/null
  pkill -KILL -U "$RU" 2> /dev/null
  rm -rf "$D" 2> /dev/null
}

make_image () {
  local root=$D/home/rootfs a
  mkdir -p "$root"/{bin,etc,dev,proc,sys,tmp,root,run}
  chmod 1777 "$root/tmp"
  cp "$BUSYBOX" "$root/bin/busybox"
  for a in $("$BUSYBOX" --list); do [ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"; done
  printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
  printf 'root:x:0:\ntty:x:5:\n' > "$root/etc/group"
  tar --numeric-owner -C "$root" -cf "$root.tar" . && chown "$RU:$RU" "$root.tar" &&
    "${PODMAN[@]}" import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' \
      "$root.tar" "$IMG" > /dev/null 2> "$D/import.err"
}
make_image || skip_all "rootless podman cannot import an image here: $(tail -1 "$D/import.err" 2> /dev/null)"

# p RUNTIME ARGS...: podman ARGS with RUNTIME; stdout (stderr folded in).
p () {
  local rt=$1
  shift
  "${PODMAN[@]}" --runtime "$rt" "$@" 2>&1 < /dev/null
}
# Without its subordinate ids (newuidmap not setuid, say) podman falls
# back to a namespace of the user's one id, which these rows do not test.
map=$("${PODMAN[@]}" unshare cat /proc/self/uid_map 2>&1 | tr -s ' ' | tr '\n' ';')
[[ "$map" == *" 1 $SUB 65536;"* ]] ||
  skip_all "rootless podman did not get the subordinate ids (newuidmap failed?): uid_map $map"
err=$(p "$RUNC" run --rm --network none "$IMG" true) ||
  skip_all "rootless podman cannot run a container with runc here: $(echo "$err" | tail -1)"

# The rows' shared files, as the host sees them: the container's root is
# the rootless user ($RU), its uid 1000 is $SUB + 999.  A 0600 and a 0644
# file of the container's root, a 0600 one of the host's root, uid 1000's
# own 0700 home.
U1000=$((SUB + 999))
mkdir -p "$D/data/home"
echo secret > "$D/data/secret"; chmod 600 "$D/data/secret"
echo shared > "$D/data/shared"; chmod 644 "$D/data/shared"
echo hostroot > "$D/data/hostroot"; chmod 600 "$D/data/hostroot"
chown "$RU:$RU" "$D/data" "$D/data/secret" "$D/data/shared"
echo mine > "$D/data/home/f"; chown -R "$U1000:$U1000" "$D/data/home"; chmod 700 "$D/data/home"
data_reset () { rm -f "$D/data/new" "$D/data/home/new"; }

status_of () { # PID: the host's Uid, Gid and Groups of it
  [ "${1:-0}" -gt 0 ] || { echo "no container"; return; }
  awk '/^(Uid|Gid|Groups):/ {$1 = $1; print}' "/proc/$1/status" | tr '\n' ';'
}
caps_of () { # PID: the host's capability sets of it
  [ "${1:-0}" -gt 0 ] || { echo "no container"; return; }
  awk '/^Cap(Inh|Prm|Eff|Bnd|Amb):/ {$1 = $1; print}' "/proc/$1/status" | tr '\n' ';'
}
host_pid () { "${PODMAN[@]}" inspect -f '{{.State.Pid}}' "$1" 2> /dev/null || echo 0; }
# The host-side owner of a file the workload made.
owner_of () { stat -c '%u:%g' "$1" 2> /dev/null || echo "no $1"; }

# ---- rows: each prints one value for runtime $1 ------------------------------

row_root () {
  local c=rl-root-$2
  p "$1" run -d --name "$c" --network none "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_root_caps () {
  local c=rl-caps-$2
  p "$1" run -d --name "$c" --network none "$IMG" sleep 30 > /dev/null
  caps_of "$(host_pid "$c")"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_user () {
  local c=rl-user-$2
  p "$1" run -d --name "$c" --network none --user 1000 "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_group_add () {
  local c=rl-grp-$2
  p "$1" run -d --name "$c" --network none --user 1000:1001 --group-add 2000 "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" exec "$c" id
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_file_access () {
  data_reset
  p "$1" run --rm --network none --user 1000:1000 -v "$D/data:/data" "$IMG" sh -c \
    'cat /data/secret > /dev/null 2>&1; echo read-secret=$?; (echo x >> /data/shared) 2> /dev/null; echo append-shared=$?; (: > /data/new) 2> /dev/null; echo create-data=$?; cat /data/home/f; : > /data/home/new; echo create-home=$?'
  echo "home/new is $(owner_of "$D/data/home/new")"
}

row_root_access () {
  data_reset
  p "$1" run --rm --network none -v "$D/data:/data" "$IMG" sh -c \
    'cat /data/secret; cat /data/hostroot > /dev/null 2>&1; echo read-hostroot=$?; stat -c "hostroot %u:%g" /data/hostroot; cat /data/home/f > /dev/null 2>&1; echo read-home=$?; : > /data/new; echo create=$?'
  echo "new is $(owner_of "$D/data/new")"
}

row_uidmap () {
  local c=rl-map-$2
  p "$1" run -d --name "$c" --network none --uidmap 0:1:4096 --gidmap 0:1:4096 "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" exec "$c" cat /proc/self/uid_map | tr -s ' '
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_keep_id () {
  local c=rl-keep-$2
  p "$1" run -d --name "$c" --network none --userns=keep-id "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" exec "$c" sh -c 'id; echo "HOME=$HOME"'
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_pid_container () {
  local c=rl-pidc-$2
  p "$1" run -d --name "$c" --network none "$IMG" sleep 31 > /dev/null
  p "$1" run --rm --network none --pid "container:$c" "$IMG" sh -c 'ps -o args | grep -q "^sleep 31" && echo sees-sleep-31'
  p "$1" rm -f -t 0 "$c" > /dev/null
}

# The terminal, its owner and mode, and whether the workload can open it
# again by its name (as `$(tty)`, less, vi, ssh and gpg's pinentry do).
# Under runc it is the process's user's, group tty (podman's /dev/pts
# mount asks gid=5), so mode 620 lets a non-root user open it again.
TTY_SH='tty; id -u; stat -c "%u:%g %a" "$(tty)"; (: > "$(tty)") 2> /dev/null; echo reopen=$?'
row_tty () {
  p "$1" run --rm -t --network none "$IMG" sh -c "$TTY_SH" | tr -d '\r'
}

row_tty_user () {
  p "$1" run --rm -t --network none --user 1000:1001 "$IMG" sh -c "$TTY_SH" | tr -d '\r'
}

row_exec_tty () {
  local c=rl-exect-$2
  p "$1" run -d --name "$c" --network none "$IMG" sleep 30 > /dev/null
  p "$1" exec -t -u 1000:1001 "$c" sh -c "$TTY_SH" | tr -d '\r'
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_exec_user () {
  local c=rl-exec-$2 pid
  p "$1" run -d --name "$c" --network none "$IMG" sleep 30 > /dev/null
  p "$1" exec -u 1000:1001 "$c" id
  p "$1" exec -d -u 1000:1001 "$c" sleep 33 > /dev/null
  pid=$(pgrep -n -U "$U1000" -f '^sleep 33$')
  status_of "${pid:-0}"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_network () {
  p "$1" run --rm "$IMG" sh -c 'ip -o link | cut -d: -f2 | tr -d " " | tr "\n" " "; echo; ip route | grep -c default'
}

# ---- comparison ------------------------------------------------------------------

# Mismatches that are bubblewrap's and cannot be helped, with the reason.
declare -A LIMIT=()
# Mismatches still being worked on: none today.
declare -A PENDING=()

PEER=runc PEER_BIN=$RUNC
# shellcheck source=tests/peers/rows_lib.sh
. "$(dirname "$0")/rows_lib.sh"

echo "# podman $(podman --version | awk '{print $3}'), runc $("$RUNC" --version | awk 'NR == 1 {print $3}'), store $driver"
echo "# rootless user $RU, subordinate ids $SUB:65536 (the container's 1000 is $U1000)"
row root "root: host-side Uid, Gid, Groups (the rootless user's)"
row root_caps "root: host-side capability sets"
row user "--user 1000: host-side Uid, Gid, Groups"
row group_add "--user 1000:1001 --group-add 2000: host-side Uid, Gid, Groups, and id"
row file_access "--user 1000:1000 -v DIR: what it reads and writes, the owner of what it makes"
row root_access "root -v DIR: the rootless user's files, not the host root's"
row uidmap "--uidmap 0:1:4096: host-side Uid, Gid, Groups, and the uid_map"
row keep_id "--userns=keep-id: host-side Uid, Gid, Groups, and id"
row pid_container "--pid container:X: X's processes are seen"
row tty "-t: the workload runs on its terminal (its owner and mode, it opens it)"
row tty_user "-t --user 1000:1001: the same for uid 1000"
row exec_tty "exec -t -u 1000:1001: the same for an exec'd process"
row exec_user "exec -u 1000:1001: id, and the host-side Uid, Gid, Groups"
row network "the default network (slirp4netns): links and a default route"
rows_end
