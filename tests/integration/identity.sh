#!/bin/bash
# A container's workload as crun would run it (issue 21): the host sees it
# as process.user (uid, gid, additionalGids), so file permissions act on
# it; as root its capabilities act in the namespaces the caller made (a
# joined network namespace: port 80, NET_ADMIN); its command is found
# among the container's own mounts (a bind-mounted entrypoint); and a
# signal sent right after `start` reaches the workload, not the runner.
# Run as root, the suite runs as root, then as uid 65534 (setpriv): the
# identity and capability cases are root's alone (an unprivileged caller
# has no other uid to give).  Prints TAP.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
USERNS_RANGE=${USERNS_RANGE:?set USERNS_RANGE to the built userns_range}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-identity.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS env -i "$SBX" --root "$ROOT" "$@"; }

# bundle DIR PYTHON: a busybox container whose config PYTHON edits (as c).
bundle () {
  local dir=$1
  busybox_bundle "$dir" sh sleep cat echo ip nc timeout id kill || return 1
  python3 - "$dir/config.json" "$2" <<'PY'
import json, sys
path, edit = sys.argv[1], sys.argv[2]
c = json.load(open(path))
c["root"]["readonly"] = False
exec(edit)
json.dump(c, open(path, "w"))
PY
  hand_over "$dir"
}

pid_of () { # SBX ID: the pid `SBX state ID` gives (SBX: sbx or rl)
  "$1" state "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])'
}

status_line () { # PID FIELD: "1000 1000 1000 1000" of Uid:, Gid:, Groups:
  sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" | tr -s ' \t' ' ' | sed 's/ $//'
}

# The host's view of a started workload: uid, gid and groups as given.
identity_case () {
  [ -z "$AS" ] || return 0
  local b=$B/ids id=ids-$RUN pid rc
  bundle "$b" "
c['process']['args'] = ['sleep', '30']
c['process']['user'] = {'uid': 1000, 'gid': 1001, 'additionalGids': [2000, 3000]}
"
  sbx create --bundle "$b" "$id" > "$B/ids.err" 2>&1 < /dev/null
  rc=$? # before the label's $(cat), which would set $? to its own 0
  check "identity: create succeeds ($(cat "$B/ids.err"))" [ $rc -eq 0 ]
  sbx start "$id"
  pid=$(pid_of sbx "$id")
  check "identity: the host sees uid 1000 ($(status_line "$pid" Uid))" \
    [ "$(status_line "$pid" Uid)" = "1000 1000 1000 1000" ]
  check "identity: the host sees gid 1001 ($(status_line "$pid" Gid))" \
    [ "$(status_line "$pid" Gid)" = "1001 1001 1001 1001" ]
  check "identity: the host sees groups 2000 3000 ($(status_line "$pid" Groups))" \
    [ "$(status_line "$pid" Groups)" = "2000 3000" ]
  check "identity: a non-root workload holds no effective capability" \
    [ "$(status_line "$pid" CapEff)" = 0000000000000000 ]
  sbx delete --force "$id"
}

# File permissions act on process.user as on the host: a root-owned 0600
# file is unreadable, a root-owned 0644 file unwritable, the user's own
# 0700 directory readable.
dac_case () {
  [ -z "$AS" ] || return 0
  local b=$B/dac data=$B/data out
  mkdir -p "$data/home"
  echo secret > "$data/secret"; chmod 600 "$data/secret"
  echo shared > "$data/shared"; chmod 644 "$data/shared"
  echo mine > "$data/home/f"; chown -R 1000:1000 "$data/home"; chmod 700 "$data/home"
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'cat /data/secret; echo read=\$?; echo x >> /data/shared; echo append=\$?; cat /data/home/f']
c['process']['user'] = {'uid': 1000, 'gid': 1000}
c['mounts'].append({'destination': '/data', 'type': 'bind', 'source': '$data', 'options': ['rbind', 'rw']})
"
  out=$(sbx run --bundle "$b" "dac-$RUN" 2>&1 < /dev/null)
  check "dac: uid 1000 cannot read a root-owned 0600 file" \
    eval '[[ "$out" == *"read=1"* && "$out" != *"secret"$'\''\n'\''* ]]'
  check "dac: uid 1000 cannot append to a root-owned 0644 file" \
    eval '[[ "$out" == *"append=1"* ]] && [ "$(cat "$data/shared")" = shared ]'
  check "dac: uid 1000 reads its own 0700 home ($(echo $out))" \
    eval '[[ "$out" == *mine* ]]'
}

# Root's capabilities act in a network namespace the caller made (as
# podman's): NET_ADMIN brings lo up, NET_BIND_SERVICE binds port 80; and
# without NET_ADMIN the same command is refused (the capability is what
# counts).
netns_case () {
  [ -z "$AS" ] || return 0
  local ns=sbx-it-$RUN out
  ip netns add "$ns" || { ok "netns: # SKIP ip netns add failed"; return 0; }
  bundle "$B/net" "
c['process']['args'] = ['sh', '-c', 'ip link set lo up && ip addr add 10.9.9.1/32 dev lo && echo lo-up; timeout 1 nc -l -p 80 127.0.0.1; echo nc=\$?']
caps = ['CAP_NET_ADMIN', 'CAP_NET_BIND_SERVICE']
c['process']['capabilities'] = {k: caps for k in ('bounding', 'effective', 'permitted')}
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] != 'network'] + [{'type': 'network', 'path': '/run/netns/$ns'}]
"
  out=$(sbx run --bundle "$B/net" "net-$RUN" 2>&1 < /dev/null)
  check "netns: NET_ADMIN acts in the joined namespace ($(echo $out))" \
    eval '[[ "$out" == *lo-up* ]]'
  check "netns: root binds port 80 there" \
    eval '[[ "$out" != *"Permission denied"* && "$out" == *nc=143* ]]'
  bundle "$B/net2" "
c['process']['args'] = ['sh', '-c', 'ip addr add 10.9.9.2/32 dev lo && echo lo-up']
caps = ['CAP_NET_BIND_SERVICE']
c['process']['capabilities'] = {k: caps for k in ('bounding', 'effective', 'permitted')}
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] != 'network'] + [{'type': 'network', 'path': '/run/netns/$ns'}]
"
  out=$(sbx run --bundle "$B/net2" "net2-$RUN" 2>&1 < /dev/null)
  check "netns: without NET_ADMIN no address can be added" eval '[[ "$out" != *lo-up* ]]'
  ip netns delete "$ns"
}

# The command is looked up among the container's mounts: an entrypoint
# bind-mounted from outside the rootfs runs; a missing one is still 127.
entry_case () {
  local b=$B/entry out rc
  printf '#!/bin/sh\necho entry ran as $(id -u)\n' > "$B/entry.sh"
  chmod 755 "$B/entry.sh"
  bundle "$b" "
c['process']['args'] = ['/entry.sh']
c['mounts'].append({'destination': '/entry.sh', 'type': 'bind', 'source': '$B/entry.sh', 'options': ['rbind', 'ro']})
"
  out=$(sbx run --bundle "$b" "entry-$RUN" 2>&1 < /dev/null); rc=$?
  check "entry: a bind-mounted entrypoint runs ($rc: $(echo $out))" \
    eval '[ $rc -eq 0 ] && [[ "$out" == *"entry ran"* ]]'
  bundle "$B/entry2" "c['process']['args'] = ['/entry.sh']"
  out=$(sbx run --bundle "$B/entry2" "entry2-$RUN" 2>&1 < /dev/null); rc=$?
  check "entry: without the mount it is not found (127, runc's words)" \
    eval '[ $rc -eq 127 ] && [[ "$out" == *"executable file not found"* ]]'
  # The name is the config's, and reaches the caller's terminal: a
  # terminal escape in it arrives as text (\x1b), as in every message.
  bundle "$B/entry4" "c['process']['args'] = ['/entry\\x1b[2J.sh']"
  out=$(sbx run --bundle "$B/entry4" "entry4-$RUN" 2>&1 < /dev/null); rc=$?
  check "entry: a missing name's control characters are shown as \\xHH ($(echo "$out" | cat -v))" \
    eval '[ $rc -eq 127 ] && [[ "$out" == *"/entry\\x1b[2J.sh"* ]] && [[ "$out" != *$'"'"'\033'"'"'* ]]'
  sbx create --bundle "$B/entry2" "entry3-$RUN" > "$B/entry3.err" 2>&1 < /dev/null; rc=$?
  check "entry: create reports it too ($rc)" \
    eval '[ $rc -ne 0 ] && grep -q "executable file not found" "$B/entry3.err"'
  sbx delete --force "entry3-$RUN" > /dev/null 2>&1
}

# kill right after start: start returns once the workload runs (its exec
# done, as runc's does), so a signal sent then reaches the workload, never
# the runner still setting it up (runtime-tools' killsig).
kill_case () {
  local b=$B/kill got=0 ran=0 i id pid exe
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'trap \"echo got > /tmp/sig; exit 0\" TERM; while :; do sleep 0.05; done']
"
  for i in $(seq 10); do
    id=kill$i-$RUN
    rm -f "$b/rootfs/tmp/sig"
    sbx create --bundle "$b" "$id" > /dev/null 2>&1 < /dev/null
    pid=$(pid_of sbx "$id")
    sbx start "$id"
    exe=$(readlink "/proc/$pid/exe")
    [ "${exe##*/}" = busybox ] && ran=$((ran + 1))
    sleep 0.2 # the trap is the shell's to set, after its exec
    sbx kill "$id" TERM
    for _ in $(seq 50); do [ -e "$b/rootfs/tmp/sig" ] && break; sleep 0.05; done
    [ -e "$b/rootfs/tmp/sig" ] && got=$((got + 1))
    sbx delete --force "$id" > /dev/null 2>&1
  done
  check "start returns once the workload runs: $ran of 10 times" [ "$ran" -eq 10 ]
  check "kill after start: the workload saw TERM $got of 10 times" [ "$got" -eq 10 ]
}

# linux.uidMappings/gidMappings ranges (podman --uidmap 0:100000:65536):
# as root the host sees the workload as uid and gid 100000, a file it makes
# in a writable bind belongs to 100000, and an exec into it takes the same
# map (uid 0 as 100000, uid 1000 as 101000); an unprivileged caller is
# refused with the field and the reason.
MAPS="
c['linux']['namespaces'].append({'type': 'user'})
c['linux']['uidMappings'] = [{'containerID': 0, 'hostID': 100000, 'size': 65536}]
c['linux']['gidMappings'] = [{'containerID': 0, 'hostID': 100000, 'size': 65536}]
"
uidmap_case () {
  local b=$B/um data=$B/um-data id=um-$RUN pid out rc
  if [ -n "$AS" ]; then
    bundle "$b" "$MAPS"
    sbx create --bundle "$b" "$id" > "$B/um.err" 2>&1 < /dev/null
    check "uidmap: unprivileged, a range is refused ($(cat "$B/um.err"))" \
      grep -q "linux.uidMappings\[0\]: only root can map a range of ids" "$B/um.err"
    sbx delete --force "$id" > /dev/null 2>&1
    return 0
  fi
  mkdir -p "$data"; chmod 777 "$data"
  bundle "$b" "$MAPS
c['process']['args'] = ['sh', '-c', 'touch /data/made; exec sleep 30']
c['mounts'].append({'destination': '/data', 'type': 'bind', 'source': '$data', 'options': ['rbind', 'rw']})
c['mounts'].append({'destination': '/run', 'type': 'tmpfs', 'source': 'run', 'options': ['nosuid', 'nodev', 'mode=755']})
c['mounts'].append({'destination': '/srv', 'type': 'tmpfs', 'source': 'srv', 'options': ['uid=1000', 'gid=1000', 'mode=700']})
c['linux']['devices'] = [{'path': '/dev/fuse', 'type': 'c', 'major': 10, 'minor': 229, 'fileMode': 0o666, 'uid': 0, 'gid': 0}]
"
  chown -R 100000:100000 "$b/rootfs" # the caller's part, as podman's
  sbx create --bundle "$b" "$id" > "$B/um.err" 2>&1 < /dev/null
  rc=$?
  check "uidmap: create succeeds ($(cat "$B/um.err"))" [ $rc -eq 0 ]
  sbx start "$id"
  pid=$(pid_of sbx "$id")
  for _ in $(seq 50); do [ -e "$data/made" ] && break; sleep 0.05; done
  check "uidmap: the host sees uid 100000 ($(status_line "$pid" Uid))" \
    [ "$(status_line "$pid" Uid)" = "100000 100000 100000 100000" ]
  check "uidmap: the host sees gid 100000 ($(status_line "$pid" Gid))" \
    [ "$(status_line "$pid" Gid)" = "100000 100000 100000 100000" ]
  check "uidmap: its file belongs to host 100000:100000 ($(stat -c %u:%g "$data/made" 2>&1))" \
    [ "$(stat -c %u:%g "$data/made" 2>/dev/null)" = 100000:100000 ]
  out=$(sbx exec "$id" sh -c 'touch /data/exec0; id -u' 2>&1 < /dev/null)
  check "uidmap: exec runs as uid 0 inside ($out)" [ "$out" = 0 ]
  # The config's tmpfs and nodes, made by the runner as for any root
  # container, not bwrap's tmpfs (source "tmpfs") or a refusal: owned as
  # the container's ids say, through the maps.
  out=$(sbx exec "$id" busybox grep -E ' /(dev/shm|run|srv) ' /proc/self/mountinfo 2>&1 < /dev/null)
  check "uidmap: /dev/shm, /run and /srv are the config's tmpfs ($out)" \
    eval '[[ "$out" == *" /dev/shm "*" - tmpfs shm "* && "$out" == *" /run "*" - tmpfs run "* && "$out" == *" /srv "*" - tmpfs srv "* ]]'
  out=$(sbx exec "$id" sh -c 'touch /run/made && busybox stat -c "%u:%g %a" /run /srv' 2>&1 < /dev/null)
  check "uidmap: the container's root owns /run (mode 755) and writes there, uid 1000 owns /srv ($out)" \
    [ "$out" = "0:0 755
1000:1000 700" ]
  out=$(sbx exec "$id" busybox stat -c '%F %t:%T %u:%g %a' /dev/fuse 2>&1 < /dev/null)
  check "uidmap: linux.devices' node is there, the container's root's ($out)" \
    [ "$out" = "character special file a:e5 0:0 666" ]
  # A terminal's devpts lies in the state root too (podman run -t --uidmap).
  bundle "$B/um-tty" "$MAPS
c['process']['terminal'] = True
c['process']['args'] = ['sh', '-c', 'tty; id -u']
"
  chown -R 100000:100000 "$B/um-tty/rootfs"
  out=$(timeout 20 python3 "$(dirname "$0")/lifecycle_console.py" "$B/um-tty" \
    "$B/um-tty.sock" "$id-tty" -- env -i "$SBX" --root "$ROOT" 2>&1)
  check "uidmap: a terminal's container runs on its console ($out)" \
    [ "$out" = "/dev/pts/0
0" ]
  sbx delete --force "$id-tty" > /dev/null 2>&1
  check "uidmap: ... which is host 100000 ($(stat -c %u:%g "$data/exec0" 2>&1))" \
    [ "$(stat -c %u:%g "$data/exec0" 2>/dev/null)" = 100000:100000 ]
  echo '{"args": ["sh", "-c", "touch /data/exec1000; id -u"], "cwd": "/",
 "user": {"uid": 1000, "gid": 1000}, "env": ["PATH=/bin"]}' > "$B/um-proc.json"
  out=$(sbx exec --process "$B/um-proc.json" "$id" 2>&1 < /dev/null)
  check "uidmap: exec as uid 1000 inside ($out)" [ "$out" = 1000 ]
  check "uidmap: ... is host 101000 ($(stat -c %u:%g "$data/exec1000" 2>&1))" \
    [ "$(stat -c %u:%g "$data/exec1000" 2>/dev/null)" = 101000:101000 ]
  sbx delete --force "$id"
}

# The same in a directory only root may search (a state root and a bundle
# below /root, say): bwrap, a mapped uid, reaches the rootfs and the
# runner's mounts through the runner's cover of it, which the host never
# sees.
uidmap_private_case () {
  [ -z "$AS" ] || return 0
  local priv=$B/um-priv out
  mkdir -p "$priv"; chmod 700 "$priv"
  bundle "$priv/b" "$MAPS
c['process']['args'] = ['sh', '-c', 'busybox grep -c \" /dev/shm .* - tmpfs shm \" /proc/self/mountinfo; id -u']
"
  chown -R 100000:100000 "$priv/b/rootfs"
  out=$(env -i "$SBX" --root "$priv/state" run --bundle "$priv/b" "um-priv-$RUN" 2>&1 < /dev/null)
  check "uidmap: a bundle and state root in a 0700 directory run ($out)" \
    [ "$out" = "1
0" ]
  check "uidmap: ... and the host's directory is as it was ($(ls -A "$priv" | tr '\n' ' '))" \
    [ "$(ls -A "$priv" | tr '\n' ' ')" = "b state " ]
}

# The state root as the kernel reaches it, whatever --root says: through
# "..", a symbolic link, from a working directory only root may search.
# The cover goes where the state root really is (a "..", read as typed,
# once made the runner chmod host directories 0711), and the config binds
# nothing of it.
uidmap_paths_case () {
  [ -z "$AS" ] || return 0
  local w=$B/um-paths out rc
  mkdir -p "$w/R" "$w/H/home" "$w/D/E"
  chmod 700 "$w/R" "$w/H/home" "$w/D"
  ln -s "$w/D/E" "$w/L"
  bundle "$w/b" "$MAPS
c['process']['args'] = ['sh', '-c', 'busybox grep -c \" /dev/shm .* - tmpfs shm \" /proc/self/mountinfo']
"
  chown -R 100000:100000 "$w/b/rootfs"
  out=$(env -i "$SBX" --root "$w/R/../H/home/st" run --bundle "$w/b" "um-dots-$RUN" 2>&1 < /dev/null)
  check "uidmap: --root through '..' runs ($out)" [ "$out" = 1 ]
  out=$(stat -c %a "$w/R" "$w/H" "$w/H/home" "$w/H/home/st" | tr '\n' ' ')
  check "uidmap: ... and no host directory changed its mode ($out)" \
    [ "$out" = "700 755 700 700 " ]
  out=$(env -i "$SBX" --root "$w/L/st" run --bundle "$w/b" "um-link-$RUN" 2>&1 < /dev/null)
  check "uidmap: --root through a symbolic link runs ($out)" [ "$out" = 1 ]
  out=$(cd "$w/R" && env -i "$SBX" --root rel run --bundle "$w/b" "um-rel-$RUN" 2>&1 < /dev/null)
  check "uidmap: a relative --root from a 0700 directory runs ($out)" [ "$out" = 1 ]
  mkdir -p "$w/H/home/st/other"
  bundle "$w/b2" "$MAPS
c['mounts'].append({'destination': '/o', 'type': 'bind', 'source': '$w/H/home/st/other', 'options': ['rbind', 'ro']})
"
  chown -R 100000:100000 "$w/b2/rootfs"
  out=$(env -i "$SBX" --root "$w/H/home/st" run --bundle "$w/b2" "um-in-$RUN" 2>&1 < /dev/null)
  rc=$?
  check "uidmap: a bind of the state root's own is refused (121: $out)" \
    eval '[ $rc -eq 121 ] && [[ "$out" == *"lies in the state root"* ]]'
}

# caps_of PID: the five capability lines of /proc/PID/status, one line.
caps_of () { grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' "/proc/$1/status" | tr -s ' \t\n' ' '; }

# A process `exec` starts gets the five capability sets the container's
# first process got from the same process object: the bounding set, the
# permitted set kept through the change to a non-zero uid, ambient ones
# raised.  As UID (uid 0 and uid 1000 for root; an unprivileged caller's
# sandbox holds none, in both).
caps_case () { # UID
  local uid=$1 b=$B/caps-$1 id=caps-$1-$RUN pid first out
  [ -n "$AS" ] && [ "$uid" != 0 ] && return 0
  bundle "$b" "
c['process']['args'] = ['sleep', '30']
c['process']['user'] = {'uid': $uid, 'gid': $uid}
c['process']['capabilities'] = {
  'bounding': ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_KILL', 'CAP_NET_BIND_SERVICE', 'CAP_SETUID'],
  'permitted': ['CAP_CHOWN', 'CAP_KILL', 'CAP_NET_BIND_SERVICE'],
  'effective': ['CAP_CHOWN', 'CAP_NET_BIND_SERVICE'],
  'inheritable': ['CAP_KILL', 'CAP_NET_BIND_SERVICE'],
  'ambient': ['CAP_NET_BIND_SERVICE']}
"
  if ! { sbx create --bundle "$b" "$id" && sbx start "$id"; } > "$B/caps.err" 2>&1 < /dev/null; then
    not_ok "caps as uid $uid: the container starts" "$(cat "$B/caps.err")"
    return
  fi
  pid=$(pid_of sbx "$id")
  first=$(caps_of "$pid")
  out=$(sbx exec "$id" sh -c 'grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status' 2>&1 < /dev/null | tr -s ' \t\n' ' ')
  check "caps as uid $uid: exec's process holds what the first one holds ($first | exec: $out)" \
    [ "$out" = "$first" ]
  sbx delete --force "$id"
}

# Rootless podman's shape: the runtime is uid 0 of a user namespace of
# the caller's whose map holds a range ("0 OWNER 1", "1 100000 65536",
# newuidmap's), with no user namespace in the config.  crun runs the
# workload there as process.user, so the host sees uid 1000 as 100999 and
# the workload cannot write the container root's files; a nested
# namespace that maps 1000 to its own root would give it root's access.
# userns_range, as root, makes the namespace, owned by the mode's uid, and
# a sleep holds it; every call enters it, as podman's do its pause
# process's (nsenter takes uid 0 there).
rl () { $AS nsenter -U -t "$RL_HOLDER" env -i "$SBX" --root "$ROOT" "$@"; }
rootless_case () {
  local b=$B/rl id=rl-$RUN pid out rc
  "$USERNS_RANGE" "$([ -n "$AS" ] && echo 65534 || echo 0)" sleep 300 &
  local maker=$!
  for _ in $(seq 50); do RL_HOLDER=$(pgrep -P "$maker") && break; sleep 0.05; done
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'echo x >> /owned; touch /tmp/tried; exec sleep 30']
c['process']['user'] = {'uid': 1000, 'gid': 1001, 'additionalGids': [2000, 3000]}
"
  echo root > "$b/rootfs/owned"; chmod 644 "$b/rootfs/owned"
  [ -z "$AS" ] || chown 65534:65534 "$b/rootfs/owned"
  rl create --bundle "$b" "$id" > "$B/rl.err" 2>&1 < /dev/null
  rc=$?
  check "rootless: create succeeds ($(cat "$B/rl.err"))" [ $rc -eq 0 ]
  rl start "$id"
  pid=$(pid_of rl "$id")
  for _ in $(seq 50); do [ -e "$b/rootfs/tmp/tried" ] && break; sleep 0.05; done
  check "rootless: the host sees uid 1000 as 100999 ($(status_line "$pid" Uid))" \
    [ "$(status_line "$pid" Uid)" = "100999 100999 100999 100999" ]
  check "rootless: ... gid 1001 as 101000 ($(status_line "$pid" Gid))" \
    [ "$(status_line "$pid" Gid)" = "101000 101000 101000 101000" ]
  check "rootless: ... groups 2000 3000 as 101999 102999 ($(status_line "$pid" Groups))" \
    [ "$(status_line "$pid" Groups)" = "101999 102999" ]
  check "rootless: uid 1000 cannot append to the container root's 0644 file" \
    [ "$(cat "$b/rootfs/owned")" = root ]
  printf '%s' '{"args": ["sh", "-c", "id -u; echo y >> /owned; echo append=$?"],
    "cwd": "/", "user": {"uid": 1000, "gid": 1001}, "env": ["PATH=/bin"]}' > "$B/rl-proc.json"
  out=$(rl exec --process "$B/rl-proc.json" "$id" 2>&1 < /dev/null)
  check "rootless: exec as uid 1000 is that uid, and cannot append either ($(echo $out))" \
    eval '[[ "$out" == 1000*append=1* ]] && [ "$(cat "$b/rootfs/owned")" = root ]'
  rl delete --force "$id" > /dev/null 2>&1
  # podman --uidmap 0:1:1000, rootless: a range of the namespace's own ids
  # (1..1000, the host's 100000..100999), which this root may map.
  bundle "$b-range" "
c['process']['args'] = ['sleep', '30']
c['linux']['namespaces'].append({'type': 'user'})
c['linux']['uidMappings'] = [{'containerID': 0, 'hostID': 1, 'size': 1000}]
c['linux']['gidMappings'] = [{'containerID': 0, 'hostID': 1, 'size': 1000}]
"
  chown -R 100000:100000 "$b-range/rootfs" # podman's part: the range's root owns it
  { rl create --bundle "$b-range" "$id-r" && rl start "$id-r"; } > "$B/rlr.err" 2>&1 < /dev/null
  pid=$(pid_of rl "$id-r")
  check "rootless: a range of the namespace's ids, uid 0 as host 100000 ($(status_line "$pid" Uid); $(cat "$B/rlr.err"))" \
    [ "$(status_line "$pid" Uid)" = "100000 100000 100000 100000" ]
  rl delete --force "$id-r" > /dev/null 2>&1
  # podman --userns=keep-id: the container's uid 1000 is the namespace's
  # 0, the user's own id (it was refused as "host id 0"); but where that
  # id is the host's root (the namespace root made, "0 0 1"), refused.
  bundle "$b-keep" "
c['process']['args'] = ['sleep', '30']
c['process']['user'] = {'uid': 1000, 'gid': 1000}
c['linux']['namespaces'].append({'type': 'user'})
for k in ('uidMappings', 'gidMappings'):
    c['linux'][k] = [{'containerID': 0, 'hostID': 1, 'size': 1000},
                     {'containerID': 1000, 'hostID': 0, 'size': 1},
                     {'containerID': 1001, 'hostID': 1001, 'size': 64536}]
"
  chown -R 100000:100000 "$b-keep/rootfs"
  { rl create --bundle "$b-keep" "$id-k" && rl start "$id-k"; } > "$B/rlk.err" 2>&1 < /dev/null
  pid=$(pid_of rl "$id-k")
  if [ -n "$AS" ]; then
    check "rootless: keep-id, the container's uid 1000 is the user's own ($(status_line "$pid" Uid); $(cat "$B/rlk.err"))" \
      [ "$(status_line "$pid" Uid)" = "65534 65534 65534 65534" ]
  else
    check "rootless: keep-id is refused where id 0 is the host's root ($(cat "$B/rlk.err"))" \
      grep -q "uidMappings\[1\]: maps host id 0, the host's root" "$B/rlk.err"
  fi
  rl delete --force "$id-k" > /dev/null 2>&1
  # A user namespace with no maps, and a container without /proc: as the
  # host's root would, without the whole-range identity map only the
  # host's root may write (both failed, leaving the sandbox's pid 1).
  bundle "$b-nomap" "
c['process']['args'] = ['id', '-u']
c['linux']['namespaces'].append({'type': 'user'})
"
  out=$(rl run --bundle "$b-nomap" "$id-n" 2>&1 < /dev/null)
  check "rootless: a user namespace without maps runs ($(echo $out))" [ "$out" = 0 ]
  bundle "$b-noproc" "
c['process']['args'] = ['id', '-u']
c['mounts'] = [m for m in c['mounts'] if m['type'] != 'proc']
"
  out=$(rl run --bundle "$b-noproc" "$id-p" 2>&1 < /dev/null)
  check "rootless: a container without /proc runs ($(echo $out))" [ "$out" = 0 ]
  kill "$RL_HOLDER"; wait "$maker"
}

# A terminal is its process's, group tty as the config's devpts mount asks
# (gid=5, as podman's and runc's spec write it), so a non-root workload can
# open it again by name, as under runc and crun (podman run -t --user,
# podman exec -t -u; tests/peers/podman_rootless.sh): the first process's
# terminal and an exec's.
TTY_PROBE='busybox stat -c "%u:%g" "$(busybox tty)"; (: > "$(busybox tty)") 2>/dev/null && echo reopened'
tty_case () {
  [ -z "$AS" ] || return 0
  local b=$B/tty id=tty-$RUN out
  local pts="
c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/dev/pts'] + [
  {'destination': '/dev/pts', 'type': 'devpts', 'source': 'devpts',
   'options': ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5']}]
c['process']['user'] = {'uid': 1000, 'gid': 1001}
"
  bundle "$b" "$pts
c['process']['terminal'] = True
c['process']['args'] = ['sh', '-c', '$TTY_PROBE']
"
  out=$(timeout 20 python3 "$(dirname "$0")/lifecycle_console.py" "$b" \
    "$B/tty.sock" "$id" -- env -i "$SBX" --root "$ROOT" 2>&1)
  check "tty: uid 1000's terminal is 1000:5 (tty), and it opens it again ($(echo $out))" \
    [ "$out" = "1000:5
reopened" ]
  sbx delete --force "$id" > /dev/null 2>&1
  rm -f "$B/tty.sock"
  bundle "$b-exec" "$pts
c['process']['args'] = ['sleep', '30']
"
  sbx create --bundle "$b-exec" "$id-exec" > /dev/null 2>&1 < /dev/null
  sbx start "$id-exec"
  out=$(timeout 30 python3 "$(dirname "$0")/exec_tty.py" "$B/tty.sock" -- \
    env -i "$SBX" --root "$ROOT" exec --tty --console-socket "$B/tty.sock" \
    "$id-exec" sh -c "$TTY_PROBE" 2>&1 | tr -d '\r')
  check "tty: exec --tty as uid 1000: the same ($(echo $out))" \
    [ "$out" = "1000:5
reopened" ]
  sbx delete --force "$id-exec" > /dev/null 2>&1
  # Where bubblewrap maps the caller (root) onto uid 1000 (a user
  # namespace of the config's own, or no /proc for sbx-oci-init), the
  # process is host root, and its terminal already its own: handing it
  # to host uid 1000, some other account, left it 65534 inside and not
  # reopenable.
  local how
  for how in userns no-proc; do
    rm -f "$B/tty.sock"
    bundle "$b-$how" "$pts
c['process']['terminal'] = True
c['process']['args'] = ['sh', '-c', '$TTY_PROBE']
if '$how' == 'userns':
    c['linux']['namespaces'].append({'type': 'user'})
else:
    c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/proc']
"
    out=$(timeout 20 python3 "$(dirname "$0")/lifecycle_console.py" "$b-$how" \
      "$B/tty.sock" "$id-$how" -- env -i "$SBX" --root "$ROOT" 2>&1)
    check "tty: mapped by bubblewrap ($how), uid 1000's terminal is its own inside and reopens ($(echo $out))" \
      [ "$out" = "1000:1001
reopened" ]
    sbx delete --force "$id-$how" > /dev/null 2>&1
  done
}

# A namespace that does not map gid 5 (rootless podman's shape with a
# subordinate range of 3 gids): a terminal whose devpts mount asks for
# gid=5 still opens, its group left as it was (create failed on the
# devpts mount, exec --tty on handing the terminal over).  The namespace
# has a mount namespace of its own, as podman's pause process has.
rlm () { nsenter -U -m -t "$RL_HOLDER" env -i "$SBX" --root "$ROOT" "$@"; }
tty_few_gids_case () {
  [ -z "$AS" ] || return 0
  local b=$B/tty-few id=ttyf-$RUN out maker
  USERNS_RANGE_GIDS=3 "$USERNS_RANGE" 0 unshare -m --propagation private sleep 300 &
  maker=$!
  for _ in $(seq 50); do RL_HOLDER=$(pgrep -P "$maker") && break; sleep 0.05; done
  bundle "$b" "
c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/dev/pts'] + [
  {'destination': '/dev/pts', 'type': 'devpts', 'source': 'devpts',
   'options': ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5']}]
c['process']['terminal'] = True
c['process']['args'] = ['sh', '-c', '$TTY_PROBE']
"
  out=$(timeout 20 python3 "$(dirname "$0")/lifecycle_console.py" "$b" \
    "$B/ttyf.sock" "$id" -- nsenter -U -m -t "$RL_HOLDER" env -i "$SBX" --root "$ROOT" 2>&1)
  check "tty: without gid 5 in the namespace, the terminal opens, root's ($(echo $out))" \
    [ "$out" = "0:0
reopened" ]
  rlm delete --force "$id" > /dev/null 2>&1
  rm -f "$B/ttyf.sock"
  bundle "$b-exec" "
c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/dev/pts'] + [
  {'destination': '/dev/pts', 'type': 'devpts', 'source': 'devpts',
   'options': ['newinstance', 'gid=5']}]
c['process']['args'] = ['sleep', '30']
"
  rlm create --bundle "$b-exec" "$id-exec" > /dev/null 2>&1 < /dev/null
  rlm start "$id-exec"
  out=$(timeout 30 python3 "$(dirname "$0")/exec_tty.py" "$B/ttyf.sock" -- \
    nsenter -U -m -t "$RL_HOLDER" env -i "$SBX" --root "$ROOT" exec --tty \
    --console-socket "$B/ttyf.sock" "$id-exec" sh -c "$TTY_PROBE" 2>&1 | tr -d '\r')
  check "tty: ... and so does exec --tty's ($(echo $out))" \
    eval '[[ "$out" == *"reopened" ]]'
  rlm delete --force "$id-exec" > /dev/null 2>&1
  kill "$RL_HOLDER"; wait "$maker"
}

suite () {
  B=$WORK/$MODE
  mkdir -p "$B"; chmod 755 "$B"
  [ -n "$AS" ] && chown 65534:65534 "$B"
  identity_case
  uidmap_case
  uidmap_private_case
  uidmap_paths_case
  dac_case
  netns_case
  entry_case
  kill_case
  caps_case 0
  caps_case 1000
  tty_case
  tty_few_gids_case
  rootless_case
}

run_as_root_and_user suite
finish
