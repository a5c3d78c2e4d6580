#!/bin/sh
# Run the example agent policy: a command that writes in its workspace
# (./workspace, next to config.json) and is refused outside it; the outcome
# JSON follows.  SBX_OCI names the binary (default: build/sbx-oci of this
# source tree).
#
# process.cwd must be absolute in OCI, so the command learns where the
# bundle-relative workspace is from SBX_EXAMPLE_WORKSPACE, which the
# config's env allow-list lets through.
#
# The config is treated as one an agent composed: it runs under the
# operator's ceiling (--ceiling), which names the one workspace it may
# write and approves the one variable it passes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sbx=${SBX_OCI:-$here/../../../build/sbx-oci}
SBX_EXAMPLE_WORKSPACE=$here/workspace
export SBX_EXAMPLE_WORKSPACE
rm -f "$here/workspace/result.txt"
ceiling=$(mktemp)
trap 'rm -f "$ceiling"' EXIT
printf '{"workspaces": ["%s"], "maxNetwork": "deny",\n "approve": ["env:SBX_EXAMPLE_WORKSPACE"]}\n' \
  "$here/workspace" > "$ceiling"
# The outcome goes to a descriptor of its own (4, a file here), never into
# the command's output; it is shown after it.
outcome=$(mktemp)
trap 'rm -f "$ceiling" "$outcome"' EXIT
status=0
"$sbx" --ceiling "$ceiling" run --bundle "$here" --outcome-fd 4 \
  "example-agent-$$" 4>"$outcome" || status=$?
echo "== outcome (exit status $status):"
cat "$outcome"
exit "$status"
