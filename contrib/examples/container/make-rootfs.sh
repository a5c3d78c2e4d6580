#!/bin/sh
# Build the example container's rootfs (./rootfs next to config.json) from
# the static busybox of Debian's busybox-static package: one binary and its
# applet links, the mount points the config uses, and nothing else.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
busybox=${BUSYBOX:-/bin/busybox}
if ! "$busybox" --list > /dev/null 2>&1; then
  echo "make-rootfs.sh: $busybox is missing: apt-get install busybox-static" >&2
  exit 1
fi
if ldd "$busybox" > /dev/null 2>&1; then
  echo "make-rootfs.sh: $busybox is dynamically linked: apt-get install busybox-static" >&2
  exit 1
fi
rootfs=$here/rootfs
rm -rf "$rootfs"
mkdir -p "$rootfs/bin" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys" \
  "$rootfs/tmp" "$rootfs/etc" "$rootfs/root"
cp "$busybox" "$rootfs/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -sf busybox "$rootfs/bin/$applet"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$rootfs/etc/passwd"
echo 'root:x:0:' > "$rootfs/etc/group"
echo "make-rootfs.sh: $rootfs ready"
