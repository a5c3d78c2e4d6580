#!/bin/sh
# Regenerate the raw logs behind docs/conformance.md, outside the source
# tree (they used to be committed under docs/conformance-logs/):
#
#   sh scripts/conformance-logs.sh SBX_OCI [OUT]     (OUT: build/conformance-logs)
#
# with the clients of the shared VM's peers directory (PEERS, default
# /work/shared/peers; its README says how to build runtime-tools):
#   OUT/sbx-oci-run{1,2}.tap, OUT/sbx-oci-run{1,2}/TEST.{tap,stderr}
#                       runtime-tools, two runs of the whole suite
#   OUT/repeats-{sbx-oci,runc}.tap
#                       10 more runs of killsig, pidfile and poststart each
#   OUT/podman-{sbx-oci,runc,crun}.tap   the podman harness, per runtime
#   OUT/ctr-smoke-sbx-oci.tap            contrib/containerd/ctr_smoke.sh
# The runc and crun runtime-tools columns of docs/conformance.md are the
# peers' recorded results (PEERS/runtime-tools/results), not re-run here.
# Root only; about 10 minutes on the 2-core VM.
set -u
sbx=${1:?usage: conformance-logs.sh SBX_OCI [OUT]}
out=${2:-build/conformance-logs}
peers=${PEERS:-/work/shared/peers}
top=$(cd "$(dirname "$0")/.." && pwd)
sbx=$(cd "$(dirname "$sbx")" && pwd)/$(basename "$sbx")
mkdir -p "$out"
out=$(cd "$out" && pwd)

for run in 1 2; do
  echo "== runtime-tools, run $run"
  RTT_LOGS="$out/sbx-oci-run$run" sh "$peers/runtime-tools/run.sh" "$sbx" \
    > "$out/sbx-oci-run$run.tap" 2>&1
done
for rt in "$sbx" /usr/sbin/runc; do
  name=$(basename "$rt")
  echo "== 10 repeats of killsig, pidfile, poststart: $name"
  : > "$out/repeats-$name.tap"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    RTT_LOGS="$out/repeats-$name.logs" sh "$peers/runtime-tools/run.sh" "$rt" \
      killsig pidfile poststart >> "$out/repeats-$name.tap" 2>&1
  done
done
for rt in "$sbx" /usr/sbin/runc /usr/bin/crun; do
  name=$(basename "$rt")
  echo "== podman harness: $name"
  bash "$peers/podman/harness.sh" "$rt" > "$out/podman-$name.tap" 2>&1
done
echo "== containerd smoke"
sh "$top/contrib/containerd/ctr_smoke.sh" "$sbx" > "$out/ctr-smoke-sbx-oci.tap" 2>&1
python3 "$top/scripts/tap-totals.py" "$out"/*.tap
