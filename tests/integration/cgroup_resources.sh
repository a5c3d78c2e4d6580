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
WORK=$(mktemp -d /tmp/sbx-cgres.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"
ROOT=$WORK/root-state
MODE=root

sbx () { env -i "$SBX" --root "$ROOT" "$@"; }
# the cgroup directory of ID for KEY ("v2", "memory", "cpu", ...)
cgroup_dir () { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["org.sbx-oci"]["limits"]; print(next((s.split("=",1)[1] for s in r["cgroup"] if s.startswith(sys.argv[2]+"=")), ""))' "$ROOT/$1/state.json" "$2"; }
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
if [ -z "$disk" ]; then
  ok "blockIO # SKIP no block device on this host"
else
blockio '{"weight": 500,
          "throttleReadBpsDevice": [{"rate": 1048576}],
          "throttleWriteBpsDevice": [{"rate": 2097152}],
          "throttleReadIOPSDevice": [{"rate": 1000}],
          "throttleWriteIOPSDevice": [{"rate": 2000}]}'
id=bio-$RUN
if sbx create --bundle "$B" "$id" > /dev/null 2> "$WORK/err"; then
  ok "create with a blockIO weight and throttles"
else
  not_ok "create with a blockIO weight and throttles" "$(cat "$WORK/err")"
fi
v2=$(cgroup_dir "$id" v2)
if [ -n "$v2" ]; then
  blk=$v2
  is "io.max" "$disk rbps=1048576 wbps=2097152 riops=1000 wiops=2000" \
    "$(grep "^$disk " "$blk/io.max" 2>&1)"
  if [ -e "$blk/io.bfq.weight" ]; then
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
  is "$w" 500 "$(sed 's/^default //' "$blk/$w" 2>&1)"
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
finish
