#!/bin/bash
# Side-by-side start-up cost (not a test): the median wall time of
#   sbx-oci run     an agent policy running `true`
#   bwrap           the same sandbox: the command `sbx-oci run --dry-run
#                   --seccomp-dir` prints, the same seccomp programs
#                   included (no supervision)
#   floor           that bwrap under the least supervisor there can be
#                   (tests/bench/spawn_floor.c: a static vfork+wait), the
#                   price of any design that keeps a process beside the
#                   sandbox, as `run` must to report and enforce
#   crun run        a busybox bundle running `true`
#   runc run        the same bundle
# over ROUNDS rounds (default 3) of RUNS runs each (default 50), then the
# ratios of sbx-oci to each.
# Every command runs in the environment the sandbox gets, so bwrap needs
# no `env -i` in front (that would time a third exec).  Needs root for
# crun and runc (skipped otherwise), hyperfine and jq; the bundle's rootfs
# comes from /bin/busybox (busybox-static).  SBX_OCI names the binary
# (default: build/sbx-oci); the floor is built in BUILD (default: build).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../build}
sbx=${SBX_OCI:-$build/sbx-oci}
runs=${RUNS:-50}
for tool in hyperfine jq; do
  command -v "$tool" > /dev/null || { echo "run_bench.sh: $tool is missing" >&2; exit 1; }
done

T=$(mktemp -d /tmp/sbx-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/ws" "$T/agent" "$T/state"

cat > "$T/agent/config.json" <<EOF
{
  "ociVersion": "1.2.0",
  "root": {"path": "/", "readonly": true},
  "process": {"args": ["true"], "cwd": "$T/ws",
              "user": {"uid": $(id -u), "gid": $(id -g)}},
  "sbx": {"mode": "workspace-write", "workspace": "$T/ws", "network": "deny"}
}
EOF

# The dry-run's first two lines are one command: "env -i VAR=... \" and
# "  /usr/bin/bwrap ... -- true 3< SECCOMP-0 4< SECCOMP-1".  hyperfine
# runs commands without a shell, so the programs are opened on its own fds
# 3 and 4, which every command inherits, and rewound before each run of
# every command alike (tests/bench/rewind_fds.c).
mkdir -p "$T/seccomp"
"$sbx" --root "$T/state" run --dry-run --seccomp-dir "$T/seccomp" \
  --bundle "$T/agent" bench > "$T/dry"
eval "sandbox_env=($(sed -n '1s/^env -i //; 1s/ \\$//p' "$T/dry"))" # shell-quoted
bwrap_cmd=$(sed -n '2s/^ *//; 2s/ [34]< .*$//p' "$T/dry")
for f in 0 1; do
  [ -s "$T/seccomp/seccomp-$f.bpf" ] || { echo "run_bench.sh: no seccomp program $f" >&2; exit 1; }
done
meson compile -C "$build" tests/bench/rewind_fds > /dev/null
rewind="$build/tests/bench/rewind_fds 3 4"
meson compile -C "$build" tests/bench/spawn_floor > /dev/null
floor=$build/tests/bench/spawn_floor

cmds=(-n sbx-oci "$sbx --root $T/state run --bundle $T/agent bench"
      -n bwrap "$bwrap_cmd"
      -n floor "$floor $bwrap_cmd")

if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$T/oci/rootfs/bin"
  cp /bin/busybox "$T/oci/rootfs/bin/busybox"
  ln -s busybox "$T/oci/rootfs/bin/true"
  (cd "$T/oci" && runc spec)
  jq '.process.args = ["/bin/true"] | .process.terminal = false' \
    "$T/oci/config.json" > "$T/oci/config.tmp"
  mv "$T/oci/config.tmp" "$T/oci/config.json"
  for rt in crun runc; do
    command -v "$rt" > /dev/null \
      && cmds+=(-n "$rt" "$rt --root $T/$rt-state run --bundle $T/oci bench-$rt")
  done
else
  echo "# not root: crun and runc are not measured" >&2
fi

# crun 1.8 refuses a hybrid cgroup layout whose v2 hierarchy has
# controllers; measure everything in a mount namespace without it then.
wrap=()
if [ "$(id -u)" -eq 0 ] && mountpoint -q /sys/fs/cgroup/unified 2> /dev/null; then
  echo "# hybrid cgroups: measured with /sys/fs/cgroup/unified unmounted in a private mount namespace"
  wrap=(unshare -m --propagation private sh -c 'umount /sys/fs/cgroup/unified && exec "$@"' sh)
fi
# The machine drifts while a run lasts, and hyperfine times one command's
# runs back to back: ROUNDS rounds (default 3), each with the commands in
# another order, and the median of each command's round medians.
rounds=${ROUNDS:-3}
n=$((${#cmds[@]} / 3))
for ((r = 0; r < rounds; r++)); do
  order=()
  for ((k = 0; k < n; k++)); do
    j=$(( ((k + r) % n) * 3 ))
    order+=("${cmds[@]:j:3}")
  done
  if ! "${wrap[@]}" env -i "${sandbox_env[@]}" hyperfine -N --warmup 3 \
         --runs "$runs" --style basic --export-json "$T/round$r.json" \
         --prepare "$rewind" "${order[@]}" > "$T/hyperfine.log" 2>&1 \
         3< "$T/seccomp/seccomp-0.bpf" 4< "$T/seccomp/seccomp-1.bpf"; then
    cat "$T/hyperfine.log" >&2
    exit 1
  fi
done

echo "median wall time: $rounds rounds of $runs runs, median of the rounds' medians (hyperfine; $(uname -r))"
printf '%-10s %10s %22s\n' runtime "median ms" "round medians ms"
jq -rs 'map(.results[]) | group_by(.command)[]
        | (map(.median * 1000) | sort) as $m
        | [.[0].command, $m[($m | length) / 2 | floor]] + $m | @tsv' \
  "$T"/round*.json \
  | awk -F'\t' '{ printf "%-10s %10.2f        ", $1, $2
                  for (i = 3; i <= NF; i++) printf " %.2f", $i; print "" }' \
  > "$T/medians"
cat "$T/medians"
echo
awk '$1 == "sbx-oci" { s = $2 } { m[$1] = $2 }
     END { for (k in m) if (k != "sbx-oci") printf "sbx-oci/%-8s %6.2fx\n", k, s / m[k] }' \
  "$T/medians" | sort
