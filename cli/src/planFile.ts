/**
 * Reading a plan (or any input) file from the command line: the file is opened without blocking and its
 * type and size are taken from the opened file (fstat) before a byte is read, so a FIFO never blocks
 * `dlmm check` (also one swapped in for the plan after a folder walk saw a regular file) and /dev/zero is
 * never read into memory.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

/**
 * Regular files above this are refused unread: plans are parsed up to 1 MiB characters (core/plan/parse.ts
 * PARSE_LIMITS.maxBytes), which UTF-8 writes in at most 3 MiB (3 bytes per UTF-16 unit at most).
 */
const MAX_INPUT_FILE_BYTES = 3 * 1024 * 1024;

/** Why an opened file cannot be read as a plan; undefined when it is a regular file of a readable size. */
function inputFileProblem(st: Stats): string | undefined {
  if (st.isDirectory()) return 'is a folder, not a file (EISDIR)';
  if (!st.isFile()) {
    const kind = st.isFIFO()
      ? 'a FIFO (named pipe)'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'a device'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';
    return `is ${kind}; only regular files are read`;
  }
  if (st.size > MAX_INPUT_FILE_BYTES)
    return `has ${st.size} bytes; files above ${MAX_INPUT_FILE_BYTES} bytes are not read (plans are at most 1 MiB characters: split it)`;
  return undefined;
}

/** A file that was opened but is not read (a FIFO, a device, a folder, too large): `problem` says why. */
export class InputFileRefused extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'InputFileRefused';
  }
}

/**
 * The text of `file`: opened read-only and non-blocking, checked on the opened descriptor (the file read is
 * the file checked), then read. Open errors are thrown as node:fs throws them (ENOENT, EACCES...); a file
 * that is not a regular file of a readable size throws InputFileRefused.
 */
export function readInputFile(file: string): Promise<string> {
  try {
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const problem = inputFileProblem(fstatSync(fd));
      if (problem !== undefined) throw new InputFileRefused(problem);
      return Promise.resolve(readFileSync(fd, 'utf8'));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return Promise.reject(e as Error);
  }
}
