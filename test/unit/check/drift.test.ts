/**
 * The drift what-if's shift (core/check/drift.ts): the smallest swap on the chain model that moves a pool's
 * active bin k bins, over bins with gaps (never written), one-sided bins and empty bins; the crossed bins are
 * left as that trade leaves them; a shift past -500..500 is not reachable; a trade found on one read is
 * shared by the states built from it only. Tables on a hand-built pool.
 */
import { strict as assert } from 'node:assert';
import { MemoryChainState, quotePool, type ChainPool } from '../../../core/chain/index';
import type { BinBalances } from '../../../core/dlmm/math';
import { bin, testPool } from '../chain/pools';
import { shiftActiveBin } from '../../../core/check/drift';

const FEES = {
  x_protocol: 5n,
  x_provider: 10n,
  x_variable: 0n,
  y_protocol: 5n,
  y_provider: 10n,
  y_variable: 0n,
};

/** Bins: active 0 holds both; 1, 2 X only; 3 a gap (never written); 4 empty; 5 X; below: Y only, -2 a gap. */
function pool(active = 0, extra: [number, bigint, bigint][] = []): ChainPool {
  const rows: [number, bigint, bigint][] = [
    [-3, 0n, 5_000_000n],
    [-1, 0n, 3_000_000n],
    [0, 1_000_000n, 2_000_000n],
    [1, 700_000n, 0n],
    [2, 400_000n, 0n],
    [4, 0n, 0n],
    [5, 900_000n, 0n],
    ...extra,
  ];
  return testPool(FEES, new Map<number, BinBalances>(rows.map(([id, x, y]) => [id, bin(id, x, y)])), active);
}

describe('drift what-if: the shift is a trade on the chain model', () => {
  for (const k of [1, 2, 3, 4, 5, 6, -1, -2, -3, -4]) {
    it(`moves the active bin exactly ${k} with the smallest input that does (gaps, one-sided and empty bins)`, () => {
      const p = pool();
      const before = pool();
      const state = new MemoryChainState([p]);
      const s = shiftActiveBin(state, p.id, k);
      assert.equal(s.reached, true, s.detail);
      assert.equal(s.to, k);
      assert.equal(p.activeBinId, k);
      assert.equal(s.xForY, k < 0);
      // Minimal: one unit less does not get there.
      const short = quotePool(before, k < 0, s.amountIn - 1n).active_bin_after;
      assert.ok(k > 0 ? short < k : short > k, `input ${s.amountIn - 1n} already reaches ${short}`);
      // Every crossed bin gave up its output side; bins beyond the walk are untouched.
      for (let id = 0; id !== k; id += k > 0 ? 1 : -1) {
        const b = p.bins.get(id);
        if (b) assert.equal(k > 0 ? b.reserve_x : b.reserve_y, 0n, `bin ${id} after the shift`);
      }
      const beyond = k > 0 ? k + 1 : k - 1;
      assert.deepEqual(p.bins.get(beyond), before.bins.get(beyond));
      assert.ok(s.amountIn > 0n && s.amountOut >= 0n);
      assert.match(s.detail, k > 0 ? /a buy of X paying \d+ Y/ : /a sale of \d+ X/);
    });
  }

  it('k = 0 changes nothing', () => {
    const p = pool();
    const s = shiftActiveBin(new MemoryChainState([p]), p.id, 0);
    assert.deepEqual([s.reached, s.to, s.amountIn], [true, 0, 0n]);
    assert.deepEqual(p.bins, pool().bins);
  });

  it('a shift past -500..500 is not reachable (and changes nothing)', () => {
    const p = pool(498, [[498, 10n, 10n]]);
    const s = shiftActiveBin(new MemoryChainState([p]), p.id, 3);
    assert.equal(s.reached, false);
    assert.match(s.detail, /outside -500\.\.500/);
    assert.equal(p.activeBinId, 498);
  });

  it('the trade found on one read is shared by every state built from it, never by another read', () => {
    /** A pool whose bin lookups are counted: the search for a trade walks the bins tens of times. */
    const counted = (p: ChainPool): { pool: ChainPool; gets: () => number } => {
      let n = 0;
      const bins = new (class extends Map<number, BinBalances> {
        override get(id: number): BinBalances | undefined {
          n++;
          return super.get(id);
        }
      })(p.bins);
      return { pool: { ...p, bins }, gets: () => n };
    };
    const shift = (p: ChainPool, k: number, read?: object) =>
      shiftActiveBin(new MemoryChainState([p]), p.id, k, read);
    const readA = {};
    const a1 = counted(pool());
    const first = shift(a1.pool, 2, readA);
    assert.deepEqual(first, shift(pool(), 2));
    // A second state built from the same read takes the trade found on the first: it only applies it.
    const a2 = counted(pool());
    assert.deepEqual(shift(a2.pool, 2, readA), first);
    assert.ok(a1.gets() > 50, `the search read ${a1.gets()} bins`);
    assert.ok(a2.gets() * 5 < a1.gets(), `shared trade read ${a2.gets()} bins, the search ${a1.gets()}`);
    // Another active bin on the same read is another trade.
    const b = counted(pool(1));
    assert.deepEqual(shift(b.pool, 2, readA), shift(pool(1), 2));
    assert.ok(b.gets() > 50, `a new search read ${b.gets()} bins`);
    // Another read of the same pool (more X in bin 1) is walked again: a shared trade would stop short.
    const deeper = (): ChainPool => pool(0, [[1, 5_000_000n, 0n]]);
    const other = shift(deeper(), 2, {});
    assert.deepEqual(other, shift(deeper(), 2));
    assert.ok(other.amountIn > first.amountIn, `${other.amountIn} vs ${first.amountIn}`);
    assert.equal(other.to, 2);
  });

  it('a new read of the same bins takes the trade found on an earlier read; a bin changed is searched again', () => {
    const counted = (p: ChainPool): { pool: ChainPool; gets: () => number } => {
      let n = 0;
      const bins = new (class extends Map<number, BinBalances> {
        override get(id: number): BinBalances | undefined {
          n++;
          return super.get(id);
        }
      })(p.bins);
      return { pool: { ...p, bins }, gets: () => n };
    };
    const shift = (p: ChainPool, k: number, read?: object) =>
      shiftActiveBin(new MemoryChainState([p]), p.id, k, read);
    // Bins of their own (a content no other test uses), read three times into three objects.
    const rows = (): ChainPool => pool(0, [[2, 444_444n, 0n]]);
    const a = counted(rows());
    const first = shift(a.pool, 3, {});
    assert.deepEqual(first, shift(rows(), 3));
    assert.ok(a.gets() > 50, `the search read ${a.gets()} bins`);
    // A later live session at the same height: another object, the same content.
    const b = counted(rows());
    assert.deepEqual(shift(b.pool, 3, {}), first);
    assert.ok(
      b.gets() * 5 < a.gets(),
      `a read of the same bins read ${b.gets()} bins, the search ${a.gets()}`,
    );
    // One bin's reserves differ (the state moved): searched again, and the trade is that state's.
    const moved = (): ChainPool => pool(0, [[2, 444_445n, 0n]]);
    const c = counted(moved());
    const other = shift(c.pool, 3, {});
    assert.deepEqual(other, shift(moved(), 3));
    assert.ok(c.gets() > 50, `a changed bin was searched again (read ${c.gets()} bins)`);
    // Another fee on the same bins is another trade too.
    const feed = counted({ ...rows(), fees: { ...FEES, x_provider: 30n, y_provider: 30n } });
    const withFee = shift(feed.pool, 3, {});
    assert.deepEqual(withFee, shift({ ...rows(), fees: { ...FEES, x_provider: 30n, y_provider: 30n } }, 3));
    assert.ok(feed.gets() > 50, `another fee was searched again (read ${feed.gets()} bins)`);
  });

  it('a pool that was not read is named', () => {
    const s = shiftActiveBin(new MemoryChainState([]), 'SP1.nope', 1);
    assert.equal(s.reached, false);
    assert.match(s.detail, /SP1\.nope was not read/);
  });
});
