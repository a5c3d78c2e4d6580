import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, symlinkSync, existsSync } from 'node:fs';
import { openFence, FenceError } from '../src/index.js';
import { binary, workspace } from './helpers.js';

test('fence: writes and reads inside the workspace, atomically', async (t) => {
  const ws = workspace(t);
  const fence = await openFence({ binary, workspace: ws });
  t.after(() => fence.close());
  await fence.writeFile(`${ws}/a.txt`, 'one');
  await fence.appendFile('a.txt', '+two'); // relative: the sandbox's cwd, the workspace
  assert.equal(readFileSync(`${ws}/a.txt`, 'utf8'), 'one+two');
  assert.equal(await fence.readFile(`${ws}/a.txt`, 'utf8'), 'one+two');
  await fence.mkdir(`${ws}/d`);
  await fence.rename(`${ws}/a.txt`, `${ws}/d/b.txt`);
  assert.deepEqual(await fence.list(`${ws}/d`), ['b.txt']);
  assert.equal((await fence.stat(`${ws}/d/b.txt`)).size, 7);
  await fence.remove(`${ws}/d/b.txt`);
  assert.equal(existsSync(`${ws}/d/b.txt`), false);
});

test('fence: refusals carry the rule and the grant; other failures an errno code', async (t) => {
  const ws = workspace(t);
  mkdirSync(`${ws}/.git/hooks`, { recursive: true });
  writeFileSync(`${ws}/.git/config`, '[core]\n');
  const outside = workspace(t);
  symlinkSync(outside, `${ws}/out`);
  const fence = await openFence({ binary, workspace: ws });
  t.after(() => fence.close());
  await assert.rejects(fence.writeFile(`${ws}/.git/config`, 'x'),
    (e) => e instanceof FenceError && e.rule === 'protected-metadata' && e.code === 'EACCES' && e.status === 3
      && /allowed by/.test(e.message) && typeof e.grant === 'string');
  await assert.rejects(fence.writeFile(`${ws}/out/f`, 'x'), (e) => e.rule === 'symlink');
  assert.equal(existsSync(`${outside}/f`), false);
  await assert.rejects(fence.assertWritable('/etc/passwd'), (e) => e.rule === 'read-only');
  await assert.rejects(fence.readFile(`${ws}/nothere`), (e) => e.rule === null && e.code === 'ENOENT');
  const ok = await fence.assertWritable(`${ws}/new`);
  assert.equal(ok.allowed, true);
  assert.equal((await fence.check(`${ws}/.git/config`, 'read')).allowed, true);
});
