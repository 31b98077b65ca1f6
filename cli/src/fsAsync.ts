/**
 * The file calls of the CLI's common path (reading plans and input files, walking folders), as promises
 * (their callers await them) but made with Node's synchronous calls: an asynchronous one starts libuv's
 * thread pool on its first use, four threads the main thread waits for one by one (1–4 ms of every
 * `dlmm check`, more on a loaded machine), for reads that are local and small (input files are at most a few
 * MiB and are checked to be regular files before they are read: cli/src/planFile.ts). `node:fs/promises`
 * would also load about twenty more of Node's own modules. Same calls, same results, same errors.
 */
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';

/** `f()`'s result, or its error as a rejection. */
function settle<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

export function stat(path: string): Promise<Stats> {
  return settle(() => statSync(path));
}

export function readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]> {
  return settle(() => readdirSync(path, options));
}
