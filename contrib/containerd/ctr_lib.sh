# Sourced by ctr_smoke.sh and tests/integration/k8s_pod.sh: a private
# containerd (its own socket, root and state; the host's is untouched)
# and a busybox image built from the host's static busybox, since no
# registry is needed.  The caller sets D (a scratch directory it owns)
# and calls ctr_stop when done.

# ctr_start: containerd on $D, ready; sets ctr=(ctr -a SOCKET).
ctr_start () {
  R=/run/$(basename "$D")
  local sock=$R/containerd.sock
  cat > "$D/config.toml" <<TOML
version = 2
root = "$D/root"
state = "$R/state"
[grpc]
  address = "$sock"
TOML
  containerd --config "$D/config.toml" > "$D/containerd.log" 2>&1 &
  ctrd=$!
  ctr=(ctr -a "$sock")
  for _ in $(seq 100); do "${ctr[@]}" version > /dev/null 2>&1 && return 0; sleep 0.1; done
  echo "containerd did not answer within 10 s: $(tail -3 "$D/containerd.log")" >&2
  return 1
}

ctr_stop () {
  [ -n "${ctrd:-}" ] && kill "$ctrd" 2>/dev/null && wait "$ctrd" 2>/dev/null
  rm -rf "$D" "${R:-}"
}

# ctr_busybox_image NAME: import busybox-static as the one-layer image
# NAME:1 (an OCI archive made here).
ctr_busybox_image () {
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
  "${ctr[@]}" images import --base-name "$1" "$D/image.tar" > /dev/null
}
