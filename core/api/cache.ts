/**
 * Read cache keyed by the engine's applied state height, plus coalescing of identical in-flight reads.
 * Quote v2 serves from in-memory state at the applied tip, so a read is valid exactly as long as the state
 * height it was taken at: a new height drops everything. Values are cloned in and out, so a caller that
 * sorts or edits its result never changes what the next caller gets.
 */

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
    return structuredClone(this.entries.get(key)) as T;
  }

  /** Stores a copy of `value` when `height` is still the current one. */
  set(height: number, key: string, value: unknown): void {
    if (height === this.height) this.entries.set(key, structuredClone(value));
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
    return shared.then((v) => structuredClone(v));
  }

  get size(): number {
    return this.running.size;
  }
}
