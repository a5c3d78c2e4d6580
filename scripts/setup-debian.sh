#!/bin/sh
# Installs what sbx-oci needs to build, run and test on Debian 12, and
# nothing that is already there.  Safe to run again.
set -eu

need="meson ninja-build pkg-config gcc libc6-dev clang clang-format libclang-rt-14-dev \
libyajl-dev libseccomp-dev libcap-ng-dev bubblewrap busybox-static \
python3 util-linux procps strace git qemu-system-x86 cpio groff-base zsh \
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static qemu-system-arm \
musl-tools gperf dpkg-dev"
[ "${SBX_SETUP_BENCH:-0}" = 1 ] && need="$need crun runc hyperfine"
# containerd (ctr and the runc shim) for tests/integration/k8s_pod.sh,
# which is skipped without it; opt-in, as it is a daemon package.
[ "${SBX_SETUP_CONTAINERD:-0}" = 1 ] && need="$need containerd"
# The podman scenarios (tests/peers/podman_scenarios.sh, meson suite
# "peers"): podman with crun beside sbx-oci; catatonit for --init; runc
# for tests/integration/no_namespaces.sh inside podman (podman_rung).
# Rootless podman (tests/peers/podman_rootless.sh, against runc): uidmap
# for newuidmap and newgidmap, slirp4netns for its default network (its
# store is the kernel's overlay, which Debian 12's kernel mounts
# unprivileged: no fuse-overlayfs).
[ "${SBX_SETUP_PODMAN:-0}" = 1 ] && need="$need podman crun catatonit runc \
uidmap slirp4netns"

# The release build is linked against musl (scripts/musl-deps.sh), with
# yajl, libseccomp and libcap-ng built from Debian's own source packages:
# apt needs the archive's source index for them.
# bookworm-updates and -security too: the musl build takes the versions
# of the installed -dev packages, security updates included.
src_list=/etc/apt/sources.list.d/sbx-oci-src.sources
src_text='Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
src_needed=0
[ "$(cat "$src_list" 2>/dev/null)" = "$src_text" ] || src_needed=1

missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] && [ "$src_needed" = 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "sbx-oci setup: missing:$missing (or Debian's source index): run as root to install" >&2
  exit 1
fi
if [ "$src_needed" = 1 ]; then
  echo "sbx-oci setup: adding Debian's source index ($src_list)" >&2
  printf '%s\n' "$src_text" > "$src_list"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
[ -z "$missing" ] && exit 0
echo "sbx-oci setup: installing$missing" >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
