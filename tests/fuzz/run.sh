#!/bin/sh
# Fuzz sbx_spec_parse with libFuzzer for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS]        default 60
#
# Builds with CC=clang -Dfuzz=true into $BUILD_DIR (default build-fuzz at
# the top of the tree), fuzzes from the seed corpus (new inputs go to a work
# directory, never into tests/fuzz/corpus), prints one TAP-style line and
# exits non-zero when the fuzzer found a crash, leak or broken invariant.
set -eu

seconds=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/build-fuzz}
work=$build/fuzz-work
log=$work/fuzz.log

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$top" -Dfuzz=true >/dev/null
fi
meson compile -C "$build" fuzz_spec_parse >/dev/null
mkdir -p "$work/corpus" "$work/artifacts"

rc=0
"$build/tests/fuzz/fuzz_spec_parse" \
  -max_total_time="$seconds" -max_len=16384 -print_final_stats=1 \
  -dict="$top/tests/fuzz/spec.dict" \
  -artifact_prefix="$work/artifacts/" \
  "$work/corpus" "$top/tests/fuzz/corpus" >"$log" 2>&1 || rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -eq 0 ]; then
  echo "ok - fuzz_spec_parse: ${runs:-?} runs in ${seconds}s, no crash"
else
  tail -n 40 "$log" >&2
  echo "not ok - fuzz_spec_parse: exit $rc after ${runs:-?} runs; artifacts in $work/artifacts, log $log"
fi
exit "$rc"
