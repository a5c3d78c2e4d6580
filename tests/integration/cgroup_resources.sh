#!/bin/bash
# linux.resources beyond memory.limit and pids (issue 21, point 4): cpu
# shares/quota/period/cpus/mems, memory swap/reservation/swappiness/
# disableOOMKiller and device rules, as `create` writes them into the
# container's cgroup (v1 or v2, whichever the host gives sbx-oci), and the
# container's own view of its cgroup through a cgroup namespace.  Root
# only: an unprivileged caller has cgroups only through a delegated v2
# subtree, which the lifecycle_limits suite covers.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' \
  || { echo "1..0 # SKIP busybox is not static"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP cgroup resources are written as root only"; exit 0; }
# hugetlb may sit unused on cgroup v2 beside v1 hierarchies (this host):
# then the suite runs in a mount namespace of its own where it is mounted
# as a v1 hierarchy, so that its v1 files are tested; the kernel moves it
# back to v2 once it is unmounted and its last cgroup is released, which
# may take it a while after the suite (nothing on such a host uses v2's
# hugetlb: root's cgroups are v1).  Not net_cls and net_prio: before
# Linux 5.16 a v1 one turned cgroup v2 socket matching off for good;
# their v1 files are checked against a stand-in directory
# (test_cgroup_io).
V1_EXTRA=
on_v2 () { awk -v c="$1" '$1 == c && $2 == 0 { f = 1 } END { exit !f }' /proc/cgroups; }
if [ -z "${SBX_CGRES_NS:-}" ] && [ -d /sys/fs/cgroup/memory ] && on_v2 hugetlb; then
  SBX_CGRES_NS=1 unshare -m --propagation private bash "$0" "$@"
  rc=$?
  # A hierarchy whose last cgroups were still going when it was unmounted
  # outlives the mount: mount it and unmount it again, empty, until the
  # kernel frees it.
  for _ in $(seq 30); do
    on_v2 hugetlb && break
    sleep 0.1
    unshare -m --propagation private sh -c \
      "mount -t cgroup -o hugetlb cgroup /mnt && umount /mnt" 2> /dev/null
  done
  on_v2 hugetlb || echo "# the v1 hugetlb hierarchy is not released yet"
  exit "$rc"
fi
WORK=$(mktemp -d /tmp/sbx-cgres.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"
ROOT=$WORK/root-state
MODE=root
if [ -n "${SBX_CGRES_NS:-}" ]; then
  mkdir -p "$WORK/v1/hugetlb"
  mount -t cgroup -o hugetlb cgroup "$WORK/v1/hugetlb" 2> /dev/null \
    && V1_EXTRA=$WORK/v1/hugetlb
  echo "# mounted as v1 in this suite's mount namespace: ${V1_EXTRA:-none}"
fi
finish_v1_extra () {
  local h d
  for d in "$ROOT"/*/; do
    [ -d "$d" ] && sbx delete --force "$(basename "$d")" 2> /dev/null
  done
  for h in $V1_EXTRA; do umount "$h"; done
  finish
}

sbx () { env -i "$SBX" --root "$ROOT" "$@"; }
# the cgroup directory of ID for KEY ("v2", "memory", "cpu", ...)
cgroup_dir () { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["org.sbx-oci"]["limits"]; print(next((s.split("=",1)[1] for s in r.get("cgroup", []) if s.startswith(sys.argv[2]+"=")), ""))' "$ROOT/$1/state.json" "$2"; }
is () { # WHAT EXPECTED ACTUAL
  local want
  want=$(printf %s "$2" | tr '\n' ' ')
  if [ "$2" = "$3" ]; then ok "$1 is $want"; else not_ok "$1 is $want" "got: $(printf %s "$3" | tr '\n' ' ')"; fi
}

B=$WORK/b
busybox_bundle "$B" sh cat grep head
MiB=$((1 << 20))
python3 - "$B/config.json" <<'PY'
import json, sys
path = sys.argv[1]
c = json.load(open(path))
c["process"]["args"] = ["sleep", "60"]
lx = c["linux"]
lx["namespaces"].append({"type": "cgroup"})
c["mounts"].append({"destination": "/sys/fs/cgroup", "type": "cgroup",
                    "source": "cgroup", "options": ["ro", "nosuid", "nodev", "noexec"]})
M = 1 << 20
lx["resources"] = {
    "memory": {"limit": 64 * M, "swap": 128 * M, "reservation": 32 * M,
               "swappiness": 10, "disableOOMKiller": True, "kernelTCP": 16 * M},
    "cpu": {"shares": 512, "quota": 50000, "period": 100000,
            "cpus": "0", "mems": "0"},
    "pids": {"limit": 100},
    "devices": [{"allow": False, "access": "rwm"},
                {"allow": True, "type": "c", "major": 1, "minor": 3, "access": "rwm"},
                {"allow": True, "type": "c", "major": 1, "minor": 5, "access": "rw"}],
}
json.dump(c, open(path, "w"))
PY
ln -sf busybox "$B/rootfs/bin/sleep"

id=res-$RUN
if sbx create --bundle "$B" "$id" > /dev/null 2> "$WORK/err"; then
  ok "create with cpu, memory and device resources"
else
  not_ok "create with cpu, memory and device resources" "$(cat "$WORK/err")"
fi

v2=$(cgroup_dir "$id" v2)
if [ -n "$v2" ]; then
  echo "# cgroup v2: $v2"
  is "cpu.weight (shares 512)" 20 "$(cat "$v2/cpu.weight" 2>&1)"
  is "cpu.max" "50000 100000" "$(cat "$v2/cpu.max" 2>&1)"
  is "cpuset.cpus" 0 "$(cat "$v2/cpuset.cpus" 2>&1)"
  is "cpuset.mems" 0 "$(cat "$v2/cpuset.mems" 2>&1)"
  is "memory.max" $((64 * MiB)) "$(cat "$v2/memory.max" 2>&1)"
  is "memory.low (reservation)" $((32 * MiB)) "$(cat "$v2/memory.low" 2>&1)"
  if [ -e "$v2/memory.swap.max" ]; then
    is "memory.swap.max (swap - limit)" $((64 * MiB)) "$(cat "$v2/memory.swap.max")"
  else
    ok "memory.swap.max # SKIP no swap accounting on this kernel"
  fi
  inside=/sys/fs/cgroup/memory.max
else
  mem=$(cgroup_dir "$id" memory) cpu=$(cgroup_dir "$id" cpu)
  cpuset=$(cgroup_dir "$id" cpuset) dev=$(cgroup_dir "$id" devices)
  echo "# cgroup v1: $mem $cpu $cpuset $dev"
  is "cpu.shares" 512 "$(cat "$cpu/cpu.shares" 2>&1)"
  is "cpu.cfs_period_us" 100000 "$(cat "$cpu/cpu.cfs_period_us" 2>&1)"
  is "cpu.cfs_quota_us" 50000 "$(cat "$cpu/cpu.cfs_quota_us" 2>&1)"
  is "cpuset.cpus" 0 "$(cat "$cpuset/cpuset.cpus" 2>&1)"
  is "cpuset.mems" 0 "$(cat "$cpuset/cpuset.mems" 2>&1)"
  is "memory.limit_in_bytes" $((64 * MiB)) "$(cat "$mem/memory.limit_in_bytes" 2>&1)"
  if [ -e "$mem/memory.memsw.limit_in_bytes" ]; then
    is "memory.memsw.limit_in_bytes (the swap value as given)" $((128 * MiB)) \
      "$(cat "$mem/memory.memsw.limit_in_bytes")"
  else
    ok "memory.memsw.limit_in_bytes # SKIP no swap accounting on this kernel"
  fi
  is "memory.soft_limit_in_bytes (reservation)" $((32 * MiB)) \
    "$(cat "$mem/memory.soft_limit_in_bytes" 2>&1)"
  if [ -e "$mem/memory.kmem.tcp.limit_in_bytes" ]; then
    is "memory.kmem.tcp.limit_in_bytes (kernelTCP)" $((16 * MiB)) \
      "$(cat "$mem/memory.kmem.tcp.limit_in_bytes")"
  else
    ok "memory.kmem.tcp.limit_in_bytes # SKIP not in this kernel"
  fi
  is "memory.swappiness" 10 "$(cat "$mem/memory.swappiness" 2>&1)"
  is "memory.oom_control oom_kill_disable" 1 \
    "$(awk '$1 == "oom_kill_disable" { print $2 }' "$mem/memory.oom_control" 2>&1)"
  # the config's two rules, then the nodes bwrap's /dev always has
  is "devices.list" "c 1:3 rwm
c 1:5 rw
c 1:7 rwm
c 1:8 rwm
c 1:9 rwm
c 5:0 rwm
c 5:2 rwm
c 136:* rwm" "$(cat "$dev/devices.list" 2>&1)"
  pid=$(sbx state "$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
  check "the sandbox ($pid) is in the cpu cgroup" grep -qx "$pid" "$cpu/cgroup.procs"
  check "and in the devices cgroup" grep -qx "$pid" "$dev/cgroup.procs"
  inside=/sys/fs/cgroup/memory/memory.limit_in_bytes
fi

sbx start "$id"
out=$(sbx exec "$id" cat "$inside" 2>&1)
is "inside, with a cgroup namespace, $inside" $((64 * MiB)) "$out"
out=$(sbx exec "$id" head -c1 /dev/null 2>&1; echo "rc=$?")
is "/dev/null (allowed) reads" "rc=0" "$out"

sbx delete --force "$id"
for d in ${v2:-} ${mem:-} ${cpu:-} ${cpuset:-} ${dev:-}; do
  check "delete removes $d" [ ! -e "$d" ]
done

# `run` chooses its cgroup as `create` does (runtime/linux/supervise/
# limits.h): the cpu settings are in the run's own cgroup while it runs,
# a sibling of the container's, and it is gone after.
if [ -n "${v2:-}" ]; then knob=$(dirname "$v2")/run-$RUN+run.*/cpu.weight want=20
else knob=$(dirname "$cpu")/run-$RUN+run.*/cpu.shares want=512; fi
sbx run --bundle "$B" "run-$RUN" -- sleep 5 > /dev/null 2>&1 &
runner=$!
got=
for _ in $(seq 100); do
  # shellcheck disable=SC2086 # the glob is the run's name
  got=$(cat $knob 2> /dev/null) && [ -n "$got" ] && break
  sleep 0.05
done
is "run: its cgroup's $(basename "$knob")" "$want" "$got"
wait "$runner"
# shellcheck disable=SC2086
check "run: its cgroup is removed after the run" [ -z "$(ls -d $(dirname "$knob") 2> /dev/null)" ]

# a resource the host cannot set is an error naming it, not ignored
python3 - "$B/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"]["resources"] = {"cpu": {"cpus": "4095"}}
json.dump(c, open(sys.argv[1], "w"))
PY
out=$(sbx create --bundle "$B" "bad-$RUN" 2>&1); rc=$?
check "cpus 4095 (no such cpu) fails create (rc $rc: $out)" \
  eval '[ "$rc" -ne 0 ] && grep -q cpuset.cpus <<<"$out"'
sbx delete --force "bad-$RUN" 2>/dev/null

# linux.resources.blockIO: a weight and throttles on a block device of
# this host, written into blkio (v1) or io (v2).  The weight goes to the
# file the host's I/O scheduler has (v1 blkio.weight or blkio.bfq.weight;
# v2 io.bfq.weight, else io.weight, whose range is 1-10000).
disk= sched=
for b in /sys/block/*; do
  case ${b##*/} in loop* | ram* | zram* | nbd*) continue ;; esac
  [ -r "$b/dev" ] || continue
  disk=$(cat "$b/dev") sched=$(cat "$b/queue/scheduler" 2> /dev/null)
  break
done
blockio () { # JSON of linux.resources.blockIO, with $disk as "DEV"
  python3 - "$B/config.json" "$disk" "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
major, minor = map(int, sys.argv[2].split(":"))
def dev(x):
    if isinstance(x, dict):
        return {k: dev(v) for k, v in x.items()}
    if isinstance(x, list):
        return [dict(major=major, minor=minor, **d) if isinstance(d, dict) else d for d in x]
    return x
c["linux"]["resources"] = {"blockIO": dev(json.loads(sys.argv[3]))}
json.dump(c, open(sys.argv[1], "w"))
PY
}
# A weight needs a file to go to: on v1 (blkio mounted) CFQ's blkio.weight
# (before Linux 5.0) or BFQ's, there once the scheduler is registered (a
# disk lists it); on v2 BFQ's or blk-iocost's io.weight.  A host with none
# (no BFQ built: this VM) takes the throttles alone, and refuses a weight,
# naming it.
weight_here () {
  grep -qw bfq /sys/block/*/queue/scheduler 2> /dev/null && return 0
  if [ -d /sys/fs/cgroup/blkio ]; then
    [ -e /sys/fs/cgroup/blkio/blkio.weight ]
  else
    ls /sys/fs/cgroup/*/io.weight > /dev/null 2>&1
  fi
}
weight='"weight": 500,'
if [ -n "$disk" ] && ! weight_here; then
  weight=
  blockio '{"weight": 500}'
  sbx create --bundle "$B" "wgt-$RUN" > "$WORK/out" 2>&1; rc=$? out=$(cat "$WORK/out")
  check "blockIO.weight where the host has no weight file fails create (rc $rc: $out)" \
    eval '[ "$rc" -ne 0 ] && grep -q "linux.resources.blockIO.weight" <<<"$out"'
  sbx delete --force "wgt-$RUN" 2> /dev/null
fi
if [ -z "$disk" ]; then
  ok "blockIO # SKIP no block device on this host"
else
blockio '{'"$weight"'
          "throttleReadBpsDevice": [{"rate": 1048576}],
          "throttleWriteBpsDevice": [{"rate": 2097152}],
          "throttleReadIOPSDevice": [{"rate": 1000}],
          "throttleWriteIOPSDevice": [{"rate": 2000}]}'
id=bio-$RUN
if sbx create --bundle "$B" "$id" > /dev/null 2> "$WORK/err"; then
  ok "create with blockIO throttles${weight:+ and a weight}"
else
  not_ok "create with blockIO throttles${weight:+ and a weight}" "$(cat "$WORK/err")"
fi
v2=$(cgroup_dir "$id" v2)
if [ -n "$v2" ]; then
  blk=$v2
  is "io.max" "$disk rbps=1048576 wbps=2097152 riops=1000 wiops=2000" \
    "$(grep "^$disk " "$blk/io.max" 2>&1)"
  if [ -z "$weight" ]; then
    :
  elif [ -e "$blk/io.bfq.weight" ]; then
    is "io.bfq.weight" "default 500" "$(head -1 "$blk/io.bfq.weight" 2>&1)"
  else
    # 1 + (w - 10) * 9999 / 990, as crun and runc map it
    is "io.weight (500 mapped to 1-10000)" "default 4950" \
      "$(head -1 "$blk/io.weight" 2>&1)"
  fi
else
  blk=$(cgroup_dir "$id" blkio)
  w=blkio.weight
  [ -e "$blk/$w" ] || w=blkio.bfq.weight
  if [ -n "$weight" ]; then
    is "$w" 500 "$(sed 's/^default //' "$blk/$w" 2>&1)"
  fi
  for f in read_bps:1048576 write_bps:2097152 read_iops:1000 write_iops:2000; do
    is "blkio.throttle.${f%:*}_device" "$disk ${f#*:}" \
      "$(cat "$blk/blkio.throttle.${f%:*}_device" 2>&1)"
  done
  pid=$(sbx state "$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
  check "the sandbox ($pid) is in the blkio cgroup" grep -qx "$pid" "$blk/cgroup.procs"
fi
sbx delete --force "$id"
check "delete removes $blk" eval '[ -n "$blk" ] && [ ! -e "$blk" ]'

# A per-device weight needs a scheduler with weights on that device
# (BFQ): elsewhere the kernel refuses it, and so does create, naming it.
blockio '{"weightDevice": [{"weight": 300}]}'
sbx create --bundle "$B" "wdev-$RUN" > "$WORK/out" 2>&1; rc=$? out=$(cat "$WORK/out")
case $sched in
  *'[bfq]'*) check "blockIO.weightDevice on a BFQ disk (rc $rc: $out)" [ "$rc" -eq 0 ] ;;
  *) check "blockIO.weightDevice without BFQ on $disk fails create (rc $rc: $out)" \
       eval '[ "$rc" -ne 0 ] && grep -q "linux.resources.blockIO.weightDevice" <<<"$out"' ;;
esac
sbx delete --force "wdev-$RUN" 2> /dev/null

# A leaf weight where the kernel has none (CFQ's, gone since Linux 5.0;
# v2 never had one) is refused naming the field, not dropped.
blockio '{"leafWeight": 500}'
if [ -z "$v2" ] && [ -e "$(dirname "$blk")/blkio.leaf_weight" ]; then
  ok "blockIO.leafWeight refused # SKIP this kernel has blkio.leaf_weight"
else
  sbx create --bundle "$B" "leaf-$RUN" > "$WORK/out" 2>&1; rc=$? out=$(cat "$WORK/out")
  check "blockIO.leafWeight without blkio.leaf_weight fails create (rc $rc: $out)" \
    eval '[ "$rc" -ne 0 ] && grep -q "linux.resources.blockIO.leafWeight" <<<"$out"'
  sbx delete --force "leaf-$RUN" 2> /dev/null
fi
fi

set_resources () { # JSON of linux.resources
  python3 - "$B/config.json" "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["linux"]["resources"] = json.loads(sys.argv[2])
json.dump(c, open(sys.argv[1], "w"))
PY
}
pid_of () { sbx state "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])'; }
# create_or_refused WHAT ID FIELD: create ID; ok when it worked (0), or
# when it failed naming linux.resources.FIELD (1, say so); else not ok (2).
create_or_refused () {
  local out rc
  sbx create --bundle "$B" "$2" > "$WORK/out" 2>&1; rc=$? out=$(cat "$WORK/out")
  if [ "$rc" -eq 0 ]; then return 0; fi
  if grep -q "linux.resources.$3" <<<"$out"; then
    ok "$1: refused naming the field (rc $rc: $out)"; return 1
  fi
  not_ok "$1" "rc $rc: $out"; return 2
}

# On v1, the blkio hierarchy and the ones after it get a directory only
# when the config asks for them: a container that does not stays in the
# caller's blkio cgroup, under whatever the caller is under there.
set_resources '{"pids": {"limit": 50}}'
if [ -n "${v2:-}" ] || ! grep -q ':blkio:' /proc/self/cgroup; then
  ok "no blkio cgroup unasked # SKIP no cgroup v1 blkio here"
elif sbx create --bundle "$B" "noblk-$RUN" > "$WORK/out" 2>&1; then
  pid=$(pid_of "noblk-$RUN")
  is "blkio cgroup of a container that asks for no blockIO (the caller's)" \
    "$(grep ':blkio:' /proc/self/cgroup)" "$(grep ':blkio:' "/proc/$pid/cgroup")"
  sbx delete --force "noblk-$RUN"
else
  not_ok "create with a pids limit alone" "$(cat "$WORK/out")"
fi

# hugepageLimits: hugetlb.2MB.limit_in_bytes (v1) or hugetlb.2MB.max
# (v2), and the reservation twin where the kernel has one.
if [ ! -d /sys/kernel/mm/hugepages/hugepages-2048kB ]; then
  ok "hugepageLimits # SKIP no 2MB huge pages on this host"
else
  set_resources '{"hugepageLimits": [{"pageSize": "2MB", "limit": 4194304}]}'
  create_or_refused "hugepageLimits" "huge-$RUN" hugepageLimits; rc=$?
  if [ "$rc" -eq 0 ]; then
    hd=$(cgroup_dir "huge-$RUN" hugetlb) limit=limit_in_bytes
    [ -n "$hd" ] || hd=$(cgroup_dir "huge-$RUN" v2) limit=max
    is "hugetlb.2MB.$limit" 4194304 "$(cat "$hd/hugetlb.2MB.$limit" 2>&1)"
    if [ -e "$hd/hugetlb.2MB.rsvd.$limit" ]; then
      is "hugetlb.2MB.rsvd.$limit" 4194304 "$(cat "$hd/hugetlb.2MB.rsvd.$limit")"
    fi
    check "the sandbox is in the hugetlb cgroup" \
      grep -qx "$(pid_of "huge-$RUN")" "$hd/cgroup.procs"
  fi
  sbx delete --force "huge-$RUN" 2> /dev/null
  set_resources '{"hugepageLimits": [{"pageSize": "3MB", "limit": 4194304}]}'
  sbx create --bundle "$B" "huge3-$RUN" > "$WORK/out" 2>&1; rc=$? out=$(cat "$WORK/out")
  check "a page size the host lacks is refused (121) naming it (rc $rc: $out)" \
    eval '[ "$rc" -eq 121 ] && grep -q "linux.resources.hugepageLimits" <<<"$out"'
  sbx delete --force "huge3-$RUN" 2> /dev/null
fi

# network: net_cls.classid and net_prio.ifpriomap (v1 only; cgroup v2
# has neither, and create says so naming the field; without their v1
# hierarchies, as here, so does create).
set_resources '{"network": {"classID": 1048577,
                "priorities": [{"name": "lo", "priority": 5}]}}'
create_or_refused "network" "net-$RUN" network; rc=$?
if [ "$rc" -eq 0 ]; then
  nc=$(cgroup_dir "net-$RUN" net_cls) np=$(cgroup_dir "net-$RUN" net_prio)
  is "net_cls.classid" 1048577 "$(cat "$nc/net_cls.classid" 2>&1)"
  is "net_prio.ifpriomap's lo" "lo 5" "$(grep '^lo ' "$np/net_prio.ifpriomap" 2>&1)"
  check "the sandbox is in the net_cls cgroup" \
    grep -qx "$(pid_of "net-$RUN")" "$nc/cgroup.procs"
fi
sbx delete --force "net-$RUN" 2> /dev/null

# Unprivileged with no cgroup to be had (uid 65534 owns none here): a
# setting only a cgroup holds fails create naming it, not dropped.
U=$WORK/u
busybox_bundle "$U" sh > /dev/null
mkdir -p "$WORK/user-state"
chown -R 65534:65534 "$U" "$WORK/user-state"
for r in 'blockIO {"blockIO": {"weight": 500}}' 'cpu.shares {"cpu": {"shares": 512}}' \
         'hugepageLimits {"hugepageLimits": [{"pageSize": "2MB", "limit": 4194304}]}'; do
  field=${r%% *}
  B=$U set_resources "${r#* }"
  env -i setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$SBX" --root "$WORK/user-state" create --bundle "$U" "u-$RUN" > "$WORK/out" 2>&1
  rc=$? out=$(cat "$WORK/out")
  check "uid 65534, no cgroup: $field is refused (121) naming it (rc $rc: $out)" \
    eval '[ "$rc" -eq 121 ] && grep -q "linux.resources.$field" <<<"$out"'
  env -i setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$SBX" --root "$WORK/user-state" delete --force "u-$RUN" 2> /dev/null
done
# Values that ask for nothing a new cgroup lacks, as engines write them,
# are no reason to refuse.
B=$U set_resources '{"cpu": {"shares": 0, "quota": -1, "period": 0, "cpus": ""},
                     "memory": {"swap": -1},
                     "blockIO": {"throttleReadBpsDevice": [{"major": 8, "minor": 0, "rate": 0}]}}'
env -i setpriv --reuid=65534 --regid=65534 --clear-groups \
  "$SBX" --root "$WORK/user-state" create --bundle "$U" "u0-$RUN" > "$WORK/out" 2>&1
rc=$? out=$(cat "$WORK/out")
check "uid 65534, no cgroup: shares 0, quota -1, swap -1, rate 0 create (rc $rc: $out)" [ "$rc" -eq 0 ]
env -i setpriv --reuid=65534 --regid=65534 --clear-groups \
  "$SBX" --root "$WORK/user-state" delete --force "u0-$RUN" 2> /dev/null
finish_v1_extra
