#!/bin/sh
# A stand-in for macOS's sandbox-exec, for tests on Linux: it insists on
# `-p PROFILE -- ARGV...` with an SBPL profile whose first rule line is
# "(version 1)", keeps the profile next to itself (last-profile.sb), and
# then execs ARGV in its own place, as sandbox-exec does once the profile
# is applied.  It confines nothing.  Shell builtins only: the command's
# environment is the plan's, not the test's.
[ "$#" -ge 4 ] || { echo "fake sandbox-exec: too few arguments" >&2; exit 90; }
[ "$1" = -p ] || { echo "fake sandbox-exec: expected -p, got $1" >&2; exit 91; }
profile=$2
[ "$3" = -- ] || { echo "fake sandbox-exec: expected --, got $3" >&2; exit 92; }
first=
while IFS= read -r line; do
  case $line in
    ";"* | "") ;;
    *) first=$line; break ;;
  esac
done <<EOF_PROFILE
$profile
EOF_PROFILE
[ "$first" = "(version 1)" ] || { echo "fake sandbox-exec: profile starts with '$first'" >&2; exit 93; }
printf '%s\n' "$profile" > "${0%/*}/last-profile.sb"
shift 3
exec "$@"
