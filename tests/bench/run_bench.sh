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
# interleaved (tests/bench/interleave.c: every round runs each command
# once, from a different one each round, so the VM's drift falls on all
# alike) RUNS times (default 200), then the ratios of sbx-oci's median to
# each.  Every command runs in the environment the sandbox gets, so bwrap
# needs no `env -i` in front (that would time a third exec).  Needs root
# for crun and runc (skipped otherwise) and jq; the bundle's rootfs comes
# from /bin/busybox (busybox-static).  SBX_OCI names the binary (default:
# build/sbx-oci); SBX_OCI_ALSO="NAME=PATH ..." adds other builds of it to
# the same run (a dynamic one, an older one), each run as sbx-oci is.
# The helpers are built in BUILD (default: build).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../build}
sbx=${SBX_OCI:-$build/sbx-oci}
runs=${RUNS:-200}
for tool in jq; do
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
# "  /usr/bin/bwrap ... -- true 3< SECCOMP-0 4< SECCOMP-1" (shell-quoted).
# The programs are opened on interleave's own fds 3 and 4, which every
# command inherits, and rewound before each run of every command alike.
mkdir -p "$T/seccomp"
"$sbx" --root "$T/state" run --dry-run --seccomp-dir "$T/seccomp" \
  --bundle "$T/agent" bench > "$T/dry"
eval "sandbox_env=($(sed -n '1s/^env -i //; 1s/ \\$//p' "$T/dry"))"
eval "bwrap_argv=($(sed -n '2s/^ *//; 2s/ [34]< .*$//p' "$T/dry"))"
for f in 0 1; do
  [ -s "$T/seccomp/seccomp-$f.bpf" ] || { echo "run_bench.sh: no seccomp program $f" >&2; exit 1; }
done
meson compile -C "$build" tests/bench/interleave tests/bench/spawn_floor > /dev/null
interleave=$build/tests/bench/interleave
floor=$build/tests/bench/spawn_floor

cmds=(sbx-oci "$sbx" --root "$T/state" run --bundle "$T/agent" bench
      :: bwrap "${bwrap_argv[@]}"
      :: floor "$floor" "${bwrap_argv[@]}")
for alt in ${SBX_OCI_ALSO:-}; do
  cmds+=(:: "${alt%%=*}" "${alt#*=}" --root "$T/state" run --bundle "$T/agent" bench)
done

if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$T/oci/rootfs/bin"
  cp /bin/busybox "$T/oci/rootfs/bin/busybox"
  ln -s busybox "$T/oci/rootfs/bin/true"
  (cd "$T/oci" && "$sbx" spec)
  jq '.process.args = ["/bin/true"] | .process.terminal = false' \
    "$T/oci/config.json" > "$T/oci/config.tmp"
  mv "$T/oci/config.tmp" "$T/oci/config.json"
  for rt in crun runc; do
    command -v "$rt" > /dev/null \
      && cmds+=(:: "$rt" "$(command -v "$rt")" --root "$T/$rt-state" run \
                --bundle "$T/oci" "bench-$rt")
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
"${wrap[@]}" env -i "${sandbox_env[@]}" "$interleave" --runs "$runs" \
  --rewind 3 --rewind 4 "${cmds[@]}" > "$T/medians" \
  3< "$T/seccomp/seccomp-0.bpf" 4< "$T/seccomp/seccomp-1.bpf"

echo "median wall time of $runs interleaved runs each ($(uname -r))"
printf '%-10s %10s %20s\n' runtime "median ms" "quartiles ms"
awk -F'\t' '{ printf "%-10s %10.2f %12.2f %7.2f\n", $1, $2, $3, $4 }' "$T/medians"
echo
awk -F'\t' '$1 == "sbx-oci" { s = $2 } { m[$1] = $2 }
     END { for (k in m) if (k != "sbx-oci") printf "sbx-oci/%-8s %6.2fx\n", k, s / m[k] }' \
  "$T/medians" | sort
