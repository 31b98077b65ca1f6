/**
 * Sliding-window rate limiting (exact: at most `limit` requests in any `windowMs`), one window per
 * client key (IP, or API key). A ring buffer of the last `limit` arrival times per key; each check bisects it
 * (O(log limit)) so the remaining count it reports is exact (sent as X-RateLimit-Remaining).
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

  /** Arrivals (of the last `limit`) inside the window ending now: the times are in order, so bisect. */
  private inWindow(now: number, windowMs: number): number {
    const first = (this.next - this.count + this.limit) % this.limit;
    const at = (i: number): number => this.times[(first + i) % this.limit] as number;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (now - at(mid) >= windowMs) lo = mid + 1;
      else hi = mid;
    }
    return this.count - lo;
  }

  take(now: number, windowMs: number): LimitDecision {
    const used = this.inWindow(now, windowMs);
    if (used < this.limit) {
      // The slot overwritten (when the ring is full) holds an arrival already outside the window.
      this.times[this.next] = now;
      this.next = (this.next + 1) % this.limit;
      if (this.count < this.limit) this.count++;
      return { allowed: true, limit: this.limit, remaining: this.limit - used - 1, retryAfterSeconds: 0 };
    }
    // The window holds `limit` arrivals; the oldest sits at `next` and frees its slot when it leaves.
    const oldest = this.times[this.next] as number;
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
