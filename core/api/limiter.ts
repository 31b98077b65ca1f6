/**
 * Client-side rate limiter: at most `limit` requests in any window of `windowMs`, counted the way the
 * server sees them. A request holds its slot while in flight and is then stamped with the time its answer
 * arrived; the server saw it no later than that, so a request sent a full window after the stamp can never
 * share the server's window with it, whatever the latency. (A token bucket stamped at send time could: a
 * slow first burst and a prompt second one land inside one server second, and the server answers 429.)
 * Waiters are served first come, first served; a waiter whose signal aborts leaves the queue at once (a
 * cancelled read never waits for, nor takes, a slot).
 */
import { cancelledError } from './errors';

export interface RateLimiterOptions {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  /** Extra spacing added to the window (clock granularity). */
  guardMs?: number;
  now?: () => number;
  /** Waits `ms`; injectable so unit tests can drive a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Answer times (in `now`'s clock) of requests made before this limiter existed, e.g. by an earlier
   * process on the machine: they count against the window like this limiter's own.
   */
  seed?: number[];
  /** Called with the answer time of each request this limiter admitted (to pass on to the next process). */
  onAnswered?: (at: number) => void;
}

/** Call when the request's answer has arrived (or it failed); calling again does nothing. */
export type Release = () => void;

export interface RateLimiter {
  /**
   * Resolves when one more request may start; the request must call the returned release when done. When
   * `signal` aborts first, the request leaves the queue and this rejects with a 'cancelled' ApiError.
   */
  acquire(signal?: AbortSignal): Promise<Release>;
  /** Requests waiting for a slot now. */
  readonly waiting: number;
  /** Requests that had to wait for a slot so far. */
  readonly delayed: number;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the limiter; a non-positive or infinite limit disables limiting. */
export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? realSleep;
  const span = opts.windowMs + (opts.guardMs ?? 0);
  const limit = Math.floor(opts.limit);
  const unlimited = !Number.isFinite(opts.limit) || limit <= 0;
  /** Answer times of finished requests still inside the window, oldest first. */
  const finished: number[] = [...(opts.seed ?? [])].sort((a, b) => a - b);
  const queue: Array<{ askedAt: number; admit: (release: Release) => void }> = [];
  let inFlight = 0;
  let timerPending = false;
  let delayed = 0;

  const release = (): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight--;
      const at = now();
      finished.push(at);
      opts.onAnswered?.(at);
      pump();
    };
  };

  const pump = (): void => {
    const t = now();
    while (finished.length > 0 && (finished[0] as number) <= t - span) finished.shift();
    while (queue.length > 0 && inFlight + finished.length < limit) {
      const waiter = queue.shift() as (typeof queue)[number];
      inFlight++;
      if (t > waiter.askedAt) delayed++;
      waiter.admit(release());
    }
    // Full because of finished requests: wake when the oldest leaves the window. (Full because of requests
    // in flight: their release pumps.)
    if (queue.length > 0 && finished.length > 0 && !timerPending) {
      timerPending = true;
      void sleep(Math.max(1, (finished[0] as number) + span - t)).then(() => {
        timerPending = false;
        pump();
      });
    }
  };

  return {
    acquire(signal?: AbortSignal): Promise<Release> {
      if (signal?.aborted) return Promise.reject(cancelledError(signal));
      if (unlimited) return Promise.resolve(() => undefined);
      return new Promise<Release>((admit, reject) => {
        const waiter = {
          askedAt: now(),
          admit: (r: Release) => {
            signal?.removeEventListener('abort', onAbort);
            admit(r);
          },
        };
        const onAbort = (): void => {
          const at = queue.indexOf(waiter);
          if (at < 0) return;
          queue.splice(at, 1);
          reject(cancelledError(signal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
        pump();
      });
    },
    get waiting() {
      return queue.length;
    },
    get delayed() {
      return delayed;
    },
  };
}
