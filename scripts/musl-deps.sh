#!/bin/sh
# Builds yajl, libseccomp and libcap-ng against musl, as static archives,
# from Debian 12's own source packages (apt verifies them against the
# signed archive index), into PREFIX (default /var/cache/sbx-oci-musl),
# and writes PREFIX/musl.ini, the meson native file that builds sbx-oci
# with musl-gcc against them.  The versions are those of the installed
# -dev packages, which the glibc builds link: a security update reaches
# both builds alike, or the build stops and says so.  Safe to run again:
# a finished PREFIX whose stamp names the same versions is kept; prints
# one line when it built.
#
# What the musl build gives up: _FORTIFY_SOURCE, which musl does not
# implement (the glibc builds have it in Debian's archives of the three
# libraries, not in sbx-oci's own objects); stack protection is kept.
#
# Why musl: glibc's start-up asks the CPU for its features and cache
# layout with about 75 `cpuid` instructions, each a trap to the hypervisor
# on a VM, 0.5 ms of every sbx-oci process there; musl's asks nothing
# (docs/benchmarks.md).
set -eu
prefix=${1:-/var/cache/sbx-oci-musl}

wanted=$(dpkg-query -W -f='${source:Package}=${source:Version} ' \
  libyajl-dev libseccomp-dev libcap-ng-dev 2>/dev/null) || wanted=""
if [ "$(echo $wanted | wc -w)" != 3 ]; then
  echo "musl-deps.sh: libyajl-dev, libseccomp-dev and libcap-ng-dev must be installed (scripts/setup-debian.sh)" >&2
  exit 1
fi
[ -f "$prefix/stamp" ] && [ "$(cat "$prefix/stamp")" = "$wanted" ] && exit 0
for w in $wanted; do
  apt-cache showsrc "${w%%=*}" | grep -qx "Version: ${w#*=}" || {
    echo "musl-deps.sh: Debian's source index has no $w (the installed -dev's source): run scripts/setup-debian.sh as root" >&2
    exit 1
  }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# Only the kernel's headers beside musl's own: musl-gcc sees no others.
mkdir -p "$work/kernel"
ln -s /usr/include/linux /usr/include/asm-generic "$work/kernel/"
ln -s "/usr/include/$(gcc -dumpmachine)/asm" "$work/kernel/asm"
cc="musl-gcc -isystem $work/kernel"
cflags="-O2 -fstack-protector-strong -D_FORTIFY_SOURCE=0"

# shellcheck disable=SC2086
apt-get source -qq --download-only $wanted >/dev/null
# apt checked each file against the archive's signed index; dpkg-source
# applies Debian's patches (its own signature check needs keyrings that
# are not installed, and adds nothing to apt's).
for dsc in ./*.dsc; do dpkg-source -q -x "$dsc" >/dev/null 2>&1; done
rm -rf "$prefix.new"
mkdir -p "$prefix.new/include/yajl" "$prefix.new/lib/pkgconfig"

# yajl: its CMake build makes only the version header; the rest is C.
(
  cd yajl-*/src
  cp api/yajl_common.h api/yajl_gen.h api/yajl_parse.h api/yajl_tree.h \
    "$prefix.new/include/yajl/"
  sed -e 's/${YAJL_MAJOR}/2/' -e 's/${YAJL_MINOR}/1/' -e 's/${YAJL_MICRO}/0/' \
    api/yajl_version.h.cmake > "$prefix.new/include/yajl/yajl_version.h"
  for f in yajl yajl_alloc yajl_buf yajl_encode yajl_gen yajl_lex \
    yajl_parser yajl_tree yajl_version; do
    $cc $cflags -I"$prefix.new/include" -c "$f.c" -o "$f.o"
  done
  ar rcs "$prefix.new/lib/libyajl_s.a" ./*.o
)

for p in libseccomp libcap-ng; do
  (
    cd "$p"-*/
    opts=""
    [ "$p" = libcap-ng ] && opts="--without-python3"
    # The system's tools only (a version manager's python shims answer
    # configure's probes with noise).
    PATH=/usr/bin:/bin CC="$cc" CFLAGS="$cflags" ./configure -q --prefix="$prefix.new" \
      --enable-static --disable-shared $opts >/dev/null
    PATH=/usr/bin:/bin make -s install >/dev/null
  )
done

cat > "$prefix.new/lib/pkgconfig/yajl.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: yajl
Description: yajl for musl (scripts/musl-deps.sh)
Version: 2.1.0
Cflags: -I\${includedir}
Libs: -L\${libdir} -lyajl_s
EOF
# The .pc files name the prefix they were built for.
sed -i "s|$prefix.new|$prefix|g" "$prefix.new/lib/pkgconfig/"*.pc
cat > "$prefix.new/musl.ini" <<EOF
# meson native file: sbx-oci with musl (scripts/musl-deps.sh)
[binaries]
c = ['musl-gcc', '-isystem', '$prefix/kernel']
pkg-config = 'pkg-config'

[built-in options]
pkg_config_path = '$prefix/lib/pkgconfig'
EOF
mkdir -p "$prefix.new/kernel"
cp -P "$work/kernel/"* "$prefix.new/kernel/"
echo "$wanted" > "$prefix.new/stamp"
rm -rf "$prefix"
mv "$prefix.new" "$prefix"
echo "musl-deps.sh: built $wanted into $prefix"
