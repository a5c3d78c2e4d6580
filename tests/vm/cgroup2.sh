#!/bin/bash
# cgroup v2 quotas against a real kernel.  This host keeps memory and pids
# on cgroup v1, so the v2 code would otherwise meet only fake trees: boot
# Debian's own kernel under qemu (TCG: no nested KVM needed) with
# cgroup_no_v1=all, run tests/vm/guest.sh as its init, and relay its TAP.
# The kernel package is fetched once with apt-get download and kept in
# SBX_VM_CACHE.  Needs qemu-system-x86 and cpio (scripts/setup-debian.sh).
set -u
SBX_OCI=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
SBX_OCI_INIT=${SBX_OCI_INIT:?set SBX_OCI_INIT to the built sbx-oci-init}
TOUCH=${LIMITS_TOUCH:?set LIMITS_TOUCH to a static limits_touch}
here=$(cd "$(dirname "$0")" && pwd)
cache=${SBX_VM_CACHE:-/var/cache/sbx-oci-vm}
W=$(mktemp -d /var/tmp/sbx-vm.XXXXXX)
trap 'rm -rf "$W"' EXIT

bail () { echo "1..1"; echo "not ok 1 - cgroup v2 guest: $*"; exit 1; }

# The kernel Debian's linux-image-amd64 points at, unpacked once.
kernel () {
  local k
  k=$(ls "$cache"/vmlinuz-* 2> /dev/null | head -1)
  if [ -z "$k" ]; then
    local pkg
    pkg=$(apt-cache depends linux-image-amd64 2> /dev/null \
          | awk '/Depends: linux-image-/ { print $2; exit }')
    [ -n "$pkg" ] || return 1
    (cd "$W" && apt-get download "$pkg" > /dev/null 2>&1) || return 1
    mkdir -p "$cache" "$W/deb"
    dpkg-deb -x "$W"/"$pkg"_*.deb "$W/deb" || return 1
    cp "$W"/deb/boot/vmlinuz-* "$cache/" || return 1
    k=$(ls "$cache"/vmlinuz-* | head -1)
  fi
  echo "$k"
}

# put FILE [DEST]: FILE and the shared libraries it loads, into the image.
put () {
  local src=$1 dest=${2:-$1}
  install -D -m 755 "$src" "$W/root$dest"
  ldd "$src" 2> /dev/null | grep -o '/[^ ]*' | while read -r lib; do
    [ -e "$W/root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$W/root$lib"
  done
}

image () {
  mkdir -p "$W/root/etc"
  put /bin/busybox /bin/busybox
  ln -s busybox "$W/root/bin/sh"
  put "$(command -v bwrap)" /usr/bin/bwrap
  put "$(command -v setpriv)" /opt/util-linux/setpriv # busybox has its own
  put "$SBX_OCI" /usr/bin/sbx-oci
  put "$SBX_OCI_INIT" /usr/bin/sbx-oci-init # containers' step (init_main.c)
  put "$TOUCH" /usr/bin/limits_touch
  install -m 755 "$here/guest.sh" "$W/root/init"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
    > "$W/root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$W/root/etc/group"
  (cd "$W/root" && find . | cpio -o -H newc 2> /dev/null) | gzip -1 > "$W/initrd"
}

for tool in qemu-system-x86_64 cpio; do
  command -v "$tool" > /dev/null || bail "$tool is missing (run scripts/setup-debian.sh)"
done
k=$(kernel) || bail "cannot fetch linux-image-amd64's kernel with apt-get download"
image || bail "cannot build the initramfs"
# ASan's shadow memory needs room; the guest's tests need ~300 MB.
timeout 900 qemu-system-x86_64 -accel tcg -smp 2 -m 2048 -nographic -no-reboot \
  -kernel "$k" -initrd "$W/initrd" \
  -append "console=ttyS0 cgroup_no_v1=all panic=-1 quiet" \
  < /dev/null > "$W/console" 2>&1
tr -d '\r' < "$W/console" | sed -n 's/^.*@@tap //p' > "$W/tap"
if ! grep -q '^1\.\.' "$W/tap"; then
  tail -20 "$W/console" | sed 's/^/# /'
  bail "the guest printed no test plan"
fi
cat "$W/tap"
! grep -q '^not ok' "$W/tap"
