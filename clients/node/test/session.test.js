import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Session, SbxError } from '../src/index.js';
import { binary, workspace } from './helpers.js';

test('a session: create once, exec per call, close', async (t) => {
  const ws = workspace(t);
  const s = await new Session({ binary, workspace: ws }).create();
  t.after(() => s.close());
  const w = await s.exec(['sh', '-c', 'echo one > a.txt && touch /etc/sbx-node-x 2>/dev/null || echo refused']);
  assert.equal(w.status, 0);
  assert.equal(w.stdout, 'refused\n');
  const r = await s.exec(['cat', 'a.txt']);
  assert.equal(r.stdout, 'one\n');
  assert.equal(readFileSync(`${ws}/a.txt`, 'utf8'), 'one\n');
  const st = JSON.parse(execFileSync(binary, ['state', s.id]).toString());
  assert.equal(st['org.sbx-oci'].enforcement.trust, 'ceiling');
  const failed = await s.exec(['sh', '-c', 'exit 7']);
  assert.equal(failed.status, 7);
  await s.close();
  assert.throws(() => execFileSync(binary, ['state', s.id], { stdio: 'pipe' }));
  await assert.rejects(s.exec(['true']), SbxError);
});

test('exec takes env and cwd, and only approved names', async (t) => {
  const ws = workspace(t);
  const s = await new Session({ binary, workspace: ws, ceiling: { approve: ['env:SBX_OK'] } }).create();
  t.after(() => s.close());
  const r = await s.exec(['sh', '-c', 'echo "$SBX_OK $LANG"; pwd'], { env: { SBX_OK: 'yes', LANG: 'C' }, cwd: '/' });
  assert.equal(r.stdout, 'yes C\n/\n');
  await assert.rejects(s.exec(['true'], { env: { SBX_NOT_OK: 'x' } }), /env:SBX_NOT_OK/);
});

test('a session the ceiling refuses is an SbxError with the status and one line', async (t) => {
  const s = new Session({ binary, workspace: workspace(t), network: 'allow' });
  await assert.rejects(s.create(), (e) => e instanceof SbxError && e.status !== 0 && /maxNetwork/.test(e.message)
    && !e.message.includes('\n'));
});

test('an exec returns when its command does, even if what it left holds stdout', { timeout: 30000 }, async (t) => {
  const s = await new Session({ binary, workspace: workspace(t) }).create();
  t.after(() => s.close());
  const started = Date.now();
  const r = await s.exec(['sh', '-c', 'sleep 60 & echo back']);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, 'back\n');
  assert.ok(Date.now() - started < 10000);
});
