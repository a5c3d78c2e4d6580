#!/bin/bash
# The OCI lifecycle's cost (not a test), sbx-oci next to crun and runc, in
# one run on the same busybox bundle:
#   1. create + start + wait + delete of `true` (median of RUNS, default 50;
#      "wait" polls the --pid-file pid until it is gone, the same for all);
#   2. `podman run --rm IMG true` with each runtime (PODMAN_RUNS, default 5;
#      the podman harness's image store, ../shared/peers/podman/harness.sh
#      must have run once; skipped when its image is missing);
#   3. what each runtime leaves running per container between create and
#      start, and its resident memory.
# Everything runs in a private mount namespace with /sys/fs/cgroup/unified
# unmounted when this host has the hybrid layout crun 1.8 refuses.  Needs
# root, hyperfine, jq, crun, runc.  SBX_OCI names the binary.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
sbx=$(readlink -f "${SBX_OCI:-$here/../../build/sbx-oci}")
runs=${RUNS:-50}
podman_runs=${PODMAN_RUNS:-5}
[ "$(id -u)" -eq 0 ] || { echo "lifecycle_bench.sh: needs root" >&2; exit 1; }
for tool in hyperfine jq crun runc; do
  command -v "$tool" > /dev/null || { echo "lifecycle_bench.sh: $tool is missing" >&2; exit 1; }
done

if [ -z "${SBX_BENCH_INNER:-}" ] && mountpoint -q /sys/fs/cgroup/unified 2> /dev/null; then
  echo "# hybrid cgroups: measured with /sys/fs/cgroup/unified unmounted in a private mount namespace"
  exec unshare -m --propagation private env SBX_BENCH_INNER=1 sh -c \
    'umount /sys/fs/cgroup/unified && exec "$0" "$@"' "$0" "$@"
fi

T=$(mktemp -d /tmp/sbx-lcbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/b/rootfs/bin" "$T/b/rootfs/proc" "$T/b/rootfs/dev" "$T/b/rootfs/tmp"
cp "$(command -v busybox)" "$T/b/rootfs/bin/busybox"
for a in true sleep; do ln -s busybox "$T/b/rootfs/bin/$a"; done
(cd "$T/b" && runc spec)
jq '.process.args = ["/bin/true"] | .process.terminal = false' \
  "$T/b/config.json" > "$T/b/config.tmp" && mv "$T/b/config.tmp" "$T/b/config.json"
cp -a "$T/b" "$T/s"
jq '.process.args = ["/bin/sleep", "30"]' "$T/b/config.json" > "$T/s/config.json"

# cycle.sh RUNTIME ROOT ID: one create/start/wait/delete.
cat > "$T/cycle.sh" <<'EOF'
#!/bin/bash
set -e
rt=$1 root=$2 id=$3 dir=$(dirname "$0")
"$rt" --root "$root" create --bundle "$dir/b" --pid-file "$dir/$id.pid" "$id" >/dev/null
pid=$(cat "$dir/$id.pid")
"$rt" --root "$root" start "$id"
while grep -qs '^[^ ]* ([^)]*) [^Z]' "/proc/$pid/stat"; do :; done
# the runtime may still be recording the exit; delete once it reads stopped
for _ in $(seq 200); do
  "$rt" --root "$root" delete "$id" 2>/dev/null && exit 0
done
exit 1
EOF
chmod +x "$T/cycle.sh"

declare -A rt=([sbx-oci]=$sbx [crun]=$(command -v crun) [runc]=$(command -v runc))
cmds=()
for name in sbx-oci crun runc; do
  cmds+=(-n "$name" "$T/cycle.sh ${rt[$name]} $T/$name-state bench-$name")
done
hyperfine -N --warmup 3 --runs "$runs" --style basic \
  --export-json "$T/cycle.json" "${cmds[@]}" > "$T/hyperfine.log" 2>&1 \
  || { cat "$T/hyperfine.log" >&2; exit 1; }

report () { # JSON TITLE
  echo "$2"
  printf '%-10s %10s %10s %8s\n' runtime "median ms" "stddev ms" "sbx/rt"
  jq -r '.results | (map({(.command): .median}) | add) as $m
         | .[] | [.command, .median * 1000, .stddev * 1000,
                  ($m["sbx-oci"] / .median)] | @tsv' "$1" \
    | awk -F'\t' '{ printf "%-10s %10.2f %10.2f %8.2f\n", $1, $2, $3, $4 }'
  echo
}
report "$T/cycle.json" "create+start+wait+delete of true, median of $runs ($(uname -r))"

# 2. podman run --rm, with the podman harness's store
store=${PODMAN_HARNESS_DIR:-/var/tmp/sbx-podman-harness}
img=localhost/sbx-harness-busybox:1
export CONTAINERS_STORAGE_CONF=$store/storage.conf
driver=$(sed -n 's/^driver = "\(.*\)"/\1/p' "$CONTAINERS_STORAGE_CONF" 2>/dev/null || true)
podman=(podman --tmpdir "/run/sbx-podman-harness/libpod-$driver" --cgroup-manager cgroupfs)
if command -v podman > /dev/null && [ -n "$driver" ] \
   && "${podman[@]}" image exists "$img" 2> /dev/null; then
  # rootful podman asks for 1048576 open files; this host's root lacks
  # CAP_SYS_RESOURCE, so ask for the current hard limits (as the harness)
  nproc=$(ulimit -Hu) pidmax=$(cat /proc/sys/kernel/pid_max)
  [ "$nproc" = unlimited ] || [ "$nproc" -gt "$pidmax" ] && nproc=$pidmax
  limits="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=$nproc:$nproc"
  cmds=()
  for name in sbx-oci crun runc; do
    cmds+=(-n "$name" "${podman[*]} --runtime ${rt[$name]} run --rm --network none $limits $img true")
  done
  exec 8> "$store/lock"
  if flock -w 120 8; then
    hyperfine -N --warmup 1 --runs "$podman_runs" --style basic \
      --export-json "$T/podman.json" "${cmds[@]}" > "$T/podman.log" 2>&1 \
      && report "$T/podman.json" "podman run --rm --network none IMG true, median of $podman_runs" \
      || { echo "# podman: failed"; tail -5 "$T/podman.log"; echo; }
  else
    echo "# podman: the harness store is busy (lock); skipped"
  fi
  exec 8>&-
else
  echo "# podman: no harness image $img in $store; run the podman harness once"
fi

# 3. what stays running between create and start
echo "left running per container after create (before start)"
printf '%-10s %-40s %10s\n' runtime processes "RSS KiB"
for name in sbx-oci crun runc; do
  root=$T/$name-held
  "${rt[$name]}" --root "$root" create --bundle "$T/s" --pid-file "$T/held.pid" held > /dev/null
  pid=$(cat "$T/held.pid")
  # the held process, its ancestors up to this shell, and any process
  # whose command line names this container's root
  procs=() rss=0
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    cmd=$(tr '\0' ' ' 2> /dev/null < "/proc/$p/cmdline") || continue
    case $cmd in *"$root"* | *"$T/s"*) ;; *) [ "$p" = "$pid" ] || continue ;; esac
    procs+=("$(cat "/proc/$p/comm")")
    rss=$((rss + $(awk '/^VmRSS/ {print $2}' "/proc/$p/status")))
  done
  printf '%-10s %-40s %10d\n' "$name" "${procs[*]}" "$rss"
  "${rt[$name]}" --root "$root" delete --force held > /dev/null 2>&1 || true
done
echo "(sbx-oci's own process count above: $(pgrep -cx sbx-oci || true) sbx-oci process(es) on the host now)"
