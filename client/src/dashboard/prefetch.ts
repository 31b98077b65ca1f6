/**
 * Answers the host starts before the webview asks for them (at panel creation, at the ready handshake), so
 * the engine reads overlap the webview's load instead of following it. Each answer is used at most once,
 * only while fresh, and all are dropped when the engine's state or the plan changes.
 */

/** How long a prefetched answer may wait for its request; older ones are read again. */
export const PREFETCH_TTL_MS = 5_000;

export class Prefetch {
  private readonly entries = new Map<string, { at: number; answer: Promise<unknown> }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts `run` under `key` unless a fresh answer is already there; returns the (shared) answer. */
  start<T>(key: string, run: () => Promise<T>): Promise<T> {
    const have = this.fresh(key);
    if (have) return have as Promise<T>;
    const answer = run();
    // Nobody may ever ask: a failure must not become an unhandled rejection (the asker still sees it).
    answer.catch(() => undefined);
    this.entries.set(key, { at: this.now(), answer });
    return answer;
  }

  /** The fresh answer under `key`, removed so the next request reads again; undefined when none. */
  take(key: string): Promise<unknown> | undefined {
    const have = this.fresh(key);
    this.entries.delete(key);
    return have;
  }

  /** Drops everything (the engine's state or the plan changed). */
  clear(): void {
    this.entries.clear();
  }

  private fresh(key: string): Promise<unknown> | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() - e.at > PREFETCH_TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return e.answer;
  }
}
