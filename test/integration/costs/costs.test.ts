/**
 * The cost table (core/chain/costs.ts) against Bitflow's published v-1-1 contracts run in the Clarinet JS SDK
 * simnet with costs tracked (fixtures: test/fixtures/bitflow-dlmm). Every router function the product
 * exports is measured at two sizes; the table must be at or above each measurement, and above it by at most
 * COST_TOLERANCE_SHARE of the block limit, in all five dimensions. The block limit itself is checked where it
 * binds: the most units the table allows fit, a few more abort with CostBalanceExceeded.
 */
import assert from 'node:assert/strict';
import { Cl, cvToString } from '@stacks/transactions';
import {
  BLOCK_LIMIT,
  COST_TOLERANCE_SHARE,
  FUNCTION_COSTS,
  blockShare,
  callCost,
  maxUnitsWithin,
  type Cost,
} from '../../../core/chain/costs';
import { CostBalanceExceeded, CostSimnet, measureAll, range, type Measurement, type Point } from './harness';

const DIMENSIONS = ['readCount', 'readLength', 'writeCount', 'writeLength', 'runtime'] as const;

/** The table's cost is never under the measured one, and over it by at most the tolerance. */
function assertWithin(what: string, table: Cost, measured: Cost): void {
  for (const d of DIMENSIONS) {
    assert.ok(table[d] >= measured[d], `${what}: ${d} ${table[d]} is under the measured ${measured[d]}`);
    const over = (table[d] - measured[d]) / BLOCK_LIMIT[d];
    assert.ok(
      over <= COST_TOLERANCE_SHARE,
      `${what}: ${d} ${table[d]} is over the measured ${measured[d]} by ${(over * 100).toFixed(3)}% of a block`,
    );
  }
}

describe('router call costs: published v-1-1 contracts in the Clarinet simnet', function () {
  // Starting the simnet and the calls of a few thousand reads each take tens of seconds on a busy machine.
  this.timeout(600_000);
  let s: CostSimnet;
  let m: Measurement;

  before(async () => {
    s = await CostSimnet.open();
    m = measureAll(s);
  });
  after(() => s?.close());

  it('measures every function of the table', () => {
    assert.deepEqual(Object.keys(m.points).sort(), Object.keys(FUNCTION_COSTS).sort());
  });

  for (const fn of Object.keys(FUNCTION_COSTS)) {
    it(`${fn}: the table holds the measured cost within the tolerance`, () => {
      const points: Point[] = m.points[fn]!;
      assert.ok(points.length >= 2 && new Set(points.map((p) => p.units)).size >= 2, 'two sizes at least');
      for (const p of points) assertWithin(`${fn} x${p.units}`, callCost(fn, p.units, 'v-1-1')!, p.cost);
    });
  }

  it('a position into a bin that had no shares costs perNewBin more', () => {
    for (const p of m.newBinPoints)
      assertWithin(
        `add-liquidity-multi x${p.units} new bins`,
        callCost('add-liquidity-multi', p.units, 'v-1-1', { newBins: p.units })!,
        p.cost,
      );
  });

  it('a position moving both tokens (the active bin) costs perBothTokens more, adding and withdrawing', () => {
    for (const [fn, p] of [
      ['add-liquidity-multi', m.bothTokens.add],
      ['withdraw-liquidity-multi', m.bothTokens.withdraw],
    ] as const)
      assertWithin(
        `${fn} x${p.units}, one both tokens`,
        callCost(fn, p.units, 'v-1-1', { bothTokens: 1 })!,
        p.cost,
      );
  });

  it('a simple swap walk across empty bins stays within the per-bin figure', () => {
    assert.ok(m.gap.empty >= 10, `${m.gap.empty} empty bins crossed`);
    const table = callCost('swap-y-for-x-simple-multi', m.gap.units, 'v-1-1')!;
    for (const d of DIMENSIONS) assert.ok(table[d] >= m.gap.cost[d], `${d}: ${table[d]} < ${m.gap.cost[d]}`);
  });

  it('read count binds for every function, at the most units a block takes', () => {
    for (const fn of Object.keys(FUNCTION_COSTS)) {
      const n = maxUnitsWithin(fn, 1, 'v-1-1')!;
      assert.ok(n > 100, `${fn}: ${n} units`);
      const { dimension, share } = blockShare(callCost(fn, n, 'v-1-1')!);
      assert.equal(dimension, 'readCount', `${fn}: ${dimension} binds`);
      for (const d of DIMENSIONS)
        if (d !== 'readCount')
          assert.ok(
            callCost(fn, n, 'v-1-1')![d] / BLOCK_LIMIT[d] < 0.8 * share,
            `${fn}: ${d} near its limit`,
          );
    }
  });

  it('add-liquidity-multi into new bins: the most positions the table allows fit, 10 more abort', () => {
    const n = maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins: true })!;
    // Bins -1..-24 are seeded by the measurement; these are new.
    const fits = s.addLiquidity(range(-25, n, -1), s.deployer).cost;
    assert.ok(
      fits.readCount <= BLOCK_LIMIT.readCount && fits.readCount > 0.99 * BLOCK_LIMIT.readCount,
      `${fits.readCount} reads`,
    );
    assert.throws(() => s.addLiquidity(range(1, n + 10), s.deployer), CostBalanceExceeded);
  });

  it('swap-x-for-y-simple-multi: a walk of the most bins the table allows fits, 10 more abort', () => {
    // Seed the bins below the ones the previous test filled, so the walks cross full bins only.
    s.addLiquidity(
      range(-25 - maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins: true })!, 40, -1),
      s.deployer,
    );
    const n = maxUnitsWithin('swap-x-for-y-simple-multi', 1, 'v-1-1')!;
    const over = s.amountForBins(true, n + 10);
    assert.equal(s.walk(true, over).steps.length, n + 10);
    assert.throws(() => s.simpleSwap(true, over, s.wallets[6]!), CostBalanceExceeded);
    const amount = s.amountForBins(true, n);
    // The unit is the chain model's: the core swap calls of the walk (swapWalk steps, router.ts binsWalked).
    assert.equal(s.walk(true, amount).steps.length, n);
    const p = s.simpleSwap(true, amount, s.wallets[6]!);
    assert.equal(p.units, n);
    assert.ok(
      p.cost.readCount <= BLOCK_LIMIT.readCount && p.cost.readCount > 0.99 * BLOCK_LIMIT.readCount,
      `${p.cost.readCount} reads`,
    );
  });

  it('dlmm-core-v-1-1 answers get-minimum-bin-shares and get-minimum-burnt-shares as (ok uint)', () => {
    assert.equal(
      cvToString(s.readOnly('dlmm-core-v-1-1', 'get-minimum-bin-shares')),
      cvToString(Cl.ok(Cl.uint(10_000n))),
    );
    assert.equal(
      cvToString(s.readOnly('dlmm-core-v-1-1', 'get-minimum-burnt-shares')),
      cvToString(Cl.ok(Cl.uint(1_000n))),
    );
  });
});
