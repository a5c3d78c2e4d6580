#!/bin/bash
# Side-by-side start-up cost (not a test): the median wall time of
#   sbx-oci run     an agent policy running `true`
#   bwrap           the same sandbox: the command `sbx-oci run --dry-run
#                   --seccomp-dir` prints, the same seccomp programs
#                   included (no supervision), without the Landlock helper
#   bwrap+ll        that command with the helper (as `run` has it)
#   sbx-no-ll       sbx-oci run without the Landlock layer (sbx-oci-broken,
#                   SBX_TEST_NO_LANDLOCK=1), when built
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

# The dry-run's first two lines are one command: "env -i -- VAR=... \" and
# "  /usr/bin/bwrap ... -- true 3< SECCOMP-0 4< SECCOMP-1" (shell-quoted).
# The programs are opened on interleave's own fds 3 and 4, which every
# command inherits, and rewound before each run of every command alike.
mkdir -p "$T/seccomp"
"$sbx" --root "$T/state" run --dry-run --seccomp-dir "$T/seccomp" \
  --bundle "$T/agent" bench > "$T/dry"
eval "sandbox_env=($(sed -n '1s/^env -i -- //; 1s/ \\$//p' "$T/dry"))"
eval "landlock_argv=($(sed -n '2s/^ *//; 2s/ [345]< .*$//p' "$T/dry"))"
for f in 0 1; do
  [ -s "$T/seccomp/seccomp-$f.bpf" ] || { echo "run_bench.sh: no seccomp program $f" >&2; exit 1; }
done
# The Landlock helper, if the run has it, is exec'd by bwrap from fd 5
# ("... -- /proc/self/fd/5 -f 5 -A 7 RULES -- true"): bare bwrap is the
# same command line without the helper's part.
[ -s "$T/seccomp/sbx-landlock" ] || { echo "run_bench.sh: no landlock helper (a kernel without landlock?)" >&2; exit 1; }
bwrap_argv=()
skip=0
for a in "${landlock_argv[@]}"; do
  case $skip:$a in
    0:/proc/self/fd/5) skip=1; continue ;;
    1:--) skip=2; continue ;;
    1:*) continue ;;
  esac
  bwrap_argv+=("$a")
done
[ "$skip" = 2 ] || { echo "run_bench.sh: the dry run has no landlock helper" >&2; exit 1; }
meson compile -C "$build" tests/bench/interleave tests/bench/spawn_floor > /dev/null
interleave=$build/tests/bench/interleave
floor=$build/tests/bench/spawn_floor

cmds=(sbx-oci "$sbx" --root "$T/state" run --bundle "$T/agent" bench
      :: bwrap "${bwrap_argv[@]}"
      :: bwrap+ll "${landlock_argv[@]}"
      :: floor "$floor" "${bwrap_argv[@]}")
# sbx-oci without the Landlock layer: sbx-oci-broken (built with
# -Dtest_layer_breaks=true) with SBX_TEST_NO_LANDLOCK=1, which every
# command gets (only that binary reads it).
broken=${SBX_OCI_BROKEN:-$build/tests/integration/sbx-oci-broken}
if [ -x "$broken" ]; then
  cmds+=(:: sbx-no-ll "$broken" --root "$T/state" run --bundle "$T/agent" bench)
else
  echo "# no $broken (-Dtest_layer_breaks=true): run without landlock is not measured" >&2
fi
for alt in ${SBX_OCI_ALSO:-}; do
  cmds+=(:: "${alt%%=*}" "${alt#*=}" --root "$T/state" run --bundle "$T/agent" bench)
done

# crun 1.8 refuses a hybrid cgroup layout whose v2 hierarchy has
# controllers; measure everything in a mount namespace without it then.
wrap=()
if [ "$(id -u)" -eq 0 ] && mountpoint -q /sys/fs/cgroup/unified 2> /dev/null; then
  echo "# hybrid cgroups: measured with /sys/fs/cgroup/unified unmounted in a private mount namespace"
  wrap=(unshare -m --propagation private sh -c 'umount /sys/fs/cgroup/unified && exec "$@"' sh)
fi
if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$T/oci/rootfs/bin"
  cp /bin/busybox "$T/oci/rootfs/bin/busybox"
  ln -s busybox "$T/oci/rootfs/bin/true"
  (cd "$T/oci" && "$sbx" spec)
  jq '.process.args = ["/bin/true"] | .process.terminal = false' \
    "$T/oci/config.json" > "$T/oci/config.tmp"
  mv "$T/oci/config.tmp" "$T/oci/config.json"
  for rt in crun runc; do
    command -v "$rt" > /dev/null || continue
    # One that cannot run the bundle here is left out, said so.
    if ! "${wrap[@]}" "$rt" --root "$T/$rt-state" run --bundle "$T/oci" "bench-$rt-try" \
        > /dev/null 2>&1; then
      echo "# $rt cannot run the bundle on this host: not measured" >&2
      continue
    fi
    cmds+=(:: "$rt" "$(command -v "$rt")" --root "$T/$rt-state" run \
              --bundle "$T/oci" "bench-$rt")
  done
else
  echo "# not root: crun and runc are not measured" >&2
fi

"${wrap[@]}" env -i "${sandbox_env[@]}" SBX_TEST_NO_LANDLOCK=1 \
  "$interleave" --runs "$runs" --rewind 3 --rewind 4 "${cmds[@]}" \
  > "$T/medians" 3< "$T/seccomp/seccomp-0.bpf" \
  4< "$T/seccomp/seccomp-1.bpf" 5< "$T/seccomp/sbx-landlock"

echo "median wall time of $runs interleaved runs each ($(uname -r))"
printf '%-10s %10s %20s\n' runtime "median ms" "quartiles ms"
awk -F'\t' '{ printf "%-10s %10.2f %12.2f %7.2f\n", $1, $2, $3, $4 }' "$T/medians"
echo
awk -F'\t' '$1 == "sbx-oci" { s = $2 } { m[$1] = $2 }
     END { for (k in m) if (k != "sbx-oci") printf "sbx-oci/%-8s %6.2fx\n", k, s / m[k] }' \
  "$T/medians" | sort
echo
# The Landlock layer's cost: run with it and without it, each against
# bare bwrap; and the helper's own exec, bwrap with it against without.
awk -F'\t' '{ m[$1] = $2 }
     END { b = m["bwrap"]
           printf "run with landlock / bare bwrap     %6.2fx\n", m["sbx-oci"] / b
           if ("sbx-no-ll" in m)
             printf "run without landlock / bare bwrap  %6.2fx\n", m["sbx-no-ll"] / b
           printf "bwrap+helper / bare bwrap          %6.2fx\n", m["bwrap+ll"] / b }' \
  "$T/medians"
