// Where things are: the binary, the per-user state root, fresh ids and
// private temp directories.
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function binaryPath(binary) {
  return binary || process.env.SBX_OCI || 'sbx-oci';
}

// The same default as the binary's own, passed explicitly so a session's
// later commands find their container even if the environment changes.
export function stateRoot(root) {
  if (root) return root;
  const uid = process.getuid();
  if (uid === 0) return '/run/sbx-oci';
  const xdg = process.env.XDG_RUNTIME_DIR;
  return xdg ? join(xdg, 'sbx-oci') : `/tmp/sbx-oci-${uid}`;
}

export function freshId(kind) {
  return `sbx-node-${kind}-${process.pid}-${randomBytes(6).toString('hex')}`;
}

export async function makePrivateDir() {
  const dir = await mkdtemp(join(tmpdir(), 'sbx-oci-node-'));
  await chmod(dir, 0o700);
  return dir;
}

export function removeDir(dir) {
  return rm(dir, { recursive: true, force: true });
}
