import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { run, SbxError } from '../src/index.js';
import { binary, workspace } from './helpers.js';

test('a write inside the workspace succeeds, outside it fails, under the ceiling', async (t) => {
  const ws = workspace(t);
  const outside = `/var/tmp/sbx-node-${randomBytes(6).toString('hex')}`;
  const o = await run({ binary, workspace: ws,
    argv: ['sh', '-c', `echo in > in.txt; echo out > ${outside} || echo refused`] });
  assert.equal(o.outcome, 'exited');
  assert.equal(o.exitCode, 0);
  assert.equal(readFileSync(`${ws}/in.txt`, 'utf8'), 'in\n');
  assert.equal(existsSync(outside), false);
  assert.match(o.stdout, /refused/);
  assert.equal(o.enforcement.trust, 'ceiling');
  assert.equal(o.enforcement.mode, 'workspace-write');
});

test('network deny: no inet socket can be made', async (t) => {
  const py = 'import socket\ntry:\n socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n print("made")\nexcept OSError as e:\n print("refused", e.errno)';
  const o = await run({ binary, workspace: workspace(t), network: 'deny', argv: ['python3', '-c', py] });
  assert.equal(o.outcome, 'exited');
  assert.match(o.stdout, /^refused/);
  assert.equal(o.enforcement.networkReach, 'deny');
});

test('a variable is passed only when the ceiling approves it', async (t) => {
  const ws = workspace(t);
  const argv = ['sh', '-c', 'echo "v=$SBX_NODE_VAR"'];
  const env = { SBX_NODE_VAR: 'hello' };
  const refused = await run({ binary, workspace: ws, argv, env });
  assert.equal(refused.outcome, 'refused');
  assert.equal(refused.status, 121);
  assert.deepEqual(refused.refusedFields, ['sbx.env.allow[0]']);
  assert.match(refused.reason, /env:SBX_NODE_VAR/);
  assert.equal(refused.stdout, '');
  const passed = await run({ binary, workspace: ws, argv, env, ceiling: { approve: ['env:SBX_NODE_VAR'] } });
  assert.equal(passed.stdout, 'v=hello\n');
});

test('the wall-clock limit ends a sleep with outcome "limit"', async (t) => {
  const started = Date.now();
  const o = await run({ binary, workspace: workspace(t), argv: ['sleep', '60'], limits: { wallClockSeconds: 1 } });
  assert.equal(o.outcome, 'limit');
  assert.equal(o.limits.breach, 'wall-clock');
  assert.ok(Date.now() - started < 20000);
});

test('memory and pids limits reach the sandbox', async (t) => {
  const o = await run({ binary, workspace: workspace(t), argv: ['true'],
    limits: { memoryBytes: 256 * 1024 * 1024, pids: 64 } });
  assert.equal(o.outcome, 'exited');
  assert.notEqual(o.limits.mechanism, 'none');
});

test('a missing command is not an exit of the command', async (t) => {
  const o = await run({ binary, workspace: workspace(t), argv: ['sbx-no-such-command'] });
  assert.equal(o.outcome, 'command-not-found');
  assert.equal(o.status, 127, 'the outcome agrees with the exit status');
  assert.equal(o.exitStatus, 127);
  assert.equal(o.version, 2);
  assert.match(o.reason, /not found/);
});

test('stdin is fed and stdout streams to a callback', async (t) => {
  const chunks = [];
  const o = await run({ binary, workspace: workspace(t), argv: ['cat'], stdin: 'piped\n',
    stdout: (c) => chunks.push(c) });
  assert.equal(o.exitCode, 0);
  assert.equal(o.stdout, undefined);
  assert.equal(Buffer.concat(chunks).toString(), 'piped\n');
});

test('a missing binary is an SbxError with no status', async (t) => {
  await assert.rejects(run({ binary: '/nonexistent/sbx-oci', workspace: workspace(t), argv: ['true'] }),
    (e) => e instanceof SbxError && e.status === null && /cannot start/.test(e.message));
});
