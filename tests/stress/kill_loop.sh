#!/bin/bash
# The kill-at-random-moments loops of tests/integration/kill_loop.sh at
# stress size: SBX_KILL_ITERS (default 1,000) SIGKILLs of `run` (with and
# without a memory limit) and of `create` followed by `delete --force`,
# as root and as uid 65534 when started as root.  SBX_KILL_ONLY (run,
# create, truncated) and SBX_KILL_MODES (root, user) narrow it down.
#   SBX_OCI=build/sbx-oci tests/stress/kill_loop.sh
# Prints TAP; exits non-zero when anything survived.
set -u
: "${SBX_OCI:?set SBX_OCI to the built sbx-oci}"
export SBX_KILL_ITERS=${SBX_KILL_ITERS:-1000}
exec bash "$(dirname "$0")/../integration/kill_loop.sh"
