// The fence: the sandbox's policy for the file tools the orchestrator runs in
// its own process (docs/fence.md).  Each call is `sbx-oci fence OP`, which
// resolves the same plan a sandbox of the same options would get and acts on
// the path beneath the granted layer's descriptor; the verdict of a refusal
// comes back as JSON on descriptor 3 and becomes one FenceError.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { composeConfig, composeCeiling, resolveWorkspace } from './config.js';
import { binaryPath, stateRoot, makePrivateDir, removeDir } from './paths.js';
import { SbxError } from './errors.js';

// A refusal by the policy (`rule` set, e.g. "protected-metadata", with the
// `grant` that would allow it) or a failure of the operation (`code` an errno
// name, e.g. "ENOENT").  `status` is sbx-oci's exit status: 3 for a refusal.
export class FenceError extends SbxError {
  constructor(message, { status = null, path, rule = null, code = null, grant = null, verdict } = {}) {
    super(message, { status });
    this.name = 'FenceError';
    this.path = path;
    this.rule = rule;
    this.code = code ?? (rule ? 'EACCES' : null);
    this.grant = grant;
    this.verdict = verdict;
  }
}

const DENIED = 3;

function collect(stream) {
  const chunks = [];
  stream?.on('data', (c) => chunks.push(c));
  return () => Buffer.concat(chunks);
}

function lastLine(text) {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1].replace(/^sbx-oci: /, '');
}

export class Fence {
  #binary;
  #globals;
  #config;
  #dir;
  #env;

  constructor({ binary, globals, config, dir, env }) {
    this.#binary = binary;
    this.#globals = globals;
    this.#config = config;
    this.#dir = dir;
    this.#env = env;
  }

  // One `sbx-oci fence OP`: resolves to { stdout (Buffer), verdicts }, or
  // rejects with a FenceError.  `allowDenied`: for check, a refusal is a result.
  #call(op, args, { input, allowDenied = false } = {}) {
    const argv = [...this.#globals, 'fence', op, '--config', this.#config, '--verdict-fd', '3', ...args];
    const child = spawn(this.#binary, argv, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: this.#env });
    const out = collect(child.stdout);
    const err = collect(child.stderr);
    const verdictFd = collect(child.stdio[3]);
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
    return new Promise((resolve, reject) => {
      child.on('error', (e) => reject(new FenceError(`cannot start ${this.#binary}: ${e.message}`)));
      child.on('close', (status) => {
        const verdicts = verdictFd().toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
        if (status === 0 || (allowDenied && status === DENIED)) return resolve({ stdout: out(), verdicts });
        const v = verdicts[0] || {};
        reject(new FenceError(lastLine(err().toString()) || `sbx-oci fence exited with status ${status}`, {
          status, path: v.path ?? args[0], rule: v.rule ?? null, code: v.error ?? null, grant: v.grant ?? null,
          verdict: v.rule ? v : undefined,
        }));
      });
    });
  }

  async readFile(path, encoding) {
    const { stdout } = await this.#call('read', [path]);
    return encoding ? stdout.toString(encoding) : stdout;
  }

  async writeFile(path, data) {
    await this.#call('write', [path], { input: data });
  }

  async appendFile(path, data) {
    await this.#call('append', [path], { input: data });
  }

  async mkdir(path, { mode } = {}) {
    await this.#call('mkdir', mode === undefined ? [path] : ['--mode', mode.toString(8), path]);
  }

  async remove(path) {
    await this.#call('remove', [path]);
  }

  async rename(from, to) {
    await this.#call('rename', [from, to]);
  }

  async stat(path) {
    return JSON.parse((await this.#call('stat', [path])).stdout.toString());
  }

  async list(path) {
    return JSON.parse((await this.#call('list', [path])).stdout.toString());
  }

  // The policy's verdict for PATH ('read', 'write' or 'remove'), refused or not.
  async check(path, access = 'write') {
    const { verdicts } = await this.#call('check', ['--access', access, path], { allowDenied: true });
    return verdicts[0];
  }

  async #assert(path, access) {
    const v = await this.check(path, access);
    if (!v.allowed)
      throw new FenceError(`fence: ${access} ${v.path} denied by ${v.rule} (${v.reason}); allowed by: ${v.grant}`,
        { status: DENIED, path: v.path, rule: v.rule, grant: v.grant, verdict: v });
    return v;
  }

  assertWritable(path) {
    return this.#assert(path, 'write');
  }

  assertReadable(path) {
    return this.#assert(path, 'read');
  }

  // The private copies of the config and ceiling go.
  async close() {
    if (this.#dir) await removeDir(this.#dir);
    this.#dir = undefined;
  }
}

// A fence over the options a sandbox would take (workspace, mode, ceiling,
// ...), or over an existing config file (`config`, with `ceilingFile` when it
// is untrusted).
export async function openFence(opts = {}) {
  const binary = binaryPath(opts.binary);
  const globals = ['--root', stateRoot(opts.root)];
  const env = { ...process.env, ...opts.env };
  if (opts.config) {
    if (opts.ceilingFile) globals.push('--ceiling', opts.ceilingFile);
    return new Fence({ binary, globals, config: opts.config, env });
  }
  const workspace = resolveWorkspace(opts.workspace);
  const config = composeConfig({ ...opts, argv: opts.argv || ['true'] }, workspace);
  const ceiling = composeCeiling(opts.ceiling, workspace);
  const dir = await makePrivateDir();
  await writeFile(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  await writeFile(join(dir, 'ceiling.json'), JSON.stringify(ceiling), { mode: 0o600 });
  globals.push('--ceiling', join(dir, 'ceiling.json'));
  return new Fence({ binary, globals, config: join(dir, 'config.json'), dir, env });
}
