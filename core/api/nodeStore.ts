/**
 * The machine-wide record of node read-only facts: a small JSON file per node endpoint under the cache
 * directory, holding the answers of bin reads (`get-bin-balances`, `get-total-supply`) stamped with the
 * engine's applied state height (and token balances, `get-balance`), and the answer times of recent node
 * requests. A bin's shares at a given applied height never change, so every process on the machine (each
 * `dlmm` command, the language server) reads a (pool, bin) from the node at most once per height; a new
 * height drops every entry. The request times let a new process continue the 500-per-minute pacing where
 * the previous one left it.
 *
 * Nothing in the file is believed unchecked (docs/guarantees.md "The cache believes nothing it cannot vouch
 * for"): each record carries a SHA-256 over the endpoint, the height, the read's key and the answer exactly
 * as the node gave it (its Clarity hex); a record whose sum does not match is dropped and the fact read from
 * the node again. The folder and the file are used only when they are this user's and no one else may write
 * them (core/cacheDir.ts), the folder checked again at each use on the descriptor the file is named through;
 * the file is opened without following links or blocking and read only when it is a
 * regular file; writes go to a private temporary file created exclusively and renamed (core/files/output.ts).
 *
 * Only public chain data is stored: no API key, no header, no URL (the file is named by a hash of the
 * node endpoint). A missing, unreadable or foreign file is an empty store; write failures are reported once
 * and otherwise ignored (the store is an optimisation; the node remains the source).
 */
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import {
  cacheFolderProblem,
  defaultCacheDir,
  explicitCacheDir,
  openCacheFolder,
  readCacheFile,
} from '../cacheDir';
import { writeOutputFile } from '../files/output';
import type { ReadOnlyResult } from './schemas';

export { defaultCacheDir };

/**
 * Read-only functions whose answer is a fact of (contract, arguments) at an applied state height: a pool's
 * bin reads, and `get-balance` (a pool's shares of a user, a SIP-010 token's balance of a principal, the
 * STX wrapper's micro-STX), so a sender's balance of a token is read once per height per machine.
 */
export const BIN_FACT_FUNCTIONS: ReadonlySet<string> = new Set([
  'get-bin-balances',
  'get-total-supply',
  'get-balance',
]);

/** 2: each entry carries its checksum (`sum`); a file of format 1 is read as empty. */
const FORMAT = 2;
/** Entries kept per endpoint (a pool has at most 1001 bins; a few pools fit). */
const MAX_ENTRIES = 8192;

interface NodeStore {
  /** The stored answer of `key` at `height`, or undefined. */
  get(height: number, key: string): ReadOnlyResult | undefined;
  /** Stores an answer taken at `height`; a height other than the stored one drops every entry first. */
  set(height: number, key: string, value: ReadOnlyResult): void;
  /** Answer times (ms since epoch) of node requests inside the last `windowMs`, oldest first. */
  recentRequests(windowMs: number, now: number): number[];
  /** A node request was answered at `at` (ms since epoch). */
  recordRequest(at: number): void;
  /** Writes pending changes now (merged with what other processes wrote meanwhile). */
  flush(): void;
  /** The file behind the store (tests look at it). */
  readonly file: string;
}

interface FileShape {
  format: number;
  height: number | null;
  entries: Record<string, Entry>;
  requests: number[];
}

interface Entry {
  okay: boolean;
  result?: string;
  /** SHA-256 (hex) of the endpoint, the height, the key and the answer: see entrySum. */
  sum: string;
}

/** The record's checksum: binds the answer, exactly as the node gave it, to its endpoint, height and read. */
function entrySum(
  endpoint: string,
  height: number,
  key: string,
  okay: boolean,
  result: string | undefined,
): string {
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, endpoint, height, key, okay, result ?? null]))
    .digest('hex');
}

/**
 * The cache directory for node facts: DLMM_CACHE_DIR when set, else the per-user default. A loopback node
 * (the simulator, whose state can be reset or replaced at the same height) is cached on disk only when
 * DLMM_CACHE_DIR names a directory explicitly. `off` disables the disk cache.
 */
export function nodeCacheDir(
  env: Record<string, string | undefined>,
  nodeUrl: string | undefined,
): string | undefined {
  const explicit = explicitCacheDir(env);
  if (explicit === 'off') return undefined;
  if (explicit) return explicit;
  if (nodeUrl === undefined || isLoopback(nodeUrl)) return undefined;
  return defaultCacheDir(env);
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The endpoint's identity for the file name: origin and path, without credentials, query or fragment. */
function endpointId(nodeUrl: string): string {
  let id = nodeUrl;
  try {
    const u = new URL(nodeUrl);
    id = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    /* hashed as given */
  }
  return createHash('sha256').update(id).digest('hex').slice(0, 24);
}

function emptyShape(): FileShape {
  return { format: FORMAT, height: null, entries: {}, requests: [] };
}

/**
 * The file's content, every record checked: a record whose checksum does not match its endpoint, height,
 * key and answer is dropped (`dropped` counts them), so the fact is read from the node again. A file that
 * must not be believed at all (a link, a FIFO, another user's, writable by others) is empty, with `problem`.
 */
function readShape(file: string, endpoint: string): FileShape & { dropped: number; problem?: string } {
  const { text, problem } = readCacheFile(file);
  if (text === undefined)
    return { ...emptyShape(), dropped: 0, ...(problem !== undefined ? { problem } : {}) };
  let dropped = 0;
  try {
    const raw = JSON.parse(text) as Partial<FileShape>;
    if (raw.format !== FORMAT || typeof raw.entries !== 'object' || raw.entries === null)
      return { ...emptyShape(), dropped };
    const height = typeof raw.height === 'number' && Number.isSafeInteger(raw.height) ? raw.height : null;
    const entries: FileShape['entries'] = Object.create(null) as FileShape['entries'];
    for (const [k, v] of Object.entries(raw.entries as Record<string, Partial<Entry> | null>)) {
      const ok =
        height !== null &&
        v !== null &&
        typeof v === 'object' &&
        typeof v.okay === 'boolean' &&
        (v.result === undefined || typeof v.result === 'string') &&
        typeof v.sum === 'string' &&
        v.sum === entrySum(endpoint, height, k, v.okay, v.result);
      if (ok)
        entries[k] = {
          okay: v.okay as boolean,
          ...(v.result !== undefined ? { result: v.result } : {}),
          sum: v.sum as string,
        };
      else dropped++;
    }
    return {
      format: FORMAT,
      height,
      entries,
      requests: Array.isArray(raw.requests)
        ? raw.requests.filter((t): t is number => typeof t === 'number' && Number.isFinite(t))
        : [],
      dropped,
    };
  } catch {
    return { ...emptyShape(), dropped };
  }
}

/**
 * Opens (or starts) the store of `nodeUrl` under `dir`. The service's pacing uses the same file shape
 * with no entries (`prefix: 'service'`, a short horizon). `notice` hears, once each, why the folder or the
 * file is not used or not written (a line for a person); the store then works in memory only.
 */
export function openNodeStore(
  dir: string,
  nodeUrl: string,
  notice?: (line: string) => void,
  opts: { prefix?: string; horizonMs?: number } = {},
): NodeStore {
  const endpoint = endpointId(nodeUrl);
  const name = `${opts.prefix ?? 'node'}-${endpoint}.json`;
  const file = join(dir, name);
  const horizonMs = opts.horizonMs ?? 120_000;
  const said = new Set<string>();
  const say = (line: string): void => {
    if (said.has(line)) return;
    said.add(line);
    notice?.(line);
  };
  const folderProblem = cacheFolderProblem(dir);
  if (folderProblem !== undefined)
    say(
      `the cache folder ${dir} is not used: ${folderProblem}; make it a folder of yours that only you can write (chmod 700), or set DLMM_CACHE_DIR to another folder (or off)`,
    );
  const onDisk = folderProblem === undefined;
  /**
   * `use` on the file's path inside the cache folder, opened and checked again for this use and named through
   * its descriptor (core/cacheDir.ts openCacheFolder): a link swapped in for the folder since the last use
   * redirects nothing. Undefined when the folder must not be used now (said once).
   */
  const inFolder = <T>(use: (path: string) => T): T | undefined => {
    if (!onDisk) return undefined;
    const folder = openCacheFolder(dir);
    if ('problem' in folder) {
      say(
        `the cache folder ${dir} is not used now: ${folder.problem}; make it a folder of yours that only you can write (chmod 700), or set DLMM_CACHE_DIR to another folder (or off)`,
      );
      return undefined;
    }
    try {
      return folder.unchanged() ? use(folder.at(name)) : undefined;
    } finally {
      folder.close();
    }
  };
  const mtime = (): number =>
    inFolder((path) => {
      try {
        return lstatSync(path).mtimeMs;
      } catch {
        return -1;
      }
    }) ?? -1;
  const read = (): FileShape => {
    const shape = inFolder((path) => readShape(path, endpoint));
    if (!shape) return emptyShape();
    if (shape.problem !== undefined)
      say(`the cache file ${file} is not used: ${shape.problem}; delete it (it is rebuilt)`);
    return { format: shape.format, height: shape.height, entries: shape.entries, requests: shape.requests };
  };
  let seen = mtime();
  let data = read();
  /** Request times recorded here and not yet written (times are whole ms: equal ones are distinct requests). */
  let pending: number[] = [];
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (): void => {
    dirty = true;
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      store.flush();
    }, 100);
    timer.unref?.();
  };

  const store: NodeStore = {
    file,
    get(height, key) {
      let v = data.height === height ? data.entries[key] : undefined;
      if (!v && mtime() !== seen) {
        // Another process wrote since: take its entries for this height (ours are kept).
        seen = mtime();
        const disk = read();
        if (disk.height === height) {
          if (data.height !== height) data = { ...data, height, entries: {} };
          data.entries = { ...disk.entries, ...data.entries };
          data.requests = disk.requests;
          v = data.entries[key];
        }
      }
      return v ? { okay: v.okay, ...(v.result !== undefined ? { result: v.result } : {}) } : undefined;
    },
    set(height, key, value) {
      if (data.height !== height) data = { ...data, height, entries: {} };
      if (Object.keys(data.entries).length >= MAX_ENTRIES) data.entries = {};
      data.entries[key] = {
        okay: value.okay,
        ...(value.result !== undefined ? { result: value.result } : {}),
        sum: entrySum(endpoint, height, key, value.okay, value.result),
      };
      schedule();
    },
    recentRequests(windowMs, now) {
      return [...data.requests, ...pending]
        .filter((t) => t > now - windowMs && t <= now)
        .sort((a, b) => a - b);
    },
    recordRequest(at) {
      pending.push(at);
      schedule();
    },
    flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!dirty) return;
      dirty = false;
      // Merge with what other processes wrote since we read: same height -> union; newer height wins.
      const disk = read();
      const merged: FileShape = emptyShape();
      const heights = [disk.height, data.height].filter((h): h is number => h !== null);
      merged.height = heights.length > 0 ? Math.max(...heights) : null;
      if (disk.height === merged.height) Object.assign(merged.entries, disk.entries);
      if (data.height === merged.height) Object.assign(merged.entries, data.entries);
      // The file already holds every request written so far (ours included): add only the pending ones.
      const horizon = Date.now() - horizonMs;
      merged.requests = [...disk.requests, ...pending].filter((t) => t > horizon).sort((a, b) => a - b);
      pending = [];
      data = merged;
      if (!onDisk) return;
      try {
        // A private temporary file created exclusively beside it, then renamed: never through a link, and in
        // the folder that was checked (inFolder). Not synced to the disk: a file a crash left short reads as
        // an empty store (each entry is summed).
        inFolder((path) =>
          writeOutputFile(path, JSON.stringify(merged), {
            followLink: false,
            private: true,
            durable: false,
            shownAs: file,
          }),
        );
        seen = mtime();
      } catch (e) {
        say(`the cache file ${file} was not written: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  };
  return store;
}
