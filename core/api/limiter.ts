/**
 * Client-side rate limiter: at most `limit` requests in any window of `windowMs`, counted the way the
 * server sees them. A request holds its slot while in flight and is then stamped with the time its answer
 * arrived; the server saw it no later than that, so a request sent a full window after the stamp can never
 * share the server's window with it, whatever the latency. (A token bucket stamped at send time could: a
 * slow first burst and a prompt second one land inside one server second, and the server answers 429.)
 * Waiters are served first come, first served; a waiter whose signal aborts leaves the queue at once (a
 * cancelled read never waits for, nor takes, a slot).
 *
 * The server's own word overrides the configured limit (`grant`): the limit it states (X-RateLimit-Limit)
 * replaces ours, up or down; when it counts more requests in its window than we sent (X-RateLimit-Remaining
 * lower than ours: another process on the same IP), the difference occupies our window too; a Retry-After
 * holds every waiter until it has passed. With `probeFirst`, only one request is out until the first answer
 * has told what the server grants, so a server granting less than the default never sees a burst above it.
 *
 * A wait is bounded (`maxWaitMs`, the client's MAX_PACING_WAIT_MS): a request whose turn, by what is known
 * now (answers in the window, a Retry-After), would come later than that after it asked is refused at once
 * with a 'rate-limited' ApiError that names the wait, never held for it (a service answering
 * `X-RateLimit-Remaining: 0` on every answer would otherwise hold each read a whole window, silently). A
 * wait of a second or more is told as it starts (`onWait`), so a person sees why nothing moves.
 */
import { ApiError, cancelledError } from './errors';

interface RateLimiterOptions {
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
  /** Admit a single request until the first answer arrived (and with it the server's grant, if any). */
  probeFirst?: boolean;
  /** Longest wait for a slot, from asking; a longer one is refused at once ('rate-limited'). Default: none. */
  maxWaitMs?: number;
  /** Hears each wait of WAIT_TOLD_MS or more as it starts: its length and why. */
  onWait?: (ms: number, why: string) => void;
  /** Who is paced, for messages ("the service", "the node"). */
  name?: string;
}

/**
 * The longest a request waits for pacing (docs/guarantees.md, Rate limits): a service's window is a second
 * and a Retry-After is followed up to 5 s, so only a node's minute window filled by others, or a grant of
 * nothing left, asks for more; such a read fails 'rate-limited' at once instead.
 */
export const MAX_PACING_WAIT_MS = 15_000;

/** Waits this long or longer are told (onWait). */
export const WAIT_TOLD_MS = 1_000;

/** What a server said about its limit in one answer's headers (absent fields: not said). */
export interface RateGrant {
  /** Requests allowed per window (X-RateLimit-Limit). */
  limit?: number;
  /** Requests left in the server's window after this one (X-RateLimit-Remaining). */
  remaining?: number;
  /** Wait before the next request (Retry-After), in ms. */
  retryAfterMs?: number;
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
  /** Requests that waited because the window was full at the limit (not for the first answer, nor a hold). */
  readonly windowWaits: number;
  /**
   * Applies what the server said in an answer that arrived now, before that request's release. A stated
   * limit replaces the current one; a lower remaining count than ours fills our window; Retry-After holds.
   */
  grant(g: RateGrant): void;
  /** Requests per window now allowed (the configured limit until a server states one). */
  readonly limit: number;
}

/** Grants outside this range are not believed (a header meant for something else, a typo). */
const MAX_BELIEVED_LIMIT = 1_000_000;

/** Reads the rate-limit headers of an answer; values that are not plain non-negative integers are ignored. */
export function grantFromHeaders(
  headers: Record<string, string | string[] | undefined>,
  nowWallMs: number = Date.now(),
): RateGrant {
  const one = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const int = plainInt;
  const g: RateGrant = {};
  const limit = int(one('x-ratelimit-limit'));
  if (limit !== undefined && limit >= 1 && limit <= MAX_BELIEVED_LIMIT) g.limit = limit;
  const remaining = int(one('x-ratelimit-remaining'));
  if (remaining !== undefined) g.remaining = remaining;
  const retry = retryAfterMs(one('retry-after'), nowWallMs);
  if (retry !== undefined) g.retryAfterMs = retry;
  return g;
}

/** A plain non-negative integer of at most 9 digits (spaces around allowed), else undefined. */
function plainInt(v: string | undefined): number | undefined {
  return v !== undefined && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : undefined;
}

/** A Retry-After beyond an hour is held to an hour. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * The one reading of a Retry-After header (the limiter's hold and the transport's retry delay): whole seconds
 * (digits only) or an HTTP date (relative to `nowWallMs`), in ms within 0..1 h; undefined when absent, empty
 * or not understood (then the caller's backoff applies; an empty header is never a 0 ms wait).
 */
export function retryAfterMs(value: string | undefined, nowWallMs: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = plainInt(value);
  // An HTTP date names its day and zone (letters); a bare number that is not whole seconds is not a date.
  const ms =
    seconds !== undefined ? seconds * 1000 : /[A-Za-z]/.test(value) ? Date.parse(value) - nowWallMs : NaN;
  return Number.isFinite(ms) ? Math.max(0, Math.min(ms, MAX_RETRY_AFTER_MS)) : undefined;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the limiter; a non-positive or infinite limit disables limiting. */
export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const now = opts.now ?? (() => performance.now());
  const sleep = opts.sleep ?? realSleep;
  const span = opts.windowMs + (opts.guardMs ?? 0);
  let limit = Math.floor(opts.limit);
  let unlimited = !Number.isFinite(opts.limit) || limit <= 0;
  /** Until the first answer: one request out at a time (probeFirst). */
  let probing = opts.probeFirst === true;
  /** No request starts before this time (a Retry-After). */
  let heldUntil = -Infinity;
  /** Answer times of finished requests still inside the window, oldest first. */
  const finished: number[] = [...(opts.seed ?? [])].sort((a, b) => a - b);
  const queue: Array<{
    askedAt: number;
    seq: number;
    admit: (release: Release) => void;
    refuse: (e: ApiError) => void;
  }> = [];
  let seq = 0;
  /** Waiters up to this sequence number were left queued by a full window. */
  let blockedSeq = -1;
  let windowWaits = 0;
  let inFlight = 0;
  let timerPending = false;
  let delayed = 0;
  const maxWait = opts.maxWaitMs ?? Infinity;
  const name = opts.name ?? 'the server';
  /** What the server last said that filled the window or holds it (for messages). */
  let said = '';

  const release = (): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      probing = false;
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
    if (t < heldUntil) {
      if (queue.length > 0 && !timerPending) wakeAt(heldUntil, t);
      return;
    }
    const cap = unlimited ? Infinity : limit;
    // While probing, one request at a time, and still within the window (seeded requests count).
    while (queue.length > 0 && inFlight + finished.length < cap && !(probing && inFlight > 0)) {
      const waiter = queue.shift() as (typeof queue)[number];
      inFlight++;
      if (t > waiter.askedAt) delayed++;
      if (waiter.seq <= blockedSeq) windowWaits++;
      waiter.admit(release());
    }
    const probeOut = probing && inFlight > 0;
    if (!probeOut) refuseLongWaits(t, cap);
    if (queue.length > 0 && !probeOut) blockedSeq = (queue[queue.length - 1] as (typeof queue)[number]).seq;
    // Full because of finished requests: wake when the oldest leaves the window. (Full because of requests
    // in flight, or the probe out: their release pumps.)
    if (queue.length > 0 && finished.length > 0 && !timerPending && !probeOut) {
      wakeAt((finished[0] as number) + span, t);
    }
  };

  /**
   * Refuses every waiter whose turn, by what is known now, comes later than maxWait after it asked. A
   * waiter's turn is when as many answers have left the window as stand between it and a free slot (answers
   * still in flight could free slots sooner or later: not counted), and never before a Retry-After ends.
   */
  const refuseLongWaits = (t: number, cap: number): void => {
    if (maxWait === Infinity || queue.length === 0) return;
    let ahead = 0;
    for (let i = 0; i < queue.length;) {
      const w = queue[i] as (typeof queue)[number];
      const expire = inFlight + finished.length - cap + ahead;
      const windowTurn =
        expire < 0 ? t : expire < finished.length ? (finished[expire] as number) + span : undefined;
      const turn = windowTurn === undefined ? undefined : Math.max(windowTurn, heldUntil);
      if (turn !== undefined && turn - w.askedAt > maxWait) {
        queue.splice(i, 1);
        const s = Math.ceil((turn - t) / 1000);
        w.refuse(
          new ApiError(
            'rate-limited',
            `${name} paces requests: the next one could go only in ${s} s${said ? ` (${said})` : ''}, ` +
              `more than the ${Math.round(maxWait / 1000)} s dlmm waits at most. Try again later, or ask the ` +
              'operator for a raised limit.',
            { endpoint: '', detail: `wait ${s} s over ${Math.round(maxWait / 1000)} s` },
          ),
        );
        continue;
      }
      ahead++;
      i++;
    }
  };

  const wakeAt = (at: number, t: number): void => {
    if (at - t >= WAIT_TOLD_MS && queue.length > 0)
      opts.onWait?.(at - t, `${name} paces requests${said ? ` (${said})` : ''}`);
    timerPending = true;
    void sleep(Math.max(1, at - t)).then(() => {
      timerPending = false;
      pump();
    });
  };

  const grant = (g: RateGrant): void => {
    const t = now();
    if (g.limit !== undefined) {
      limit = g.limit;
      unlimited = false;
    }
    if (g.remaining !== undefined && !unlimited) {
      while (finished.length > 0 && (finished[0] as number) <= t - span) finished.shift();
      // The server counts limit - remaining requests in its window (this one included, still in flight
      // here). Those we do not know of were sent by others on the same address: they fill our window too,
      // stamped now (later than they really were, so they leave our window no earlier than the server's).
      const unknown = limit - Math.min(g.remaining, limit) - (inFlight + finished.length);
      for (let i = 0; i < unknown; i++) finished.push(t);
      if (unknown > 0) said = `its answer said X-RateLimit-Remaining: ${g.remaining} of ${limit}`;
    }
    if (g.retryAfterMs !== undefined && g.retryAfterMs > 0) {
      heldUntil = Math.max(heldUntil, t + g.retryAfterMs);
      said = `its answer said Retry-After: ${Math.ceil(g.retryAfterMs / 1000)} s`;
    }
    pump();
  };

  return {
    acquire(signal?: AbortSignal): Promise<Release> {
      if (signal?.aborted) return Promise.reject(cancelledError(signal));
      if (unlimited && !probing && heldUntil === -Infinity) return Promise.resolve(() => undefined);
      return new Promise<Release>((admit, reject) => {
        const waiter = {
          askedAt: now(),
          seq: seq++,
          admit: (r: Release) => {
            signal?.removeEventListener('abort', onAbort);
            admit(r);
          },
          refuse: (e: ApiError) => {
            signal?.removeEventListener('abort', onAbort);
            reject(e);
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
    get windowWaits() {
      return windowWaits;
    },
    grant,
    get limit() {
      return unlimited ? Infinity : limit;
    },
  };
}

/** The node's window and guard: its limit is per minute. */
export const NODE_WINDOW_MS = 60_000;
const NODE_GUARD_MS = 100;

/** What paces a node machine-wide: the requests every process made to it recently, on the wall clock. */
export interface NodePacing {
  recentRequests(windowMs: number, now: number): number[];
  recordRequest(at: number): void;
}

/**
 * The limiter of a Stacks node, built once for every client that calls it (the quote engine client's node
 * reads and the core swap API's read-only calls): a minute window on the wall clock, started with the
 * requests other processes made in the last minute and recording its own (`pacing`, the on-disk node
 * store, when configured), so two clients of one node never burst past its limit together.
 */
export function createNodeLimiter(opts: {
  limit: number;
  name?: string;
  maxWaitMs?: number;
  probeFirst?: boolean;
  onWait?: (ms: number, why: string) => void;
  pacing?: NodePacing;
}): RateLimiter {
  const { pacing } = opts;
  return createRateLimiter({
    limit: opts.limit,
    windowMs: NODE_WINDOW_MS,
    guardMs: NODE_GUARD_MS,
    name: opts.name ?? 'the node',
    maxWaitMs: opts.maxWaitMs ?? MAX_PACING_WAIT_MS,
    now: Date.now,
    ...(opts.probeFirst !== undefined ? { probeFirst: opts.probeFirst } : {}),
    ...(opts.onWait ? { onWait: opts.onWait } : {}),
    ...(pacing
      ? {
          seed: pacing.recentRequests(NODE_WINDOW_MS + NODE_GUARD_MS, Date.now()),
          onAnswered: (at: number) => pacing.recordRequest(at),
        }
      : {}),
  });
}
