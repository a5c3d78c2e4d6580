// One tool call in a fresh sandbox: the policy and the ceiling the library
// composes, written to a private directory (the command's stdin is its own,
// so the policy cannot come on stdin), run with `run --policy`, the outcome
// read back, the directory removed.
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeConfig, composeCeiling, resolveWorkspace } from './config.js';
import { binaryPath, stateRoot, freshId, makePrivateDir, removeDir } from './paths.js';
import { spawnSbx, lastLine } from './spawn.js';
import { watchAbort } from './abort.js';
import { SbxError, SbxAbortError } from './errors.js';

async function readOutcome(path) {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  }
}

function writeJson(path, value) {
  return writeFile(path, JSON.stringify(value), { mode: 0o600 });
}

export async function run(opts) {
  const workspace = resolveWorkspace(opts.workspace);
  const config = composeConfig(opts, workspace);
  const ceiling = composeCeiling(opts.ceiling, workspace);
  if (opts.signal?.aborted) throw new SbxAbortError(undefined, null);
  const dir = await makePrivateDir();
  try {
    await writeJson(join(dir, 'config.json'), config);
    await writeJson(join(dir, 'ceiling.json'), ceiling);
    const outcomePath = join(dir, 'outcome.json');
    const args = ['--root', stateRoot(opts.root), '--ceiling', join(dir, 'ceiling.json'),
      'run', '--policy', join(dir, 'config.json'), '--outcome', outcomePath, freshId('run')];
    const env = { ...process.env, ...opts.env };
    const { child, done } = spawnSbx(binaryPath(opts.binary), args, { ...opts, env });
    const abort = watchAbort(child, opts.signal, opts.killGraceMs);
    let result;
    try {
      result = await done;
    } catch (e) {
      throw new SbxError(`cannot start ${binaryPath(opts.binary)}: ${e.message}`);
    } finally {
      abort.detach();
    }
    const json = await readOutcome(outcomePath);
    const outcome = json && { ...json, exitStatus: result.status, stdout: result.stdout, stderr: result.stderr };
    if (abort.aborted) throw new SbxAbortError(outcome, result.status);
    if (!outcome)
      throw new SbxError(lastLine(result.stderrTail) || `sbx-oci exited with status ${result.status} and no outcome`,
        { status: result.status });
    return outcome;
  } finally {
    await removeDir(dir);
  }
}
