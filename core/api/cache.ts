/**
 * Read cache keyed by the engine's applied state height, plus coalescing of identical in-flight reads.
 * Quote v2 serves from in-memory state at the applied tip, so a read is valid exactly as long as the state
 * height it was taken at: a new height drops everything. Values are cloned in and out, so a caller that
 * sorts or edits its result never changes what the next caller gets.
 */

/**
 * A deep copy of a read's value. Reads are plain data (objects, arrays, strings, numbers, bigint, booleans,
 * null): copied directly, which is some 15x faster than structuredClone on a bin list (structuredClone
 * serializes every bigint). Anything else (a Map, a Date, a class instance) goes through structuredClone.
 */
export function cloneData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
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

export class HeightCache {
  private height: number | undefined;
  private readonly entries = new Map<string, unknown>();

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

  /** A copy of the entry for `key` at `height`, or undefined. */
  get<T>(height: number, key: string): T | undefined {
    if (height !== this.height || !this.entries.has(key)) return undefined;
    return cloneData(this.entries.get(key)) as T;
  }

  /** Stores a copy of `value` when `height` is still the current one. */
  set(height: number, key: string, value: unknown): void {
    if (height === this.height) this.entries.set(key, cloneData(value));
  }

  clear(): void {
    this.entries.clear();
    this.height = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Joins identical concurrent operations: one runs, the others share its outcome. */
export class InFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  /** Runs `start` unless an operation under `key` is running; `onJoin` fires when a caller joins one. */
  run<T>(key: string, start: () => Promise<T>, onJoin: () => void): Promise<T> {
    let shared = this.running.get(key) as Promise<T> | undefined;
    if (shared) onJoin();
    else {
      shared = start().finally(() => this.running.delete(key));
      this.running.set(key, shared);
    }
    // Every caller, the first included, gets its own copy, as cache hits do.
    return shared.then((v) => cloneData(v));
  }

  get size(): number {
    return this.running.size;
  }
}
