/**
 * The bounded schema pass (core/plan/boundedSchema.ts): a plan small enough is validated whole first; the
 * verdict, typed plan and issues are exactly those of the bounded path alone (whole-first disabled).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validatePlan } from '../../../core/plan/boundedSchema';
import { MAX_FINDINGS_PER_FILE } from '../../../core/plan/diagnostics';
import { PlanSchema } from '../../../core/plan/schema';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

/** The bounded path alone, as before whole-first existed. */
const bounded = (v: unknown) => validatePlan(v, MAX_FINDINGS_PER_FILE, -1);

function plan(ops: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1n, sender: SENDER, operations: ops, ...extra };
}

const add = (n: number, bad?: (i: number) => Record<string, unknown> | undefined) => ({
  id: 'ladder',
  op: 'add',
  pool: POOL,
  bins: Array.from(
    { length: n },
    (_, i) => bad?.(i) ?? { bin_id: BigInt(i - 10), x_amount: 5n, y_amount: 0n },
  ),
});

describe('bounded plan schema: whole-first pass', () => {
  it('a valid plan gives exactly PlanSchema’s typed value', () => {
    const v = plan([
      add(350),
      { op: 'withdraw', pool: POOL, bins: [1n, 2n], withdrawal_percentage: 50n },
      { op: 'move', pool: 'dlmm_1', moves: [{ from_bin_id: 1n, to_bin_id: 2n, amount: '7' }] },
    ]);
    const r = validatePlan(v);
    assert.deepEqual(r.plan, PlanSchema.parse(v));
    assert.deepEqual(r, bounded(v));
  });

  it('invalid plans give the bounded path’s issues, in its order', () => {
    const cases: unknown[] = [
      plan([
        add(30, (i) => (i % 7 === 3 ? { bin_id: 1n, x_amount: -1n, y_amount: 0n, extra: 1 } : undefined)),
      ]),
      plan([{ ...add(5), mode: 'sloppy' }, add(3)]),
      plan([add(4)], { network: 'moon', policy: { slippage_tolerance: 150n } }),
      plan([{ op: 'add', pool: POOL, bins: [] }]),
      plan([{ op: 'withdraw', pool: 'x', bins: ['a', 1n] }, { op: 'swap' }]),
      plan([]),
      plan([add(MAX_FINDINGS_PER_FILE + 50, () => ({ x_amount: 'x' }))]),
    ];
    for (const v of cases) {
      const r = validatePlan(v);
      assert.equal(r.plan, undefined);
      assert.deepEqual(r, bounded(v));
    }
  });

  it('random add ladders with random bad entries agree with the bounded path', () => {
    const entry = fc.oneof(
      fc.record({
        bin_id: fc.bigInt({ min: -600n, max: 600n }),
        x_amount: fc.bigInt({ min: 0n, max: 99n }),
        y_amount: fc.constant(0n),
      }),
      fc.record({ bin_id: fc.string(), x_amount: fc.constant(1n), y_amount: fc.constant(1n) }),
      fc.record({
        x_amount: fc.bigInt({ min: -5n, max: 5n }),
        y_amount: fc.oneof(fc.constant('12'), fc.constant(1.5)),
      }),
      fc.constant({ active_bin_offset: 1n, x_amount: 1n, y_amount: 1n, nope: true }),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 0, maxLength: 40 }), fc.boolean(), (bins, badMode) => {
        const v = plan([{ op: 'add', pool: POOL, ...(badMode ? { mode: 1n } : {}), bins }]);
        assert.deepEqual(validatePlan(v), bounded(v));
      }),
      { numRuns: 150 },
    );
  });
});
