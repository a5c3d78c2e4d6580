#!/bin/sh
# Runs as /init of a guest kernel (tests/vm/smoke.sh: Debian's arm64 kernel
# under TCG, or Debian 12's 6.1 on x86-64): the smoke set of sbx-oci, as
# root and as an unprivileged user in a delegated cgroup v2 subtree.  TAP
# lines go to the console prefixed with "@@tap ", notes with "@@note ".
export PATH=/usr/bin:/bin:/usr/sbin:/sbin

# bwrap pivots its root, which the initramfs root cannot be: copy it into
# a tmpfs and switch to that.
if [ "$1" != stage2 ]; then
  /bin/busybox mkdir -p /proc /newroot
  /bin/busybox mount -t tmpfs -o size=400m tmpfs /newroot
  /bin/busybox cp -a /bin /usr /lib /lib64 /opt /etc /init /newroot/ 2> /dev/null
  exec /bin/busybox switch_root /newroot /init stage2
fi
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp /run /work
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup
chmod 1777 /tmp /work
CG=/sys/fs/cgroup
start=$(cut -d' ' -f1 /proc/uptime)

n=0
tap () { echo "@@tap $*"; }
note () { echo "@@note $*"; }
check () { # DESCRIPTION COMMAND...
  local d=$1; shift
  n=$((n + 1))
  if "$@"; then tap "ok $n - $d"; else tap "not ok $n - $d"; fi
}
# field FILE KEY: a string or number from a one-line JSON object.
field () { grep -o "\"$2\":\"*[^,\"}]*" "$1" | head -1 | sed 's/.*:"*//'; }

# bundle DIR RESOURCES SBX_EXTRA ARGS...: an agent config (workspace-write,
# so the default agent filter); RESOURCES and SBX_EXTRA are JSON members.
bundle () {
  local d=$1 res=$2 extra=$3 args=""; shift 3
  mkdir -p "$d/ws" "$d/state"; chmod 777 "$d" "$d/ws"
  # A state root must be its user's own and writable by no one else.
  chmod 700 "$d/state"
  case $d in *-nobody) chown 65534:65534 "$d/state" ;; esac
  for a; do args="$args${args:+,}\"$a\""; done
  cat > "$d/config.json" <<EOF
{"ociVersion":"1.2.0",
 "process":{"args":[$args],"cwd":"/","user":{"uid":0,"gid":0},
            "env":["PATH=/usr/bin:/bin"],"noNewPrivileges":true},
 "root":{"path":"/","readonly":true},
 "linux":{"namespaces":[{"type":"pid"},{"type":"network"},{"type":"ipc"},
                        {"type":"uts"},{"type":"mount"}],
          "resources":{$res}},
 "sbx":{"mode":"workspace-write","workspace":"$d/ws"$extra}}
EOF
}

# as WHO CMD...: the user is moved into its delegated subtree's leaf
# first, as a login manager would.
as () {
  local who=$1; shift
  if [ "$who" = root ]; then "$@"; return; fi
  sh -c 'echo $$ > '"$CG"'/deleg/leaf/cgroup.procs &&
         exec /opt/util-linux/setpriv --reuid=65534 --regid=65534 --clear-groups "$@"' sh "$@"
}

delegate () {
  echo "+pids" > $CG/cgroup.subtree_control
  mkdir $CG/deleg $CG/deleg/leaf
  for f in "" /cgroup.procs /cgroup.threads /cgroup.subtree_control \
           /leaf /leaf/cgroup.procs /leaf/cgroup.threads; do
    chown 65534:65534 "$CG/deleg$f"
  done
}

# sbx_run WHO DIR ID: `run` of DIR's bundle, its outcome in DIR/out.json.
sbx_run () {
  as "$1" sbx-oci --root "$2/state" run --bundle "$2" --outcome "$2/out.json" \
    "$3" > "$2/stdout" 2> "$2/stderr"
}

agent_run () {
  local who=$1 d=/work/agent-$1
  bundle "$d" "" "" sh -c "echo in > $d/ws/in; echo out > /work/out-$who; exit 0"
  sbx_run "$who" "$d" "agent-$who"
  check "$who: an agent run writes its workspace" \
    test "$(cat "$d/ws/in" 2> /dev/null)" = in -a "$(field "$d/out.json" outcome)" = exited
  check "$who: and nothing outside it (/work is 1777)" test ! -e "/work/out-$who"
  # Each right the kernel's Landlock ABI lacks is a reason in the outcome
  # (policy/landlock.c: ABI 2 lacks truncate, ioctl-dev and scoping).
  local abi missing=0 said
  abi=$(syscall_probe landlock-abi | awk '{print $3}')
  for need in 3 5 6; do [ "${abi:-0}" -lt $need ] && missing=$((missing + 1)); done
  said=$(grep -o "landlock: ABI ${abi:-0} lacks" "$d/out.json" | wc -l)
  check "$who: landlock ABI ${abi:-none}: each missing right is a reason ($said of $missing)" \
    test "$said" = "$missing"
}

# The default agent filter, then network deny stacked on it.
filters () {
  local who=$1 d=/work/filter-$1
  bundle "$d" "" "" /usr/bin/syscall_probe ptrace unshare-user unshare-mount \
    socket-unix open-tree-attr
  sbx_run "$who" "$d" "filter-$who"
  note "$who agent filter: $(tr '\n' ' ' < "$d/stdout")"
  check "$who: the agent filter refuses ptrace and a user namespace (EPERM)" \
    test "$(grep -c -e '^ptrace: refused 1$' -e '^unshare-user: refused 1$' "$d/stdout")" = 2
  check "$who: ... and open_tree_attr, by number (EPERM)" \
    grep -qx "open-tree-attr: refused 1" "$d/stdout"
  check "$who: ... and a unix socket works" grep -qx "socket-unix: ok" "$d/stdout"
  d=/work/net-$1
  bundle "$d" "" ',"network":"deny"' /usr/bin/syscall_probe socket-inet socket-unix
  sbx_run "$who" "$d" "net-$who"
  note "$who network deny: $(tr '\n' ' ' < "$d/stdout")"
  check "$who: network deny refuses an IP socket (EAFNOSUPPORT), not a unix one" \
    test "$(tr '\n' ' ' < "$d/stdout")" = "socket-inet: refused 97 socket-unix: ok "
}

storm () {
  local who=$1 d=/work/storm-$1 peak
  bundle "$d" '"pids":{"limit":16}' ',"limits":{"wallClockSeconds":60}' sh -c \
    'i=0; while [ $i -lt 40 ]; do sleep 2 & i=$((i+1)); done; wait'
  sbx_run "$who" "$d" "storm-$who"
  peak=$(field "$d/out.json" peakProcesses)
  check "$who: a storm of 40 under pids 16 is held by the quota (peak $peak)" \
    test "$(field "$d/out.json" mechanism)" = quota -a -n "$peak" \
      -a "${peak:-99}" -le 16
}

wall () {
  local who=$1 d=/work/wall-$1 t0 t1
  bundle "$d" "" ',"limits":{"wallClockSeconds":2}' sleep 120
  t0=$(cut -d. -f1 /proc/uptime)
  sbx_run "$who" "$d" "wall-$who"
  t1=$(cut -d. -f1 /proc/uptime)
  check "$who: a 2 s wall clock ends sleep 120 as limit/wall-clock ($((t1 - t0)) s)" \
    test "$(field "$d/out.json" outcome)" = limit \
      -a "$(field "$d/out.json" breach)" = wall-clock -a $((t1 - t0)) -lt 60
}

# state ID's status, as `state` prints it, or its error.
status () {
  as "$1" sbx-oci --root "$2/state" state "$3" 2>&1 | tr -d ' \n' \
    | grep -o -e '"status":"[a-z]*"' -e 'doesnotexist' | sed 's/.*:"//; s/"//'
}

lifecycle () {
  local who=$1 d=/work/life-$1 id=life-$1 i=0 seen
  bundle "$d" '"pids":{"limit":64}' "" sh -c "echo up > $d/ws/up; exec sleep 300"
  as "$who" sbx-oci --root "$d/state" create --bundle "$d" "$id" \
    > /dev/null 2> "$d/stderr"
  seen=$(status "$who" "$d" "$id")
  as "$who" sbx-oci --root "$d/state" start "$id" 2>> "$d/stderr"
  while [ ! -s "$d/ws/up" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
  seen="$seen $(status "$who" "$d" "$id")"
  as "$who" sbx-oci --root "$d/state" kill "$id" KILL 2>> "$d/stderr"
  i=0
  while [ "$(status "$who" "$d" "$id")" = running ] && [ $i -lt 50 ]; do
    sleep 0.2; i=$((i + 1))
  done
  seen="$seen $(status "$who" "$d" "$id")"
  as "$who" sbx-oci --root "$d/state" delete "$id" 2>> "$d/stderr"
  seen="$seen $(status "$who" "$d" "$id")"
  check "$who: create/start/kill/delete: $seen" \
    test "$seen" = "created running stopped doesnotexist"
}

tap "1..23"
note "kernel $(uname -r) $(uname -m), $(syscall_probe landlock-abi)"
check "the kernel offers pids on cgroup v2" grep -qw pids $CG/cgroup.controllers
delegate
for who in root nobody; do
  as "$who" sbx-oci check > "/work/check-$who" 2>&1
  sed "s|^|@@note check ($who): |" "/work/check-$who"
  check "$who: check fails nothing, and has every kernel call it needs" \
    sh -c "grep -q '^ok  *kernel ' /work/check-$who && ! grep -q '^FAIL' /work/check-$who"
  agent_run $who
  filters $who
  storm $who
  wall $who
  lifecycle $who
done
for f in /work/*/stderr; do
  [ -s "$f" ] && head -3 "$f" | sed "s|^|@@note $f: |"
done
note "guest time $(awk -v s="$start" '{ printf "%.0f", $1 - s }' /proc/uptime) s"
poweroff -f
