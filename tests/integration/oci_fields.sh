#!/bin/bash
# OCI security fields and hooks through real sandboxes (TAP): every hook
# phase in order with the state it is given, a dropped capability making a
# privileged operation fail (root), a seccomp rule's errno, an rlimit seen
# inside, namespaced sysctls set and host-wide ones refused.  Run as root,
# the cases run as root, then again as uid 65534.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
BUSYBOX=$(command -v busybox) || { echo "1..0 # SKIP busybox not installed"; exit 0; }
WORK=$(mktemp -d /tmp/sbx-ocifields.XXXXXX)
chmod 755 "$WORK"
. "$(dirname "$0")/suite_lib.sh"

sbx () { $AS "$SBX" --root "$ROOT" "$@"; }

# bundle DIR PYTHON: a busybox container whose config PYTHON edits (as c).
bundle () {
  local dir=$1
  busybox_bundle "$dir" sh sleep touch cat echo true chown mkdir || return 1
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

hooks_case () {
  local b=$B/hooks log=$B/hooks.log hook=$B/hook.sh
  # Each hook appends its phase and the state it was given on stdin.
  cat > "$hook" <<'EOF2'
#!/bin/sh
printf '%s %s\n' "$1" "$(cat)" >> "$2"
EOF2
  chmod 755 "$hook"
  : > "$log"; chmod 666 "$log"
  bundle "$b" "
h = lambda p: {'path': '$hook', 'args': ['hook', p, '$log']}
c['process']['args'] = ['sh', '-c', 'sleep 30']
c['hooks'] = {k: [h(k)] for k in ('prestart', 'createRuntime', 'createContainer', 'poststart', 'poststop')}
"
  sbx create --bundle "$b" hk 2>"$B/hk.err"
  check "create with hooks succeeds" [ $? -eq 0 ]
  sbx start hk
  sbx kill hk KILL
  for _ in $(seq 50); do
    sbx state hk 2>/dev/null | grep -q '"stopped"' && break; sleep 0.1
  done
  sbx delete hk
  check "every hook phase ran, in the spec's order" python3 - "$log" <<'PY'
import json, sys
lines = [l.split(" ", 1) for l in open(sys.argv[1]).read().splitlines()]
phases = [p for p, _ in lines]
assert phases == ["prestart", "createRuntime", "createContainer", "poststart", "poststop"], phases
states = {p: json.loads(s) for p, s in lines}
for p in ("prestart", "createRuntime", "createContainer"):
    assert states[p]["status"] == "created" and states[p]["pid"] > 0, (p, states[p])
    assert states[p]["id"] == "hk", states[p]
assert states["poststop"]["status"] == "stopped", states["poststop"]
PY
  bundle "$B/hookfail" "
c['process']['args'] = ['true']
c['hooks'] = {'createRuntime': [{'path': '/bin/false'}]}
"
  local err rc
  sbx create --bundle "$B/hookfail" hf > "$B/hf.err" 2>&1; rc=$?
  err=$(cat "$B/hf.err")
  check "a failing createRuntime hook fails create, naming it" \
    eval '[ $rc -ne 0 ] && [[ "$err" == *"hooks.createRuntime[0]"* ]]'
  check "... and leaves no container" eval '! sbx state hf >/dev/null 2>&1'
  bundle "$B/hookstart" "
c['process']['args'] = ['true']
c['hooks'] = {'startContainer': [{'path': '/bin/true'}]}
"
  # To a file: a held sandbox would keep a $(...) pipe open.
  sbx create --bundle "$B/hookstart" hs > "$B/hs.err" 2>&1; rc=$?
  err=$(cat "$B/hs.err")
  check "a startContainer hook is refused, not skipped" \
    eval '[ $rc -ne 0 ] && [[ "$err" == *"hooks.startContainer"* ]]'
  sbx delete --force hs > /dev/null 2>&1
}

seccomp_case () {
  bundle "$B/sc" "
c['process']['args'] = ['mkdir', '/tmp/d']
c['linux']['seccomp'] = {'defaultAction': 'SCMP_ACT_ALLOW', 'syscalls': [
  {'names': ['mkdir', 'mkdirat'], 'action': 'SCMP_ACT_ERRNO', 'errnoRet': 42}]}
"
  local out rc
  out=$(sbx run --bundle "$B/sc" sc 2>&1 < /dev/null); rc=$?
  check "seccomp: mkdir fails with the chosen errno (42)" \
    eval '[ $rc -ne 0 ] && [[ "$out" == *"No message of desired type"* ]]'
}

caps_case () {
  # Root only: an unprivileged sandbox has no capabilities to drop.
  [ -z "$AS" ] || return 0
  local keep='["CAP_SETUID", "CAP_SETGID"]'
  bundle "$B/nochown" "
c['process']['args'] = ['chown', '1:1', '/tmp']
c['process']['capabilities'] = {k: $keep for k in ('bounding', 'effective', 'permitted')}
"
  local out rc
  out=$(sbx run --bundle "$B/nochown" nc 2>&1 < /dev/null); rc=$?
  # chown's own refusal, not a sandbox that could not be set up (125)
  check "capabilities: without CAP_CHOWN, chown fails as root ($out)" \
    eval '[ $rc -ne 0 ] && [ $rc -ne 125 ] && [[ "$out" == *"Operation not permitted"* ]]'
  keep='["CAP_CHOWN"]'
  bundle "$B/chown" "
c['process']['args'] = ['chown', '1:1', '/tmp']
c['process']['capabilities'] = {k: $keep for k in ('bounding', 'effective', 'permitted')}
"
  sbx run --bundle "$B/chown" ch > /dev/null 2>&1 < /dev/null
  check "capabilities: with CAP_CHOWN, it works" [ $? -eq 0 ]
  # runc spec's own default: ambient without inheritable, which the kernel
  # cannot raise; runc and crun skip those, and the container runs.
  bundle "$B/ambient" "
c['process']['args'] = ['chown', '1:1', '/tmp']
c['process']['capabilities'] = {k: $keep for k in ('bounding', 'effective', 'permitted', 'ambient')}
"
  out=$(sbx run --bundle "$B/ambient" amb 2>&1 < /dev/null); rc=$?
  check "capabilities: ambient without inheritable runs, as under runc ($rc: $out)" \
    [ $rc -eq 0 ]
  out=$(sbx run --dry-run --bundle "$B/ambient" amb 2>&1 < /dev/null)
  check "capabilities: the report says the ambient set was not raised" \
    grep -q 'process.capabilities.ambient: CAP_CHOWN not raised' <<<"$out"
}

rlimit_case () {
  bundle "$B/rl" "
c['process']['args'] = ['sh', '-c', 'ulimit -n']
c['process']['rlimits'] = [{'type': 'RLIMIT_NOFILE', 'soft': 64, 'hard': 64}]
"
  local out
  out=$(sbx run --bundle "$B/rl" rl 2>&1 < /dev/null)
  check "rlimits: RLIMIT_NOFILE 64 is seen inside" [ "$out" = 64 ]
}

# A field sbx-oci does not apply (OCI has it ignore unknown ones) is said
# at create, not only in run's outcome: hugepageLimits and blockIO (both
# applied since) were silently dropped by create.
ignored_case () {
  bundle "$B/ig" "
c['process']['args'] = ['true']
c['linux'].setdefault('resources', {})['unified'] = {'memory.high': '1G'}
c['linux']['resources']['rdma'] = {'mlx5_1': {'hcaHandles': 3}}
c['linux']['x\\nsbx-oci: forged'] = 1
"
  local err
  # a file, not a pipe: the held workload keeps create's stdio open
  sbx create --bundle "$B/ig" ig > /dev/null 2> "$B/ig.err" < /dev/null
  err=$(cat "$B/ig.err")
  check "create names the fields it does not apply ($err)" \
    eval '[[ "$err" == *"not applied"* && "$err" == *linux.resources.rdma* && "$err" == *linux.resources.unified* ]]'
  check "... on one line, a newline in a key name not passed on" \
    [ "$(wc -l < "$B/ig.err")" = 1 ]
  sbx delete --force ig > /dev/null 2>&1
}

# exec into an agent sandbox applies the rules it was started with: no
# credential-shaped variable, and network "deny"'s socket filter.
agent_exec_case () {
  local b=$B/agent
  mkdir -p "$b/ws"
  (cd "$b" && "$SBX" spec --agent --workspace "$b/ws") || return 1
  python3 - "$b/config.json" "$(id -u)" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sleep", "30"]
del c["sbx"]["limits"]  # a wall clock is run's alone
json.dump(c, open(sys.argv[1], "w"))
PY
  cat > "$b/exec.json" <<EOF2
{"args": ["sh", "-c", "echo token=\$GITHUB_TOKEN; python3 -c 'import socket; socket.socket(socket.AF_INET)' 2>&1 | tail -1"],
 "cwd": "$b/ws", "env": ["PATH=/usr/bin:/bin", "GITHUB_TOKEN=sbx-secret"],
 "user": {"uid": 0, "gid": 0}}
EOF2
  chmod -R a+rX "$b"
  [ -n "$AS" ] && chown -R 65534:65534 "$b"
  sbx create --bundle "$b" ag > "$B/ag.err" 2>&1 < /dev/null
  sbx start ag
  local out
  out=$(sbx exec --process "$b/exec.json" ag 2>&1)
  check "exec into an agent: credential-shaped variables are dropped" \
    eval '[[ "$out" == *"token="* && "$out" != *sbx-secret* ]]'
  check "exec into an agent: network deny refuses IP sockets" \
    eval '[[ "$out" == *"Address family not supported"* ]]'
  sbx delete --force ag > /dev/null 2>&1
}

# process.selinuxLabel, process.apparmorProfile, linux.mountLabel: this
# host has neither module, so create refuses each (121), naming the field
# and why, and leaves nothing; sbx-oci-init, which applies them at the
# command's exec, fails loudly where the module cannot take the label.
labels_case () {
  local field edit out rc
  for field in process.selinuxLabel process.apparmorProfile linux.mountLabel; do
    edit="c['${field%%.*}']['${field#*.}'] = 'system_u:system_r:container_t:s0:c1,c2'"
    bundle "$B/label-$field" "$edit"
    out=$(sbx create --bundle "$B/label-$field" lbl 2>&1 < /dev/null); rc=$?
    check "$field without its module: create refuses it (121: $out)" \
      eval '[ $rc -eq 121 ] && [[ "$out" == *"$field: "*" is not enabled on this host"* ]] \
        && [ "$(wc -l <<<"$out")" -eq 1 ]'
    check "$field refused: nothing is left" [ -z "$(sbx list -q 2> /dev/null)" ]
  done
  bundle "$B/label-empty" "c['process']['selinuxLabel'] = ''"
  sbx run --bundle "$B/label-empty" lbl0 > /dev/null 2>&1 < /dev/null
  check "an empty selinuxLabel is no label, as podman writes it" [ $? -eq 0 ]
  out=$("$(dirname "$SBX")/sbx-oci-init" -Z u:r:t:s0 -- /bin/true 2>&1); rc=$?
  check "sbx-oci-init takes the label at the exec, and fails without SELinux ($out)" \
    eval '[ $rc -eq 1 ] && [[ "$out" == *"process.selinuxLabel: cannot apply it"* ]]'
}

# exec writes a label through the host's /proc, never the container's,
# which a container that can mount may have covered (the review put a
# tmpfs with an attr/exec file there, and exec ran the process unlabelled
# while the label went into that file).  AppArmor is faked on for
# sbx-oci alone (a tmpfs over /sys/module in a mount namespace of its
# own): the host's procfs then refuses the label, as it must.  Root only.
label_proc_case () {
  [ -z "$AS" ] || return 0
  local caps='["CAP_SYS_ADMIN"]' out rc
  bundle "$B/lproc" "
c['process']['args'] = ['sleep', '60']
c['process']['capabilities'] = {k: $caps for k in ('bounding', 'effective', 'permitted')}
c['linux']['uidMappings'] = [{'containerID': 0, 'hostID': 100000, 'size': 65536}]
c['linux']['gidMappings'] = [{'containerID': 0, 'hostID': 100000, 'size': 65536}]
c['linux']['namespaces'].append({'type': 'user'})
"
  ln -sf busybox "$B/lproc/rootfs/bin/mount"
  chown -R 100000:100000 "$B/lproc/rootfs"
  sbx create --bundle "$B/lproc" lproc > /dev/null 2>&1 && sbx start lproc
  sbx exec lproc sh -c 'mount -t tmpfs none /proc &&
    mkdir -p /proc/thread-self/attr/apparmor &&
    : > /proc/thread-self/attr/apparmor/exec && : > /proc/thread-self/attr/exec'
  check "a container covers its /proc with a tmpfs of attr files" [ $? -eq 0 ]
  out=$(unshare -m --propagation private sh -c 'mount -t tmpfs t /sys/module &&
    mkdir -p /sys/module/apparmor/parameters &&
    echo Y > /sys/module/apparmor/parameters/enabled && exec "$@"' sh \
    "$SBX" --root "$ROOT" exec --apparmor some-profile lproc echo RAN 2>&1); rc=$?
  check "exec --apparmor writes through the host's /proc, not the container's ($rc: $out)" \
    eval '[ $rc -eq 125 ] && [[ "$out" != *RAN* ]] && [[ "$out" == *"take the SELinux or AppArmor label"* ]]'
  sbx delete --force lproc
  # create: a file bound over the command's attr/exec (pid 1's) would take
  # the label sbx-oci-init writes there, and the command would run
  # unlabelled (the second review: a procfs file, so the procfs check
  # passed).  Refused before anything runs, naming the entry.
  bundle "$B/lbind" "
c['process']['apparmorProfile'] = 'some-profile'
c['mounts'].append({'destination': '/proc/1/task/1/attr/exec', 'type': 'bind',
                    'source': '/proc/sys/kernel/hostname', 'options': ['bind']})
"
  out=$(unshare -m --propagation private sh -c 'mount -t tmpfs t /sys/module &&
    mkdir -p /sys/module/apparmor/parameters &&
    echo Y > /sys/module/apparmor/parameters/enabled && exec "$@"' sh \
    "$SBX" --root "$ROOT" run --bundle "$B/lbind" lbind 2>&1 < /dev/null); rc=$?
  check "a mount over /proc/1/task/1/attr/exec is refused before the labelled command ($rc: $out)" \
    eval '[ $rc -eq 121 ] && [[ "$out" == *"destination: /proc/1/task/1/attr/exec lies in /proc"* ]]'
}

features_case () {
  check "features: the document says what this build does" python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert "startContainer" not in d["hooks"] and "prestart" in d["hooks"]
sc = d["linux"]["seccomp"]
assert sc["enabled"] and "SCMP_ACT_ERRNO" in sc["actions"]
assert "SCMP_ACT_NOTIFY" not in sc["actions"] and sc["supportedFlags"] == []
assert "CAP_CHOWN" in d["linux"]["capabilities"]
assert d["linux"]["apparmor"]["enabled"] and d["linux"]["selinux"]["enabled"]
assert "org.sbx-oci" in d' "$(sbx features)"
}

# linux.sysctl: written into the held sandbox's own namespaces at create,
# never the host's; a host-wide one is refused.
sysctl_case () {
  local b=$B/sysctl host_somaxconn rc err
  host_somaxconn=$(cat /proc/sys/net/core/somaxconn)
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'cat /proc/sys/net/core/somaxconn /proc/sys/kernel/shmmni > /tmp/seen']
c['linux']['sysctl'] = {'net.core.somaxconn': '77', 'kernel.shmmni': '1234', 'net.ipv4.ping_group_range': '0 0'}
"
  sbx create --bundle "$b" sy > "$B/sy.err" 2>&1 < /dev/null
  check "sysctl: create sets net.* and IPC sysctls" [ $? -eq 0 ]
  sbx start sy
  for _ in $(seq 50); do
    sbx state sy 2>/dev/null | grep -q '"stopped"' && break; sleep 0.1
  done
  check "sysctl: the container sees them" \
    [ "$(tr '\n' ' ' < "$b/rootfs/tmp/seen")" = "77 1234 " ]
  check "sysctl: the host's stay as they were" \
    [ "$(cat /proc/sys/net/core/somaxconn)" = "$host_somaxconn" ]
  sbx delete sy
  bundle "$B/sysctl-host" "c['linux']['sysctl'] = {'kernel.pid_max': '9999'}"
  err=$(sbx create --bundle "$B/sysctl-host" sh2 2>&1 < /dev/null); rc=$?
  check "sysctl: a host-wide one is refused, naming it" \
    eval '[[ $rc -ne 0 && "$err" == *"linux.sysctl.kernel.pid_max: not held by a namespace"* ]]'
}

# The host-wide sysctls stay read-only inside (runc's readonlyPaths names
# /proc/sys): a root container writing vm.swappiness's own value back
# meets a read-only file system.
proc_sys_case () {
  local b=$B/procsys out rc
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'v=\$(cat /proc/sys/vm/swappiness) && echo \$v > /proc/sys/vm/swappiness']
"
  out=$(sbx run --bundle "$b" ps 2>&1 < /dev/null); rc=$?
  check "/proc/sys: a write is refused ($out)" [ $rc -ne 0 ]
  [ -z "$AS" ] && check "/proc/sys: read-only, as root too" \
    grep -q "Read-only file system" <<<"$out"
}

# Joining IPC and UTS namespaces by path, as a Kubernetes pod's containers
# join its sandbox's, with the /dev/mqueue every containerd spec mounts
# (root only: the holder's namespaces are the host root's).
# The host's IPC namespace, shared (podman --ipc=host): the container runs,
# in the host's IPC namespace, with the /dev/mqueue its config mounts
# (root: the host's mqueue, mounted by the runner; unprivileged: the host's
# /dev/mqueue bound when there is one).  Nothing of it is listed as a
# container.
ipc_host_case () {
  local b=$B/ipchost want
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'readlink /proc/self/ns/ipc > /tmp/seen; test -d /dev/mqueue && echo dir >> /tmp/seen']
if not any(m['destination'] == '/dev/mqueue' for m in c['mounts']):
    c['mounts'].append({'destination': '/dev/mqueue', 'type': 'mqueue', 'source': 'mqueue'})
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] != 'ipc']
"
  ln -sf busybox "$b/rootfs/bin/readlink"; ln -sf busybox "$b/rootfs/bin/test"
  want="$(readlink /proc/self/ns/ipc)"
  [ "$MODE" = root ] && want="$want dir"
  sbx run --bundle "$b" ih > "$B/ih.out" 2>&1 < /dev/null
  check "ipc host: runs in the host's IPC namespace ($(cat "$B/ih.out"))" \
    [ "$(tr '\n' ' ' < "$b/rootfs/tmp/seen" 2> /dev/null)" = "$want " ]
  check "ipc host: no container is listed for its mqueue" \
    eval '[ -z "$(sbx list -q)" ]'
}

# The container holds no descriptor of sbx-oci's: not the sealed copy
# sbx-oci-init was executed from, and with --preserve-fds 1 and the
# caller's fd 3 closed, /dev/null at 3 rather than a pipe of create's
# (both found by the second review).
fds_case () {
  local b=$B/fds
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'ls -l /proc/self/fd/ > /tmp/seen 2>&1; sleep 1']
"
  ln -sf busybox "$b/rootfs/bin/ls"
  (exec 3>&-; sbx create --preserve-fds 1 --bundle "$b" fds-$RUN > /dev/null 2>&1 < /dev/null) &&
    sbx start fds-$RUN > /dev/null 2>&1
  for _ in $(seq 30); do [ -s "$b/rootfs/tmp/seen" ] && break; sleep 0.1; done
  sbx delete --force fds-$RUN > /dev/null 2>&1
  check "fds: no sealed copy of sbx-oci in the container ($(grep -c memfd "$b/rootfs/tmp/seen" 2>&1))" \
    eval '[ -s "$b/rootfs/tmp/seen" ] && ! grep -q memfd "$b/rootfs/tmp/seen"'
  check "fds: a preserved descriptor the caller left closed is /dev/null ($(grep ' 3 -> ' "$b/rootfs/tmp/seen"))" \
    grep -q ' 3 -> /dev/null' "$b/rootfs/tmp/seen"
}

join_case () {
  [ "$MODE" = root ] || return 0
  unshare --ipc --uts sh -c 'hostname sbx-pod; exec sleep 60' &
  local holder=$! b=$B/join want
  sleep 0.2
  bundle "$b" "
c['process']['args'] = ['sh', '-c', 'for n in ipc uts; do readlink /proc/self/ns/\$n; done > /tmp/seen; hostname >> /tmp/seen; grep -c \" /dev/mqueue mqueue \" /proc/self/mounts >> /tmp/seen']
c['mounts'].append({'destination': '/dev/mqueue', 'type': 'mqueue', 'source': 'mqueue'})
c['hostname'] = 'ignored-when-joined'
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] not in ('ipc', 'uts')] + [
    {'type': 'ipc', 'path': '/proc/$holder/ns/ipc'}, {'type': 'uts', 'path': '/proc/$holder/ns/uts'}]
"
  for a in readlink hostname grep; do ln -sf busybox "$b/rootfs/bin/$a"; done
  want="$(readlink /proc/$holder/ns/ipc /proc/$holder/ns/uts | tr '\n' ' ')sbx-pod 1 "
  sbx run --bundle "$b" jn > "$B/jn.out" 2>&1 < /dev/null
  check "namespaces by path: in the holder's IPC and UTS namespaces, with its mqueue" \
    [ "$(tr '\n' ' ' < "$b/rootfs/tmp/seen")" = "$want" ]
  kill "$holder"; wait "$holder" 2> /dev/null
  # (a pid namespace is joined: pid_join.sh)
  bundle "$B/join-mnt" "
c['linux']['namespaces'] = [n for n in c['linux']['namespaces'] if n['type'] != 'mount'] + [
    {'type': 'mount', 'path': '/proc/1/ns/mnt'}]
"
  local err rc
  err=$(sbx run --bundle "$B/join-mnt" jm 2>&1 < /dev/null); rc=$?
  check "namespaces by path: a mount namespace is refused, naming the entry" \
    eval '[[ $rc -ne 0 && "$err" == *"linux.namespaces["*"].path: joining an existing namespace is supported for"* ]]'
}

# Supplementary groups of root's container: exactly additionalGids, none
# of the caller's (root only: an unprivileged sandbox maps one gid).
groups_case () {
  [ "$MODE" = root ] || return 0
  bundle "$B/groups" "
c['process']['args'] = ['sh', '-c', 'grep ^Groups: /proc/self/status']
c['process']['user'] = {'uid': 0, 'gid': 0, 'additionalGids': [10, 20]}
"
  local out
  out=$(setpriv --groups 6,27 "$SBX" --root "$ROOT" run --bundle "$B/groups" gr 2>&1 < /dev/null)
  check "additionalGids: exactly 10 and 20, not the caller's 6 and 27 ($out)" \
    [ "$(echo $out)" = "Groups: 10 20" ]
}

# linux.rootfsPropagation, checked as runtime-tools' runtimetest does: a
# recursive bind of / made first, a mount made after it, and whether that
# mount shows through the bind (only when / is shared); an unbindable /
# cannot be bound at all.  The root's own tag in mountinfo tells private
# from slave.  Root's containers only (sbx-oci sets it from outside);
# refused, naming the field, for uid 65534.
propagation_case () {
  local p out rc
  for p in shared slave private unbindable rprivate; do
    bundle "$B/prop-$p" "
c['process']['args'] = ['sh', '/prop.sh']
c['process']['capabilities'] = {k: ['CAP_SYS_ADMIN'] for k in ('bounding', 'effective', 'permitted')}
c['linux'].pop('seccomp', None)
c['linux']['rootfsPropagation'] = '$p'
"
    for a in mount awk; do ln -sf busybox "$B/prop-$p/rootfs/bin/$a"; done
    cat > "$B/prop-$p/rootfs/prop.sh" <<'EOF2'
mkdir -p /target /mnt1 /test && touch /test/example
if mount -o rbind / /target 2>/dev/null; then echo bound; else echo unbound; fi
mount -o bind /test /mnt1
[ -e /target/mnt1/example ] && echo exposed || echo hidden
mkdir -p /inner && mount -t tmpfs inner /inner && touch /inner/leak
awk '$5 == "/" { t = "private"; if ($0 ~ / unbindable/) t = "unbindable";
  else if ($0 ~ / shared:/) t = "shared"; else if ($0 ~ / master:/) t = "slave";
  print "root:" t; exit }' /proc/self/mountinfo
EOF2
    # The rootfs on a shared mount of the host's (as on systemd's hosts,
    # not this one's by default): bwrap's root is then a slave, and only
    # what sbx-oci-init sets makes it anything else.
    local shared=
    if [ "$MODE" = root ] && mount --bind "$B/prop-$p/rootfs" "$B/prop-$p/rootfs" \
        && mount --make-shared "$B/prop-$p/rootfs"; then
      shared=$B/prop-$p/rootfs
    fi
    out=$(sbx run --outcome "$B/prop-$p.outcome" --bundle "$B/prop-$p" "prop-$p" 2>&1 < /dev/null); rc=$?
    # A mount of the container's on the host would outlive it there.
    local leaked=no
    grep -qF "$B/prop-$p/rootfs/inner" /proc/self/mountinfo && leaked=yes
    [ -e "$B/prop-$p/rootfs/inner/leak" ] && leaked=yes
    [ -z "$shared" ] || umount "$shared"
    if [ "$MODE" != root ]; then
      [ "$p" = slave ] && continue
      check "rootfsPropagation $p: refused for uid 65534, naming the field ($rc: $out)" \
        eval '[ $rc -eq 121 ] && [[ "$out" == *"linux.rootfsPropagation"* ]]'
      continue
    fi
    out=$(echo $out)
    case $p in
      # The container's own tmpfs, mounted inside a rootfs that is a
      # shared mount of the host's: a peer of nothing on the host side.
      shared) check "rootfsPropagation shared: a later mount shows through a bind of / ($out)" \
                [ "$out" = "bound exposed root:shared" ]
              check "rootfsPropagation shared: the container's mount (made: $out) never reaches the host ($leaked)" \
                eval '[[ "$out" != *"inner"* ]] && [ -d "$B/prop-$p/rootfs/inner" ] && [ "$leaked" = no ]'
              check "rootfsPropagation shared: the outcome says it is the container's own" \
                grep -q 'shared among the container' "$B/prop-$p.outcome" ;;
      slave) check "rootfsPropagation slave: it does not, and / is a slave ($out)" \
               [ "$out" = "bound hidden root:slave" ] ;;
      private | rprivate) check "rootfsPropagation $p: it does not, and / is private ($out)" \
                            [ "$out" = "bound hidden root:private" ] ;;
      unbindable) check "rootfsPropagation unbindable: / cannot be bound ($out)" \
                    eval '[[ "$out" == "unbound "*"root:unbindable" ]]' ;;
    esac
  done
  [ "$MODE" = root ] || return 0
  # A command that is not there: the run ends 127 with runc's message,
  # every time (the hold was written to a runner gone: SIGPIPE, 141).
  bundle "$B/prop-missing" "
c['process']['args'] = ['/nonexistent']
c['linux']['rootfsPropagation'] = 'private'
"
  # The race is narrow (about 1 run in 10 here): 20 runs.
  local codes= i
  for i in $(seq 20); do
    sbx run --bundle "$B/prop-missing" prop-missing > /dev/null 2>&1 < /dev/null
    codes+="$? "
  done
  check "rootfsPropagation with a missing command: 127 each time ($codes)" \
    [ "$codes" = "$(printf '127 %.0s' $(seq 20))" ]
  # Through create and start, under a filter that refuses mount(2) to the
  # container (runtime-tools' default one does): set before it applies.
  bundle "$B/prop-cs" "
c['process']['args'] = ['sh', '-c', 'awk \\'\$5 == \"/\" { print (\$0 ~ / master:/ ? \"slave\" : \$0 ~ / shared:/ ? \"shared\" : \"private\") }\\' /proc/self/mountinfo > /out; mount -t tmpfs t /tmp 2>/dev/null && echo mounted >> /out; true']
c['process']['capabilities'] = {k: ['CAP_SYS_ADMIN'] for k in ('bounding', 'effective', 'permitted')}
c['linux']['seccomp'] = {'defaultAction': 'SCMP_ACT_ALLOW', 'syscalls': [{'names': ['mount'], 'action': 'SCMP_ACT_ERRNO'}]}
c['linux']['rootfsPropagation'] = 'private'
"
  for a in mount awk; do ln -sf busybox "$B/prop-cs/rootfs/bin/$a"; done
  mount --bind "$B/prop-cs/rootfs" "$B/prop-cs/rootfs" && mount --make-shared "$B/prop-cs/rootfs"
  sbx create --bundle "$B/prop-cs" prop-cs < /dev/null > /dev/null 2>&1 \
    && sbx start prop-cs \
    && for _ in $(seq 50); do sbx state prop-cs | grep -q '"stopped"' && break; sleep 0.1; done
  sbx delete --force prop-cs 2> /dev/null
  umount "$B/prop-cs/rootfs"
  out=$(cat "$B/prop-cs/rootfs/out" 2> /dev/null)
  check "rootfsPropagation private through create and start, the filter refusing mount to the command ($out)" \
    [ "$out" = private ]
}

# A tmpfs's source as the config names it ("shm" for /dev/shm, as podman
# and runtime-tools write it), with its options: root's runner mounts it
# and bwrap binds it in; bwrap's own tmpfs (uid 65534's) is "tmpfs".
named_tmpfs_case () {
  bundle "$B/shm" "
c['process']['args'] = ['sh', '-c', 'grep \" /dev/shm \" /proc/self/mountinfo']
c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/dev/shm'] + [{'destination': '/dev/shm', 'type': 'tmpfs', 'source': 'shm', 'options': ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k']}]
"
  local out
  out=$(sbx run --outcome "$B/shm.outcome" --bundle "$B/shm" shm 2>&1 < /dev/null)
  if [ "$MODE" = root ]; then
    # (mode=1777 is tmpfs's default: mountinfo leaves it out)
    check "a tmpfs named shm is mounted as shm, with its flags and size ($out)" \
      eval '[[ "$out" == *" /dev/shm "*"nosuid,nodev,noexec"*" - tmpfs shm "*"size=65536k"* ]]'
  else
    check "uid 65534: the tmpfs is bwrap's, named tmpfs, and not noexec ($out)" \
      eval '[[ "$out" == *" /dev/shm "*" - tmpfs tmpfs "* && "$out" != *noexec* ]]'
    check "uid 65534: the noexec not applied is a reason in the outcome" \
      grep -q 'noexec on /dev/shm' "$B/shm.outcome"
  fi
  if [ "$MODE" = root ]; then
    # Never a device-capable tmpfs (as bwrap's are not): a root container
    # with CAP_MKNOD made /dev/shm/kmsg and wrote the host's kernel log.
    bundle "$B/shm-mknod" "
c['process']['args'] = ['sh', '-c', 'for d in /dev/shm /t; do mknod \$d/n c 1 3 && echo x > \$d/n && echo opened-\$d; done; true']
c['process']['capabilities'] = {k: ['CAP_MKNOD'] for k in ('bounding', 'effective', 'permitted')}
c['mounts'] = [m for m in c['mounts'] if m['destination'] != '/dev/shm'] + [{'destination': '/dev/shm', 'type': 'tmpfs', 'source': 'shm', 'options': ['nosuid']}, {'destination': '/t', 'type': 'tmpfs', 'source': 't', 'options': ['dev', 'suid']}]
"
    for a in mknod; do ln -sf busybox "$B/shm-mknod/rootfs/bin/$a"; done
    out=$(sbx run --bundle "$B/shm-mknod" shmk 2>&1 < /dev/null)
    check "a root container with CAP_MKNOD opens no node it makes on a tmpfs, dev asked or not ($(echo $out))" \
      eval '[[ "$out" != *opened* && "$out" == *"Permission denied"* ]]'
    # One option, one word: "nosuid,ro" is not read as ro by the policy
    # and mounted ro by the runner.
    bundle "$B/shm-comma" "
c['process']['args'] = ['true']
c['mounts'].append({'destination': '/c', 'type': 'tmpfs', 'source': 'c', 'options': ['nosuid,ro']})
"
    out=$(sbx run --bundle "$B/shm-comma" shmc 2>&1 < /dev/null); rc=$?
    check "a comma inside one tmpfs option: refused, naming it ($rc: $out)" \
      eval '[ $rc -eq 121 ] && [[ "$out" == *"options[0]: a comma inside one option"* ]]'
    # An option the kernel's tmpfs refuses: one line naming the entry,
    # nothing left (the runner's namespace ends with it).
    bundle "$B/shm-bad" "
c['process']['args'] = ['true']
c['mounts'].append({'destination': '/bad', 'type': 'tmpfs', 'source': 'bad', 'options': ['nosuid', 'frobnicate=1']})
"
    out=$(sbx run --bundle "$B/shm-bad" shmx 2>&1 < /dev/null); rc=$?
    check "a tmpfs option the kernel refuses: 125, naming mounts[N] ($rc: $out)" \
      eval '[ $rc -eq 125 ] && [[ "$out" == *"mounts[5]: cannot mount its tmpfs (nosuid,frobnicate=1): Invalid argument"* ]]'
    # "/dev/" is /dev: the minimal /dev, not an empty tmpfs over it.
    bundle "$B/shm-dev" "
c['process']['args'] = ['sh', '-c', 'echo x > /dev/null && echo null-ok']
c['mounts'] = [dict(m, destination='/dev/') if m['destination'] == '/dev' else m for m in c['mounts']]
"
    out=$(sbx run --bundle "$B/shm-dev" shmd 2>&1 < /dev/null)
    check "a tmpfs at /dev/ is the minimal /dev ($out)" [ "$out" = null-ok ]
    bundle "$B/shm-long" "
c['process']['args'] = ['true']
c['mounts'].append({'destination': '/long', 'type': 'tmpfs', 'source': 'long', 'options': ['nosuid'] * 200})
"
    local rc
    out=$(sbx run --bundle "$B/shm-long" shml 2>&1 < /dev/null); rc=$?
    check "a tmpfs's options longer than the runner takes: refused, naming them ($rc: $out)" \
      eval '[ $rc -eq 121 ] && [[ "$out" == *"mounts["*"].options: "*"bytes; at most 1000"* ]]'
  fi
  # A bind cannot be made noexec by bwrap: said, for everyone.
  mkdir -p "$B/shm-src"
  bundle "$B/shm-bind" "
c['process']['args'] = ['true']
c['mounts'].append({'destination': '/mnt', 'type': 'bind', 'source': '$B/shm-src', 'options': ['rbind', 'noexec']})
"
  sbx run --outcome "$B/shm-bind.outcome" --bundle "$B/shm-bind" shmb > /dev/null 2>&1 < /dev/null
  check "a bind's noexec not applied is a reason in the outcome" \
    grep -q 'noexec on /mnt: bubblewrap cannot make a bind noexec' "$B/shm-bind.outcome"
}

suite () {
  B=$WORK/$MODE
  mkdir -p "$B"; chmod 777 "$B"
  hooks_case
  seccomp_case
  caps_case
  rlimit_case
  ignored_case
  sysctl_case
  proc_sys_case
  join_case
  ipc_host_case
  fds_case
  groups_case
  propagation_case
  named_tmpfs_case
  agent_exec_case
  labels_case
  label_proc_case
  features_case
}

run_as_root_and_user suite
finish
