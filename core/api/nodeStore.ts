/**
 * The machine-wide record of node read-only facts: a small JSON file per node endpoint under the cache
 * directory, holding the answers of bin reads (`get-bin-balances`, `get-total-supply`) stamped with the
 * engine's applied state height (and token balances, `get-balance`), and the answer times of recent node
 * requests. A bin's shares at a given
 * applied height never change, so every process on the machine (each `dlmm` command, the language
 * server) reads a (pool, bin) from the node at most once per height; a new height drops every entry. The
 * request times let a new process continue the 500-per-minute pacing where the previous one left it.
 *
 * Only public chain data is stored: no API key, no header, no URL (the file is named by a hash of the
 * node endpoint). A missing, unreadable or foreign file is an empty store; write failures are ignored
 * (the store is an optimisation; the node remains the source).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir, explicitCacheDir } from '../cacheDir';
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

const FORMAT = 1;
/** Entries kept per endpoint (a pool has at most 1001 bins; a few pools fit). */
const MAX_ENTRIES = 8192;

export interface NodeStore {
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
  entries: Record<string, { okay: boolean; result?: string }>;
  requests: number[];
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

function readShape(file: string): FileShape {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<FileShape>;
    if (raw.format !== FORMAT || typeof raw.entries !== 'object' || raw.entries === null) return emptyShape();
    const entries: FileShape['entries'] = {};
    for (const [k, v] of Object.entries(raw.entries)) {
      if (v && typeof v.okay === 'boolean' && (v.result === undefined || typeof v.result === 'string'))
        entries[k] = { okay: v.okay, ...(v.result !== undefined ? { result: v.result } : {}) };
    }
    return {
      format: FORMAT,
      height: typeof raw.height === 'number' && Number.isInteger(raw.height) ? raw.height : null,
      entries,
      requests: Array.isArray(raw.requests) ? raw.requests.filter((t) => typeof t === 'number') : [],
    };
  } catch {
    return emptyShape();
  }
}

/**
 * Opens (or starts) the store of `nodeUrl` under `dir`. The service's pacing uses the same file shape
 * with no entries (`prefix: 'service'`, a short horizon).
 */
export function openNodeStore(
  dir: string,
  nodeUrl: string,
  log?: (line: string) => void,
  opts: { prefix?: string; horizonMs?: number } = {},
): NodeStore {
  const file = join(dir, `${opts.prefix ?? 'node'}-${endpointId(nodeUrl)}.json`);
  const horizonMs = opts.horizonMs ?? 120_000;
  const mtime = (): number => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return -1;
    }
  };
  let seen = mtime();
  let data = readShape(file);
  /** Request times recorded here and not yet written (times are whole ms: equal ones are distinct requests). */
  let pending: number[] = [];
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let warned = false;

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
        const disk = readShape(file);
        if (disk.height === height) {
          if (data.height !== height) data = { ...data, height, entries: {} };
          data.entries = { ...disk.entries, ...data.entries };
          data.requests = disk.requests;
          v = data.entries[key];
        }
      }
      return v ? { ...v } : undefined;
    },
    set(height, key, value) {
      if (data.height !== height) data = { ...data, height, entries: {} };
      if (Object.keys(data.entries).length >= MAX_ENTRIES) data.entries = {};
      data.entries[key] = {
        okay: value.okay,
        ...(value.result !== undefined ? { result: value.result } : {}),
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
      const disk = readShape(file);
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
      try {
        mkdirSync(dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(merged));
        renameSync(tmp, file);
        seen = mtime();
      } catch (e) {
        if (!warned) log?.(`node cache not written (${e instanceof Error ? e.message : String(e)})`);
        warned = true;
      }
    },
  };
  return store;
}
