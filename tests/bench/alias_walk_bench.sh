#!/bin/bash
# Benchmark the hard-link alias walk against
#   find ROOT -xdev -type f -links +1
# over a generated tree of 50,000 entries, warm cache,
# median of RUNS runs each, and print the ratio walk/find (< 1: faster).
# Both are timed as whole processes, start-up included.  The walk must find
# exactly what find finds.
#
# usage: tests/bench/alias_walk_bench.sh [BUILD_DIR]   (default: build)
# env:   ENTRIES (50000), RUNS (11), TMPDIR (where the tree is made)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
entries=${ENTRIES:-50000}
runs=${RUNS:-11}

meson compile -C "$build" alias_walk_bench >/dev/null
bench=$build/tests/bench/alias_walk_bench

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbx-alias-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root" "$tmp/outside"
"$bench" generate "$tmp/root" "$tmp/outside" "$entries"

now_ns () { date +%s%N; }

# median_ns CMD...: run CMD once to warm the cache, then RUNS times; print
# the median wall time in nanoseconds.
median_ns () {
  "$@" >/dev/null
  local times=() i t0
  for ((i = 0; i < runs; i++)); do
    t0=$(now_ns)
    "$@" >/dev/null
    times+=($(($(now_ns) - t0)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$((runs / 2 + 1))p"
}

find_count=$(find "$tmp/root" -xdev -type f -links +1 | wc -l)
walk_count=$("$bench" walk "$tmp/root")
visited=$(find "$tmp/root" -mindepth 1 | wc -l)
if [ "$find_count" != "$walk_count" ]; then
  echo "alias_walk_bench: walk found $walk_count files, find $find_count" >&2
  exit 1
fi

find_ns=$(median_ns find "$tmp/root" -xdev -type f -links +1)
walk_ns=$(median_ns "$bench" walk "$tmp/root")
fs=$(stat -f -c %T "$tmp")
printf 'tree: %s entries, %s hard-linked files, on %s, %s runs each\n' \
  "$visited" "$find_count" "$fs" "$runs"
printf 'find -xdev -type f -links +1: %d.%03d ms (median)\n' \
  $((find_ns / 1000000)) $((find_ns / 1000 % 1000))
printf 'sbx_alias_walk:               %d.%03d ms (median)\n' \
  $((walk_ns / 1000000)) $((walk_ns / 1000 % 1000))
ratio=$(awk -v w="$walk_ns" -v f="$find_ns" 'BEGIN { printf "%.3f", w / f }')
echo "ratio walk/find: $ratio"
if [ "$walk_ns" -ge "$find_ns" ]; then
  echo "alias_walk_bench: the walk is not faster than find" >&2
  exit 1
fi
