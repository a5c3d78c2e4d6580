// A sandbox that lives across calls: `create` once (a long-lived `sleep
// infinity` as its pid 1), `exec` per call, `close` to end it. Calls share
// the sandbox's filesystem view, its private /tmp, network namespace, limits
// and process namespace; each call gets exactly the environment given here.
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { constants } from 'node:os';
import { composeConfig, composeCeiling, composeProcess, resolveWorkspace, isDefaultEnv } from './config.js';
import { binaryPath, stateRoot, freshId, makePrivateDir, removeDir } from './paths.js';
import { control } from './control.js';
import { spawnSbx } from './spawn.js';
import { watchAbort } from './abort.js';
import { SbxError, SbxAbortError } from './errors.js';

function pick(env, test) {
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && test(k)));
}

export class Session {
  #opts; #dir; #id; #workspace; #calls = 0; #base; #approved;

  constructor(opts = {}) {
    this.#opts = opts;
  }

  get id() {
    return this.#id;
  }

  #global() {
    return ['--root', stateRoot(this.#opts.root)];
  }

  async create() {
    if (this.#dir) throw new SbxError('session: create() was already called');
    const o = this.#opts;
    const workspace = resolveWorkspace(o.workspace);
    this.#workspace = workspace;
    const config = composeConfig({ ...o, argv: ['sleep', 'infinity'] }, workspace);
    const ceiling = composeCeiling(o.ceiling, workspace);
    this.#approved = ceiling.approve;
    this.#base = { ...pick(process.env, isDefaultEnv), ...(o.env || {}) };
    this.#dir = await makePrivateDir();
    this.#id = freshId('session');
    const env = { ...process.env, ...o.env };
    try {
      await writeFile(join(this.#dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
      await writeFile(join(this.#dir, 'ceiling.json'), JSON.stringify(ceiling), { mode: 0o600 });
      const c = ['--ceiling', join(this.#dir, 'ceiling.json')];
      await control(binaryPath(o.binary), [...this.#global(), ...c, 'create', '--bundle', this.#dir, this.#id], { dir: this.#dir, env });
      await control(binaryPath(o.binary), [...this.#global(), 'start', this.#id], { dir: this.#dir, env });
    } catch (e) {
      await this.close();
      throw e;
    }
    return this;
  }

  // The binary's exec passes the environment it is given unchecked; the
  // library holds each call to the approvals the session was created with.
  #checkEnv(env) {
    for (const name of Object.keys(env))
      if (!isDefaultEnv(name) && !(name in (this.#opts.env || {})) && !this.#approved.includes(`env:${name}`))
        throw new SbxError(`env.${name}: not approved: add "env:${name}" to the ceiling's approve list`);
  }

  async exec(argv, opts = {}) {
    if (!this.#dir) throw new SbxError('session: call create() first');
    const env = opts.env || {};
    this.#checkEnv(env);
    const proc = composeProcess(argv, { ...this.#base, ...env }, opts.cwd || this.#workspace || '/');
    const path = join(this.#dir, `process-${++this.#calls}.json`);
    await writeFile(path, JSON.stringify(proc), { mode: 0o600 });
    try {
      const args = [...this.#global(), 'exec', '--process', path, this.#id];
      // opts.env is the command's, in the process file; sbx-oci gets the caller's.
      const { child, done } = spawnSbx(binaryPath(this.#opts.binary), args, { ...opts, env: process.env });
      const abort = watchAbort(child, opts.signal, opts.killGraceMs);
      const r = await done.catch((e) => {
        throw new SbxError(`cannot start ${binaryPath(this.#opts.binary)}: ${e.message}`);
      }).finally(abort.detach);
      const status = r.status ?? 128 + (constants.signals[r.signal] || 0);
      const result = { status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
      if (abort.aborted) throw new SbxAbortError(undefined, result.status);
      return result;
    } finally {
      await rm(path, { force: true });
    }
  }

  // Ends every process of the sandbox and removes its state; safe to call twice.
  async close() {
    if (!this.#dir) return;
    const dir = this.#dir;
    try {
      await control(binaryPath(this.#opts.binary), [...this.#global(), 'delete', '--force', this.#id], { dir, env: process.env });
    } finally {
      this.#dir = undefined;
      await removeDir(dir);
    }
  }
}
