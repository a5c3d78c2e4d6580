# The comparison shared by the peers' scenario scripts
# (podman_scenarios.sh against crun, podman_rootless.sh against runc).
# The caller sets SBX, PEER (the peer's name: "crun") and PEER_BIN (its
# binary), the associative arrays LIMIT and PENDING, and a function
# row_NAME RUNTIME_BIN RUNTIME_NAME for each row, which prints the value
# that row compares.
#
# row NAME DESCRIPTION: one TAP line.  It passes when sbx-oci's value is
# the peer's; a mismatch is "not ok", unless LIMIT[NAME] says it is a
# bubblewrap limit ("ok ... # SKIP", with both values) or PENDING[NAME]
# that it is still being worked on ("not ok ... # TODO"); the peer
# failing the row itself skips it.  rows_end prints the plan and fails
# when a row did.
n=0
failed=0
row () {
  local name=$1 what=$2 want got
  n=$((n + 1))
  want=$("row_$name" "$PEER_BIN" "$PEER" | tr '\n' ' ')
  got=$("row_$name" "$SBX" sbx | tr '\n' ' ')
  if [ -z "$want" ] || [[ "$want" == *Error:* || "$want" == *"no container"* ]]; then
    echo "ok $n - $what # SKIP $PEER cannot do it here: $want"
    return
  elif [ "$got" = "$want" ]; then
    echo "ok $n - $what: as $PEER ($want)"
    return
  elif [ -n "${LIMIT[$name]:-}" ]; then
    echo "ok $n - $what # SKIP bubblewrap limit: ${LIMIT[$name]}"
  elif [ -n "${PENDING[$name]:-}" ]; then
    echo "not ok $n - $what # TODO ${PENDING[$name]}"
  else
    failed=$((failed + 1))
    echo "not ok $n - $what"
  fi
  printf '#   %-8s %s\n#   sbx-oci: %s\n' "$PEER:" "$want" "$got"
}

rows_end () {
  echo "1..$n"
  [ "$failed" -eq 0 ]
}
