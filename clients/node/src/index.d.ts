import type { Readable, Writable } from 'node:stream';

export type Mode = 'read-only' | 'workspace-write' | 'danger-full-access';
export type Network = 'deny' | 'loopback' | 'allow';
export type Level = 'full' | 'partial' | 'none';

/** Where a stream of the command goes: captured into the result (default), or passed through. */
export type OutputSink = 'capture' | 'inherit' | 'ignore' | Writable | ((chunk: Buffer) => void);
export type InputSource = 'ignore' | 'inherit' | string | Buffer | Readable;

/** What the operator allows: the ceiling the composed config must fit under. */
export interface CeilingOptions {
  /** Default: "workspace-write" with a workspace, else "read-only". */
  maxMode?: Mode;
  /** Default: "deny". */
  maxNetwork?: Network;
  /** Approval tokens, e.g. "env:CARGO_HOME" (README "Trust"). */
  approve?: string[];
}

export interface Limits {
  wallClockSeconds?: number;
  memoryBytes?: number;
  pids?: number;
}

export interface StdioOptions {
  stdin?: InputSource;
  stdout?: OutputSink;
  stderr?: OutputSink;
  /** Ends the sandbox: SIGTERM to sbx-oci, SIGKILL after killGraceMs. */
  signal?: AbortSignal;
  /** Default 3000. */
  killGraceMs?: number;
}

export interface SandboxOptions {
  /** The one directory the sandbox may write (also the ceiling's workspace). */
  workspace?: string;
  mode?: Mode;
  network?: Network;
  /** Variables to pass; names outside the default allow-list need "env:NAME" approval. */
  env?: Record<string, string>;
  /** Absolute working directory; default the workspace, else "/". */
  cwd?: string;
  limits?: Limits;
  ceiling?: CeilingOptions;
  /** The sbx-oci binary; default $SBX_OCI, else "sbx-oci" on PATH. */
  binary?: string;
  /** The state root; default the binary's per-user default. */
  root?: string;
}

export interface RunOptions extends SandboxOptions, StdioOptions {
  argv: string[];
}

export interface Enforcement {
  level: Level;
  filesystem: Level;
  network: Level;
  mode: Mode;
  networkReach: Network;
  noNewPrivileges: boolean;
  trust: 'ceiling' | 'operator';
  reasons: string[];
  [key: string]: unknown;
}

export interface OutcomeLimits {
  mechanism: 'quota' | 'monitor' | 'none';
  breach: 'none' | 'wall-clock' | 'memory' | 'pids';
  peakMemoryBytes?: number;
  peakProcesses?: number;
  [key: string]: unknown;
}

/** The outcome JSON of `sbx-oci run`, plus what the library adds. */
export interface Outcome {
  /** The outcome document's version (docs/outcome.schema.json): 2 (1 had no 'refused'). */
  version: number;
  outcome: 'exited' | 'signaled' | 'limit' | 'command-not-found' | 'command-not-executable'
    | 'refused' | 'sandbox-failure' | (string & {});
  exitCode?: number;
  signal?: number;
  signalCertain?: boolean;
  reason?: string;
  /** The status the outcome reports. */
  status: number;
  wallTimeMs: number;
  limits: OutcomeLimits;
  /** Absent when the config was refused before the plan was made. */
  enforcement?: Enforcement;
  /** Agents: credential-shaped names not passed, names whose URL password was removed. */
  environment?: { dropped: string[]; redacted: string[] };
  /** The config's keys sbx-oci does not read, as JSON paths. */
  ignoredFields?: string[];
  /** With 'refused': the field the refusal names, as a JSON path (empty: none). */
  refusedFields?: string[];
  /** What the sbx-oci process actually exited with (added by the library). */
  exitStatus: number | null;
  /** Present when captured. */
  stdout?: string;
  stderr?: string;
  [key: string]: unknown;
}

export interface ExecOptions extends StdioOptions {
  env?: Record<string, string>;
  cwd?: string;
}

export interface ExecResult {
  /** The command's exit status (128+N for a signal); sbx-oci's own: 122 usage, 123 no such
   *  container, 121 refused, 125 failure, 126 not executable, 127 not found
   *  (docs/exit-status.md). */
  status: number;
  signal: NodeJS.Signals | null;
  stdout?: string;
  stderr?: string;
}

export declare function run(options: RunOptions): Promise<Outcome>;

export declare class Session {
  constructor(options?: SandboxOptions);
  readonly id: string | undefined;
  /** create + start the sandbox; throws SbxError if sbx-oci refuses. */
  create(): Promise<this>;
  exec(argv: string[], options?: ExecOptions): Promise<ExecResult>;
  /** delete --force; safe to call more than once. */
  close(): Promise<void>;
}

export declare class SbxError extends Error {
  /** sbx-oci's exit status, null when it could not be started. */
  status: number | null;
  outcome?: Outcome;
}

export declare class SbxAbortError extends SbxError {
  name: 'AbortError';
}

/** Options of a fence: the sandbox's own (the same plan), or an existing config file. */
export interface FenceOptions extends Omit<SandboxOptions, 'limits'> {
  /** An existing config.json to fence by, instead of composing one. */
  config?: string;
  /** With `config`: the operator's ceiling file (the config is untrusted). */
  ceilingFile?: string;
}

export type FenceAccess = 'read' | 'write' | 'remove';

/** The policy's answer for one path (`sbx-oci fence check`). */
export interface FenceVerdict {
  path: string;
  access: FenceAccess;
  allowed: boolean;
  /** "granted", or why not: "read-only", "protected-metadata", "credential-store", "symlink", ... */
  rule: string;
  layer?: string;
  host?: string;
  reason: string;
  /** What would allow it; absent when allowed. */
  grant?: string;
}

export interface FenceStat {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  mode: number;
  nlink: number;
  mtime: number;
}

/** Every fence operation, all paths the sandbox's (relative ones from its cwd). */
export declare class Fence {
  readFile(path: string): Promise<Buffer>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  /** Atomic replace in the same directory; a file with another hard link is refused. */
  writeFile(path: string, data: string | Buffer): Promise<void>;
  appendFile(path: string, data: string | Buffer): Promise<void>;
  mkdir(path: string, options?: { mode?: number }): Promise<void>;
  remove(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  stat(path: string): Promise<FenceStat>;
  list(path: string): Promise<string[]>;
  check(path: string, access?: FenceAccess): Promise<FenceVerdict>;
  /** Throws FenceError (with rule and grant) unless a confined process could write PATH. */
  assertWritable(path: string): Promise<FenceVerdict>;
  assertReadable(path: string): Promise<FenceVerdict>;
  close(): Promise<void>;
}

export declare function openFence(options?: FenceOptions): Promise<Fence>;

/** A refusal by the policy (rule set, code "EACCES") or a failed operation (code an errno name). */
export declare class FenceError extends SbxError {
  readonly path: string | undefined;
  readonly rule: string | null;
  readonly code: string | null;
  readonly grant: string | null;
  readonly verdict?: FenceVerdict;
}
