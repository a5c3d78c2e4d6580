#!/bin/bash
# Help, manual pages and completions agree with the binary:
# every command `sbx-oci --help` lists has its own `COMMAND --help`, a
# section in sbx-oci(1)'s source, and a place in the bash and zsh
# completions, each option of its help is completed, and the built manual
# pages render without a groff warning.  Runs no sandbox.  Prints TAP.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
SBX_OCI=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
TOP=$HERE/../..
MAN_SRC=$TOP/docs/man/sbx-oci.1.md
BASH_COMP=$TOP/contrib/completion/sbx-oci.bash
ZSH_COMP=$TOP/contrib/completion/_sbx-oci
TAP_LOG=$(mktemp)
export TAP_LOG
trap 'rm -f "$TAP_LOG"' EXIT

commands=$("$SBX_OCI" --help | sed -n '/^commands:/,$p' | awk 'NR > 1 {print $1}')
tap_is "$(echo "$commands" | wc -w)" 16 "--help lists the 16 commands"
. "$BASH_COMP"
for c in $commands; do
  help=$("$SBX_OCI" "$c" --help 2>&1)
  tap_has "$help" "usage: sbx-oci $c" "$c --help prints its usage"
  tap_has "$(grep -E "^### (.*[ ,])?$c(,| |\$)" "$MAN_SRC")" "$c" "sbx-oci(1) has a section for $c"
  tap_has " $_sbx_oci_commands " " $c " "bash completes $c"
  tap_has "$(grep -E "^ *'$c:" "$ZSH_COMP")" "$c" "zsh completes $c"
  for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    tap_has " $(_sbx_oci_options "$c") " " $opt " "bash completes $c $opt"
  done
done
bash -n "$BASH_COMP"; tap_is "$?" 0 "the bash completion parses"
if command -v zsh > /dev/null; then
  zsh -n "$ZSH_COMP"; tap_is "$?" 0 "the zsh completion parses"
else
  tap_skip "the zsh completion parses" "zsh not installed"
fi
for page in ${MAN_PAGES:-}; do
  if command -v groff > /dev/null; then
    tap_is "$(groff -man -Tutf8 -ww -z "$page" 2>&1)" "" "$(basename "$page") renders without a warning"
  else
    tap_skip "$(basename "$page") renders" "groff not installed"
  fi
  tap_has "$(cat "$page")" ".SH NAME" "$(basename "$page") has a NAME section"
done
tap_plan
