#!/bin/sh
# tests/macos/first-run.sh is for a Mac and has never run on one; here it
# can only be parsed, linted and seen to step aside (TAP).
SCRIPT=${FIRST_RUN:?}
n=0
fails=0
check ()
{
  n=$((n + 1))
  desc=$1
  shift
  if "$@" > /dev/null 2>&1; then
    echo "ok $n - $desc"
  else
    echo "not ok $n - $desc"
    fails=$((fails + 1))
  fi
}
check "first-run.sh parses (sh -n)" sh -n "$SCRIPT"
if command -v shellcheck > /dev/null 2>&1; then
  check "first-run.sh passes shellcheck" shellcheck -s sh "$SCRIPT"
else
  n=$((n + 1))
  echo "ok $n - first-run.sh passes shellcheck # SKIP no shellcheck"
fi
out=$(sh "$SCRIPT" 2>&1)
check "off macOS it skips, running nothing" \
  test "$out" = "1..0 # SKIP not macOS: this script is for a Mac"
echo "1..$n"
[ "$fails" -eq 0 ]
