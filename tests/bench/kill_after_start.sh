#!/bin/bash
# runtime-tools' killsig pattern against sbx-oci, crun and runc (not a
# test: it measures the workload's race, which no runtime closes).  Each
# try creates and starts `sh -c "trap 'touch /TERM' TERM; sleep 10 & wait
# $!"` and sends TERM to the container's pid 1:
#   at-once      the host's kill(1) the moment `start` returns;
#   killsig      `RUNTIME state`, then `RUNTIME kill ID TERM`, the test's
#                own order.
# Each line also gives the median time from start's return to the signal:
# the head start the shell gets, which is the two calls' cost.
# A try is "ok" when the shell ends within 1 s, "after-trap" when the trap
# ran but the shell still waits (the signal came between `trap` and `wait`,
# so `wait` sits out the sleep), "lost" when the trap never ran (the signal
# came before `trap`: the pid namespace's init drops a signal it has no
# handler for), "failed" when create or start did.  TRIES (default 20) per
# runtime and pattern.  The bundle is `runc spec`'s without its ambient
# set, which sbx-oci refuses to raise without an inheritable one (runc and
# crun skip it).  Runs in a private mount namespace with
# /sys/fs/cgroup/unified unmounted when this host has the hybrid layout
# crun 1.8 refuses.  Needs root, jq, busybox, crun, runc.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
sbx=$(readlink -f "${SBX_OCI:-$here/../../build/sbx-oci}")
tries=${TRIES:-20}
[ "$(id -u)" -eq 0 ] || { echo "kill_after_start.sh: needs root" >&2; exit 1; }
for tool in jq crun runc busybox; do
  command -v "$tool" > /dev/null || { echo "kill_after_start.sh: $tool is missing" >&2; exit 1; }
done

if [ -z "${SBX_BENCH_INNER:-}" ] && mountpoint -q /sys/fs/cgroup/unified 2> /dev/null; then
  echo "# hybrid cgroups: measured with /sys/fs/cgroup/unified unmounted in a private mount namespace"
  exec unshare -m --propagation private env SBX_BENCH_INNER=1 sh -c \
    'umount /sys/fs/cgroup/unified && exec "$0" "$@"' "$0" "$@"
fi

T=$(mktemp -d /tmp/sbx-killsig.XXXXXX)
trap 'rm -rf "$T"' EXIT
B=$T/b
mkdir -p "$B/rootfs/bin" "$B/rootfs/proc" "$B/rootfs/dev"
cp "$(command -v busybox)" "$B/rootfs/bin/busybox"
for a in sh sleep touch; do ln -s busybox "$B/rootfs/bin/$a"; done
(cd "$B" && runc spec)
jq '.process.args = ["sh", "-c", "trap '\''touch /TERM'\'' TERM; sleep 10 & wait $!"]
    | .process.terminal = false | .root.readonly = false
    | del(.process.capabilities.ambient)' \
  "$B/config.json" > "$B/config.tmp" && mv "$B/config.tmp" "$B/config.json"

# ended PID: PID is gone or a zombie within 1 s.
ended () {
  for _ in $(seq 20); do
    grep -qs '^[^ ]* ([^)]*) [^Z]' "/proc/$1/stat" || return 0
    sleep 0.05
  done
  return 1
}

# try RUNTIME PATTERN ID: one create/start/signal; prints the outcome and
# the microseconds from start's return to the signal's.
try () {
  local rt=$1 pattern=$2 id=$3 pid t0 us
  rm -f "$B/rootfs/TERM"
  if ! "$rt" --root "$T/state" create --bundle "$B" --pid-file "$T/pid" "$id" > /dev/null < /dev/null; then
    echo failed 0
    return
  fi
  pid=$(cat "$T/pid")
  if ! "$rt" --root "$T/state" start "$id"; then
    echo failed 0
    "$rt" --root "$T/state" delete --force "$id" 2> /dev/null || :
    return
  fi
  t0=${EPOCHREALTIME/./}
  if [ "$pattern" = at-once ]; then
    kill -TERM "$pid"
  else
    "$rt" --root "$T/state" state "$id" > /dev/null
    "$rt" --root "$T/state" kill "$id" TERM
  fi
  us=$((${EPOCHREALTIME/./} - t0))
  if ended "$pid"; then
    echo ok "$us"
  elif [ -e "$B/rootfs/TERM" ]; then
    echo after-trap "$us"
  else
    echo lost "$us"
  fi
  "$rt" --root "$T/state" kill "$id" KILL 2> /dev/null || :
  ended "$pid" || :
  "$rt" --root "$T/state" delete --force "$id" 2> /dev/null || :
}

echo "# $tries tries each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for name in sbx-oci crun runc; do
  case $name in
    sbx-oci) rt=$sbx ;;
    *) rt=$(command -v "$name") ;;
  esac
  for pattern in at-once killsig; do
    declare -A got=([ok]=0 [after-trap]=0 [lost]=0 [failed]=0)
    times=()
    for i in $(seq "$tries"); do
      read -r r us < <(try "$rt" "$pattern" "ks-$name-$i-$$")
      got[$r]=$((got[$r] + 1))
      times+=("$us")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((tries + 1) / 2))p")
    printf '%-8s %-8s ok %2d  after-trap %2d  lost %2d  failed %2d  signal %d.%d ms after start (median)\n' \
      "$name" "$pattern" "${got[ok]}" "${got[after-trap]}" "${got[lost]}" \
      "${got[failed]}" $((median / 1000)) $((median % 1000 / 100))
    unset got
  done
done
