#!/bin/sh
# Runs as /init of a Debian kernel booted with cgroup_no_v1=all (see
# cgroup2.sh): cgroup v2 quotas of sbx-oci against a real kernel, as root
# and as an unprivileged user in a delegated subtree.  TAP lines go to the
# console prefixed with "@@tap " so the host can pick them out of its noise.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin

# Stage 1: bwrap pivots its root, which the initramfs root cannot be: copy
# it into a tmpfs and switch to that.
if [ "$1" != stage2 ]; then
  /bin/busybox mkdir -p /proc /newroot
  /bin/busybox mount -t tmpfs -o size=600m tmpfs /newroot
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

n=0
tap () { echo "@@tap $*"; }
check () { # DESCRIPTION COMMAND...
  local d=$1; shift
  n=$((n + 1))
  if "$@"; then tap "ok $n - $d"; else tap "not ok $n - $d"; fi
}
# field FILE KEY: a string or number from a one-line JSON object.
field () { grep -o "\"$2\":\"*[^,\"}]*" "$1" | head -1 | sed 's/.*:"*//'; }

# bundle DIR PIDS MEMORY_MB WALL_S ARGS...
bundle () {
  local d=$1 pids=$2 mem=$3 wall=$4 res="" args="" limits=""; shift 4
  mkdir -p "$d/ws" "$d/state"; chmod 777 "$d" "$d/ws"
  # A state root must be its user's own and writable by no one else.
  chmod 700 "$d/state"
  case $d in *-nobody) chown 65534:65534 "$d/state" ;; esac
  for a; do args="$args${args:+,}\"$a\""; done
  [ "$pids" -gt 0 ] && res="\"pids\":{\"limit\":$pids}"
  [ "$mem" -gt 0 ] && res="$res${res:+,}\"memory\":{\"limit\":$((mem * 1048576))}"
  [ "$wall" -gt 0 ] && limits=",\"limits\":{\"wallClockSeconds\":$wall}"
  cat > "$d/config.json" <<EOF
{"ociVersion":"1.2.0",
 "process":{"args":[$args],"cwd":"/","user":{"uid":0,"gid":0},
            "env":["PATH=/usr/bin:/bin"],"noNewPrivileges":true},
 "root":{"path":"/","readonly":true},
 "linux":{"namespaces":[{"type":"pid"},{"type":"network"},{"type":"ipc"},
                        {"type":"uts"},{"type":"mount"}],
          "resources":{$res}},
 "sbx":{"mode":"workspace-write","workspace":"$d/ws"$limits}}
EOF
}

# as WHO CMD...: root stays in the root cgroup; the user is moved into its
# delegated subtree's leaf first, as a login manager would.
as () {
  local who=$1; shift
  if [ "$who" = root ]; then "$@"; return; fi
  sh -c 'echo $$ > '"$CG"'/deleg/leaf/cgroup.procs &&
         exec /opt/util-linux/setpriv --reuid=65534 --regid=65534 --clear-groups "$@"' sh "$@"
}

delegate () {
  echo "+memory +pids" > $CG/cgroup.subtree_control
  mkdir $CG/deleg $CG/deleg/leaf
  for f in "" /cgroup.procs /cgroup.threads /cgroup.subtree_control \
           /leaf /leaf/cgroup.procs /leaf/cgroup.threads; do
    chown 65534:65534 "$CG/deleg$f"
  done
}

memory () {
  local who=$1 d=/work/mem-$1
  bundle "$d" 0 64 30 /usr/bin/limits_touch 256
  as "$who" sbx-oci --root "$d/state" run --bundle "$d" --outcome "$d/out.json" \
    "mem-$who" > "$d/stdout" 2> "$d/stderr"
  check "$who: 256 MB under 64 MB ends as limit/memory by quota" \
    test "$(field "$d/out.json" outcome)" = limit \
      -a "$(field "$d/out.json" breach)" = memory \
      -a "$(field "$d/out.json" mechanism)" = quota
  check "$who: the hog never finished" test ! -s "$d/stdout"
}

storm () {
  local who=$1 d=/work/storm-$1
  bundle "$d" 16 0 30 sh -c \
    'i=0; while [ $i -lt 40 ]; do sleep 2 & i=$((i+1)); done; wait'
  as "$who" sbx-oci --root "$d/state" run --bundle "$d" --outcome "$d/out.json" \
    "storm-$who" > /dev/null 2> "$d/stderr"
  local peak=$(field "$d/out.json" peakProcesses)
  check "$who: a storm of 40 under pids 16 is held by the quota (peak $peak)" \
    test "$(field "$d/out.json" mechanism)" = quota -a -n "$peak" \
      -a "${peak:-99}" -le 16 -a -n "$(field "$d/out.json" pidsLimitHits)"
}

# create, start, then kill: a double-forked setsid writer must stop, and
# delete must remove the cgroup.
lifecycle_kill () {
  local who=$1 d=/work/life-$1 base=$2 tag="sleep 0.0$RANDOM"
  bundle "$d" 64 0 0 sh -c \
    "(setsid sh -c 'while :; do echo x >> $d/ws/f; $tag; done' &); sleep 60"
  as "$who" sbx-oci --root "$d/state" create --bundle "$d" "life-$who" \
    > /dev/null 2> "$d/stderr"
  as "$who" sbx-oci --root "$d/state" start "life-$who" 2>> "$d/stderr"
  local i=0
  while [ ! -s "$d/ws/f" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  check "$who: the container runs in $base/sbx-oci/life-$who" \
    test -d "$base/sbx-oci/life-$who"
  # A member of the container's cgroup outside its PID namespace: killing
  # the namespace's init cannot reach it, only the cgroup kill can.
  as "$who" sh -c "echo \$\$ > $base/sbx-oci/life-$who/cgroup.procs && exec sleep 300" &
  local outsider=$!
  sleep 0.3
  as "$who" sbx-oci --root "$d/state" kill "life-$who" KILL 2>> "$d/stderr"
  sleep 1
  local a=$(stat -c %s "$d/ws/f") b
  sleep 1
  b=$(stat -c %s "$d/ws/f")
  check "$who: the setsid writer stopped at kill ($a bytes)" \
    test "$a" -gt 0 -a "$a" = "$b" -a -z "$(pgrep -f "$tag")"
  check "$who: the cgroup's member outside the namespace died too (cgroup.kill)" \
    sh -c "! grep -q . $base/sbx-oci/life-$who/cgroup.procs 2> /dev/null &&
           [ \"\$(awk '{print \$3}' /proc/$outsider/stat 2> /dev/null)\" != S ]"
  kill "$outsider" 2> /dev/null; wait "$outsider" 2> /dev/null
  as "$who" sbx-oci --root "$d/state" delete "life-$who" 2>> "$d/stderr"
  check "$who: delete removed its cgroup" test ! -e "$base/sbx-oci/life-$who"
}

# linux.resources beyond the limits, as root: what create writes on v2.
resources_v2 () {
  local d=/work/res-root cg=$CG/sbx-oci/res-root M=1048576
  bundle "$d" 0 64 0 sleep 60
  sed -i "s|\"resources\":{|\"resources\":{\"cpu\":{\"shares\":512,\"quota\":50000,\"period\":100000,\"cpus\":\"0\",\"mems\":\"0\"},\"hugepageLimits\":[{\"pageSize\":\"2MB\",\"limit\":$((4 * M))}],|; s|\"memory\":{\"limit\":$((64 * M))}|\"memory\":{\"limit\":$((64 * M)),\"swap\":$((96 * M)),\"reservation\":$((32 * M))}|" "$d/config.json"
  sbx-oci --root "$d/state" create --bundle "$d" res-root > /dev/null 2> "$d/stderr"
  check "v2 resources: cpu.weight 20 from shares 512" \
    test "$(cat $cg/cpu.weight 2>&1)" = 20
  check "v2 resources: cpu.max" test "$(cat $cg/cpu.max 2>&1)" = "50000 100000"
  check "v2 resources: cpuset.cpus" test "$(cat $cg/cpuset.cpus 2>&1)" = 0
  check "v2 resources: memory.low from reservation" \
    test "$(cat $cg/memory.low 2>&1)" = $((32 * M))
  check "v2 resources: memory.swap.max = swap - limit (or no swap file)" \
    sh -c "[ ! -e $cg/memory.swap.max ] || [ \"\$(cat $cg/memory.swap.max)\" = $((32 * M)) ]"
  check "v2 resources: hugetlb.2MB.max from hugepageLimits" \
    test "$(cat $cg/hugetlb.2MB.max 2>&1)" = $((4 * M))
  check "v2 resources: hugetlb.2MB.rsvd.max too (or no such file)" \
    sh -c "[ ! -e $cg/hugetlb.2MB.rsvd.max ] || [ \"\$(cat $cg/hugetlb.2MB.rsvd.max)\" = $((4 * M)) ]"
  sbx-oci --root "$d/state" delete --force res-root 2>> "$d/stderr"
  # v2 has no net_cls: refused (121) naming the field, nothing made
  sed -i "s|\"hugepageLimits\":|\"network\":{\"classID\":1048577},\"hugepageLimits\":|" "$d/config.json"
  sbx-oci --root "$d/state" create --bundle "$d" res-net > /dev/null 2> "$d/net-err"
  local rc=$?
  check "v2 resources: network refused (rc $rc), naming it ($(cat "$d/net-err"))" \
    sh -c "[ $rc -eq 121 ] && grep -q 'linux.resources.network.classID: cgroup v2 has no net_cls' $d/net-err && [ ! -e $CG/sbx-oci/res-net ]"
  sbx-oci --root "$d/state" delete --force res-net 2>> "$d/stderr"
}

# linux.resources.devices on v2 is a BPF program: with "deny all", a
# root container holding CAP_MKNOD cannot make kmsg's node (c 1:11), and
# without the rule it can (the control).  A container, not an agent:
# an agent's Landlock layer refuses device nodes on its own.  /proc is
# mounted: without it sbx-oci-init cannot run, and the capabilities stay
# in a user namespace of bwrap's, where mknod is refused anyway.
devices_v2 () {
  local d=/work/dev-root caps='"CAP_MKNOD"' rule
  for rule in '{"allow":false,"access":"rwm"}' ''; do
    mkdir -p "$d/rootfs/bin" "$d/rootfs/tmp" "$d/rootfs/proc" "$d/rootfs/dev" "$d/state"
    chmod 700 "$d/state"
    cp /bin/busybox "$d/rootfs/bin/" && ln -sf busybox "$d/rootfs/bin/sh"
    cat > "$d/config.json" <<EOF
{"ociVersion":"1.2.0",
 "process":{"args":["/bin/sh","-c","/bin/busybox mknod /tmp/k c 1 11 && echo made || echo refused"],
            "cwd":"/","user":{"uid":0,"gid":0},"env":["PATH=/bin"],
            "capabilities":{"bounding":[$caps],"effective":[$caps],"permitted":[$caps]}},
 "root":{"path":"rootfs"},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"}],
 "linux":{"namespaces":[{"type":"pid"},{"type":"mount"}],
          "resources":{"devices":[$rule]}}}
EOF
    sbx-oci --root "$d/state" run --bundle "$d" "dev-root" > "$d/stdout" 2>> "$d/stderr"
    if [ -n "$rule" ]; then
      check "v2 devices: deny all refuses mknod of c 1:11 (BPF)" grep -qx refused "$d/stdout"
    else
      check "v2 devices: without the rule mknod of c 1:11 is made (control)" grep -qx made "$d/stdout"
    fi
    cat "$d/stderr" >> /work/dev-stderr
    rm -rf "$d"
  done
}

tap "1..28"
check "the kernel offers memory and pids on cgroup v2 only" \
  sh -c "grep -qw memory $CG/cgroup.controllers && grep -qw pids $CG/cgroup.controllers"
resources_v2
devices_v2
delegate
for who in root nobody; do
  [ $who = root ] && base=$CG || base=$CG/deleg
  memory $who
  storm $who
  lifecycle_kill $who $base
  check "$who: no cgroup of sbx-oci is left" \
    sh -c "! ls -d $base/sbx-oci/*/ 2> /dev/null | grep -q ."
done
check "nothing sbx-oci made escaped the delegated subtree" \
  test "$(ls -d $CG/*/ | grep -v -e /deleg/ -e /sbx-oci/ | wc -l)" = 0
for f in /work/*/stderr /work/dev-stderr; do
  [ -s "$f" ] && head -5 "$f" | sed "s|^|@@tap # $f: |"
done
poweroff -f
