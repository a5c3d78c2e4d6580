#!/bin/bash
# ctr_smoke.sh [SBX_OCI]: containerd's own runc shim (io.containerd.runc.v2)
# driving sbx-oci through `ctr run --runc-binary`, against a private
# containerd and a busybox image built here (ctr_lib.sh).
# Needs root, containerd (Debian package), busybox-static, python3.
set -eu
sbx=$(readlink -f "${1:-$(dirname "$0")/../../build/sbx-oci}")
D=$(mktemp -d /var/tmp/sbx-ctr.XXXXXX)
chmod 755 "$D"
. "$(dirname "$0")/ctr_lib.sh"
trap ctr_stop EXIT
ctr_start
ctr_busybox_image localhost/sbx-ctr-busybox
img=localhost/sbx-ctr-busybox:1

n=0 failed=0
check () { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi; }
run=("${ctr[@]}" run --runc-binary "$sbx")
check "ctr run: output and exit status 3" \
  '[ "$(timeout 30 "${run[@]}" --rm "$img" c1 sh -c "echo hi; exit 3")" = hi ]; [ ${PIPESTATUS[0]} -eq 0 ]; timeout 30 "${run[@]}" --rm "$img" c1b sh -c "exit 3"; [ $? -eq 3 ]'
timeout 30 "${run[@]}" -d "$img" c2 sleep 100 > /dev/null
check "ctr run -d: the task runs" '"${ctr[@]}" task ls | grep -q "^c2 .*RUNNING"'
check "ctr task exec joins it" '[ "$(timeout 20 "${ctr[@]}" task exec --exec-id e1 c2 sh -c "echo \$\$")" != "" ]'
check "ctr task kill -s SIGKILL stops it" 'timeout 20 "${ctr[@]}" task kill -s SIGKILL c2; sleep 0.5; "${ctr[@]}" task ls | grep -q "^c2 .*STOPPED"'
check "ctr task delete and container rm" 'timeout 20 "${ctr[@]}" task delete c2 > /dev/null && "${ctr[@]}" container rm c2'
check "ctr run -t: the workload's stdio is a terminal" 'timeout 30 script -qc "${run[*]} --rm -t $img c3 tty" /dev/null < /dev/null | grep -q "/dev/pts/0"'
echo "1..$n"
[ "$failed" -eq 0 ]
