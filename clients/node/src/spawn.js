// Start sbx-oci and wire the command's stdio the way the caller asked:
// 'capture' (default), 'inherit', 'ignore', a Writable, or a callback per chunk.
import { spawn } from 'node:child_process';

const TAIL = 4096;

function childStdio(opts) {
  const stdin = opts.stdin;
  const inMode = stdin === undefined || stdin === 'ignore' ? 'ignore' : stdin === 'inherit' ? 'inherit' : 'pipe';
  const out = (s) => (s === 'inherit' ? 'inherit' : s === 'ignore' ? 'ignore' : 'pipe');
  return [inMode, out(opts.stdout), out(opts.stderr)];
}

function feedStdin(child, stdin) {
  if (!child.stdin) return;
  child.stdin.on('error', () => {}); // the command may exit without reading it
  if (typeof stdin === 'string' || Buffer.isBuffer(stdin)) child.stdin.end(stdin);
  else stdin.pipe(child.stdin);
}

// Collect one output stream; the last few KiB of stderr are kept in every
// mode, so an error of sbx-oci's own can be reported in one line.
function drain(stream, sink, keepTail) {
  const chunks = [];
  let tail = Buffer.alloc(0);
  if (stream) {
    stream.on('data', (chunk) => {
      if (keepTail) tail = Buffer.concat([tail, chunk]).subarray(-TAIL);
      if (sink === undefined || sink === 'capture') chunks.push(chunk);
      else if (typeof sink === 'function') sink(chunk);
      else sink.write(chunk);
    });
  }
  const captured = () => (sink === undefined || sink === 'capture' ? Buffer.concat(chunks).toString() : undefined);
  return { captured, tail: () => tail.toString() };
}

// A process the command left behind in a session can hold the pipes open
// after sbx-oci exec returned: read on for this long, then stop.
const DRAIN_MS = 250;

// Resolves when sbx-oci has exited and its pipes are read; rejects only
// when it could not be started at all.
export function spawnSbx(binary, args, opts = {}) {
  const child = spawn(binary, args, { stdio: childStdio(opts), env: opts.env });
  feedStdin(child, opts.stdin);
  const out = drain(child.stdout, opts.stdout, false);
  const err = drain(child.stderr, opts.stderr, true);
  child.on('exit', () => {
    setTimeout(() => [child.stdout, child.stderr].forEach((s) => s?.destroy()), DRAIN_MS).unref();
  });
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) =>
      resolve({ status, signal, stdout: out.captured(), stderr: err.captured(), stderrTail: err.tail() }));
  });
  return { child, done };
}

// The last line sbx-oci wrote about itself ("sbx-oci: ..."), else the last line.
export function lastLine(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const own = lines.filter((l) => l.startsWith('sbx-oci: '));
  const line = own.length ? own[own.length - 1] : lines[lines.length - 1];
  return line ? line.replace(/^sbx-oci: /, '') : '';
}
