#!/bin/bash
# linux.devices through real sandboxes (TAP), with run and with
# create/start: as root the runtime makes each node (type, numbers, mode,
# owner) in a tmpfs of the runner's own mount namespace and binds it in,
# leaving nothing on the host; as uid 65534 it binds the host's node at
# the same path, and refuses one the host does not have, naming the entry.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-devices.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS "$SBX" --root "$ROOT" "$@"; }

# bundle DIR ARGS DEVICES: a busybox container running ARGS (JSON) with
# linux.devices DEVICES (JSON).
bundle () {
  busybox_bundle "$1" sh head wc stat cat sleep || return 1
  python3 - "$1/config.json" "$2" "$3" <<'PY'
import json, sys
path, args, devices = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
c = json.load(open(path))
c["root"]["readonly"] = False
c["process"]["args"] = args
c["linux"]["devices"] = devices
json.dump(c, open(path, "w"))
PY
  hand_over "$1"
}

# The node the mode can have: root makes /dev/myzero; uid 65534 gets the
# host's /dev/zero bound at its own path.
zero_device () {
  local at=/dev/zero
  [ "$MODE" = root ] && at=/dev/myzero
  echo "{\"path\": \"$at\", \"type\": \"c\", \"major\": 1, \"minor\": 5, \"fileMode\": 416, \"gid\": 34}"
}
zero_path () { [ "$MODE" = root ] && echo /dev/myzero || echo /dev/zero; }

run_case () {
  local z out
  z=$(zero_path)
  bundle "$B/run" "[\"sh\", \"-c\", \"head -c 4 $z | wc -c; stat -c '%a %u %g %t %T' $z\"]" "[$(zero_device)]"
  out=$(sbx run --bundle "$B/run" "dr-$RUN" 2>&1 < /dev/null)
  check "run: the command reads 4 bytes from $z ($(echo $out))" \
    [ "$(echo "$out" | head -n 1)" = 4 ]
  if [ "$MODE" = root ]; then
    check "run: the node has the config's mode, owner and numbers ($(echo $out))" \
      [ "$(echo "$out" | sed -n 2p)" = "640 0 34 1 5" ]
  else
    # Its owner, root, is no id of the sandbox's user namespace.
    check "run: the host's own node is bound, as it is ($(echo $out))" \
      [ "$(echo "$out" | sed -n 2p)" = "$(stat -c '%a 65534 65534 %t %T' /dev/zero)" ]
  fi
}

fifo_case () {
  [ "$MODE" = root ] || return 0
  local out
  bundle "$B/fifo" '["sh", "-c", "stat -c %F /dev/myfifo"]' \
    '[{"path": "/dev/myfifo", "type": "p"}]'
  out=$(sbx run --bundle "$B/fifo" "df-$RUN" 2>&1 < /dev/null)
  check "run: a FIFO is made ($out)" [ "$out" = fifo ]
}

create_case () {
  local z rc
  z=$(zero_path)
  bundle "$B/held" "[\"sh\", \"-c\", \"head -c 4 $z | wc -c > /tmp/out\"]" "[$(zero_device)]"
  sbx create --bundle "$B/held" "dc-$RUN" > "$B/held.err" 2>&1 < /dev/null
  rc=$?
  check "create with linux.devices succeeds ($(cat "$B/held.err"))" [ $rc -eq 0 ]
  sbx start "dc-$RUN"
  for _ in $(seq 50); do
    sbx state "dc-$RUN" 2>/dev/null | grep -q '"stopped"' && break; sleep 0.1
  done
  check "start: the container read 4 bytes from $z" \
    [ "$(cat "$B/held/rootfs/tmp/out" 2>/dev/null)" = 4 ]
  sbx delete --force "dc-$RUN" 2>/dev/null
}

# What root's runner made lives in its own mount namespace: the host's
# directory stays empty and unmounted, and is root's alone, after the
# runs above and after one that fails once its node is made (bwrap cannot
# make a mount point in the read-only /sys).
left_behind_case () {
  [ "$MODE" = root ] || return 0
  local dir=$ROOT/+devices rc
  bundle "$B/fail" '["true"]' '[{"path": "/sys/myzero", "type": "c", "major": 1, "minor": 5}]'
  sbx run --bundle "$B/fail" "dx-$RUN" > "$B/fail.err" 2>&1 < /dev/null; rc=$?
  # Failed in bwrap, once the node was made (125), not refused before it.
  check "run: a node bwrap cannot place fails the run in bwrap ($(tr "\n" " " < "$B/fail.err"))" \
    eval '[ $rc -eq 125 ] && grep -q "/sys/myzero" "$B/fail.err"'
  check "the nodes' directory is 0700 and root's ($(stat -c '%a %u' "$dir" 2>&1))" \
    [ "$(stat -c '%a %u' "$dir" 2>&1)" = "700 0" ]
  check "nothing is left in it ($(ls -A "$dir" 2>&1))" [ -z "$(ls -A "$dir" 2>&1)" ]
  check "nothing is mounted on it on the host" \
    eval '! grep -q " $dir " /proc/self/mountinfo'
}

# Unprivileged, a node the host does not have at that path is refused at
# create, in one line naming the entry, and nothing is created.
refused_case () {
  [ "$MODE" = user ] || return 0
  local err rc
  bundle "$B/none" '["true"]' \
    '[{"path": "/dev/myzero", "type": "c", "major": 1, "minor": 5}]'
  err=$(sbx create --bundle "$B/none" "dn-$RUN" 2>&1 < /dev/null); rc=$?
  check "unprivileged: a node the host lacks is refused, naming linux.devices[0] ($err)" \
    eval '[[ $rc -ne 0 && "$err" == *"linux.devices[0]: /dev/myzero is not character device 1:5 on the host"* && $(echo "$err" | wc -l) -eq 1 ]]'
  check "... and leaves no container" eval '! sbx state "dn-$RUN" >/dev/null 2>&1'
}

suite () {
  B=$WORK/$MODE
  mkdir -p "$B"; chmod 777 "$B"
  run_case
  fifo_case
  create_case
  left_behind_case
  refused_case
}

run_as_root_and_user suite
finish
