/**
 * core/tx/cost.ts: the block-budget figure, its words, the split size, and a simple swap's bins. Expected
 * values come from the cost table (core/chain/costs.ts), so they hold when its figures are measured again;
 * the swap's bins are compared with a brute force over every start of the walk.
 */
import assert from 'node:assert/strict';
import {
  BLOCK_LIMIT,
  blockShare,
  callCost,
  FUNCTION_COSTS,
  maxUnitsWithin,
  SAFE_BLOCK_SHARE,
} from '../../../core/chain/costs';
import type { BinBalances, PoolFees } from '../../../core/dlmm/math';
import { minReceived } from '../../../core/dlmm/bounds';
import { swapWalk } from '../../../core/dlmm/swap';
import { chunkItems } from '../../../core/tx/context';
import {
  blockCostOf,
  blockCostText,
  costProblem,
  costVerdict,
  largestSwapWithin,
  percentOfBlock,
  positionsPerTx,
  simpleSwapBins,
  simpleSwapCost,
  splitReason,
} from '../../../core/tx/cost';

const VERSIONS = ['v-1-1', 'v-1-2'] as const;
const LIQUIDITY = Object.keys(FUNCTION_COSTS).filter((f) => FUNCTION_COSTS[f]!.unit === 'position');
const FEES: PoolFees = {
  x_protocol: 25n,
  x_provider: 25n,
  x_variable: 0n,
  y_protocol: 25n,
  y_provider: 25n,
  y_variable: 0n,
};

/** A pool of bin step 1 around active bin 0: Y below, X above, both in the active bin; `y(i)` per bin. */
function pool(width: number, y: (distance: number) => bigint, active = 0) {
  const bins = new Map<number, BinBalances>();
  for (let d = -width; d <= width; d++) {
    const id = active + d;
    // price ~ 760.6 units per base unit, 1 bps per bin
    const price = (76_060_388_561n * 10001n ** BigInt(Math.max(0, d))) / 10000n ** BigInt(Math.max(0, d));
    const lower = (76_060_388_561n * 9999n ** BigInt(Math.max(0, -d))) / 10000n ** BigInt(Math.max(0, -d));
    const p = d >= 0 ? price : lower;
    const ry = d <= 0 ? y(Math.abs(d)) : 0n;
    const rx = d >= 0 ? 1_300_000n : 0n;
    if (ry === 0n && rx === 0n) continue;
    bins.set(id, { price: p, reserve_x: rx, reserve_y: ry, shares: 1n });
  }
  return { bins, activeBinId: active, fees: FEES };
}

/** The most bins a successful call may take, by trying every start k (the definition cost.ts bisects). */
function bruteForce(p: ReturnType<typeof pool>, amount: bigint, minOut: bigint): number {
  let worst = 0;
  for (let k = 0; p.activeBinId - k >= -500 && k <= 350; k++) {
    const w = swapWalk((id) => p.bins.get(id), p.activeBinId - k, true, amount, p.fees);
    if (w.amount_out >= minOut) worst = Math.max(worst, k + w.steps.length);
  }
  return Math.min(350, worst);
}

describe('cost: a transaction against a block', () => {
  it('words the figure as a share of a block with its largest dimension, rounded up', () => {
    const c = blockCostOf('add-liquidity-multi', 200, 'v-1-1')!;
    assert.deepEqual(c.cost, callCost('add-liquidity-multi', 200, 'v-1-1'));
    const { share, dimension } = blockShare(c.cost);
    assert.equal(c.share, share);
    const reads = c.cost[dimension].toLocaleString('en-US');
    const limit = BLOCK_LIMIT[dimension].toLocaleString('en-US');
    assert.match(blockCostText(c), new RegExp(`^cost \\d+% of a block \\(${reads} of ${limit} `));
    assert.equal(percentOfBlock(0.62), 62);
    assert.equal(percentOfBlock(0.6201), 63);
    assert.equal(percentOfBlock(1.0004), 101, 'above the block never reads 100%');
    assert.equal(percentOfBlock(1), 100);
  });

  it('gives one verdict: within the safe budget, above it, above the block', () => {
    assert.equal(costVerdict({ share: SAFE_BLOCK_SHARE }), 'fits');
    assert.equal(costVerdict({ share: SAFE_BLOCK_SHARE + 1e-6 }), 'over-safe');
    assert.equal(costVerdict({ share: 1 }), 'over-safe');
    assert.equal(costVerdict({ share: 1 + 1e-6 }), 'over-limit');
    assert.equal(costProblem(blockCostOf('withdraw-liquidity-multi', 1, 'v-1-2')!, 'x'), undefined);
  });

  it('splits each liquidity function at the most positions within the safe budget (or the list limit)', () => {
    for (const version of VERSIONS)
      for (const fn of LIQUIDITY) {
        // At their costliest: every position into a bin with no shares, moving both tokens.
        const byCost = maxUnitsWithin(fn, SAFE_BLOCK_SHARE, version, { newBins: true, bothTokens: true })!;
        const perTx = positionsPerTx(fn, 350, version);
        assert.equal(perTx, Math.min(350, byCost), fn);
        assert.equal(costVerdict(blockCostOf(fn, perTx, version, true)!), 'fits', `${fn} ${perTx}`);
        if (perTx < 350)
          assert.notEqual(
            costVerdict(blockCostOf(fn, perTx + 1, version, true)!),
            'fits',
            `${fn} ${perTx + 1}`,
          );
        // A smaller configured list limit stays the limit; cost never raises it.
        assert.equal(positionsPerTx(fn, 10, version), Math.min(10, byCost));
        // 350 items split into parts within the budget, the note saying why.
        const parts = chunkItems(
          Array.from({ length: 350 }, (_, i) => i),
          perTx,
          128,
          1,
          () => [],
        );
        assert.ok(parts.every((p) => costVerdict(blockCostOf(fn, p.length, version, true)!) === 'fits'));
        if (perTx < 350)
          assert.match(splitReason(fn, 350, 128, version), /80% of a block's execution budget/);
      }
  });

  it("a simple swap's bins: the walk on the state read plus the starts the slippage bound allows (brute force)", () => {
    const shapes: [string, (d: number) => bigint][] = [
      ['flat', () => 1_000_000_000n],
      ['thinning', (d) => 1_000_000_000n - BigInt(d) * 2_000_000n],
      ['gappy', (d) => (d % 7 === 3 ? 0n : 1_000_000_000n)],
    ];
    for (const [name, y] of shapes) {
      const p = pool(450, y);
      for (const amount of [10_000_000n, 150_000_000n, 390_000_000n])
        for (const ppm of [0n, 1_000n, 10_000n, 50_000n]) {
          const w = swapWalk((id) => p.bins.get(id), 0, true, amount, p.fees);
          const minOut = minReceived(w.amount_out, ppm);
          const b = simpleSwapBins(p, true, amount, minOut);
          assert.equal(b.used, w.steps.length, `${name} ${amount} ${ppm}`);
          assert.equal(b.used + b.extra, bruteForce(p, amount, minOut), `${name} ${amount} ppm ${ppm}`);
          if (ppm === 0n) assert.ok(b.extra <= 1, 'no slippage: (almost) no further start succeeds');
        }
    }
  });

  it('the largest amount that fits is exact: it fits, one unit more does not', () => {
    const fn = 'swap-x-for-y-simple-multi';
    const p = pool(450, () => 1_000_000_000n);
    for (const version of VERSIONS)
      for (const ppm of [1_000n, 10_000n]) {
        const costAt = (a: bigint) => {
          const w = swapWalk((id) => p.bins.get(id), 0, true, a, p.fees);
          return simpleSwapCost(fn, p, true, a, minReceived(w.amount_out, ppm), version)!;
        };
        assert.equal(costVerdict(costAt(390_000_000n)), 'over-limit');
        const largest = largestSwapWithin(fn, p, true, 390_000_000n, ppm, version);
        assert.ok(largest > 0n);
        assert.equal(costVerdict(costAt(largest)), 'fits', `${version} ${ppm}`);
        assert.notEqual(costVerdict(costAt(largest + 1n)), 'fits', `${version} ${ppm}`);
        const c = { ...costAt(390_000_000n), largestAmount: largest };
        const words = costProblem(c, 'swap-x-for-y-simple-multi')!;
        assert.ok(words.includes(`lower amount_in to at most ${largest},`), words);
        assert.ok(words.includes("above a block's limit"), words);
      }
  });
});
