/**
 * Sliding-window rate limiting (exact: at most `limit` requests in any `windowMs`), one window per
 * client key (IP, or API key). A ring buffer of the last `limit` arrival times per key makes each check O(1).
 */

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a request would be accepted (>= 1 when refused). */
  retryAfterSeconds: number;
}

class Window {
  private times: Float64Array;
  private next = 0;
  private count = 0;

  constructor(readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  take(now: number, windowMs: number): LimitDecision {
    if (this.count < this.limit) {
      this.times[this.next] = now;
      this.next = (this.next + 1) % this.limit;
      this.count++;
      return { allowed: true, limit: this.limit, remaining: this.limit - this.count, retryAfterSeconds: 0 };
    }
    // The oldest of the last `limit` arrivals sits at `next`; beyond the window its slot frees up.
    const oldest = this.times[this.next] as number;
    if (now - oldest >= windowMs) {
      this.times[this.next] = now;
      this.next = (this.next + 1) % this.limit;
      return { allowed: true, limit: this.limit, remaining: 0, retryAfterSeconds: 0 };
    }
    const waitMs = oldest + windowMs - now;
    return {
      allowed: false,
      limit: this.limit,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    };
  }
}

/** Per-key sliding windows of `windowMs`; the clock is passed in for tests. */
export class RateLimiter {
  private windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one request of `key` against `limit`; refused requests are not counted. */
  take(key: string, limit: number): LimitDecision {
    let w = this.windows.get(key);
    if (!w || w.limit !== limit) {
      // Bound memory if many distinct clients appear: forget everyone (limits are per window anyway).
      if (this.windows.size > 10_000) this.windows.clear();
      w = new Window(limit);
      this.windows.set(key, w);
    }
    return w.take(this.now(), this.windowMs);
  }

  reset(): void {
    this.windows.clear();
  }
}
