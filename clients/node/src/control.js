// Lifecycle commands (create, start, delete) whose output goes to a file, not
// a pipe: a created sandbox inherits create's stdio and would hold a pipe open
// for its whole life.
import { spawn } from 'node:child_process';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { lastLine } from './spawn.js';
import { SbxError } from './errors.js';

function waitExit(child) {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (status, signal) => resolve(status ?? 128 + (signal ? 9 : 0)));
  });
}

// Runs `sbx-oci ARGS`; throws SbxError with its status and last line on failure.
export async function control(binary, args, { dir, env }) {
  const logPath = join(dir, 'control.log');
  const log = await open(logPath, 'w', 0o600);
  let status;
  try {
    status = await waitExit(spawn(binary, args, { stdio: ['ignore', log.fd, log.fd], env }));
  } catch (e) {
    throw new SbxError(`cannot start ${binary}: ${e.message}`);
  } finally {
    await log.close();
  }
  const text = await readFile(logPath, 'utf8');
  await rm(logPath, { force: true });
  if (status !== 0) throw new SbxError(lastLine(text) || `sbx-oci ${args.join(' ')} failed`, { status });
  return text;
}
