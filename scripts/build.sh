#!/bin/sh
# Configure (once) and build into BUILD_DIR (default: build).  The build's
# output is kept in BUILD_DIR/build.log and shown when it fails.
set -eu
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build}
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
if ! meson compile -C "$dir" > "$dir/build.log" 2>&1; then
  grep -v '^\[' "$dir/build.log" >&2
  echo "sbx-oci: the build failed (full log: $dir/build.log)" >&2
  exit 1
fi
