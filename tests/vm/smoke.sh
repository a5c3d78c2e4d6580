#!/bin/bash
# `smoke.sh arm64|oldkernel`: sbx-oci's smoke set (smoke_guest.sh) in a
# guest kernel other than this host's, as root and unprivileged.
#
#   arm64      the static sbx-oci cross-built for arm64
#              (scripts/cross-arm64.sh into SBX_ARM64_BUILD), Debian 12's
#              arm64 kernel, bubblewrap, busybox and setpriv, under
#              qemu-system-aarch64 (TCG, -M virt -cpu max)
#   oldkernel  this build's sbx-oci (SBX_OCI, SYSCALL_PROBE) and the host's
#              bubblewrap under Debian 12's own kernel, 6.1, on x86-64
#
# Debian packages are fetched with apt-get download and unpacked under
# SBX_VM_CACHE (tests/vm/debian_debs.sh); without the tools, or without
# the archive, the test is skipped with the reason.  The guest's
# TAP is relayed, its notes (kernel, `sbx-oci check`, the probes' answers,
# the time) as comments.
set -u
kind=${1:?usage: smoke.sh arm64|oldkernel}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${SBX_VM_CACHE:-/var/cache/sbx-oci-vm}
W=$(mktemp -d /var/tmp/sbx-vm-smoke.XXXXXX)
trap 'rm -rf "$W"' EXIT

skip () { echo "1..0 # SKIP $kind guest: $*"; exit 0; }
bail () { echo "1..1"; echo "not ok 1 - $kind guest: $*"; exit 1; }

# put FILE DEST [LIBROOT]: FILE into the image, and the shared libraries
# it loads: the host's (ldd), or LIBROOT's whole library directories for
# another architecture (copied once, by the caller).
put () {
  install -D -m 755 "$1" "$W/root$2"
  [ $# -gt 2 ] && return 0
  ldd "$1" 2> /dev/null | grep -o '/[^ ]*' | while read -r lib; do
    [ -e "$W/root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$W/root$lib"
  done
}

common_files () {
  mkdir -p "$W/root/etc"
  install -m 755 "$here/smoke_guest.sh" "$W/root/init"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
    > "$W/root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$W/root/etc/group"
}

pack () {
  (cd "$W/root" && find . | cpio -o -H newc 2> /dev/null) | gzip -1 > "$W/initrd"
}

# What the README's list of verified kernels names.
kernel_note () {
  echo "# kernel package: $(grep -o 'linux-image-[^ ]*\.deb' "$1/.packages" | head -1)"
}

arm64 () {
  local b=${SBX_ARM64_BUILD:?set SBX_ARM64_BUILD to a build directory}
  local r=$cache/arm64-run/root t0=$SECONDS
  for tool in qemu-system-aarch64 qemu-aarch64-static aarch64-linux-gnu-gcc cpio; do
    command -v "$tool" > /dev/null || skip "$tool is missing (scripts/setup-debian.sh)"
  done
  sh "$top/scripts/cross-arm64.sh" "$b" sbx-oci tests/vm/syscall_probe > "$W/cross.log" 2>&1
  case $? in
    0) ;;
    77) skip "$(tail -1 "$W/cross.log")" ;;
    *) sed 's/^/# /' "$W/cross.log"; bail "the cross build failed" ;;
  esac
  echo "# cross build: $((SECONDS - t0)) s"
  "$here/debian_debs.sh" arm64 "$cache/arm64-run" linux-image-arm64 bubblewrap \
    busybox-static util-linux libc6 libcap2 libcap-ng0 libselinux1 \
    libpcre2-8-0 > "$W/debs.log" 2>&1 ||
    skip "cannot fetch Debian's arm64 packages: $(tail -1 "$W/debs.log")"
  kernel_note "$r"
  common_files
  mkdir -p "$W/root/lib" "$W/root/usr/lib" "$W/root/lib64"
  cp -a "$r/lib/aarch64-linux-gnu" "$r"/lib/ld-linux-aarch64.so.* "$W/root/lib/"
  cp -a "$r/usr/lib/aarch64-linux-gnu" "$W/root/usr/lib/"
  rm -rf "$W/root/usr/lib/aarch64-linux-gnu/gconv"
  put "$r/bin/busybox" /bin/busybox -
  ln -s busybox "$W/root/bin/sh"
  put "$r/usr/bin/bwrap" /usr/bin/bwrap -
  put "$r/usr/bin/setpriv" /opt/util-linux/setpriv -
  put "$b/sbx-oci" /usr/bin/sbx-oci -
  put "$b/tests/vm/syscall_probe" /usr/bin/syscall_probe -
  pack
  # pauth-impdef: -cpu max's pointer authentication at a fraction of the
  # cost of the architected algorithm under TCG.
  timeout 1500 qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on \
    -accel tcg,thread=multi -smp 2 -m 1024 -nographic -no-reboot \
    -kernel "$r"/boot/vmlinuz-* -initrd "$W/initrd" \
    -append "console=ttyAMA0 cgroup_no_v1=all panic=-1 quiet" \
    < /dev/null > "$W/console" 2>&1
}

oldkernel () {
  local r=$cache/amd64-6.1/root
  : "${SBX_OCI:?set SBX_OCI}" "${SYSCALL_PROBE:?set SYSCALL_PROBE}"
  for tool in qemu-system-x86_64 cpio bwrap setpriv; do
    command -v "$tool" > /dev/null || skip "$tool is missing (scripts/setup-debian.sh)"
  done
  # Debian 12's own kernel: its linux-image-amd64 is the 6.1 series.
  "$here/debian_debs.sh" amd64 "$cache/amd64-6.1" linux-image-amd64 > "$W/debs.log" 2>&1 ||
    skip "cannot fetch Debian 12's amd64 kernel: $(tail -1 "$W/debs.log")"
  kernel_note "$r"
  common_files
  put /bin/busybox /bin/busybox
  ln -s busybox "$W/root/bin/sh"
  put "$(command -v bwrap)" /usr/bin/bwrap
  put "$(command -v setpriv)" /opt/util-linux/setpriv
  put "$SBX_OCI" /usr/bin/sbx-oci
  put "$SYSCALL_PROBE" /usr/bin/syscall_probe
  pack
  timeout 900 qemu-system-x86_64 -accel tcg -smp 2 -m 2048 -nographic -no-reboot \
    -kernel "$r"/boot/vmlinuz-* -initrd "$W/initrd" \
    -append "console=ttyS0 cgroup_no_v1=all panic=-1 quiet" \
    < /dev/null > "$W/console" 2>&1
}

t0=$SECONDS
case $kind in
  arm64) arm64 ;;
  oldkernel) oldkernel ;;
  *) bail "unknown kind $kind" ;;
esac
tr -d '\r' < "$W/console" > "$W/console.txt"
sed -n 's/^.*@@tap //p' "$W/console.txt" > "$W/tap"
if ! grep -q '^1\.\.' "$W/tap"; then
  tail -20 "$W/console.txt" | sed 's/^/# /'
  bail "the guest printed no test plan"
fi
cat "$W/tap"
sed -n 's/^.*@@note /# /p' "$W/console.txt"
echo "# $kind: $((SECONDS - t0)) s in all"
! grep -q '^not ok' "$W/tap" && [ "$(grep -c '^ok' "$W/tap")" = "$(sed -n 's/^1\.\.//p' "$W/tap")" ]
