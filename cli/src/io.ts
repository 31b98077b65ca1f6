import { keysFromEnv } from '../../core/text/safe';
import { InputFileRefused, readInputFile } from './planFile';
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';

/** The terminal edge: results to stdout, progress to stderr (docs/cli.md). Injectable for tests. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * Control characters (other than newline and tab) as visible escapes, so that text from a file or an argument
 * cannot move the cursor, clear the screen or retitle the terminal. JSON output is unchanged by it (JSON
 * already escapes them).
 */
export function escapeForTerminal(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) =>
    c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** The process's own terminal edge. The environment and the working directory are read when asked. */
export const processIO: CliIO = {
  out: stdioWriter(1, () => process.stdout),
  err: stdioWriter(2, () => process.stderr),
  get env() {
    return process.env;
  },
  get cwd() {
    return process.cwd();
  },
};

/**
 * Writes escaped text to stdout (fd 1) or stderr (fd 2). On Linux, where Node writes stdout and stderr
 * synchronously whether they are files, pipes or terminals, a plain synchronous write(2) of the same bytes:
 * `process.stdout`/`stderr` would first load Node's whole stream stack (a few ms of every command's start).
 * A write that cannot complete (a non-blocking pipe that is full) hands the rest to the stream, used from then
 * on, so output keeps its order; elsewhere (Windows consoles want UTF-16, macOS pipes are asynchronous) always
 * the stream. A reader that went away (`dlmm check … | head`: EPIPE) or a write that fails otherwise ends the
 * output to that stream quietly, never with a stack trace: the command still finishes and exits with its own
 * status (a failure other than EPIPE is named once on stderr).
 */
function stdioWriter(fd: 1 | 2, stream: () => NodeJS.WriteStream): (text: string) => void {
  let viaStream = process.platform !== 'linux';
  let closed = false;
  let listening = false;
  const close = (e: unknown): void => {
    if (closed) return;
    closed = true;
    const code = (e as { code?: unknown } | undefined)?.code;
    if (code !== 'EPIPE' && fd === 1)
      processIO.err(`dlmm: results could not be written to stdout (${String(code)})\n`);
  };
  return (text) => {
    if (closed) return;
    const bytes = Buffer.from(escapeForTerminal(text), 'utf8');
    let done = 0;
    if (!viaStream) {
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
        return;
      } catch (e) {
        if ((e as { code?: unknown }).code !== 'EAGAIN') return close(e);
        viaStream = true;
      }
    }
    const s = stream();
    if (!listening) {
      listening = true;
      s.on('error', close);
    }
    s.write(done === 0 ? bytes : bytes.subarray(done));
  };
}

/** A usage error: exit status 2 with the message on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command = (args: string[], io: CliIO) => Promise<number>;

/** Why a file could not be read or written, in words (the same in every command). */
export function fileProblem(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file (ENOENT)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EISDIR':
      return 'is a folder, not a file (EISDIR)';
    case 'ENOTDIR':
      return 'a part of the path is not a folder (ENOTDIR)';
    default:
      return typeof code === 'string' ? `cannot be read (${code})` : 'cannot be read';
  }
}

/**
 * Reads a text file named on the command line; any failure is a UsageError (exit 2) that reads the same in
 * every command: `<what> <path>: <why>`.
 */
export async function readTextFile(path: string, cwd: string, what: string): Promise<string> {
  // Type and size of the opened file before a byte is read: a FIFO would block forever, /dev/zero would
  // fill memory.
  try {
    return await readInputFile(resolve(cwd, path));
  } catch (e) {
    throw new UsageError(`${what} ${path}: ${e instanceof InputFileRefused ? e.problem : fileProblem(e)}`);
  }
}

/** The configured keys: DLMM_API_KEY, the core swap API keys and the variable --api-key-env names (argv is never a key). */
export function configuredSecrets(env: CliIO['env'], argv: readonly string[]): string[] {
  // The service key and the core swap API's three keys: the one list in core/text/safe.ts.
  const out = keysFromEnv(env);
  argv.forEach((a, i) => {
    const name =
      a === '--api-key-env' ? argv[i + 1] : a.startsWith('--api-key-env=') ? a.slice(14) : undefined;
    const v = name !== undefined ? env[name] : undefined;
    if (v) out.push(v);
  });
  return out;
}
