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
  /** The outcome document's version (docs/outcome.schema.json): 1. */
  version: number;
  outcome: 'exited' | 'signaled' | 'limit' | 'command-not-found' | 'command-not-executable'
    | 'sandbox-failure' | (string & {});
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
   *  container, 125 failure, 126 not executable, 127 not found (docs/exit-status.md). */
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
