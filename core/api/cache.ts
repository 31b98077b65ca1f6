/**
 * Read cache keyed by the engine's applied state height, plus coalescing of identical in-flight reads.
 * Quote v2 serves from in-memory state at the applied tip, so a read is valid exactly as long as the state
 * height it was taken at: a new height drops everything. A value is frozen, deeply, once when it is kept
 * or shared (freezeData), and then served as is: a caller cannot sort or edit what the next caller gets (in
 * strict mode, which all our modules are, such an edit throws). A value that cannot be frozen so (one holding
 * a Map, a Date, a class instance) is cloned in and out instead.
 */
import { cancelledError } from './errors';
import { isJsonDecimal } from './json';

/**
 * A deep copy of a read's value. Reads are plain data (objects, arrays, strings, numbers, bigint, booleans,
 * null): copied directly, which is some 15x faster than structuredClone on a bin list (structuredClone
 * serializes every bigint). Anything else (a Map, a Date, a class instance) goes through structuredClone.
 */
export function cloneData<T>(value: T): T {
  // A number kept as its text (json.ts) is frozen when made: shared, like a primitive.
  if (typeof value !== 'object' || value === null || isJsonDecimal(value)) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneData(value[i] as unknown);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {}; // as structuredClone does, a null prototype becomes Object's
  for (const k of Object.keys(value)) {
    const v = cloneData((value as Record<string, unknown>)[k]);
    // An own '__proto__' key (JSON may carry one) stays a plain property, never the copy's prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as T;
}

/** Values freezeData froze whole (their every object and array frozen). */
const deepFrozen = new WeakSet<object>();

/**
 * Freezes a read's value in place, deeply, when it is plain data (objects, arrays and primitives, as
 * cloneData copies directly) and says whether it is now immutable; false (nothing frozen) for a value
 * holding anything else, which the caller must copy instead. Freezing happens once per value: a value
 * frozen before answers at once.
 */
export function freezeData(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || deepFrozen.has(value)) return true;
  if (!isPlainTree(value, 0)) return false;
  freezeTree(value);
  return true;
}

/** Deeper than any answer of the service: such a value is copied, not walked further. */
const MAX_FREEZE_DEPTH = 64;

function isPlainTree(value: object, depth: number): boolean {
  if (deepFrozen.has(value) || isJsonDecimal(value)) return true;
  if (depth > MAX_FREEZE_DEPTH) return false;
  if (!Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof v === 'object' && v !== null && !isPlainTree(v as object, depth + 1)) return false;
  }
  return true;
}

function freezeTree(value: object): void {
  if (deepFrozen.has(value)) return;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof v === 'object' && v !== null) freezeTree(v as object);
  }
  Object.freeze(value);
  deepFrozen.add(value);
}

/** Whether `value` is a primitive or was frozen whole by freezeData (nothing in it can change). */
export function isFrozenData(value: unknown): boolean {
  return typeof value !== 'object' || value === null || deepFrozen.has(value);
}

/** The value to hand a caller: itself once frozen whole (freezeData), else a copy. */
export function shareData<T>(value: T): T {
  return freezeData(value) ? value : cloneData(value);
}

export class HeightCache {
  private height: number | undefined;
  /** Each value frozen whole (served as is) or, when it cannot be, a copy (served as copies). */
  private readonly entries = new Map<string, { value: unknown; frozen: boolean }>();

  /** The height entries belong to, or undefined while none is known. */
  get currentHeight(): number | undefined {
    return this.height;
  }

  /** Records the engine's height; a different one drops every entry. Returns true when it changed. */
  observeHeight(height: number | null): boolean {
    const next = height ?? undefined;
    if (next === this.height) return false;
    this.entries.clear();
    this.height = next;
    return true;
  }

  /** The entry for `key` at `height` (frozen, or a copy of one that could not be), or undefined. */
  get<T>(height: number, key: string): T | undefined {
    const entry = height === this.height ? this.entries.get(key) : undefined;
    if (!entry) return undefined;
    return (entry.frozen ? entry.value : cloneData(entry.value)) as T;
  }

  /**
   * Keeps `value` when `height` is still the current one: frozen in place, deeply (the caller's value is
   * frozen too: no one may edit it), or, when it cannot be frozen, a copy.
   */
  set(height: number, key: string, value: unknown): void {
    if (height !== this.height) return;
    const frozen = freezeData(value);
    this.entries.set(key, { value: frozen ? value : cloneData(value), frozen });
  }

  clear(): void {
    this.entries.clear();
    this.height = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Operations shared by key: the first caller starts one, later callers join it. A caller may pass an
 * AbortSignal: when it aborts, that caller's promise rejects at once with a 'cancelled' ApiError and it
 * stops counting; the operation itself is aborted (through the signal handed to `start`) only when its last
 * waiter has gone, and is then forgotten, so a later caller starts afresh. A caller without a signal never
 * gives up. With `keepSettled`, a finished operation stays and serves later callers (a session's memo);
 * without it, the key is forgotten as soon as the operation settles (coalescing of reads in flight).
 */
export class SharedRuns<T = unknown> {
  private readonly entries = new Map<string, SharedEntry<T>>();

  constructor(private readonly keepSettled: boolean) {}

  /**
   * `gate`: the caller's gate (see SharedGate): `start` gets the operation's own, open as soon as one of its
   * callers' is (a caller without a gate opens it at once).
   */
  run<R extends T>(
    key: string,
    start: (signal: AbortSignal, gate: SharedGate) => Promise<R>,
    signal?: AbortSignal,
    onJoin?: () => void,
    gate?: Promise<void>,
  ): Promise<R> {
    if (signal?.aborted) return Promise.reject(cancelledError(signal));
    let entry = this.entries.get(key) as SharedEntry<R> | undefined;
    if (entry?.settled) return entry.promise;
    if (entry) {
      onJoin?.();
      entry.gate.add(gate);
    } else entry = this.begin(key, start, gate);
    const shared = entry;
    shared.waiters++;
    if (!signal) return shared.promise;
    return new Promise<R>((resolve, reject) => {
      let done = false;
      const onAbort = (): void => {
        if (done) return;
        done = true;
        reject(cancelledError(signal));
        shared.waiters--;
        if (shared.waiters === 0 && !shared.settled) {
          if (this.entries.get(key) === shared) this.entries.delete(key);
          shared.controller.abort(cancelledError(signal));
        }
      };
      const forget = whenAborted(signal, onAbort);
      shared.promise.then(
        (v) => {
          if (done) return;
          done = true;
          forget();
          resolve(v);
        },
        (e: unknown) => {
          if (done) return;
          done = true;
          forget();
          reject(e);
        },
      );
    });
  }

  /** Operations running or kept. */
  get size(): number {
    return this.entries.size;
  }

  private begin<R extends T>(
    key: string,
    start: (signal: AbortSignal, gate: SharedGate) => Promise<R>,
    callerGate: Promise<void> | undefined,
  ): SharedEntry<R> {
    const controller = new AbortController();
    // The first caller's gate is known before the operation starts (it may reach its request at once).
    const gate = new SharedGate();
    gate.add(callerGate);
    let promise: Promise<R>;
    try {
      promise = start(controller.signal, gate);
    } catch (e) {
      promise = Promise.reject(e);
    }
    const entry: SharedEntry<R> = { promise, controller, waiters: 0, settled: false, gate };
    const settle = (): void => {
      entry.settled = true;
      if (!this.keepSettled && this.entries.get(key) === entry) this.entries.delete(key);
    };
    promise.then(settle, settle);
    this.entries.set(key, entry as unknown as SharedEntry<T>);
    return entry;
  }
}

/**
 * The callbacks waiting for each caller's signal to abort, in the order they came: a signal gets one
 * listener of its own however many reads its caller waits for (a live analysis waits for some fifty at
 * once; a listener each cost more than the memoized reads themselves, and past ten Node warned of a leak
 * on every analysis).
 */
const abortWaiters = new WeakMap<AbortSignal, { set: Set<() => void>; onAbort: () => void }>();

/** Calls `f` once when `signal` aborts; returns what stops that (after which `f` is never called). */
function whenAborted(signal: AbortSignal, f: () => void): () => void {
  let waiting = abortWaiters.get(signal);
  if (!waiting) {
    const set = new Set<() => void>();
    const onAbort = (): void => {
      abortWaiters.delete(signal);
      for (const g of [...set]) g();
    };
    waiting = { set, onAbort };
    abortWaiters.set(signal, waiting);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  const entry = waiting;
  entry.set.add(f);
  return () => {
    entry.set.delete(f);
    // Nobody waits any more: the signal keeps no listener of ours.
    if (entry.set.size === 0 && abortWaiters.get(signal) === entry) {
      abortWaiters.delete(signal);
      signal.removeEventListener('abort', entry.onAbort);
    }
  };
}

interface SharedEntry<T> {
  promise: Promise<T>;
  controller: AbortController;
  gate: SharedGate;
  /** Callers still waiting (a caller without a signal never leaves). */
  waiters: number;
  settled: boolean;
}

/**
 * The gate of an operation shared by several callers, each of which may hold it (a language-server run
 * whose debounce holds: it may read what is in memory, but sends nothing yet): open as soon as one caller's
 * gate opens, or a caller without one joins. Only what would reach the network waits for it (`until`).
 */
export class SharedGate {
  private open = false;
  private resolve: (() => void) | undefined;
  private promise: Promise<void> | undefined;

  /** A caller's gate: undefined is an open one. */
  add(gate: Promise<void> | undefined): void {
    if (this.open) return;
    if (gate === undefined) this.release();
    else void gate.then(this.release, this.release);
  }

  /** Resolves when the gate opens; undefined when it is open. */
  get until(): Promise<void> | undefined {
    if (this.open) return undefined;
    return (this.promise ??= new Promise<void>((resolve) => (this.resolve = resolve)));
  }

  private readonly release = (): void => {
    this.open = true;
    this.resolve?.();
  };
}

/**
 * Waits for `gate` (nothing when undefined); rejects with a 'cancelled' ApiError as soon as `signal` aborts,
 * so a caller that gave up never waits for a gate that will not open.
 */
export function passGate(
  gate: Promise<void> | undefined,
  signal: AbortSignal | undefined,
): Promise<void> | undefined {
  if (gate === undefined) return undefined;
  if (!signal) return gate;
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise<void>((resolve, reject) => {
    const forget = whenAborted(signal, () => reject(cancelledError(signal)));
    gate.then(
      () => {
        forget();
        resolve();
      },
      () => {
        forget();
        resolve();
      },
    );
  });
}

/** Joins identical concurrent operations: one runs, the others share its outcome (see SharedRuns). */
export class InFlight {
  private readonly runs = new SharedRuns(false);

  /**
   * Runs `start` unless an operation under `key` is running; `onJoin` fires when a caller joins one. With a
   * `signal`, the caller may give up (see SharedRuns): the read is aborted when no caller is left.
   */
  run<T>(
    key: string,
    start: (signal: AbortSignal, gate: SharedGate) => Promise<T>,
    onJoin: () => void,
    signal?: AbortSignal,
    gate?: Promise<void>,
  ): Promise<T> {
    // Every caller, the first included, gets the value frozen (or, when it cannot be, its own copy), as
    // cache hits do.
    return this.runs.run(key, start, signal, onJoin, gate).then((v) => shareData(v));
  }

  get size(): number {
    return this.runs.size;
  }
}
