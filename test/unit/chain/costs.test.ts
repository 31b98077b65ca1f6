import assert from 'node:assert/strict';
import {
  BLOCK_LIMIT,
  FUNCTION_COSTS,
  V12_MARGIN,
  blockShare,
  callCost,
  maxUnitsWithin,
} from '../../../core/chain/costs';

describe('costs: the block budget of router calls', () => {
  it('a position into a bin with no shares adds perNewBin', () => {
    const f = FUNCTION_COSTS['add-liquidity-multi']!;
    const plain = callCost('add-liquidity-multi', 10, 'v-1-1')!;
    const fresh = callCost('add-liquidity-multi', 10, 'v-1-1', { newBins: 4 })!;
    assert.equal(fresh.readCount - plain.readCount, 4 * f.perNewBin!.readCount);
    assert.equal(plain.readCount, f.base.readCount + 10 * f.per.readCount);
  });

  it('v-1-2 adds V12_MARGIN once per call', () => {
    const a = callCost('swap-multi', 5, 'v-1-1')!;
    const b = callCost('swap-multi', 5, 'v-1-2')!;
    assert.equal(b.readCount - a.readCount, V12_MARGIN.readCount);
  });

  it('maxUnitsWithin is the last count within the share, fewer when every bin is new', () => {
    for (const newBins of [false, true]) {
      const n = maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins })!;
      const cost = (k: number) => callCost('add-liquidity-multi', k, 'v-1-1', { newBins: newBins ? k : 0 })!;
      assert.ok(blockShare(cost(n)).share <= 1);
      assert.ok(blockShare(cost(n + 1)).share > 1);
    }
    assert.equal(maxUnitsWithin('add-liquidity-multi', 1, 'v-1-1', { newBins: true }), 241);
    assert.equal(maxUnitsWithin('swap-x-for-y-simple-multi', 1, 'v-1-1'), 283);
    assert.equal(maxUnitsWithin('withdraw-liquidity-multi', 1, 'v-1-1', { newBins: true }), 340);
  });

  it('read count is the binding dimension', () => {
    const c = callCost('move-liquidity-multi', 200, 'v-1-1')!;
    assert.deepEqual(blockShare(c), { share: c.readCount / BLOCK_LIMIT.readCount, dimension: 'readCount' });
  });

  it('a function outside the table has no cost', () => {
    assert.equal(callCost('withdraw-liquidity-same-multi', 3, 'v-1-1'), undefined);
    assert.equal(maxUnitsWithin('withdraw-liquidity-same-multi', 1, 'v-1-1'), undefined);
  });
});
