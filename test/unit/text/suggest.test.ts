/** Did-you-mean: the one near candidate, or none. */
import assert from 'node:assert/strict';
import { closestMatch, editDistance } from '../../../core/text/suggest';

describe('closestMatch', () => {
  const keys = ['bin_id', 'active_bin_offset', 'x_amount', 'y_amount'];
  const table: [string, readonly string[], string | undefined][] = [
    ['y_ammount', keys, 'y_amount'],
    ['Y-Amount', keys, 'y_amount'],
    ['bin_di', keys, 'bin_id'],
    ['colour', keys, undefined],
    ['z_amount', keys, undefined], // as near x_amount as y_amount: no guess
    ['slippage_tolerence', ['slippage_tolerance', 'max_tip_lag'], 'slippage_tolerance'],
    ['', keys, undefined],
  ];
  for (const [word, candidates, expected] of table)
    it(`${word} -> ${expected}`, () => assert.equal(closestMatch(word, candidates), expected));

  it('editDistance counts a transposition as one edit and stops beyond max', () => {
    assert.equal(editDistance('amuont', 'amount'), 1);
    assert.equal(editDistance('abc', 'xyz'), 3);
    assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
  });
});
