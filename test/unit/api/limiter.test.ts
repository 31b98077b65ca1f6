import { strict as assert } from 'node:assert';
import { isApiError, isCancelled } from '../../../core/api/errors';
import { MAX_PACING_WAIT_MS, createRateLimiter, grantFromHeaders } from '../../../core/api/limiter';

/**
 * A fake clock with fake timers: a sleep is parked until everything else has settled, then the clock jumps
 * to the earliest due timer. So the limiter runs instantly and deterministically.
 */
function fakeClock() {
  let t = 0;
  const sleeps: number[] = [];
  const timers: Array<{ due: number; fire: () => void }> = [];
  let driving = false;
  const drive = async () => {
    if (driving) return;
    driving = true;
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (timers.length === 0) break;
      timers.sort((a, b) => a.due - b.due);
      const next = timers.shift() as (typeof timers)[number];
      t = Math.max(t, next.due);
      next.fire();
    }
    driving = false;
  };
  return {
    now: () => t,
    sleep: (ms: number) =>
      new Promise<void>((fire) => {
        sleeps.push(ms);
        timers.push({ due: t + ms, fire });
        void drive();
      }),
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
  };
}

/** Largest number of times within any window of `span` ms. */
function maxInWindow(times: number[], span: number): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    let n = 0;
    for (let j = i; j < times.length && (times[j] as number) < (times[i] as number) + span; j++) n++;
    best = Math.max(best, n);
  }
  return best;
}

describe('createRateLimiter', () => {
  it('admits `limit` at once, then spaces the rest by the window', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 50, windowMs: 1000, now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 175 }, () =>
        limiter.acquire().then((release) => {
          starts.push(clock.now());
          release();
        }),
      ),
    );
    assert.equal(starts.length, 175);
    assert.equal(starts.filter((s) => s === 0).length, 50);
    assert.ok(maxInWindow(starts, 1000) <= 50, `window held ${maxInWindow(starts, 1000)}`);
    assert.equal(limiter.delayed, 125);
    assert.ok((starts[174] as number) >= 3000, '175 requests at 50 per second need three more windows');
  });

  it('sends a queued request as soon as the window allows: 80 requests at 50/s finish at the floor, not in a trickle', async () => {
    // As a client sends them: the first alone (probeFirst) until the server states its grant, then by the
    // window; each answer arrives 20 ms after it was sent, and its release stamps it (the guard is 10 ms).
    const clock = fakeClock();
    const limiter = createRateLimiter({
      limit: 20,
      windowMs: 1000,
      guardMs: 10,
      probeFirst: true,
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 80 }, async () => {
        const release = await limiter.acquire();
        starts.push(clock.now());
        await clock.sleep(20);
        limiter.grant({ limit: 50 });
        release();
        done.push(clock.now());
      }),
    );
    assert.ok(maxInWindow(starts, 1010) <= 50, `window held ${maxInWindow(starts, 1010)}`);
    // The first answer at 20 ms, the 49 others sent then and answered at 40 ms: the 51st leaves when the
    // first answer leaves the window (1030 ms), the 29 others all together when theirs do (1050 ms).
    assert.equal(starts.filter((s) => s === 20).length, 49);
    assert.deepEqual([...new Set(starts.slice(50))], [1030, 1050]);
    assert.equal(
      Math.max(...done),
      1070,
      'the last answer at the floor (one window) plus three answer times',
    );
  });

  it('counts a request from its answer, so slow answers push the next window back', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 2, windowMs: 100, now: clock.now, sleep: clock.sleep });
    const r1 = await limiter.acquire();
    const r2 = await limiter.acquire();
    let third = false;
    const p3 = limiter.acquire().then((r) => {
      third = true;
      return r;
    });
    clock.advance(500); // both requests still in flight: no slot, whatever the clock says
    await Promise.resolve();
    assert.equal(third, false);
    r1();
    r2();
    const r3 = await p3;
    assert.equal(clock.now(), 600, 'the third starts one window after the answers arrived');
    r3();
  });

  it('serves waiters in arrival order', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 2, windowMs: 100, now: clock.now, sleep: clock.sleep });
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        limiter.acquire().then((release) => {
          order.push(i);
          release();
        }),
      ),
    );
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });

  it('never lets a window hold more than the limit, with the guard applied', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({
      limit: 5,
      windowMs: 100,
      guardMs: 10,
      now: clock.now,
      sleep: clock.sleep,
    });
    const answers: number[] = [];
    for (let i = 0; i < 23; i++) {
      if (i % 4 === 0) clock.advance(7);
      const release = await limiter.acquire();
      clock.advance(3); // latency
      answers.push(clock.now());
      release();
    }
    assert.ok(maxInWindow(answers, 110) <= 5);
  });

  it('does not wait when requests are already spread out, and release is idempotent', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 3, windowMs: 100, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 10; i++) {
      const release = await limiter.acquire();
      release();
      release();
      clock.advance(40);
    }
    assert.deepEqual(clock.sleeps, []);
    assert.equal(limiter.delayed, 0);
  });

  it('is disabled by a non-positive or infinite limit', async () => {
    const clock = fakeClock();
    for (const limit of [0, Infinity]) {
      const limiter = createRateLimiter({ limit, windowMs: 1000, now: clock.now, sleep: clock.sleep });
      await Promise.all(Array.from({ length: 1000 }, () => limiter.acquire()));
    }
    assert.deepEqual(clock.sleeps, []);
  });

  it('waits in real time with the default clock', async () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 30 });
    const t0 = performance.now();
    await Promise.all([0, 1, 2].map(() => limiter.acquire().then((release) => release())));
    assert.ok(performance.now() - t0 >= 25);
  });

  it('lets a cancelled waiter leave the queue at once, freeing its turn for the next', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: clock.now, sleep: clock.sleep });
    const first = await limiter.acquire();
    const gone = new AbortController();
    const cancelled = limiter.acquire(gone.signal);
    const next = limiter.acquire();
    assert.equal(limiter.waiting, 2);
    gone.abort();
    await assert.rejects(cancelled, (e: unknown) => isCancelled(e));
    assert.equal(limiter.waiting, 1, 'the cancelled request no longer holds a place');
    first();
    const release = await next;
    release();
    assert.equal(clock.now(), 60_000, 'the next request waited for one window only, not two');
    const already = new AbortController();
    already.abort();
    await assert.rejects(limiter.acquire(already.signal), (e: unknown) => isCancelled(e));
    assert.equal(limiter.waiting, 0);
  });
});

describe('createRateLimiter: following what the server grants', () => {
  it('with probeFirst, sends one request alone, then paces by the limit the first answer stated', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({
      limit: 50,
      windowMs: 1000,
      probeFirst: true,
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    let first = true;
    await Promise.all(
      Array.from({ length: 45 }, () =>
        limiter.acquire().then((release) => {
          starts.push(clock.now());
          if (first) {
            first = false;
            assert.equal(limiter.waiting, 44, 'the others wait for the first answer');
            limiter.grant({ limit: 20, remaining: 19 });
          }
          release();
        }),
      ),
    );
    assert.equal(limiter.limit, 20);
    assert.ok(maxInWindow(starts, 1000) <= 20, `window held ${maxInWindow(starts, 1000)}`);
    assert.equal(starts.filter((s) => s === 0).length, 20);
    assert.equal(limiter.windowWaits, 25, '45 at 20 a window: 25 wait for room');
  });

  it('raises the limit when the server grants more, never past what it states', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 50, windowMs: 1000, now: clock.now, sleep: clock.sleep });
    const r = await limiter.acquire();
    limiter.grant({ limit: 200, remaining: 199 });
    r();
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 250 }, () =>
        limiter.acquire().then((release) => {
          starts.push(clock.now());
          release();
        }),
      ),
    );
    assert.equal(starts.filter((s) => s === 0).length, 199, 'the rest of the granted window at once');
    assert.ok(maxInWindow([0, ...starts], 1000) <= 200);
    assert.equal(limiter.windowWaits, 51);
  });

  it('counts requests the server saw from others (a lower remaining) against its own window', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 10, windowMs: 1000, now: clock.now, sleep: clock.sleep });
    const r = await limiter.acquire();
    // The server's window holds 8 (this one and 7 from another process on the same address).
    limiter.grant({ limit: 10, remaining: 2 });
    r();
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, () =>
        limiter.acquire().then((release) => {
          starts.push(clock.now());
          release();
        }),
      ),
    );
    assert.deepEqual(starts, [0, 0, 1000, 1000], 'two now, the rest once the others leave the window');
  });

  it('holds every waiter for a Retry-After', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 10, windowMs: 1000, now: clock.now, sleep: clock.sleep });
    const r = await limiter.acquire();
    limiter.grant({ retryAfterMs: 3000 });
    r();
    const release = await limiter.acquire();
    assert.equal(clock.now(), 3000);
    release();
  });

  it('reads the headers as plain integers and ignores what it cannot believe', () => {
    assert.deepEqual(
      grantFromHeaders({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '17', 'retry-after': '2' }),
      { limit: 200, remaining: 17, retryAfterMs: 2000 },
    );
    assert.deepEqual(grantFromHeaders({ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '-1' }), {});
    assert.deepEqual(grantFromHeaders({ 'x-ratelimit-limit': '1.5e3', 'retry-after': 'soon' }), {});
    assert.deepEqual(
      grantFromHeaders(
        { 'retry-after': 'Fri, 27 Nov 2026 12:00:05 GMT' },
        Date.parse('2026-11-27T12:00:00Z'),
      ),
      { retryAfterMs: 5000 },
    );
    assert.deepEqual(grantFromHeaders({}), {});
  });
});

describe('createRateLimiter: probing with a seeded window', () => {
  it('waits for the seeded requests to leave the window, then probes (never stalls)', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({
      limit: 2,
      windowMs: 1000,
      probeFirst: true,
      seed: [0, 0],
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 3 }, () =>
        limiter.acquire().then((release) => {
          starts.push(clock.now());
          release();
        }),
      ),
    );
    assert.deepEqual(starts, [1000, 1000, 2000]);
  });

  describe('a wait is bounded and told (issue 46)', () => {
    it('X-RateLimit-Limit: 0 with Remaining: 0 on a minute window: the next request is refused at once, naming the wait', async () => {
      const clock = fakeClock();
      const told: string[] = [];
      const limiter = createRateLimiter({
        limit: 500,
        windowMs: 60_000,
        guardMs: 100,
        now: clock.now,
        sleep: clock.sleep,
        name: 'the node',
        maxWaitMs: MAX_PACING_WAIT_MS,
        onWait: (ms, why) => told.push(`${ms} ${why}`),
      });
      const r = await limiter.acquire();
      // What the headers give: a limit of 0 is not believed; Remaining: 0 is.
      limiter.grant(grantFromHeaders({ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0' }));
      r();
      const e = await limiter.acquire().then(
        () => assert.fail('admitted'),
        (err: unknown) => err,
      );
      assert.ok(isApiError(e) && e.code === 'rate-limited', String(e));
      assert.match(
        e.message,
        /the node paces requests: the next one could go only in 61 s \(its answer said X-RateLimit-Remaining: 0 of 500\), more than the 15 s dlmm waits at most/,
      );
      assert.equal(clock.now(), 0, 'refused without waiting');
      assert.deepEqual(clock.sleeps, []);
      assert.deepEqual(told, []);
    });

    it('a wait within the bound is told as it starts, then served', async () => {
      const clock = fakeClock();
      const told: Array<[number, string]> = [];
      const limiter = createRateLimiter({
        limit: 10,
        windowMs: 1000,
        now: clock.now,
        sleep: clock.sleep,
        name: 'the service',
        maxWaitMs: MAX_PACING_WAIT_MS,
        onWait: (ms, why) => told.push([ms, why]),
      });
      const r = await limiter.acquire();
      limiter.grant({ retryAfterMs: 3000 });
      r();
      const release = await limiter.acquire();
      assert.equal(clock.now(), 3000);
      release();
      assert.deepEqual(told, [[3000, 'the service paces requests (its answer said Retry-After: 3 s)']]);
    });

    it('only the waiters whose turn is beyond the bound are refused; the others keep their turn', async () => {
      const clock = fakeClock();
      const limiter = createRateLimiter({
        limit: 2,
        windowMs: 10_000,
        now: clock.now,
        sleep: clock.sleep,
        maxWaitMs: 15_000,
      });
      const results: Array<number | string> = [];
      const ask = () =>
        limiter.acquire().then(
          (release) => {
            results.push(clock.now());
            release();
          },
          (e: unknown) => void results.push(isApiError(e) ? e.code : String(e)),
        );
      // Two now, two a window later (10 s), the fifth and sixth two windows later (20 s): beyond 15 s.
      await Promise.all(Array.from({ length: 6 }, ask));
      assert.deepEqual(results.filter((x) => x === 'rate-limited').length, 2);
      assert.deepEqual(
        results.filter((x) => typeof x === 'number'),
        [0, 0, 10_000, 10_000],
      );
    });
  });
});
