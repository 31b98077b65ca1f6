import { strict as assert } from 'node:assert';
import { HeightCache, InFlight } from '../../../core/api/cache';

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

  it('hands out copies, so a caller editing its result cannot change the cache', () => {
    const c = new HeightCache();
    c.observeHeight(1);
    const original = { bins: [3, 1, 2] };
    c.set(1, 'k', original);
    original.bins.sort();
    const first = c.get<{ bins: number[] }>(1, 'k');
    assert.deepEqual(first?.bins, [3, 1, 2]);
    first?.bins.push(9);
    assert.deepEqual(c.get<{ bins: number[] }>(1, 'k')?.bins, [3, 1, 2]);
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
  it('runs one operation for identical concurrent keys and gives each caller a copy', async () => {
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
    assert.notEqual(results[0], results[1]);
    assert.equal(f.size, 0);
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
