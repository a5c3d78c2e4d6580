#!/bin/bash
# ctr_smoke.sh [SBX_OCI]: containerd's own runc shim (io.containerd.runc.v2)
# driving sbx-oci through `ctr run --runc-binary`, against a private
# containerd (its own socket, root and state; the host's is untouched) and
# a busybox image built here from the host's static busybox.
# Needs root, containerd (Debian package), busybox-static, python3.
set -eu
sbx=$(readlink -f "${1:-$(dirname "$0")/../../build/sbx-oci}")
D=$(mktemp -d /var/tmp/sbx-ctr.XXXXXX)
chmod 755 "$D"
R=/run/$(basename "$D")
sock=$R/containerd.sock
cat > "$D/config.toml" <<TOML
version = 2
root = "$D/root"
state = "$R/state"
[grpc]
  address = "$sock"
TOML
containerd --config "$D/config.toml" > "$D/containerd.log" 2>&1 &
ctrd=$!
cleanup () { kill "$ctrd"; wait "$ctrd" 2>/dev/null; rm -rf "$D" "$R"; }
trap cleanup EXIT
ctr=(ctr -a "$sock")
for _ in $(seq 50); do "${ctr[@]}" version > /dev/null 2>&1 && break; sleep 0.1; done

# image: busybox-static as a one-layer OCI archive
mkdir -p "$D/rootfs/bin" "$D/rootfs/tmp" "$D/rootfs/proc" "$D/rootfs/dev"
chmod 755 "$D/rootfs"
cp /bin/busybox "$D/rootfs/bin/busybox"
for a in $(/bin/busybox --list); do [ -e "$D/rootfs/bin/$a" ] || ln -s busybox "$D/rootfs/bin/$a"; done
tar --numeric-owner --owner=0 --group=0 -C "$D/rootfs" -cf "$D/layer.tar" .
python3 - "$D" <<'PY'
import hashlib, json, os, sys, tarfile
d = sys.argv[1]
oci = os.path.join(d, "oci"); blobs = os.path.join(oci, "blobs", "sha256")
os.makedirs(blobs)
def blob(data, media):
    h = hashlib.sha256(data).hexdigest()
    open(os.path.join(blobs, h), "wb").write(data)
    return {"mediaType": media, "digest": "sha256:" + h, "size": len(data)}
layer_data = open(os.path.join(d, "layer.tar"), "rb").read()
layer = blob(layer_data, "application/vnd.oci.image.layer.v1.tar")
config = blob(json.dumps({"architecture": "amd64", "os": "linux",
    "config": {"Env": ["PATH=/bin"], "Cmd": ["/bin/sh"]},
    "rootfs": {"type": "layers", "diff_ids": [layer["digest"]]}}).encode(),
    "application/vnd.oci.image.config.v1+json")
manifest = blob(json.dumps({"schemaVersion": 2, "config": config,
    "layers": [layer]}).encode(), "application/vnd.oci.image.manifest.v1+json")
manifest["annotations"] = {"org.opencontainers.image.ref.name": "1"}
json.dump({"schemaVersion": 2, "manifests": [manifest]}, open(os.path.join(oci, "index.json"), "w"))
json.dump({"imageLayoutVersion": "1.0.0"}, open(os.path.join(oci, "oci-layout"), "w"))
with tarfile.open(os.path.join(d, "image.tar"), "w") as t:
    t.add(oci, arcname=".")
PY
img=localhost/sbx-ctr-busybox:1
"${ctr[@]}" images import --base-name localhost/sbx-ctr-busybox "$D/image.tar" > /dev/null

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
