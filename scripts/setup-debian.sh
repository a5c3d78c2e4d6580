#!/bin/sh
# Installs what sbx-oci needs to build, run and test on Debian 12, and
# nothing that is already there.  Safe to run again.
set -eu

need="meson ninja-build pkg-config gcc libc6-dev clang clang-format libclang-rt-14-dev \
libyajl-dev libseccomp-dev libcap-ng-dev bubblewrap busybox-static \
python3 util-linux procps strace git qemu-system-x86 cpio groff-base zsh \
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static qemu-system-arm"
[ "${SBX_SETUP_BENCH:-0}" = 1 ] && need="$need crun runc hyperfine"
# containerd (ctr and the runc shim) for tests/integration/k8s_pod.sh,
# which is skipped without it; opt-in, as it is a daemon package.
[ "${SBX_SETUP_CONTAINERD:-0}" = 1 ] && need="$need containerd"
# The podman scenarios (tests/peers/podman_scenarios.sh, meson suite
# "peers"): podman with crun beside sbx-oci; catatonit for --init; runc
# for tests/integration/no_namespaces.sh inside podman (podman_rung).
[ "${SBX_SETUP_PODMAN:-0}" = 1 ] && need="$need podman crun catatonit runc"

missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "sbx-oci setup: missing packages:$missing (run as root to install)" >&2
  exit 1
fi
echo "sbx-oci setup: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
