import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import { cloneData, HeightCache, InFlight, SharedRuns } from '../../../core/api/cache';
import { isCancelled } from '../../../core/api/errors';

describe('HeightCache', () => {
  it('serves entries only at the height they were stored under', () => {
    const c = new HeightCache();
    c.set(5, 'k', { v: 1n });
    assert.equal(c.get(5, 'k'), undefined, 'no height known yet: nothing is stored');
    assert.equal(c.observeHeight(5), true);
    c.set(5, 'k', { v: 1n });
    assert.deepEqual(c.get(5, 'k'), { v: 1n });
    assert.equal(c.get(6, 'k'), undefined);
    assert.equal(c.observeHeight(5), false);
    assert.equal(c.size, 1);
    assert.equal(c.observeHeight(6), true);
    assert.equal(c.size, 0);
    assert.equal(c.get(6, 'k'), undefined);
    c.set(5, 'late', 1);
    assert.equal(c.size, 0, 'a read taken at an older height is not stored');
  });

  it('keeps a value frozen whole, so no caller editing its result can change what the next one gets', () => {
    const c = new HeightCache();
    c.observeHeight(1);
    const original = { bins: [3, 1, 2], pool: { id: 'p', fee: { bps: 30n } } };
    c.set(1, 'k', original);
    // The stored value is the caller's own, frozen: sorting it, or editing any level, throws (strict mode).
    assert.throws(() => original.bins.sort(), TypeError);
    const first = c.get<typeof original>(1, 'k')!;
    assert.equal(first, original, 'served as is, not copied');
    assert.throws(() => first.bins.push(9), TypeError);
    assert.throws(() => {
      first.pool.fee.bps = 1n;
    }, TypeError);
    assert.throws(() => {
      (first as Record<string, unknown>).extra = 1;
    }, TypeError);
    assert.deepEqual(c.get(1, 'k'), { bins: [3, 1, 2], pool: { id: 'p', fee: { bps: 30n } } });
  });

  it('copies in and out a value it cannot freeze whole (one holding a Map)', () => {
    const c = new HeightCache();
    c.observeHeight(1);
    const original = { bins: [3, 1, 2], seen: new Map([['a', 1]]) };
    c.set(1, 'k', original);
    assert.equal(Object.isFrozen(original), false, 'nothing of it frozen');
    original.bins.sort();
    original.seen.set('b', 2);
    const first = c.get<typeof original>(1, 'k')!;
    assert.deepEqual(first.bins, [3, 1, 2]);
    assert.equal(first.seen.size, 1);
    first.bins.push(9);
    first.seen.set('c', 3);
    const second = c.get<typeof original>(1, 'k')!;
    assert.deepEqual(second.bins, [3, 1, 2]);
    assert.equal(second.seen.size, 1);
  });

  it('treats a null height as unknown and clear() forgets it', () => {
    const c = new HeightCache();
    c.observeHeight(null);
    assert.equal(c.currentHeight, undefined);
    c.observeHeight(3);
    c.clear();
    assert.equal(c.currentHeight, undefined);
  });
});

describe('InFlight', () => {
  it('runs one operation for identical concurrent keys and gives each caller the value frozen', async () => {
    const f = new InFlight();
    let runs = 0;
    let joins = 0;
    let release!: (v: { n: number }) => void;
    const start = () => {
      runs++;
      return new Promise<{ n: number }>((r) => (release = r));
    };
    const all = Promise.all([1, 2, 3].map(() => f.run('k', start, () => joins++)));
    assert.equal(f.size, 1);
    release({ n: 7 });
    const results = await all;
    assert.equal(runs, 1);
    assert.equal(joins, 2);
    assert.deepEqual(results, [{ n: 7 }, { n: 7 }, { n: 7 }]);
    assert.ok(results.every((r) => Object.isFrozen(r)));
    assert.throws(() => {
      results[0]!.n = 8;
    }, TypeError);
    assert.deepEqual(results[1], { n: 7 }, "one caller's edit never reaches another's answer");
    assert.equal(f.size, 0);
  });

  it('gives each caller its own copy of a value it cannot freeze whole', async () => {
    const f = new InFlight();
    let release!: (v: { m: Map<string, number> }) => void;
    const start = () => new Promise<{ m: Map<string, number> }>((r) => (release = r));
    const all = Promise.all([1, 2].map(() => f.run('k', start, () => {})));
    release({ m: new Map([['a', 1]]) });
    const [a, b] = await all;
    assert.notEqual(a, b);
    a!.m.set('b', 2);
    assert.equal(b!.m.size, 1);
  });

  it('shares a failure with every joiner and then forgets the key', async () => {
    const f = new InFlight();
    const boom = () => Promise.reject(new Error('boom'));
    const results = await Promise.allSettled([f.run('k', boom, () => {}), f.run('k', boom, () => {})]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(f.size, 0);
    assert.equal(
      await f.run(
        'k',
        async () => 1,
        () => {},
      ),
      1,
    );
  });
});

describe('SharedRuns (cancellation by reference count)', () => {
  /** An operation that ends only when released or aborted, recording its abort. */
  function pending() {
    const state = { runs: 0, aborted: 0, release: (_v: number) => {} };
    const start = (signal: AbortSignal) => {
      state.runs++;
      return new Promise<number>((resolve, reject) => {
        state.release = resolve;
        signal.addEventListener('abort', () => {
          state.aborted++;
          reject(signal.reason);
        });
      });
    };
    return { state, start };
  }

  it('keeps a shared read for the callers left and aborts it when the last one gives up', async () => {
    const runs = new SharedRuns<number>(false);
    const { state, start } = pending();
    const a = new AbortController();
    const b = new AbortController();
    const pa = runs.run('k', start, a.signal);
    const pb = runs.run('k', start, b.signal);
    assert.equal(state.runs, 1);
    a.abort();
    await assert.rejects(pa, (e: unknown) => isCancelled(e));
    assert.equal(state.aborted, 0, 'b still waits: the read goes on');
    b.abort();
    await assert.rejects(pb, (e: unknown) => isCancelled(e));
    assert.equal(state.aborted, 1);
    assert.equal(runs.size, 0, 'an aborted read is forgotten');
    const again = pending();
    const pc = runs.run('k', again.start);
    assert.equal(again.state.runs, 1, 'a later caller starts afresh');
    again.state.release(5);
    assert.equal(await pc, 5);
  });

  it('never aborts a read that a caller without a signal waits for', async () => {
    const runs = new SharedRuns<number>(false);
    const { state, start } = pending();
    const a = new AbortController();
    const pa = runs.run('k', start, a.signal);
    const plain = runs.run('k', start);
    a.abort();
    await assert.rejects(pa, (e: unknown) => isCancelled(e));
    state.release(3);
    assert.equal(await plain, 3);
    assert.equal(state.aborted, 0);
  });

  it('listens once on a caller signal however many reads it waits for; an abort ends each of them', async () => {
    const runs = new SharedRuns<number>(false);
    const ops = Array.from({ length: 20 }, () => pending());
    const caller = new AbortController();
    const waits = ops.map((op, i) => runs.run(`k${i}`, op.start, caller.signal));
    assert.equal(getEventListeners(caller.signal, 'abort').length, 1);
    // One read ends first: the caller stops waiting for it alone.
    ops[0]!.state.release(1);
    assert.equal(await waits[0], 1);
    caller.abort();
    for (const w of waits.slice(1)) await assert.rejects(w, (e: unknown) => isCancelled(e));
    assert.deepEqual(
      ops.map((op) => op.state.aborted),
      [0, ...Array<number>(19).fill(1)],
      'each read nobody waits for any more is aborted; the one that ended is not',
    );
    assert.equal(runs.size, 0);
    const done = new AbortController();
    const read = pending();
    const p = runs.run('later', read.start, done.signal);
    read.state.release(2);
    assert.equal(await p, 2);
    assert.equal(getEventListeners(done.signal, 'abort').length, 0, 'no listener stays once nothing waits');
  });

  it('keeps settled results when asked to (a session) and refuses an aborted caller at once', async () => {
    const runs = new SharedRuns<number>(true);
    const { state, start } = pending();
    const p = runs.run('k', start, new AbortController().signal);
    state.release(9);
    assert.equal(await p, 9);
    assert.equal(await runs.run('k', start), 9);
    assert.equal(state.runs, 1);
    const gone = new AbortController();
    gone.abort();
    await assert.rejects(runs.run('other', start, gone.signal), (e: unknown) => isCancelled(e));
    assert.equal(state.runs, 1, 'nothing started for a caller that had already given up');
  });
});

describe('cloneData', () => {
  it('deep-copies plain data (bigint, nested arrays and objects) like structuredClone', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.n = 1n;
    const v = { a: [1, 'x', null, undefined, true, { b: 2n ** 70n }], c: bare, d: -0 };
    const c = cloneData(v);
    assert.deepEqual(c, structuredClone(v));
    assert.notEqual(c.a, v.a);
    assert.notEqual(c.a[5], v.a[5]);
    assert.equal(Object.getPrototypeOf(c.c), Object.prototype, 'as structuredClone gives it');
    assert.equal(Object.is(c.d, -0), true);
  });

  it("keeps an own '__proto__' key a property, never the copy's prototype", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const c = cloneData(v);
    assert.equal(Object.getPrototypeOf(c), Object.prototype);
    assert.equal((c as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(c, '__proto__')?.value, { polluted: true });
  });

  it('copies anything that is not plain data through structuredClone', () => {
    const m = { when: new Date(5), set: new Set([1]) };
    const c = cloneData(m);
    assert.notEqual(c.when, m.when);
    assert.equal(c.when.getTime(), 5);
    assert.deepEqual([...c.set], [1]);
  });
});
