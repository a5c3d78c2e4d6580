#!/bin/sh
# The main job on the bundled example: an agent policy that lets a command
# write in its workspace and refuses it everywhere else, with the outcome
# JSON the orchestrator would read.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/scripts/setup-debian.sh"
sh "$top/scripts/build.sh"
echo "== contrib/examples/agent: write in the workspace, then try /etc"
status=0
SBX_OCI="$top/build/sbx-oci" sh "$top/contrib/examples/agent/run.sh" || status=$?
echo "== exit status: $status"
