/** The generators' ids and the strict-range hint (core/prepare/generated.ts). */
import assert from 'node:assert/strict';
import { distributionOpId, strictRangeAsOffsets } from '../../../core/prepare/generated';

describe('plan generators', () => {
  it('ids read as words and numbers, a minus as m', () => {
    assert.equal(distributionOpId('curve', -20, 20), 'curve-m20-20');
    assert.equal(distributionOpId('bid-ask', -30, -10), 'bid-ask-m30-m10');
    assert.equal(distributionOpId('spot', 100, 120), 'spot-100-120');
  });

  const table: [from: number, to: number, active: number, meant: { from: number; to: number } | undefined][] =
    [
      [-20, 20, 139, { from: 119, to: 159 }],
      [0, 10, -200, { from: -200, to: -190 }],
      [-20, 20, 30, undefined], // the active bin is near: an absolute range is plausible
      [100, 120, 139, undefined], // beyond ±50: not offset-like
      [-51, 0, 300, undefined],
    ];
  for (const [from, to, active, meant] of table)
    it(`strict ${from}..${to} with the active bin ${active}: ${meant ? `${meant.from}..${meant.to}` : 'no hint'}`, () =>
      assert.deepEqual(strictRangeAsOffsets(from, to, active), meant));
});
