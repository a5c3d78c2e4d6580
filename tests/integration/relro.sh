#!/bin/bash
# RELRO in the binaries as they run: what the linker marked read-only
# after relocation (PT_GNU_RELRO: the command table, the protected and
# credential lists, .got, .init_array) must be read-only in a running
# sbx-oci (its maps, read while `run` supervises a sandbox) and is made so
# by sbx-oci-init before its command (its mprotect, seen by strace).
# musl's static start-up applies no RELRO (runtime/linux/confine/relro.c).
# Run as root, as root and then as uid 65534.  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
INIT=${SBX_OCI_INIT:?set SBX_OCI_INIT to the built sbx-oci-init}
WORK=$(mktemp -d /tmp/sbx-relro.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

# relro_range BINARY: "START END" (hex, the pages wholly inside
# PT_GNU_RELRO), or nothing when the binary has none.
relro_range () {
  readelf -lW "$1" | python3 -c '
import sys
for f in (l.split() for l in sys.stdin):
    if f and f[0] == "GNU_RELRO":
        v, m, page = int(f[2], 16), int(f[5], 16), 4096
        s, e = v - v % page, (v + m) - (v + m) % page
        if e > s:
            print("%x %x" % (s, e))'
}

# writable_in MAPS EXE START END: whether any mapping overlapping
# [START, END) of EXE (moved by its load address when it is a PIE, as the
# dynamic and sanitized builds are) is writable.
writable_in () {
  python3 - "$@" <<'PY'
import os, sys
maps, exe, s, e = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4], 16)
with open(exe, "rb") as f:
    pie = f.read(18)[16] == 3  # e_type ET_DYN
lines = open(maps).read().splitlines()
if pie:
    real = os.path.realpath(exe)
    base = min(int(l.split()[0].split("-")[0], 16) for l in lines
               if l.split()[-1] == real)
    s, e = s + base, e + base
for line in lines:
    lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
    if lo < e and hi > s and line.split()[1][1] == "w":
        sys.exit(0)
sys.exit(1)
PY
}

case_sbx_oci () {
  local range ws=$WORK/$MODE-ws b=$WORK/$MODE-b pid i
  range=$(relro_range "$SBX")
  check "sbx-oci has a PT_GNU_RELRO segment" test -n "$range"
  [ -n "$range" ] || return
  mkdir -p "$ws" "$b"
  agent_config "$b/config.json" "$ws" "$(${AS:-} id -u)" sleep 2
  hand_over "$ws"; hand_over "$b"
  $AS "$SBX" --root "$ROOT" run --bundle "$b" "relro-$RUN" > /dev/null 2>&1 &
  pid=$!
  # $AS (setpriv) execs sbx-oci: the pid is sbx-oci's once it has.
  for i in $(seq 50); do
    [ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$SBX")" ] && break
    sleep 0.05
  done
  sleep 0.3
  cp "/proc/$pid/maps" "$WORK/maps" 2>/dev/null
  wait "$pid"
  # shellcheck disable=SC2086
  check "a running sbx-oci's RELRO pages are read-only" \
    eval '[ -s "$WORK/maps" ] && ! writable_in "$WORK/maps" "$SBX" $range'
}

case_init () {
  local range s e
  range=$(relro_range "$INIT")
  check "sbx-oci-init has a PT_GNU_RELRO segment" test -n "$range"
  [ -n "$range" ] || return
  read -r s e <<<"$range"
  # Without arguments it says how to use it and ends: its constructors
  # have run by then.
  $AS strace -f -e trace=mprotect -o "$WORK/init.trace" "$INIT" > /dev/null 2>&1
  check "sbx-oci-init makes its RELRO pages read-only" \
    grep -q "mprotect(0x$s, $((16#$e - 16#$s)), PROT_READ) = 0" "$WORK/init.trace"
}

suite () {
  case_sbx_oci
  case_init
}

run_as_root_and_user suite
finish
