# Shared by the container-bundle suites (lifecycle*.sh, oci_fields.sh):
# numbered TAP results, prefixed with the suite's MODE when it has one,
# the run of a suite as root and then as uid 65534, and the end.  The
# caller sets SBX (the binary), WORK (its scratch directory) and, for
# busybox_bundle, BUSYBOX first.
n=0
failed=0
MODE=
# What a run shares with the whole host must be its own, so that two runs
# at once (two checkouts, CI and a developer) never meet: container ids
# that become cgroup names (sbx-oci/ID, system.slice/sbx-oci-ID.scope) and
# markers looked for among all of the host's processes end in RUN, the
# random part of WORK's mktemp name (unique below /tmp, and of one length,
# so that no run's marker is the start of another's).
RUN=${WORK##*.}
# The environment (env -i) of an sbx-oci run under strace: LeakSanitizer,
# in an ASan build, cannot work under ptrace and ends the traced process
# with status 1 at its exit.  Harmless to any other build.
TRACED_ENV=ASAN_OPTIONS=detect_leaks=0

# One line each, whatever a description quotes (a multi-line value would
# end the result line and leave TAP lines meson cannot read).
ok () { n=$((n + 1)); echo "ok $n - ${MODE:+$MODE: }${1//$'\n'/ }"; }
not_ok () {
  n=$((n + 1)); failed=$((failed + 1))
  echo "not ok $n - ${MODE:+$MODE: }${1//$'\n'/ }"; shift
  for l in "$@"; do echo "# $l"; done
}
check () { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }

# busybox_bundle DIR APPLET...: DIR/config.json from `sbx-oci spec` and a
# rootfs of the caller's static busybox ($BUSYBOX), APPLET... linked to it.
busybox_bundle () {
  local dir=$1 a
  shift
  mkdir -p "$dir/rootfs/bin" "$dir/rootfs/tmp" "$dir/rootfs/proc" "$dir/rootfs/dev"
  cp "$BUSYBOX" "$dir/rootfs/bin/busybox"
  for a in "$@"; do ln -sf busybox "$dir/rootfs/bin/$a"; done
  chmod 1777 "$dir/rootfs/tmp"
  (cd "$dir" && "$SBX" spec)
}

# agent_config FILE WS UID ARG...: FILE, an agent config (workspace-write
# on WS, network "deny") running ARG... as UID.
agent_config () {
  python3 - "$@" <<'PY'
import json, sys
path, ws, uid, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
json.dump({"ociVersion": "1.2.0",
           "root": {"path": "/", "readonly": True},
           "process": {"args": args, "cwd": ws,
                       "user": {"uid": uid, "gid": uid}},
           "sbx": {"mode": "workspace-write", "workspace": ws,
                   "network": "deny"}}, open(path, "w"))
PY
}

# hand_over DIR: DIR readable by all, and the mode's own (uid 65534's
# sandboxes make mount points in their rootfs, as a rootless one does).
hand_over () {
  chmod -R a+rX "$1"
  [ -z "$AS" ] || chown -R 65534:65534 "$1"
}

# run_as_root_and_user SUITE: run SUITE as root (MODE=root), then as uid
# 65534 through setpriv with a state root it owns (MODE=user); only the
# latter when not root.  SUITE sees MODE, AS (the prefix that switches
# users) and ROOT (its state root).
run_as_root_and_user () {
  local suite=$1
  if [ "$(id -u)" = 0 ]; then
    MODE=root AS= ROOT=$WORK/root-state "$suite"
    mkdir -p "$WORK/user-state"; chown 65534:65534 "$WORK/user-state"
    MODE=user AS="setpriv --reuid=65534 --regid=65534 --clear-groups" \
      ROOT=$WORK/user-state "$suite"
  else
    MODE=user AS= ROOT=$WORK/user-state "$suite"
  fi
}

# finish: delete whatever the suites left in their state roots, remove
# WORK, print the plan; fails when a test did.
finish () {
  local r d
  for r in "$WORK"/root-state "$WORK"/user-state "$WORK"/state; do
    [ -d "$r" ] || continue
    for d in "$r"/*/; do
      [ -d "$d" ] && "$SBX" --root "$r" delete --force "$(basename "$d")" 2>/dev/null
    done
  done
  rm -rf "$WORK"
  echo "1..$n"
  [ "$failed" -eq 0 ]
}
