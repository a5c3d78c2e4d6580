#!/bin/sh
# `debian_debs.sh ARCH DIR PKG...`: Debian 12 packages of another
# architecture, downloaded with apt-get and unpacked into DIR/root, without
# touching the host's dpkg (no `dpkg --add-architecture`): apt runs on its
# own package lists, kept in DIR/apt.  A package name may be a virtual one
# of the kernel's kind (linux-image-arm64): its first dependency is taken.
# Once DIR/root/.complete lists the same packages, nothing is fetched.
set -eu
arch=$1 dir=$2
shift 2
want="$arch $*"
[ "$(cat "$dir/root/.complete" 2> /dev/null)" = "$want" ] && exit 0

state=$dir/apt
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$dir/debs"
: > "$state/status"
apt () {
  "$@" -o APT::Architecture="$arch" -o APT::Architectures::="$arch" \
    -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
    -o Dir::State::status="$state/status" -o Debug::NoLocking=1
}
apt apt-get -qq update > /dev/null
pkgs=""
for p; do
  case $p in
    linux-image-*)
      # the versioned image the meta-package points at
      p=$(apt apt-cache depends "$p" | awk '/Depends: linux-image-/ { print $2; exit }')
      ;;
  esac
  pkgs="$pkgs $p"
done
rm -f "$dir"/debs/*.deb
# shellcheck disable=SC2086
(cd "$dir/debs" && apt apt-get -qq download $pkgs 2> /dev/null)
rm -rf "$dir/root"
mkdir -p "$dir/root"
for d in "$dir"/debs/*.deb; do
  dpkg-deb -x "$d" "$dir/root"
done
# What was used, for the README's list of verified kernels.
(cd "$dir/debs" && ls) > "$dir/root/.packages"
echo "$want" > "$dir/root/.complete"
