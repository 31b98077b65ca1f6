/**
 * The bounded schema pass (core/plan/boundedSchema.ts): a plan is validated whole first (stopping at its first
 * issue); the verdict, typed plan and issues are exactly those of the bounded path alone (whole-first off).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validatePlan } from '../../../core/plan/boundedSchema';
import { MAX_FINDINGS_PER_FILE } from '../../../core/plan/diagnostics';
import { AddItemSchema, OperationSchema, PlanSchema } from '../../../core/plan/schema';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

/** The bounded path alone, as before whole-first existed. */
const bounded = (v: unknown) => validatePlan(v, MAX_FINDINGS_PER_FILE, false);

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

/** A valid add item (bin ids beyond -500..500 too: the schema takes them, a rule flags them). */
const good = fc.record({
  bin_id: fc.bigInt({ min: -600n, max: 600n }),
  x_amount: fc.bigInt({ min: 0n, max: 99n }),
  y_amount: fc.constant(0n),
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

  it('random add ladders, valid or with random bad entries, agree with the bounded path', () => {
    const bad = fc.oneof(
      fc.record({ bin_id: fc.string(), x_amount: fc.constant(1n), y_amount: fc.constant(1n) }),
      fc.record({
        x_amount: fc.bigInt({ min: -5n, max: 5n }),
        y_amount: fc.oneof(fc.constant('12'), fc.constant(1.5)),
      }),
      fc.constant({ active_bin_offset: 1n, x_amount: 1n, y_amount: 1n, nope: true }),
    );
    // Half the runs are valid ladders (no bad entry, a valid mode): both outcomes are compared, and counted.
    const spoil = fc.option(
      fc.record({
        at: fc.array(fc.tuple(fc.nat(), bad), { minLength: 1, maxLength: 5 }),
        badMode: fc.boolean(),
      }),
      { freq: 2 },
    );
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(fc.array(good, { minLength: 1, maxLength: 40 }), spoil, (ladder, spoilt) => {
        const bins: unknown[] = [...ladder];
        for (const [i, entry] of spoilt?.at ?? []) bins.splice(i % (bins.length + 1), 0, entry);
        const v = plan([{ op: 'add', pool: POOL, ...(spoilt?.badMode ? { mode: 1n } : {}), bins }]);
        const r = validatePlan(v);
        if (r.plan) valid++;
        else invalid++;
        assert.deepEqual(r, bounded(v));
        if (r.plan) assert.deepEqual(r.plan, PlanSchema.parse(v));
      }),
      { numRuns: 200 },
    );
    assert.ok(valid >= 50 && invalid >= 50, `valid ${valid}, invalid ${invalid}`);
  });

  it('a long valid plan (100,000 bins) gives exactly PlanSchema’s typed value', function () {
    this.timeout(60_000);
    const v = plan([add(100_000), { op: 'withdraw', pool: POOL, bins: [1n, 2n] }]);
    const r = validatePlan(v);
    assert.deepEqual(r.plan, PlanSchema.parse(v));
    assert.deepEqual(r.issues, []);
  });

  it('an op named like an Object property (constructor, __proto__, toString) is a schema finding, never a crash', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const v = plan([{ op: name, undefined: [1n, 2n] }, add(3)]);
      const r = validatePlan(v);
      assert.equal(r.plan, undefined, name);
      assert.ok(r.issues.length > 0, name);
      assert.deepEqual(r, bounded(v), name);
    }
  });

  it('a bad header with valid items: exactly PlanSchema’s issues; an op’s own bad field: exactly its schema’s', () => {
    const header = fc.record(
      {
        version: fc.constantFrom(2n, 'one'),
        sender: fc.constantFrom('nope', 7n),
        network: fc.constantFrom('moon', 'mainnet'),
        policy: fc.constantFrom({ slippage_tolerance: 150n }, { max_tip_lag: -1n }, { zz: 1n }),
        zz: fc.constant(1n),
      },
      { requiredKeys: [] },
    );
    const opSpoil = fc.option(fc.constantFrom({ mode: 1n }, { pool: '' }, { extra: true }), { freq: 2 });
    let spoiltHeaders = 0;
    fc.assert(
      fc.property(
        fc.array(good, { minLength: 1, maxLength: 30 }),
        header,
        opSpoil,
        (ladder, extra, spoil) => {
          const ops = [
            { op: 'add', pool: POOL, bins: ladder, ...(spoil ?? {}) },
            { op: 'withdraw', pool: POOL, bins: ladder.map((b) => b.bin_id) },
            { op: 'move', pool: POOL, moves: ladder.map((b) => ({ from_bin_id: b.bin_id, amount: '7' })) },
          ];
          const v = plan(ops, extra);
          const zod = PlanSchema.safeParse(v);
          // Whole first, and the bounded path alone.
          for (const r of [validatePlan(v), bounded(v)]) {
            assert.equal(r.plan === undefined, !zod.success);
            if (zod.success) {
              assert.deepEqual(r.plan, zod.data);
              continue;
            }
            if (!spoil) {
              spoiltHeaders++;
              assert.deepEqual(r.issues, zod.error.issues);
              continue;
            }
            // The add's own issues are its schema's on the whole operation, under its index.
            const own = OperationSchema.safeParse(ops[0]);
            assert.ok(!own.success);
            assert.deepEqual(
              r.issues.filter((i) => i.path[0] === 'operations' && i.path[1] === 0),
              own.error.issues.map((i) => ({ ...i, path: ['operations', 0, ...i.path] })),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
    assert.ok(spoiltHeaders >= 100, `${spoiltHeaders} bad headers compared`);
  });

  it('a bad header on 100,000 valid bins validates the items once (was four passes)', function () {
    this.timeout(60_000);
    const v = plan([add(100_000)], { version: 2n });
    // Every validation of an item: on its own (safeParse) and inside a list (check).
    let items = 0;
    const item = AddItemSchema as {
      safeParse: (...a: unknown[]) => unknown;
      check: (...a: unknown[]) => unknown;
    };
    const { safeParse, check } = item;
    item.safeParse = (...a) => (items++, safeParse(...a));
    item.check = (...a) => (items++, check(...a));
    const restore = [() => Object.assign(item, { safeParse, check })];
    let r;
    try {
      r = validatePlan(v);
    } finally {
      for (const undo of restore) undo();
    }
    assert.deepEqual(r.issues, PlanSchema.safeParse(v).error?.issues);
    assert.ok(items <= 100_010, `${items} items validated for 100,000 bins`);
  });
});
