#!/bin/sh
# `cross-arm64.sh [BUILD_DIR [TARGET...]]`: the static sbx-oci for arm64,
# cross-compiled on an x86-64 Debian 12 (default BUILD_DIR: build-arm64,
# TARGET: sbx-oci).  The arm64 yajl, libseccomp and libcap-ng come from
# Debian's archive, unpacked under SBX_VM_CACHE (tests/vm/debian_debs.sh),
# not installed; the cross compiler and qemu-user from
# scripts/setup-debian.sh (run first when they are missing and this runs
# as root).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build-arm64}
[ $# -gt 0 ] && shift
cache=${SBX_VM_CACHE:-/var/cache/sbx-oci-vm}/arm64-dev
# On a fresh Debian 12, as root: the set-up installs what is missing.
if [ "$(id -u)" = 0 ] && ! command -v aarch64-linux-gnu-gcc > /dev/null; then
  sh "$top/scripts/setup-debian.sh" >&2 || exit 1
fi
for tool in aarch64-linux-gnu-gcc qemu-aarch64-static apt-get dpkg-deb meson; do
  if ! command -v "$tool" > /dev/null; then
    echo "cross-arm64: $tool is missing (run scripts/setup-debian.sh as root)" >&2
    exit 77
  fi
done
# libc6 and libseccomp2: what the build-time filter compiler loads under
# qemu-user.
"$top/tests/vm/debian_debs.sh" arm64 "$cache" libyajl-dev libyajl2 \
  libseccomp-dev libseccomp2 libcap-ng-dev libcap-ng0 libc6
root=$cache/root
cat > "$cache/sysroot.ini" <<INI
[binaries]
exe_wrapper = ['qemu-aarch64-static', '-L', '$root']

[properties]
sys_root = '$root'
pkg_config_libdir = ['$root/usr/lib/aarch64-linux-gnu/pkgconfig']

[built-in options]
c_link_args = ['-L$root/usr/lib/aarch64-linux-gnu']
INI
cd "$top"
[ -f "$dir/build.ninja" ] ||
  meson setup "$dir" --cross-file tests/vm/cross/aarch64-linux-gnu.ini \
    --cross-file "$cache/sysroot.ini" -Dstatic_binary=enabled > "$dir.setup.log" 2>&1 || {
    cat "$dir.setup.log" >&2
    exit 1
  }
meson compile -C "$dir" "${@:-sbx-oci}" > "$dir/build.log" 2>&1 || {
  grep -v '^\[' "$dir/build.log" >&2
  echo "cross-arm64: the build failed (full log: $dir/build.log)" >&2
  exit 1
}
