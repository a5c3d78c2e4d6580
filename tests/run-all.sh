#!/bin/sh
# The whole test suite: set-up, build, then every TAP test through meson
# (unit tests, and integration tests that run real bwrap sandboxes as root
# and as an unprivileged user).  Extra arguments go to `meson setup`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/scripts/setup-debian.sh"
BUILD_DIR=${BUILD_DIR:-build} sh "$top/scripts/build.sh" "$@"
cd "$top"
meson test -C "${BUILD_DIR:-build}" --print-errorlogs
