/**
 * The one way files we produce are written (docs/guarantees.md "Output files"): the CLI's `--out` files
 * (export, quote --export, plan), and the wallet's answers files of both the CLI and the editor.
 *
 * - never an input of the run: `outputIsInput` is asked before any work is done (the plan itself, a routers
 *   file: the caller refuses, exit 2);
 * - never through a symbolic link the user did not name: `followLink: false` refuses a link at the path
 *   (names we derive, like answers files); `followLink: true` (a path the user typed) writes the link's
 *   target and keeps the link;
 * - written to a temporary file created exclusively (O_CREAT|O_EXCL, which never follows a link) in the same
 *   folder, flushed, then renamed over the old file: a failure at any step removes the temporary file and
 *   leaves the old content as it was, and the error says what happened.
 *
 * Synchronous node:fs calls: the files are small, and the rename is the one step that makes them visible.
 */
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';

/** Why an output file was not written; `message` says what happened and that the old content is intact. */
export class OutputFileError extends Error {
  constructor(
    message: string,
    /** `refused`: nothing was tried (a link, not a regular file); `failed`: a write step failed. */
    readonly kind: 'refused' | 'failed',
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutputFileError';
  }
}

/** The few file calls the writer makes; tests replace `writeSync` to simulate a disk that fills mid-write. */
export interface OutputFs {
  writeSync: (fd: number, data: Buffer, offset: number, length: number) => number;
}

export interface WriteOptions {
  /** True when the user named this path: a symbolic link there is followed (its target is replaced). */
  followLink: boolean;
  /** Mode of a new file (an existing file keeps its own); 0o666 less the umask by default. */
  mode?: number;
  /** The file is private to the user (the cache): always mode 0600, whatever an existing file had. */
  private?: boolean;
  /**
   * False for a file that may be lost (a cache, rebuilt when unreadable): written and renamed without
   * waiting for the disk (no fsync). Default true: a user's output is on the disk before it replaces anything.
   */
  durable?: boolean;
  /**
   * The name messages give the file, when `path` is one a person would not know it by (a cache file named
   * through its folder's descriptor, core/cacheDir.ts `openCacheFolder`).
   */
  shownAs?: string;
  /** For tests only (see OutputFs). */
  fsCalls?: OutputFs;
}

/**
 * The input among `inputs` that `output` would overwrite (the same file by device and inode, through any
 * link, or the same path), or undefined. A file that does not exist yet is no input.
 */
export function outputIsInput(output: string, inputs: readonly string[]): string | undefined {
  let out: fs.Stats | undefined;
  try {
    out = fs.statSync(output);
  } catch {
    out = undefined;
  }
  for (const input of inputs) {
    if (resolve(input) === resolve(output)) return input;
    if (!out) continue;
    try {
      const st = fs.statSync(input);
      if (st.dev === out.dev && st.ino === out.ino) return input;
    } catch {
      // an input that cannot be stated cannot be overwritten by this output either
    }
  }
  return undefined;
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function why(e: unknown): string {
  const code = codeOf(e);
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is exhausted (EDQUOT)';
    case 'EFBIG':
      return 'the file size limit was reached (EFBIG)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'ENOENT':
      return 'the folder does not exist (ENOENT)';
    default:
      return code ? `the write failed (${code})` : `the write failed (${String((e as Error)?.message ?? e)})`;
  }
}

/**
 * Writes `data` to `path` as described above. Throws OutputFileError; on any error the file at `path` (or
 * the link's target) is exactly as it was before the call.
 */
export function writeOutputFile(path: string, data: string | Buffer, opts: WriteOptions): void {
  const shown = opts.shownAs ?? path;
  let target = resolve(path);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(target);
  } catch (e) {
    if (codeOf(e) !== 'ENOENT')
      throw new OutputFileError(`${shown}: ${why(e)}; nothing was written`, 'failed');
  }
  if (existing?.isSymbolicLink()) {
    if (!opts.followLink)
      throw new OutputFileError(
        `${shown} is a symbolic link; this file is never written through one (someone else may have placed it): remove the link, then run again`,
        'refused',
      );
    try {
      target = fs.realpathSync(target);
      existing = fs.statSync(target);
    } catch (e) {
      throw new OutputFileError(
        `${shown} is a symbolic link whose target cannot be reached (${codeOf(e) ?? 'error'}); name the file itself`,
        'refused',
      );
    }
  }
  if (existing && !existing.isFile())
    throw new OutputFileError(
      `${shown}: ${existing.isDirectory() ? 'is a folder, not a file (EISDIR)' : 'is not a regular file (a FIFO, device or socket)'}; nothing was written: name a file`,
      'refused',
    );
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const mode = opts.private ? 0o600 : existing ? existing.mode & 0o777 : (opts.mode ?? 0o666);
  const tmp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const keep = existing ? 'the old content is unchanged' : 'no file was created';
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode);
  } catch (e) {
    throw new OutputFileError(
      `${shown}: could not create a temporary file in its folder: ${why(e)}; ${keep}`,
      'failed',
      codeOf(e),
    );
  }
  try {
    if (existing || opts.private) fs.fchmodSync(fd, mode); // the umask applied at creation: keep the old file's mode
    const write = opts.fsCalls?.writeSync ?? fs.writeSync;
    let done = 0;
    while (done < bytes.length) {
      const n = write(fd, bytes, done, bytes.length - done);
      if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      done += n;
    }
    if (opts.durable !== false) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failed; the temporary file goes next
      }
    }
    try {
      fs.unlinkSync(tmp);
    } catch {
      // renamed already, or never created
    }
    throw new OutputFileError(`${shown}: ${why(e)}; ${keep}`, 'failed', codeOf(e));
  }
}
