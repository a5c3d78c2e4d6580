#!/bin/bash
# The host ports' forwarder (runtime/linux/supervise/port_forward.h) against a
# direct loopback connection (not a test).  tests/bench/port_bench.c is
# the server (on the host's 127.0.0.1) and the client; the client runs
#   direct      on the host, to the server
#   forwarded   inside an agent sandbox whose "hostPorts" lists the
#               server's port: sandbox's 127.0.0.1 -> forwarder -> host
# interleaved, ROUNDS times (default 7, the order swapped every round so
# drift falls on both alike).  Each run measures CONNS connections (default
# 200: connect, one byte there and back, close; the median) and then MIB
# MiB (default 512) over one connection.  Prints the medians over the
# rounds and the ratios forwarded/direct.  SBX_OCI names the binary
# (default build/sbx-oci); the helper is built in BUILD (default build).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../build}
sbx=${SBX_OCI:-$build/sbx-oci}
rounds=${ROUNDS:-7}
conns=${CONNS:-200}
mib=${MIB:-512}
ninja -C "$build" tests/bench/port_bench > /dev/null
pb=$(cd "$build" && pwd)/tests/bench/port_bench

T=$(mktemp -d /tmp/sbx-port-bench.XXXXXX)
server=
trap '[ -n "$server" ] && kill "$server"; rm -rf "$T"' EXIT
mkdir -p "$T/ws" "$T/b" "$T/state"
"$pb" serve "$T/port" &
server=$!
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.05; done
port=$(cat "$T/port")
echo "port:$port" > "$T/approve"
cat > "$T/b/config.json" <<EOF2
{
  "ociVersion": "1.2.0",
  "root": {"path": "/", "readonly": true},
  "process": {"args": ["$pb", "client", "$port", "$conns", "$mib"],
              "cwd": "$T/ws", "user": {"uid": $(id -u), "gid": $(id -g)}},
  "sbx": {"mode": "workspace-write", "workspace": "$T/ws",
          "network": {"mode": "loopback", "hostPorts": [$port]}}
}
EOF2

direct () { "$pb" client "$port" "$conns" "$mib"; }
forwarded ()
{
  "$sbx" --root "$T/state" --approve "$T/approve" run --bundle "$T/b" \
    "port-bench-$1"
}

: > "$T/direct"
: > "$T/forwarded"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then
    direct >> "$T/direct"
    forwarded "$r" >> "$T/forwarded"
  else
    forwarded "$r" >> "$T/forwarded"
    direct >> "$T/direct"
  fi
done

# median FILE KEY: the median of KEY=VALUE over FILE's lines.
median ()
{
  sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$1" | sort -n \
    | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

dl=$(median "$T/direct" latency_us)
fl=$(median "$T/forwarded" latency_us)
dt=$(median "$T/direct" throughput_mib_s)
ft=$(median "$T/forwarded" throughput_mib_s)
printf '%-10s %14s %18s\n' "" "latency (us)" "throughput (MiB/s)"
printf '%-10s %14s %18s\n' direct "$dl" "$dt"
printf '%-10s %14s %18s\n' forwarded "$fl" "$ft"
awk -v dl="$dl" -v fl="$fl" -v dt="$dt" -v ft="$ft" 'BEGIN {
  printf "forwarded/direct: latency %.2fx (+%.1f us a connection), throughput %.2fx\n",
    fl / dl, fl - dl, ft / dt }'
echo "($rounds rounds, $conns connections and $mib MiB each)"
