#!/bin/bash
# Benchmarks of run's limits (not a test): memory overshoot of the
# monitor, its CPU and RSS while watching 100 processes at 20 Hz, and the
# time from a kill to the last process of a 150-process tree gone.
# Run as root from the source tree after `meson compile -C build`; the
# workloads run as nobody (no cgroup: the monitor holds the limits).
set -u
B=${BUILD:-build}
SBX_OCI=$(readlink -f "$B/sbx-oci")
TOUCH=$(readlink -f "$B/tests/integration/limits_touch")
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
W=$(mktemp -d /tmp/sbx-bench.XXXXXX); chmod 777 "$W"
trap 'rm -rf "$W"' EXIT

bundle () { # DIR PIDS MEMORY_MB WALL_S ARGS...
  local d=$1; mkdir -p "$d/state"; chmod 777 "$d" "$d/state"
  /usr/bin/python3 - "$@" <<'PYEOF'
import json, sys
d, pids, mem, wall, args = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
res = {}
if pids: res["pids"] = {"limit": pids}
if mem: res["memory"] = {"limit": mem << 20}
json.dump({"ociVersion": "1.2.0",
  "process": {"args": args, "cwd": "/", "env": ["PATH=/usr/bin:/bin"], "user": {"uid": 0, "gid": 0}},
  "root": {"path": "/", "readonly": True},
  "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"}],
  "linux": {"namespaces": [{"type": t} for t in ("pid", "network", "ipc", "uts", "mount")],
            "resources": res},
  "sbx": {"limits": {"wallClockSeconds": wall}}}, open(d + "/config.json", "w"))
PYEOF
}
now_ms () { echo $(( $(date +%s%N) / 1000000 )); }

# 1. Overshoot: the true peak comes from an unlimited v1 memory cgroup
#    around the whole run (sbx-oci + bwrap + workload).
overshoot () {
  local cg=/sys/fs/cgroup/memory/sbx-bench-$$
  bundle "$W/mem" 0 300 20 "$TOUCH" 2048
  mkdir "$cg"
  ( echo $BASHPID > "$cg/cgroup.procs"
    exec "${NOBODY[@]}" "$SBX_OCI" --root "$W/mem/state" run --bundle "$W/mem" \
      --outcome "$W/mem/out.json" mem > /dev/null 2>&1 )
  local peak=$(cat "$cg/memory.max_usage_in_bytes")
  rmdir "$cg"
  local sampled=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["limits"].get("peakMemoryBytes", 0))' "$W/mem/out.json")
  local lim=$((300 << 20))
  printf "%-44s %s\n" "memory overshoot (kernel peak, whole run)" \
    "$(( peak >> 20 )) MB on 300 MB = $(( (peak - lim) * 100 / lim ))%"
  printf "%-44s %s\n" "memory peak seen by the sampler" "$(( sampled >> 20 )) MB"
}

# 2. The monitor watching 100 sleeping processes at 20 Hz for 10 s, after
#    2 s to settle: its CPU from schedstat (ns, not 10 ms ticks), its RSS
#    and its PSS (RSS counts every shared library page it maps whole; PSS
#    charges it its share).
sampler_cost () {
  bundle "$W/cpu" 1000 1000 30 sh -c 'i=0; while [ $i -lt 100 ]; do sleep 60 & i=$((i+1)); done; wait'
  "${NOBODY[@]}" "$SBX_OCI" --root "$W/cpu/state" run --bundle "$W/cpu" cpu > /dev/null 2>&1 &
  local pid=$!
  sleep 2
  local c0 t0 c1 t1
  read -r c0 _ < /proc/$pid/schedstat; t0=$(date +%s%N)
  sleep 10
  read -r c1 _ < /proc/$pid/schedstat; t1=$(date +%s%N)
  local rss=$(awk '/^Rss:/ {print $2}' /proc/$pid/smaps_rollup)
  local pss=$(awk '/^Pss:/ {print $2}' /proc/$pid/smaps_rollup)
  kill -TERM $pid; wait $pid 2>/dev/null
  printf "%-44s %s\n" "sampler CPU, 100 processes at 20 Hz" \
    "$(awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) 'BEGIN {
        printf "%.2f%% of a core (%.0f us a tick)", 100 * c / t, c / 1000 / (t / 1e9 * 20) }')"
  printf "%-44s %s\n" "monitor (sbx-oci) resident memory" "RSS $rss KiB, PSS $pss KiB"
}

# 3. Kill to last process gone, 150-process tree, SIG to sbx-oci.
kill_time () {
  local sig=$1 tag="sleep 61.$RANDOM"
  bundle "$W/k$sig" 0 0 30 sh -c "i=0; while [ \$i -lt 150 ]; do $tag & i=\$((i+1)); done; wait"
  "${NOBODY[@]}" "$SBX_OCI" --root "$W/k$sig/state" run --bundle "$W/k$sig" k > /dev/null 2>&1 &
  local pid=$!
  while [ "$(pgrep -cf -- "$tag")" -lt 151 ]; do sleep 0.05; done
  local t0=$(date +%s%N)
  kill -"$sig" $pid
  while pgrep -f -- "$tag" > /dev/null; do :; done
  local t1=$(date +%s%N)
  wait $pid 2>/dev/null
  printf "%-44s %s\n" "SIG$sig of sbx-oci to 150-process tree gone" \
    "$(( (t1 - t0) / 1000000 )) ms (polled with pgrep)"
}

printf "%-44s %s\n" "measure" "value"
overshoot
sampler_cost
kill_time TERM
kill_time KILL
