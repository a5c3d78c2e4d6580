#!/bin/bash
# The price of the fence per tool call (not a test): a write of a 64-byte
# file through the fence against a plain write, from C (the library, a
# fence opened once: tests/bench/fence_bench.c), through the command line
# (`sbx-oci fence write`, one process per call) and through each client
# (Node's fence.writeFile, Python's fence.write_file: one `sbx-oci fence`
# process per call), each against the same language's own plain write.
# Medians of N calls (default 2000 from C, 200 through a process), printed
# with the ratio fence/plain.
#
# usage: tests/bench/fence_bench.sh [BUILD_DIR]   (default: build)
# env:   N_C, N, TMPDIR (where the workspace is made; default /var/tmp)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
n_c=${N_C:-2000}
n=${N:-200}
sbx=$build/sbx-oci
meson compile -C "$build" sbx-oci fence_bench > /dev/null

T=$(mktemp -d "${TMPDIR:-/var/tmp}/sbx-fence-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/ws" "$T/state"
(cd "$T" && "$sbx" spec --agent --workspace "$T/ws" > /dev/null)
cfg=$T/config.json

echo "== C (library, fence opened once), $n_c calls"
"$build/tests/bench/fence_bench" "$cfg" "$T/ws" "$n_c"

# median_us CMD...: CMD run N times; the median wall time in microseconds.
median_us () {
  local times=() i t0
  for ((i = 0; i < n; i++)); do
    t0=$(date +%s%N)
    "$@"
    times+=($((($(date +%s%N) - t0) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$((n / 2 + 1))p"
}
data=$(head -c 64 /dev/zero | tr '\0' x)
plain_write () { printf %s "$data" > "$T/ws/sh-plain"; }
sh_plain_process () { /bin/sh -c 'printf %s "$1" > "$2"' sh "$data" "$T/ws/sh-proc"; }
fence_write () { printf %s "$data" | "$sbx" --root "$T/state" fence write --config "$cfg" "$T/ws/sh-fenced"; }
echo "== command line (one process per call), $n calls"
p=$(median_us sh_plain_process)
f=$(median_us fence_write)
echo "sh -c write   median $p us"
echo "fence write   median $f us  ratio $(echo "scale=1; $f / $p" | bc)x"

if command -v node > /dev/null; then
  echo "== Node client, $n calls"
  SBX_OCI=$sbx WS=$T/ws CFG=$cfg ROOT=$T/state N=$n node --input-type=module -e "
    import { writeFileSync } from 'node:fs';
    import { openFence } from '$top/clients/node/src/index.js';
    const n = +process.env.N, ws = process.env.WS, data = 'x'.repeat(64);
    const fence = await openFence({ config: process.env.CFG, root: process.env.ROOT });
    const median = (t) => t.sort((a, b) => a - b)[t.length >> 1];
    const plain = [], fenced = [];
    for (let i = 0; i < n; i++) {
      let t0 = process.hrtime.bigint();
      writeFileSync(ws + '/node-plain', data);
      plain.push(Number(process.hrtime.bigint() - t0) / 1000);
      t0 = process.hrtime.bigint();
      await fence.writeFile(ws + '/node-fenced', data);
      fenced.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    const p = median(plain), f = median(fenced);
    console.log('writeFileSync median ' + p.toFixed(1) + ' us');
    console.log('fence.writeFile median ' + f.toFixed(1) + ' us  ratio ' + (f / p).toFixed(0) + 'x');
  "
fi

if command -v python3 > /dev/null; then
  echo "== Python client, $n calls"
  SBX_OCI=$sbx WS=$T/ws CFG=$cfg ROOT=$T/state N=$n PYTHONPATH=$top/clients/python python3 -c "
import os, time, statistics, sbx_oci
n, ws, data = int(os.environ['N']), os.environ['WS'], 'x' * 64
fence = sbx_oci.open_fence(config=os.environ['CFG'], root=os.environ['ROOT'])
plain, fenced = [], []
for _ in range(n):
    t0 = time.perf_counter_ns()
    with open(ws + '/py-plain', 'w') as f:
        f.write(data)
    plain.append((time.perf_counter_ns() - t0) / 1000)
    t0 = time.perf_counter_ns()
    fence.write_file(ws + '/py-fenced', data)
    fenced.append((time.perf_counter_ns() - t0) / 1000)
p, f = statistics.median(plain), statistics.median(fenced)
print('open().write median %.1f us' % p)
print('fence.write_file median %.1f us  ratio %.0fx' % (f, f / p))
"
fi
