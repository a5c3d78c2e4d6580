#!/bin/bash
# What sbx-oci says on a kernel without a system call it relies on (TAP).
# Debian 12's 6.1 has them all (tests/vm/smoke.sh oldkernel); an older
# kernel is made here by answering ENOSYS for the calls (enosys.c):
#   pidfd_open (5.3)   every signal to a sandbox's processes goes through
#                      a pidfd: without one, kill would miss them silently
#   openat2 (5.6)      bind sources held beneath their root, the command
#                      looked up inside the sandbox's root
#   close_range (5.9)  descriptors closed by a /proc/self/fd walk instead
# Each must be a reason `check` names, and run must refuse the first two.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${ENOSYS:?set ENOSYS to tests/integration/enosys}"
WORK=${SBX_IT_WORK:-}
N=0

sbx () { "$SBX_OCI" --root "$WORK/state" "$@"; }

run_cases ()
{
  mkdir -p "$WORK/state" "$WORK/ws"
  chmod 700 "$WORK/state"
  local out
  out=$(sbx check 2>&1)
  tap_has "$out" "kernel           Linux" "check names the kernel"
  tap_lacks "$out" "FAIL  kernel" "this kernel lacks nothing sbx-oci needs"

  out=$("$ENOSYS" close_range "$SBX_OCI" --root "$WORK/state" check 2>&1)
  tap_has "$out" "close_range (Linux 5.9)" "without close_range, check says so"
  tap_has "$out" "/proc/self/fd walk" "... and what is done instead"
  write_agent "$WORK/b0" workspace-write "$WORK/ws" "" /bin/true
  N=$((N + 1))
  out=$("$ENOSYS" close_range "$SBX_OCI" --root "$WORK/state" run \
    --bundle "$WORK/b0" "kg-$N" 2>&1)
  tap_is "$?" 0 "... and a run still works ($out)"

  local call
  for call in pidfd_open openat2; do
    out=$("$ENOSYS" "$call" "$SBX_OCI" --root "$WORK/state" check 2>&1)
    tap_is "$?" 1 "without $call, check fails"
    tap_has "$out" "FAIL  kernel" "... on the kernel"
    tap_has "$out" "lacks $call" "... naming $call"
    N=$((N + 1))
    rm -f "$WORK/b0/out.json"
    out=$("$ENOSYS" "$call" "$SBX_OCI" --root "$WORK/state" run \
      --bundle "$WORK/b0" --outcome "$WORK/b0/out.json" "kg-$N" 2>&1)
    tap_is "$?" 125 "without $call, run refuses: $out"
    tap_has "$(cat "$WORK/b0/out.json" 2> /dev/null)" "lacks $call" \
      "... and the outcome says why"
  done
}

tap_suite "$HERE/kernel_gaps.sh" kg SBX_OCI ENOSYS
