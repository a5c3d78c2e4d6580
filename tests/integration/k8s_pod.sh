#!/bin/bash
# A pod the way containerd's CRI plugin builds one, without a kubelet:
# a pause (sandbox) container with namespaces of its own, then an app
# container that joins its network, IPC, UTS and PID namespaces by path
# (/proc/PAUSE/ns/...), each under a kubepods cgroupsPath and with the CRI
# annotations, all through `ctr run --runc-binary sbx-oci` and containerd's
# runc shim (io.containerd.runc.v2), as contrib/containerd/config.toml
# configures it.  A private containerd (contrib/containerd/ctr_lib.sh).
# Root only; skipped when containerd is not installed.  Every ctr call is
# bounded by a timeout.
set -u
SBX=${SBX_OCI:?set SBX_OCI to the built sbx-oci}
SBX=$(readlink -f "$SBX")
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP containerd runs containers as root only here"; exit 0; }
command -v containerd > /dev/null && command -v ctr > /dev/null \
  || { echo "1..0 # SKIP containerd is not installed (scripts/setup-debian.sh with SBX_SETUP_CONTAINERD=1)"; exit 0; }
file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' \
  || { echo "1..0 # SKIP /bin/busybox is not a static busybox (busybox-static)"; exit 0; }
D=$(mktemp -d /var/tmp/sbx-k8s.XXXXXX)
chmod 755 "$D"
RUN=${D##*.}
. "$(dirname "$0")/../../contrib/containerd/ctr_lib.sh"
n=0 failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
is () { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got: $3"; fi; }
c () { timeout 30 "${ctr[@]}" "$@"; }
pause=pause-$RUN app=app-$RUN
finish () {
  for t in "$app" "$pause"; do
    c task kill -s SIGKILL "$t" > /dev/null 2>&1
    c task delete -f "$t" > /dev/null 2>&1
    c container rm "$t" > /dev/null 2>&1
  done
  ctr_stop
  echo "1..$n"
}
trap finish EXIT
ctr_start || { not_ok "a private containerd starts"; exit 1; }
ctr_busybox_image localhost/sbx-k8s-busybox || { not_ok "the busybox image imports"; exit 1; }
img=localhost/sbx-k8s-busybox:1
pod=/kubepods/besteffort/pod-$RUN
run=(run --runc-binary "$SBX" -d)

# the sandbox: new namespaces, pause's job done by sleep; a loopback
# listener stands for the pod's network
if out=$(c "${run[@]}" --cgroup "$pod/$pause" \
    --annotation io.kubernetes.cri.container-type=sandbox \
    --annotation io.kubernetes.cri.sandbox-id="$pause" \
    "$img" "$pause" sh -c 'while :; do echo pong | nc -l -p 7777; done' 2>&1); then
  ok "the pause container runs"
else
  not_ok "the pause container runs" "$out"
fi
pid=$(c task ls | awk -v t="$pause" '$1 == t { print $2 }')
ns () { readlink "/proc/$1/ns/$2" 2>/dev/null; }
echo "# pause: pid $pid, $(ns "$pid" net) $(ns "$pid" ipc) $(ns "$pid" uts)"

# the app container joins by path, as CRI's spec for it says
if out=$(c "${run[@]}" --cgroup "$pod/$app" \
    --annotation io.kubernetes.cri.container-type=container \
    --annotation io.kubernetes.cri.sandbox-id="$pause" \
    --with-ns "network:/proc/$pid/ns/net" --with-ns "ipc:/proc/$pid/ns/ipc" \
    --with-ns "uts:/proc/$pid/ns/uts" --with-ns "pid:/proc/$pid/ns/pid" \
    "$img" "$app" sleep 100 2>&1); then
  ok "the app container joins the pod's namespaces by path"
else
  not_ok "the app container joins the pod's namespaces by path" "$out"
fi
apid=$(c task ls | awk -v t="$app" '$1 == t { print $2 }')
for t in net ipc uts pid; do
  is "the app's $t namespace is the pause container's" "$(ns "$pid" $t)" "$(ns "$apid" $t)"
done
check_new () { # NS: the app's own, neither the host's nor a shared one
  if [ -n "$(ns "$apid" "$1")" ] && [ "$(ns "$apid" "$1")" != "$(ns 1 "$1")" ]; then
    ok "the app's $1 namespace is its own"
  else
    not_ok "the app's $1 namespace is its own" "app $(ns "$apid" "$1"), host $(ns 1 "$1")"
  fi
}
check_new mnt
is "inside, the app's hostname is the pod's" \
  "$(c task exec --exec-id h1-$RUN "$pause" hostname 2>&1)" \
  "$(c task exec --exec-id h2-$RUN "$app" hostname 2>&1)"
for _ in $(seq 20); do
  out=$(c task exec --exec-id n-$RUN "$app" nc -w 2 127.0.0.1 7777 < /dev/null 2>&1)
  [ "$out" = pong ] && break
  sleep 0.2
done
is "inside, the app reaches the pause container on 127.0.0.1" pong "$out"
for cg in memory pids; do
  f=/sys/fs/cgroup/$cg$pod/$app/cgroup.procs
  [ -e "$f" ] || f=/sys/fs/cgroup$pod/$app/cgroup.procs
  if grep -qx "$apid" "$f" 2>/dev/null; then
    ok "the app is in its kubepods cgroup ($f)"
  else
    not_ok "the app is in its kubepods cgroup ($f)"
  fi
  [ -e "/sys/fs/cgroup$pod/$app/cgroup.procs" ] && break
done

# shareProcessNamespace: in the pause container's pid namespace, the app
# sees its processes
out=$(c task exec --exec-id p-$RUN "$app" ps -o pid,args 2>&1)
is "inside, the app sees the pause container's processes" \
  yes "$(grep -q 'nc -l' <<< "$out" && echo yes || echo "no: $out")"

c task kill -s SIGKILL "$app" > /dev/null 2>&1
for _ in $(seq 50); do c task ls | grep -q "^$app .*STOPPED" && break; sleep 0.1; done
if c task delete "$app" > /dev/null 2>&1 && c container rm "$app"; then
  ok "the app is deleted"
else
  not_ok "the app is deleted"
fi
is "the pause container still runs" RUNNING "$(c task ls | awk -v t="$pause" '$1 == t { print $3 }')"
[ "$failed" -eq 0 ]
