/**
 * Copy-on-write pool state (core/chain/state.ts): a copy of a pool shares the bins read and copies only
 * what is written, so a write through one copy must never show in another copy or in the base, and the
 * table must read and iterate exactly as a Map that saw the same writes.
 */
import assert from 'node:assert/strict';
import {
  clonePool,
  CowBins,
  MemoryChainState,
  restorePool,
  snapshotPool,
  swapInPool,
  addToPool,
  type ChainPool,
} from '../../../core/chain/index';
import type { BinBalances } from '../../../core/dlmm/math';
import { bin, testPool } from './pools';

const FEES = {
  x_protocol: 1000n,
  x_provider: 2000n,
  x_variable: 0n,
  y_protocol: 1000n,
  y_provider: 2000n,
  y_variable: 0n,
};
const USER = 'SP000000000000000000002Q6VF78';

function basePool(): ChainPool {
  const base = new Map<number, BinBalances>();
  for (let id = -5; id <= 5; id++)
    base.set(id, bin(id, id >= 0 ? 1_000_000n : 0n, id <= 0 ? 2_000_000n : 0n));
  return testPool(FEES, new CowBins(base), 0, {
    positions: new Map([[USER, new Map([[1, 500n]])]]),
    unknownShares: new Set([7]),
  });
}

/** Everything a pool holds, as plain data. */
function contents(p: ChainPool) {
  return {
    bins: [...p.bins],
    size: p.bins.size,
    positions: [...p.positions].map(([u, m]) => [u, [...m]]),
    active: p.activeBinId,
    fees: [p.protocolFeesX, p.protocolFeesY],
    unknown: p.unknownShares ? [...p.unknownShares] : undefined,
  };
}

describe('copy-on-write pool state', () => {
  it('reads and iterates as a Map that saw the same writes (random writes, forks along the way)', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const plain = new Map<number, BinBalances>();
    for (let id = 0; id < 40; id++) plain.set(id, bin(id, BigInt(id), 1n));
    const cow = new CowBins(new Map(plain));
    const forks: [CowBins, Map<number, BinBalances>][] = [];
    for (let step = 0; step < 400; step++) {
      const id = rand(60) - 10;
      const b = bin(id, BigInt(step), BigInt(rand(5)));
      plain.set(id, b);
      cow.set(id, b);
      if (step % 37 === 0) forks.push([cow.fork(), new Map(plain)]);
      assert.equal(cow.size, plain.size);
      assert.equal(cow.get(id), plain.get(id));
      assert.equal(cow.has(id + 100), false);
    }
    assert.deepEqual([...cow], [...plain]);
    assert.deepEqual([...cow.keys()], [...plain.keys()]);
    assert.deepEqual([...cow.values()], [...plain.values()]);
    // Every fork still holds what the table held when it was made.
    for (const [f, then] of forks) {
      assert.deepEqual([...f.entries()], [...then.entries()]);
      assert.equal(f.size, then.size);
    }
  });

  it('a write through one snapshot never shows in another or in the base', () => {
    const base = basePool();
    const before = contents(base);
    const a = clonePool(base);
    const b = clonePool(base);
    const bBefore = contents(b);

    // Through a: an add into a bin the user holds, a swap crossing bins, a bin written that was not there.
    const add = addToPool(a, USER, 1, 1000n, 0n, { minDlp: 1n, maxFeeX: 10n ** 30n, maxFeeY: 10n ** 30n });
    assert.ok(add.ok, add.ok ? '' : add.detail);
    const swap = swapInPool(a, false, 3_000_000n);
    assert.ok(swap.ok && swap.value.active_bin_after > 0);
    a.bins.set(9, bin(9, 5n, 5n));
    assert.notDeepEqual(contents(a), before);

    assert.deepEqual(contents(base), before, 'the base is untouched');
    assert.deepEqual(contents(b), bBefore, 'the other copy is untouched');
    assert.equal(b.bins.get(9), undefined);
    assert.equal(base.bins.has(9), false);

    // And the other way: a write to the base after the copies were made shows in neither.
    const aNow = contents(a);
    base.bins.set(3, bin(3, 1n, 1n));
    base.bins.set(20, bin(20, 1n, 1n));
    assert.deepEqual(contents(a), aNow);
    assert.deepEqual(contents(b), bBefore);
  });

  it('a snapshot restored brings the pool back exactly; another snapshot is independent of writes after it', () => {
    const p = basePool();
    const before = contents(p);
    const snap = snapshotPool(p);
    const other = snapshotPool(p);
    assert.ok(swapInPool(p, true, 2_500_000n).ok);
    p.bins.set(8, bin(8, 1n, 1n));
    restorePool(p, snap);
    assert.deepEqual(contents(p), before);
    // Writing after the restore leaves the other snapshot as it was taken.
    assert.ok(swapInPool(p, false, 1_000_000n).ok);
    restorePool(p, other);
    assert.deepEqual(contents(p), before);
  });

  it('state copies (what-if runs) are independent of each other and of the state read', () => {
    const read = new MemoryChainState([basePool()]);
    const id = basePool().id;
    const before = contents(read.pool(id)!);
    const runs = [read.clone(), read.clone(), read.clone()];
    runs.forEach((s, k) => assert.ok(swapInPool(s.pool(id)!, k % 2 === 0, BigInt(1_000_000 * (k + 1))).ok));
    assert.deepEqual(contents(read.pool(id)!), before);
    const seen = runs.map((s) =>
      JSON.stringify(contents(s.pool(id)!), (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
    );
    assert.equal(new Set(seen).size, 3, 'each run kept its own writes');
  });

  it('a pool with plain Map bins is still copied whole', () => {
    const p = { ...basePool(), bins: new Map([[0, bin(0, 1n, 1n)]]) };
    const snap = snapshotPool(p);
    p.bins.set(0, bin(0, 9n, 9n));
    assert.equal(snap.bins.get(0)?.reserve_x, 1n);
    assert.ok(snap.bins instanceof Map);
  });
});
