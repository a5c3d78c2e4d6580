#!/bin/bash
# The fence against the sandbox: a table of paths under a table of
# policies, each path tried by a confined process (a real `sbx-oci run`)
# and through `sbx-oci fence`, which must agree on what reaches the host;
# then the race: a path component swapped for a link to the outside while
# the fence writes, thousands of times, nothing ever written outside.
# Run as root, the cases run as root and again as uid 65534 (tap_suite).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

: "${SBX_OCI:?set SBX_OCI to the sbx-oci binary}"
: "${FENCE_RACE:?set FENCE_RACE to tests/integration/fence_race}"
WORK=${SBX_IT_WORK:-}
N=0

sbx () { "$SBX_OCI" --root "$WORK/state" "$@"; }
fence () { "$SBX_OCI" --root "$WORK/state" fence "$@"; }

# The tree of case C: a home that is the workspace (its credential store,
# start-up file and git metadata inside the writable root), a deny layer
# with a re-grant inside it, links of every kind, a hard-link alias, and
# a directory outside the workspace bound read-only.
make_tree ()
{
  T=$WORK/$1
  H=$T/home
  mkdir -p "$H/.ssh" "$H/.git/hooks" "$H/secret/pub" "$H/sub" "$T/outside/ro"
  echo key > "$H/.ssh/id"
  echo "[core]" > "$H/.git/config"
  echo "# rc" > "$H/.bashrc"
  echo secret > "$H/secret/x"
  echo file > "$H/file"
  echo in-sub > "$H/sub/f"
  echo target > "$T/outside/target"
  echo ro > "$T/outside/ro/f"
  ln "$T/outside/target" "$H/alias"
  ln -s "$T/outside" "$H/lnk_abs"
  ln -s ../outside "$H/lnk_rel"
  ln -s sub "$H/lnk_in"
  ln -s ../outside/target "$H/lastlnk"
}

# The policies: NAME MODE SBX_EXTRA (mounts are the same for all).
POLICIES=(
  "default|workspace-write|"
  "read-only|read-only|"
  "open|workspace-write|\"protectedPaths\": [], \"aliasMasking\": {\"enabled\": false}, \"hardenedDefaults\": false"
)

# Rows: PATH (relative to T) and the relation: "same", or "stricter"
# where the fence refuses on purpose what the sandbox allows (it follows
# no symbolic link, and writes no file with another hard link;
# docs/fence.md), "stricter:POLICY" under POLICY only.  Each write row
# names a file of its own: a mark found in the tree is that row's.
WRITE_ROWS=(
  "home/new|same" "home/sub/new|same" "home/sub/../new2|same"
  "home/.bashrc|same" "home/.git/config|same"
  "home/.git/hooks/pre-commit|same" "home/.ssh/id|same"
  "home/.ssh/new|same" "home/alias|stricter:open" "home/secret/x|same"
  "home/secret/new|same" "home/secret/pub/new|same" "home/sub/../sub/new4|same"
  "home/lnk_abs/new|same" "home/lnk_rel/new|same"
  "home/lnk_in/new3|stricter" "home/lastlnk|same" "home/../outside/new|same"
  "outside/ro/new|same" "outside/new|same" "home/file|same"
  "home/lnk_abs/../new6|same" "home/lnk_in/../new5|stricter"
  "home/nothere/../new7|same"
)
READ_ROWS=(
  "home/file|same" "home/.ssh/id|same" "home/secret/x|same"
  "home/.git/config|same" "outside/ro/f|same" "home/sub/f|same"
  "home/lnk_in/f|stricter" "home/alias|same"
)

# The sandbox's answers: one run trying every row, each write leaving a
# mark of its own; a write "reached the host" when its mark is found in
# the tree afterwards, a read when it printed the host file's content.
sandbox_try ()
{
  local mode=$1 extra=$2 script="" row p i=0
  CONTENT=()
  for row in "${READ_ROWS[@]}"; do
    p=$T/${row%%|*}
    CONTENT+=("$(cat "$p" 2> /dev/null)")
    script+="printf 'r$i:%s\\n' \"\$(cat $(printf %q "$p") 2>/dev/null)\";"
    i=$((i + 1))
  done
  i=0
  for row in "${WRITE_ROWS[@]}"; do
    p=$T/${row%%|*}
    script+="printf %s sbx-w-$i > $(printf %q "$p") 2>/dev/null;"
    i=$((i + 1))
  done
  script+="exit 0"
  local mounts
  mounts="$(deny "$H/secret"), $(bind_rw "$H/secret/pub"),"
  mounts+=" {\"destination\": \"$T/outside/ro\", \"type\": \"bind\","
  mounts+=" \"source\": \"$T/outside/ro\", \"options\": [\"rbind\", \"ro\"]}"
  HOME=$H SBX_EXTRA=$extra write_agent "$T/bundle" "$mode" "$H" "$mounts" \
    sh -c "$script"
  HOME=$H run_bundle "$T/bundle"
}

# is_stricter REL POLICY: the row's fence refuses on purpose here.
is_stricter () { [ "$1" = stricter ] || [ "$1" = "stricter:$2" ]; }

reached_host () { grep -rqx -- "$1" "$T" 2> /dev/null; }

compare_writes ()
{
  local name=$1 row p rel i=0 sandbox fenced want
  for row in "${WRITE_ROWS[@]}"; do
    p=$T/${row%%|*}
    rel=${row##*|}
    reached_host "sbx-w-$i" && sandbox=yes || sandbox=no
    printf %s "fence-w-$i" | HOME=$H fence write --config "$T/bundle/config.json" "$p" 2> /dev/null
    reached_host "fence-w-$i" && fenced=yes || fenced=no
    want=$sandbox
    is_stricter "$rel" "$name" && want=no
    tap_is "$fenced" "$want" "$name: write ${row%%|*}: fence $fenced, sandbox $sandbox ($rel)"
    is_stricter "$rel" "$name" && [ "$name" != read-only ] && tap_is "$sandbox" yes \
      "$name: write ${row%%|*}: the sandbox does write it (the fence is stricter)"
    i=$((i + 1))
  done
}

compare_reads ()
{
  local name=$1 row p rel i=0 sandbox fenced want content got
  for row in "${READ_ROWS[@]}"; do
    p=$T/${row%%|*}
    rel=${row##*|}
    content=${CONTENT[$i]}
    printf '%s\n' "$OUT" | grep -qxF "r$i:$content" && sandbox=yes || sandbox=no
    # The sandbox's writes ran after its reads: the fence reads what is
    # on the host now.
    got=$(HOME=$H fence read --config "$T/bundle/config.json" "$p" 2> /dev/null) \
      && [ "$got" = "$(cat "$p")" ] && fenced=yes || fenced=no
    want=$sandbox
    is_stricter "$rel" "$name" && want=no
    tap_is "$fenced" "$want" "$name: read ${row%%|*}: fence $fenced, sandbox $sandbox ($rel)"
    i=$((i + 1))
  done
}

case_table ()
{
  local pol name mode extra
  for pol in "${POLICIES[@]}"; do
    IFS='|' read -r name mode extra <<< "$pol"
    make_tree "$name"
    sandbox_try "$mode" "$extra"
    tap_is "$RC" 0 "$name: the sandbox ran"
    [ "$RC" = 0 ] || printf '%s\n' "$OUT" | sed 's/^/#   /'
    compare_reads "$name"
    compare_writes "$name"
  done
}

# check's verdict on a descriptor, and the exit status of a refusal.
case_check_verdict ()
{
  make_tree verdict
  HOME=$H write_agent "$T/bundle" workspace-write "$H" "" true
  local v
  v=$(HOME=$H fence check --config "$T/bundle/config.json" --verdict-fd 3 \
    "$H/.git/config" 3>&1 1> /dev/null 2> /dev/null)
  tap_is "$?" 3 "check: a refused path exits 3"
  tap_has "$v" '"rule":"protected-metadata"' "check: the verdict names the rule"
  tap_has "$v" '"grant":' "check: and the grant that would allow it"
  HOME=$H fence check --config "$T/bundle/config.json" "$H/new" "$H/sub"
  tap_is "$?" 0 "check: allowed paths exit 0"
}

# Under the operator's ceiling, the fence refuses what `run` refuses, with
# the same line; with the grant approved, it writes where the sandbox can.
case_ceiling ()
{
  make_tree ceiling
  HOME=$H write_agent "$T/bundle" workspace-write "$H" "$(bind_rw "$T/outside")" true
  printf '{"workspaces": [%s]}\n' "$(json_str "$H")" > "$T/ceiling"
  local r f
  r=$(HOME=$H sbx --ceiling "$T/ceiling" run --bundle "$T/bundle" "it-c$RANDOM" 2>&1)
  f=$(HOME=$H "$SBX_OCI" --root "$WORK/state" --ceiling "$T/ceiling" fence check \
    --config "$T/bundle/config.json" "$T/outside/x" 2>&1)
  tap_is "$?" 121 "ceiling: the fence refuses the config the ceiling refuses (121)"
  tap_has "$r" "$f" "ceiling: with the line run prints ($f)"
  printf '{"workspaces": [%s], "approve": [%s]}\n' "$(json_str "$H")" \
    "$(json_str "$T/outside")" > "$T/ceiling"
  printf new | HOME=$H fence write --ceiling "$T/ceiling" \
    --config "$T/bundle/config.json" "$T/outside/x"
  tap_is "$(cat "$T/outside/x" 2> /dev/null)" new \
    "ceiling: approved, the fence writes the granted root"
}

# The race, through the library: WS/d swapped for a link to the outside
# while the fence writes WS/d/f; bounded to 4 s.
case_race ()
{
  make_tree race
  HOME=$H write_agent "$T/bundle" workspace-write "$H" "" true
  mkdir "$T/outside2"
  local out
  out=$(HOME=$H "$FENCE_RACE" "$T/bundle/config.json" "$H" "$T/outside2" 20000 4)
  tap_is "$?" 0 "race: nothing written outside ($out)"
  local w r
  read -r _ w _ r _ <<< "$out"
  tap_ok "race: both outcomes happened (the swap raced the writes)" \
    test "${w:-0}" -gt 0 -a "${r:-0}" -gt 0
  tap_ok "race: the writes landed in the real directory" \
    test -f "$H/d/f" -o -f "$H/d-link/f"
}

run_cases ()
{
  case_table
  case_check_verdict
  case_ceiling
  case_race
}

tap_suite "$HERE/fence.sh" fence SBX_OCI FENCE_RACE
