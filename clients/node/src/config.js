// Compose the OCI config and the operator ceiling from a caller's options.
// Pure: no I/O, so what the library asks of sbx-oci can be read here at once.
import { realpathSync } from 'node:fs';

const MODES = ['read-only', 'workspace-write', 'danger-full-access'];
const NETWORKS = ['deny', 'loopback', 'allow'];

// The names an agent sandbox takes from the caller with no approval (the
// binary's own allow-list, README "Environment"); any other name needs the
// operator's "env:NAME" token.
const DEFAULT_ENV = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'NO_COLOR'];

export function isDefaultEnv(name) {
  return DEFAULT_ENV.includes(name) || name.startsWith('LC_');
}

function check(name, value, allowed) {
  if (value !== undefined && !allowed.includes(value))
    throw new TypeError(`${name}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
}

function checkArgv(argv) {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string'))
    throw new TypeError('argv: expected a non-empty array of strings');
}

// The workspace as the ceiling will resolve it, so the config names the same path.
export function resolveWorkspace(workspace) {
  if (workspace === undefined) return undefined;
  return realpathSync(workspace);
}

function resources(limits) {
  const r = {};
  if (limits.memoryBytes !== undefined) r.memory = { limit: limits.memoryBytes };
  if (limits.pids !== undefined) r.pids = { limit: limits.pids };
  return Object.keys(r).length ? { resources: r } : undefined;
}

// The sandbox's policy: the host read-only, the workspace writable by mode,
// the caller's env names passed through sbx.env.allow (values travel in the
// environment of sbx-oci, never in a file).
export function composeConfig(opts, workspace) {
  checkArgv(opts.argv);
  check('mode', opts.mode, MODES);
  check('network', opts.network, NETWORKS);
  const limits = opts.limits || {};
  const sbx = {
    mode: opts.mode || (workspace ? 'workspace-write' : 'read-only'),
    network: opts.network || 'deny',
    env: { mode: 'allow-list', allow: Object.keys(opts.env || {}).filter((n) => !isDefaultEnv(n)) },
  };
  if (workspace) sbx.workspace = workspace;
  if (limits.wallClockSeconds !== undefined) sbx.limits = { wallClockSeconds: limits.wallClockSeconds };
  const config = {
    ociVersion: '1.2.0',
    root: { path: '/', readonly: true },
    process: { args: opts.argv, cwd: opts.cwd || workspace || '/', env: [] },
    sbx,
  };
  const linux = resources(limits);
  if (linux) config.linux = linux;
  return config;
}

// The operator's side: the caller's workspace is the only one, and nothing is
// approved that the caller did not list.
export function composeCeiling(ceiling = {}, workspace) {
  check('ceiling.maxMode', ceiling.maxMode, MODES);
  check('ceiling.maxNetwork', ceiling.maxNetwork, NETWORKS);
  const c = { workspaces: workspace ? [workspace] : [] };
  if (ceiling.maxMode) c.maxMode = ceiling.maxMode;
  c.maxNetwork = ceiling.maxNetwork || 'deny';
  c.approve = [...(ceiling.approve || [])];
  return c;
}

// An `exec --process` file: exactly this environment reaches the command.
export function composeProcess(argv, env, cwd) {
  checkArgv(argv);
  return { args: argv, cwd, env: Object.entries(env).map(([k, v]) => `${k}=${v}`) };
}
