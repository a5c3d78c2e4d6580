#!/bin/sh
# Configure (once) and build into BUILD_DIR (default: build).  The build's
# output is kept in BUILD_DIR/build.log and shown when it fails.
#
# Without meson options this is the release build: sbx-oci static, against
# musl and the libraries scripts/musl-deps.sh builds for it, because
# glibc's start-up costs every sbx-oci process 0.5 ms on a VM
# (docs/benchmarks.md).  Options (a sanitized or dynamic build) mean
# glibc.  Where musl's libraries cannot be had, the release build links
# glibc statically instead, and says so.
set -eu
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build}
musl=${SBX_MUSL_PREFIX:-/var/cache/sbx-oci-musl}
if [ ! -f "$dir/build.ninja" ] && [ $# = 0 ]; then
  mkdir -p "$dir"
  if sh scripts/musl-deps.sh "$musl" > "$dir/musl-deps.log" 2>&1; then
    set -- --native-file "$musl/musl.ini"
  else
    echo "sbx-oci: musl's libraries could not be built (log: $dir/musl-deps.log): linking glibc statically" >&2
  fi
elif grep -qs "$musl/musl.ini" "$dir/meson-private/cmd_line.txt"; then
  # A musl build follows the installed -dev packages' versions: libraries
  # rebuilt for an update are linked afresh (ninja does not track them).
  if ! out=$(sh scripts/musl-deps.sh "$musl" 2>&1); then
    echo "$out" >&2
    exit 1
  fi
  [ -z "$out" ] || meson compile -C "$dir" --clean > /dev/null
fi
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
if ! meson compile -C "$dir" > "$dir/build.log" 2>&1; then
  grep -v '^\[' "$dir/build.log" >&2
  echo "sbx-oci: the build failed (full log: $dir/build.log)" >&2
  exit 1
fi
