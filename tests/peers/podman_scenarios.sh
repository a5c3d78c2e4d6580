#!/bin/bash
# podman_scenarios.sh SBX_OCI [CRUN]: what a podman workload and the host
# see, under sbx-oci and under crun in the same run, row by row (issue 21):
# host-side uid, gid and groups, file permissions, port 80 and NET_ADMIN in
# podman's network namespace, --init, a bind-mounted entrypoint, kill right
# after start, --cpus, --memory with swap, --device, --uidmap, --pid=host,
# --pid container:X, and under --uidmap /dev/shm, a device and a terminal.
#
# Each row runs the same podman command under both runtimes and compares
# one observed value.  A row passes when sbx-oci's value is crun's.  A
# mismatch is "not ok", unless the row is
#   - a bubblewrap limit documented in LIMIT below (with the reason):
#     "ok ... # SKIP" naming it; or
#   - a gap still being worked on, in PENDING below: "not ok ... # TODO",
#     shown, not hidden.
# crun failing a row itself (this host cannot do it) skips the row.
#
# Prints TAP.  Exits 0 when podman or crun is missing (a TAP skip with the
# reason: `SBX_SETUP_PODMAN=1 sh scripts/setup-debian.sh` installs them).
# Needs root (rootful podman); everything it makes lives under its own
# podman store in a scratch directory, and it runs in a private mount
# namespace with fresh runtime state directories, as the peers' harness
# does (/work/shared/peers/podman/harness.sh).  About a minute.
set -u
SBX=${1:?usage: podman_scenarios.sh SBX_OCI [CRUN]}
SBX=$(cd "$(dirname "$SBX")" && pwd)/$(basename "$SBX")
CRUN=${2:-$(command -v crun)}
skip_all () { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip_all "needs root (rootful podman)"
command -v podman > /dev/null || skip_all "podman is not installed (SBX_SETUP_PODMAN=1 scripts/setup-debian.sh)"
[ -n "$CRUN" ] && [ -x "$CRUN" ] || skip_all "crun is not installed (SBX_SETUP_PODMAN=1 scripts/setup-debian.sh)"
BUSYBOX=
for bb in /bin/busybox /usr/bin/busybox; do
  [ -x "$bb" ] && ! ldd "$bb" > /dev/null 2>&1 && BUSYBOX=$bb && break
done
[ -n "$BUSYBOX" ] || skip_all "no static busybox (busybox-static)"

# A private mount namespace: fresh runtime state directories (another
# user's clean-up cannot reach this run's containers), and the cgroup v2
# controllers of a hybrid host hidden (crun refuses such hosts).
if [ -z "${_SBX_SCENARIOS_INNER:-}" ]; then
  _SBX_SCENARIOS_INNER=1 exec unshare --mount --propagation private "$BASH" "$0" "$SBX" "$CRUN"
fi
D=$(mktemp -d /var/tmp/sbx-scenarios.XXXXXX)
trap 'cleanup' EXIT
for dir in /run/crun /run/sbx-oci; do
  mkdir -p "$dir" && mount -t tmpfs -o mode=0700 tmpfs "$dir"
done
if [ "$(stat -fc %T /sys/fs/cgroup)" = tmpfs ] &&
  [ -n "$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)" ]; then
  : > "$D/empty"
  mount --bind "$D/empty" /sys/fs/cgroup/unified/cgroup.controllers
fi
driver=vfs
grep -qw overlay /proc/filesystems && [ "$(stat -fc %T /var/tmp)" != overlayfs ] && driver=overlay
cat > "$D/storage.conf" << EOF
[storage]
driver = "$driver"
graphroot = "$D/storage"
runroot = "$D/run"
EOF
export CONTAINERS_STORAGE_CONF=$D/storage.conf
PODMAN=(timeout -k 5 40 podman --tmpdir "$D/libpod" --cgroup-manager cgroupfs)
# Rootful podman asks for nofile and nproc of 1048576; without
# CAP_SYS_RESOURCE (CI sandboxes, some VMs) every runtime fails to raise
# a hard limit, so run and create ask for what this process may keep.
ULIMITS=()
capeff=$(awk '/^CapEff/ {print $2}' /proc/self/status)
if ! (((16#$capeff >> 24) & 1)); then
  nproc=$(ulimit -Hu); pidmax=$(cat /proc/sys/kernel/pid_max)
  { [ "$nproc" = unlimited ] || [ "$nproc" -gt "$pidmax" ]; } && nproc=$pidmax
  ULIMITS=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit "nproc=$nproc:$nproc")
fi
IMG=localhost/sbx-scenarios:1

cleanup () {
  "${PODMAN[@]}" rm -a -f -t 0 > /dev/null 2>&1
  "${PODMAN[@]}" rmi -a -f > /dev/null 2>&1
  umount "$D/storage/overlay" > /dev/null 2>&1
  rm -rf "$D" 2> /dev/null
}

make_image () {
  local root=$D/rootfs a
  mkdir -p "$root"/{bin,etc,dev,proc,sys,tmp,root,run}
  chmod 1777 "$root/tmp"
  cp "$BUSYBOX" "$root/bin/busybox"
  for a in $("$BUSYBOX" --list); do [ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"; done
  printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
  printf 'root:x:0:\n' > "$root/etc/group"
  tar --numeric-owner -C "$root" -cf "$root.tar" . &&
    "${PODMAN[@]}" import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' \
      "$root.tar" "$IMG" > /dev/null
}
make_image || { echo "Bail out! podman import failed"; exit 2; }

# The rows' shared files: a root-owned 0600 and 0644 file, uid 1000's
# own 0700 home, an entrypoint outside the image.
mkdir -p "$D/data/home"
echo secret > "$D/data/secret"; chmod 600 "$D/data/secret"
echo shared > "$D/data/shared"; chmod 644 "$D/data/shared"
echo mine > "$D/data/home/f"; chown -R 1000:1000 "$D/data/home"; chmod 700 "$D/data/home"
printf '#!/bin/sh\necho entry ran as $(id -u)\n' > "$D/entry.sh"; chmod 755 "$D/entry.sh"

# p RUNTIME ARGS...: podman ARGS with RUNTIME; stdout (stderr folded in).
p () {
  local rt=$1 cmd=$2
  shift 2
  case $cmd in run | create) set -- "${ULIMITS[@]}" "$@" ;; esac
  "${PODMAN[@]}" --runtime "$rt" "$cmd" "$@" 2>&1 < /dev/null
}
status_of () { # PID: the host's Uid, Gid and Groups of it
  [ "${1:-0}" -gt 0 ] || { echo "no container"; return; }
  awk '/^(Uid|Gid|Groups):/ {$1 = $1; print}' "/proc/$1/status" | tr '\n' ';'
}
host_pid () { "${PODMAN[@]}" inspect -f '{{.State.Pid}}' "$1" 2> /dev/null || echo 0; }
# The container's v1 or v2 cgroup file FILE (v1: CONTROLLER's hierarchy).
cgroup_file () { # PID CONTROLLER FILE
  local path
  [ "${1:-0}" -gt 0 ] || { echo "no container"; return; }
  path=$(awk -F: -v c="$2" '$2 ~ "(^|,)" c "(,|$)" {print $3}' "/proc/$1/cgroup")
  if [ -n "$path" ] && [ -e "/sys/fs/cgroup/$2$path/$3" ]; then
    cat "/sys/fs/cgroup/$2$path/$3"
  else
    path=$(awk -F: '$1 == 0 {print $3}' "/proc/$1/cgroup")
    cat "/sys/fs/cgroup/unified$path/$3" 2> /dev/null || echo "no $3"
  fi
}

# ---- rows: each prints one value for runtime $1 ------------------------------

row_identity () {
  local c=sc-ids-$2
  p "$1" run -d --name "$c" --user 1000:1001 --group-add 2000 "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_file_access () {
  p "$1" run --rm --user 1000:1000 -v "$D/data:/data" "$IMG" sh -c \
    'cat /data/secret > /dev/null 2>&1; echo read-secret=$?; (echo x >> /data/shared) 2> /dev/null; echo append-shared=$?; cat /data/home/f'
}

row_port80 () {
  p "$1" run --rm --network none "$IMG" sh -c 'timeout 1 nc -l -p 80 127.0.0.1; echo nc=$?' | grep nc=
}

row_net_admin () {
  p "$1" run --rm --network none --cap-add NET_ADMIN "$IMG" sh -c \
    'ip link set lo up && ip addr add 10.9.9.1/32 dev lo && echo net-admin=yes'
}

row_init () {
  p "$1" run --rm --init "$IMG" sh -c 'tr "\0" " " < /proc/1/cmdline; echo; echo rc=$?'
}

row_entrypoint () {
  p "$1" run --rm -v "$D/entry.sh:/entry.sh:ro" "$IMG" /entry.sh
}

row_kill_after_start () {
  local i c got=0
  for i in 1 2 3; do
    c=sc-kill-$2-$i
    p "$1" create --name "$c" "$IMG" sh -c 'trap "exit 0" TERM; while :; do sleep 0.05; done' > /dev/null
    p "$1" start "$c" > /dev/null && p "$1" kill -s TERM "$c" > /dev/null
    [ "$(p "$1" wait "$c")" = 0 ] && got=$((got + 1))
    p "$1" rm -f -t 0 "$c" > /dev/null
  done
  echo "trap saw TERM $got/3"
}

row_cpus () {
  local c=sc-cpu-$2 pid
  p "$1" run -d --name "$c" --cpus 0.5 "$IMG" sleep 30 > /dev/null
  pid=$(host_pid "$c")
  echo "quota=$(cgroup_file "$pid" cpu cpu.cfs_quota_us) period=$(cgroup_file "$pid" cpu cpu.cfs_period_us)"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_memory_swap () {
  local c=sc-mem-$2 pid
  p "$1" run -d --name "$c" --memory 64m "$IMG" sleep 30 > /dev/null
  pid=$(host_pid "$c")
  echo "limit=$(cgroup_file "$pid" memory memory.limit_in_bytes) memsw=$(cgroup_file "$pid" memory memory.memsw.limit_in_bytes)"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

row_device () {
  p "$1" run --rm --device /dev/zero:/dev/myzero "$IMG" sh -c 'head -c 4 /dev/myzero | wc -c'
}

row_uidmap () {
  local c=sc-map-$2
  p "$1" run -d --name "$c" --uidmap 0:100000:65536 --gidmap 0:100000:65536 "$IMG" sleep 30 > /dev/null
  status_of "$(host_pid "$c")"
  p "$1" rm -f -t 0 "$c" > /dev/null
}

# What bwrap, a mapped uid, binds from the state root under --uidmap: the
# config's /dev/shm (its source and owner), a --device node, a terminal.
UIDMAP=(--uidmap 0:100000:65536 --gidmap 0:100000:65536)
row_uidmap_shm () {
  p "$1" run --rm "${UIDMAP[@]}" "$IMG" sh -c \
    'sed -n "s|.* /dev/shm .* - \([^ ]*\) \([^ ]*\) .*|\1 \2|p" /proc/self/mountinfo; stat -c "%u:%g %a" /dev/shm'
}

row_uidmap_device () {
  p "$1" run --rm "${UIDMAP[@]}" --device /dev/zero:/dev/myzero "$IMG" sh -c 'head -c 4 /dev/myzero | wc -c'
}

row_uidmap_tty () {
  p "$1" run --rm -t "${UIDMAP[@]}" "$IMG" sh -c 'tty; id -u' | tr -d '\r'
}

# A terminal is the process's user's, group tty (podman's /dev/pts asks
# for gid=5), so uid 1000 can open its own terminal again by name.
row_tty_user () {
  p "$1" run --rm -t --user 1000:1001 "$IMG" sh -c \
    'stat -c "%u:%g %a" "$(tty)"; (: > "$(tty)") 2> /dev/null; echo reopen=$?' | tr -d '\r'
}

row_pid_host () {
  p "$1" run --rm --pid=host "$IMG" sh -c '[ "$(ls /proc 2>/dev/null | grep -c "^[0-9]")" -gt 5 ] && echo sees-host-processes'
}

row_pid_container () {
  local c=sc-pidc-$2
  p "$1" run -d --name "$c" "$IMG" sleep 31 > /dev/null
  p "$1" run --rm --pid "container:$c" "$IMG" sh -c 'ps -o args | grep -q "^sleep 31" && echo sees-sleep-31'
  p "$1" rm -f -t 0 "$c" > /dev/null
}

# ---- comparison ------------------------------------------------------------------

# Mismatches that are bubblewrap's and cannot be helped, with the reason.
declare -A LIMIT=()
# Mismatches issue 21 still tracks: none today (every row is as crun's).
declare -A PENDING=()

PEER=crun PEER_BIN=$CRUN
# shellcheck source=tests/peers/rows_lib.sh
. "$(dirname "$0")/rows_lib.sh"

echo "# podman $(podman --version | awk '{print $3}'), crun $("$CRUN" --version | awk 'NR == 1 {print $3}'), store $driver"
row identity "--user 1000:1001 --group-add 2000: host-side Uid, Gid, Groups"
row file_access "--user 1000 -v DIR: file permissions act on uid 1000"
row port80 "root binds port 80 in podman's network namespace"
row net_admin "--cap-add NET_ADMIN acts in podman's network namespace"
row init "--init: /run/podman-init is found among the mounts and is pid 1"
row entrypoint "-v entry.sh:/entry.sh IMG /entry.sh: a bind-mounted entrypoint runs"
row kill_after_start "kill right after start reaches the workload"
row cpus "--cpus 0.5: the host's cpu quota"
row memory_swap "--memory 64m: the host's memory and memory+swap limits"
row device "--device /dev/zero:/dev/myzero"
row uidmap "--uidmap 0:100000:65536: host-side Uid, Gid"
row uidmap_shm "--uidmap: /dev/shm's source and owner"
row uidmap_device "--uidmap --device /dev/zero:/dev/myzero"
row uidmap_tty "--uidmap -t: the workload runs on its terminal"
row tty_user "-t --user 1000:1001: its terminal is its own, group tty, and it opens it again"
row pid_host "--pid=host: the host's processes are seen"
row pid_container "--pid container:X: X's processes are seen"
rows_end
