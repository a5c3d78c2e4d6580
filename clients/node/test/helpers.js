// Shared by the tests: the real binary, a fresh workspace, a marker process finder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const binary = process.env.SBX_OCI;
if (!binary) throw new Error('SBX_OCI: set it to the built sbx-oci binary');

export function workspace(t) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sbx-node-test-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A sleep whose argument no other process has, so the host can find it.
export function markerSeconds() {
  return `${100000 + Math.floor(Math.random() * 800000)}.${randomBytes(2).readUInt16BE()}`;
}

export function markerAlive(marker) {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.split('\0').includes(marker)) return true;
  }
  return false;
}

export async function waitFor(test, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
