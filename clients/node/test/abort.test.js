import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, Session } from '../src/index.js';
import { binary, workspace, markerSeconds, markerAlive, waitFor } from './helpers.js';

// Two sleeps that ignore SIGTERM, one of them in a session of its own: the
// abort must end the whole tree, not the process sbx-oci started.
function stubbornTree(marker) {
  return ['sh', '-c', `trap '' TERM; setsid sleep ${marker} & sleep ${marker}; wait`];
}

test('an AbortSignal ends the whole sandbox and rejects with the outcome', { timeout: 30000 }, async (t) => {
  const marker = markerSeconds();
  const ac = new AbortController();
  const call = run({ binary, workspace: workspace(t), argv: stubbornTree(marker), signal: ac.signal, killGraceMs: 2000 });
  assert.ok(await waitFor(() => markerAlive(marker)), 'the marker process started');
  ac.abort();
  await assert.rejects(call, (e) => e.name === 'AbortError');
  assert.ok(await waitFor(() => !markerAlive(marker), 3000), 'no marker process is left');
});

test('an already aborted signal runs nothing', async (t) => {
  await assert.rejects(run({ binary, workspace: workspace(t), argv: ['true'], signal: AbortSignal.abort() }),
    (e) => e.name === 'AbortError');
});

test('closing a session ends what its calls left running', { timeout: 30000 }, async (t) => {
  const marker = markerSeconds();
  const s = await new Session({ binary, workspace: workspace(t) }).create();
  t.after(() => s.close());
  const r = await s.exec(['sh', '-c', `setsid sleep ${marker} >/dev/null 2>&1 & echo started`]);
  assert.equal(r.stdout, 'started\n');
  assert.ok(await waitFor(() => markerAlive(marker)), 'the marker process started');
  await s.close();
  assert.ok(await waitFor(() => !markerAlive(marker), 3000), 'no marker process is left');
});

// sbx-oci exec forwards the SIGTERM the abort sends to the command it
// started (before, SIGTERM ended only sbx-oci exec and the command ran on
// inside the session): well within the grace period, before any SIGKILL.
test('aborting a session exec ends its command, not only sbx-oci exec', { timeout: 30000 }, async (t) => {
  const marker = markerSeconds();
  const s = await new Session({ binary, workspace: workspace(t) }).create();
  t.after(() => s.close());
  const ac = new AbortController();
  const call = s.exec(['sleep', String(marker)], { signal: ac.signal, killGraceMs: 20000 });
  assert.ok(await waitFor(() => markerAlive(marker)), 'the marker process started');
  ac.abort();
  await assert.rejects(call, (e) => e.name === 'AbortError' && e.status === 143);
  assert.ok(await waitFor(() => !markerAlive(marker), 3000), 'the command is gone');
});
