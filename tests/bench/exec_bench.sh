#!/bin/bash
# The cost of `exec` (not a test): the median wall time of
#   sbx-oci exec ID true   into a running agent sandbox (workspace-write,
#                          network "deny": both seccomp programs are loaded)
#   floor                  `true` under the least supervisor there can be
#                          (tests/bench/spawn_floor.c), what starting any
#                          two processes costs on this machine
# interleaved (tests/bench/interleave.c) RUNS times (default 300), as the
# caller (root, or anyone: an unprivileged caller's sandbox has its own
# user namespaces to join).  SBX_OCI names the binary (default:
# build/sbx-oci); SBX_OCI_ALSO="NAME=PATH ..." adds other builds (an older
# one) to the same rounds, each exec'ing into the same sandbox.  The
# helpers are built in BUILD (default: build).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../build}
sbx=$(readlink -f "${SBX_OCI:-$build/sbx-oci}")
runs=${RUNS:-300}

T=$(mktemp -d /tmp/sbx-xbench.XXXXXX)
id=xbench-${T##*.}
trap '"$sbx" --root "$T/state" delete --force "$id" > /dev/null 2>&1; rm -rf "$T"' EXIT
mkdir -p "$T/ws" "$T/agent" "$T/state"

cat > "$T/agent/config.json" <<EOF
{
  "ociVersion": "1.2.0",
  "root": {"path": "/", "readonly": true},
  "process": {"args": ["sleep", "3600"], "cwd": "$T/ws",
              "user": {"uid": $(id -u), "gid": $(id -g)}},
  "sbx": {"mode": "workspace-write", "workspace": "$T/ws", "network": "deny"}
}
EOF
"$sbx" --root "$T/state" create --bundle "$T/agent" "$id"
"$sbx" --root "$T/state" start "$id"

meson compile -C "$build" tests/bench/interleave tests/bench/spawn_floor > /dev/null
interleave=$build/tests/bench/interleave
floor=$build/tests/bench/spawn_floor

cmds=(sbx-oci "$sbx" --root "$T/state" exec "$id" true
      :: floor "$floor" "$(type -P true)")
for alt in ${SBX_OCI_ALSO:-}; do
  cmds+=(:: "${alt%%=*}" "${alt#*=}" --root "$T/state" exec "$id" true)
done
"$interleave" --runs "$runs" "${cmds[@]}" > "$T/medians"

echo "median wall time of $runs interleaved runs each ($(uname -r), uid $(id -u))"
printf '%-10s %10s %20s\n' command "median ms" "quartiles ms"
awk -F'\t' '{ printf "%-10s %10.2f %12.2f %7.2f\n", $1, $2, $3, $4 }' "$T/medians"
