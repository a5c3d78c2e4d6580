#!/bin/sh
# The main job on the bundled example: an agent policy that lets a command
# write in its workspace and refuses it everywhere else, with the outcome.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/scripts/setup-debian.sh"
sh "$top/scripts/build.sh"
bundle="$top/contrib/examples/agent"
echo "== sbx-oci run --bundle contrib/examples/agent demo"
status=0
"$top/build/sbx-oci" run --bundle "$bundle" --outcome "$bundle/outcome.json" demo || status=$?
echo "== exit status: $status; outcome:"
cat "$bundle/outcome.json"
