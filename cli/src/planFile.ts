/**
 * Reading a plan (or any input) file from the command line: the file's type and size are checked before
 * a byte is read, so a FIFO never blocks `dlmm check` and /dev/zero is never read into memory.
 */
import { stat } from './fsAsync';

/**
 * Regular files above this are refused unread: plans are parsed up to 5 MiB characters (core/plan/parse.ts
 * PARSE_LIMITS.maxBytes), which UTF-8 writes in at most 16 MiB.
 */
export const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/** Why `file` cannot be read as a plan; undefined when it is a regular file of a readable size. */
export async function inputFileProblem(file: string): Promise<string | undefined> {
  let st;
  try {
    st = await stat(file);
  } catch {
    return undefined; // the read itself reports it (fileProblem), in the same words as every command
  }
  if (st.isDirectory()) return undefined; // reading it says so (EISDIR), as for every command
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
    return `has ${st.size} bytes; files above ${MAX_INPUT_FILE_BYTES} bytes are not read (plans are at most 5 MiB characters: split it)`;
  return undefined;
}
