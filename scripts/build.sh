#!/bin/sh
# Configure (once) and build into BUILD_DIR (default: build).
set -eu
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build}
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
meson compile -C "$dir" >/dev/null
