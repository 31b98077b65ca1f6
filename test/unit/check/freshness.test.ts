/** One verdict on the tip lag (core/check/freshness.ts) for the rules, `dlmm status`, the status bar and the dashboard. */
import assert from 'node:assert/strict';
import { tipVerdict, tipVerdictWords } from '../../../core/check/freshness';
import { assess } from '../../../cli/src/commands/status';
import type { Status } from '../../../core/api/types';

describe('tip freshness: one verdict', () => {
  it('null, absent, negative and fractional lags are unknown, never caught up', () => {
    for (const lag of [null, undefined, -1, -0.5, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const v = tipVerdict(lag, 5);
      assert.equal(v.kind, 'unknown', String(lag));
      assert.doesNotMatch(tipVerdictWords(v), /caught up/);
    }
  });

  it('0 is caught up; a positive lag is behind, within the policy or not', () => {
    assert.deepEqual(tipVerdict(0), { kind: 'caught-up', lag: 0 });
    assert.deepEqual(tipVerdict(3, 5), { kind: 'behind', lag: 3, max: 5, withinPolicy: true });
    assert.deepEqual(tipVerdict(6, 5), { kind: 'behind', lag: 6, max: 5, withinPolicy: false });
    assert.equal(tipVerdictWords(tipVerdict(1)), 'tip lag 1 block');
  });

  it('dlmm status agrees with the rules: tip_lag -1 is a problem (exit 1), not "status: ok"', () => {
    const ready = { ready: true };
    const status = { ready: true, tip_lag: -1, state_height: 10, chain_tip: 9 } as unknown as Status;
    const r = assess(ready, ready, status);
    assert.equal(r.ok, false);
    assert.match(r.problems.join('; '), /tip lag unknown: the engine reports tip_lag -1/);
    assert.equal(assess(ready, ready, { ...status, tip_lag: 0 } as Status).ok, true);
  });
});
