import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binary } from './helpers.js';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');

function npmFound() {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// npm pack gives a tarball that installs offline (no dependencies) and runs.
test('npm pack produces an installable package', { skip: !npmFound() && 'npm not found', timeout: 120000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-node-pack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, npm_config_cache: join(dir, 'cache'), npm_config_update_notifier: 'false' };
  execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: pkgDir, env, stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'a tarball was written');
  const app = join(dir, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","type":"module"}');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: app, env, stdio: 'ignore' });
  writeFileSync(join(app, 't.mjs'), `import { run } from 'sbx-oci';
const o = await run({ argv: ['echo', 'packed'], workspace: process.cwd(), binary: ${JSON.stringify(binary)} });
process.stdout.write(o.outcome + ' ' + o.stdout);`);
  assert.equal(execFileSync(process.execPath, ['t.mjs'], { cwd: app }).toString(), 'exited packed\n');
});
