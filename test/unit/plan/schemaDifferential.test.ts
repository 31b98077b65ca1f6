/**
 * The plan schema's plain validators (core/plan/schema.ts) against the zod schema they replaced
 * (zodPlanSchema.ts, the oracle): on valid and broken plans, operations, items and fields, drawn from a
 * seeded generator, both give the same verdict, the same typed value (keys in the same order) and the same
 * issues (code, path, message, unknown keys, address kind), so every schema finding reads as before.
 */
import assert from 'node:assert/strict';
import * as plain from '../../../core/plan/schema';
import * as oracle from './zodPlanSchema';
import { prng } from '../../../core/sim/history';

const STD = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const BAD_SUM = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBX';
const TOKEN = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';

const ODD: unknown[] = [
  undefined,
  null,
  true,
  false,
  '',
  'abc',
  '017',
  '12',
  '1.5',
  '0x1F',
  ' 5 ',
  '-3',
  1.5,
  -1,
  0,
  7,
  100,
  150,
  1e20,
  -1e20,
  2 ** 53,
  NaN,
  Infinity,
  -5n,
  0n,
  5n,
  1n,
  100n,
  10n ** 13n,
  10n ** 40n,
  2n ** 128n,
  [],
  [1],
  ['a'],
  {},
  { a: 1 },
  STD,
  BAD_SUM,
  `${STD}.tok`,
  `${BAD_SUM}.tok`,
  TOKEN,
  POOL,
  'dlmm_1',
  'x'.repeat(201),
  'strict',
  'simple',
  'spot',
  'mainnet',
  'v1',
  'best',
];

/** Values for a plan's parts; with `noise` 0 only valid ones. */
function gen(seed: number, noise = 1) {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const chance = (p: number): boolean => r() < p;
  /** A field's value: a good one, or with noise often an edge one, sometimes anything. */
  const val = (good: unknown[], edge: unknown[] = []): unknown =>
    noise === 0 ? pick(good) : chance(0.8) ? pick([...good, ...edge]) : pick(ODD);
  const obj = (fields: Record<string, () => unknown>): unknown => {
    if (noise > 0 && chance(0.03)) return pick(ODD);
    const out: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(fields)) {
      if (noise > 0 && chance(0.1)) continue;
      out[k] = f();
    }
    if (noise > 0 && chance(0.08)) out[pick(['extra', 'zz', 'bin', 'Op'])] = 1;
    if (noise > 0 && chance(0.03)) out.other = 2;
    return out;
  };
  const list = (item: () => unknown, max: number): unknown =>
    noise > 0 && chance(0.05)
      ? pick(ODD)
      : Array.from({ length: Math.floor(r() * (max + 1)) + (noise > 0 ? 0 : 1) }, item);
  const amount = () => val([0n, 1n, 150000n, 2500000n, '42', 2n ** 128n - 1n, 7], [2n ** 128n, -1n, 1.5]);
  const bin = () => val([-3n, 0n, 145n, 500n, -500n, 12]);
  const id = () => val(['a', 'asks-and-bids', 3n, 4], ['']);
  const mode = () => val(['strict', 'simple']);
  const pool = () => val([POOL, 'dlmm_1', 'dlmm_7']);
  const addItem = () =>
    obj({ bin_id: bin, active_bin_offset: () => val([-1n, 0n, 2n]), x_amount: amount, y_amount: amount });
  const moveItem = () =>
    obj({ from_bin_id: bin, to_bin_id: bin, active_bin_offset: () => val([1n, -2n]), amount });
  const distribution = () =>
    obj({
      shape: () => val(['spot', 'curve', 'bid-ask']),
      from: bin,
      to: bin,
      x_amount: amount,
      y_amount: amount,
    });
  const pct = () => val([1n, 50n, '0.5', 0.25, '2', 99.9999], [100n, 100, 0n, '1.23456']);
  const ops: Record<string, () => unknown> = {
    add: () =>
      obj({
        id,
        op: () => 'add',
        mode,
        pool,
        bins: () => list(addItem, 4),
        distribution: () => distribution(),
      }),
    withdraw: () =>
      obj({ id, op: () => 'withdraw', mode, pool, withdrawal_percentage: pct, bins: () => list(bin, 3) }),
    move: () => obj({ id, op: () => 'move', mode, pool, moves: () => list(moveItem, 3) }),
    swap: () =>
      obj({
        id,
        op: () => 'swap',
        input_token: () => val([TOKEN, POOL]),
        output_token: () => val([TOKEN]),
        amount_in: amount,
        amm_strategy: () => val(['best', 'x']),
        slippage_tolerance: pct,
        provider: () => val([STD, TOKEN]),
        aggregator: () => val([true, false]),
      }),
  };
  const operation = (): unknown => {
    const op = pick(Object.keys(ops));
    const v = (ops[op] as () => unknown)();
    if (chance(0.05) && typeof v === 'object' && v !== null) (v as Record<string, unknown>).op = pick(ODD);
    return v;
  };
  const policy = () =>
    obj({
      max_tip_lag: () => val([0n, 3n]),
      slippage_tolerance: pct,
      active_bin_tolerance: () => val([0n, 1000n, 5n], [1001n, -1n]),
      deadline_seconds: () => val([null, 60n], [0n]),
      max_price_impact: pct,
      range_alert_bins: () => val([5n, 1000n]),
    });
  const plan = () =>
    obj({
      $schema: () => val(['../schemas/dlmm-plan.schema.json']),
      version: () => val([1n, 1]),
      network: () => val(['mainnet', 'testnet']),
      api: () => val(['v2', 'v1']),
      sender: () => val([STD], [BAD_SUM]),
      policy,
      operations: () => list(operation, 3),
    });
  return { plan, operation, addItem, moveItem, policy, bin, any: () => pick(ODD) };
}

interface Parsed {
  success: boolean;
  data?: unknown;
  error?: { issues: ReadonlyArray<{ code: string; path: PropertyKey[]; message: string }> };
}

const text = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'bigint' ? `${x}n` : x === undefined ? '(undefined)' : x,
  );

function same(what: string, input: unknown, got: Parsed, want: Parsed): void {
  const issues = (p: Parsed) =>
    p.error?.issues.map((i) => {
      const extra = i as { keys?: string[]; params?: { kind?: string } };
      return { code: i.code, path: i.path, message: i.message, keys: extra.keys, kind: extra.params?.kind };
    });
  const context = `${what} of ${text(input)}`;
  assert.equal(got.success, want.success, `verdict: ${context}: ${text(issues(want))}`);
  if (want.success) {
    assert.deepEqual(got.data, want.data, `value: ${context}`);
    assert.equal(text(got.data), text(want.data), `value's key order: ${context}`);
  } else assert.deepEqual(issues(got), issues(want), `issues: ${context}`);
}

const CASES = 2500;

describe('plan schema: plain validators against the zod schema they replaced', () => {
  it(`plans (${CASES} generated, valid and broken)`, () => {
    let valid = 0;
    for (let i = 0; i < CASES; i++) {
      const v = gen(i, i % 3).plan();
      const want = oracle.PlanSchema.safeParse(v);
      same('PlanSchema', v, plain.PlanSchema.safeParse(v), want);
      if (want.success) valid++;
      // Stopped at its first issue: that issue, or the valid plan (boundedSchema.ts's first pass).
      const first = plain.PlanSchema.safeParse(v, 1);
      if (want.success) same('PlanSchema (first issue)', v, first, want);
      else assert.deepEqual(first.error?.issues, [plain.PlanSchema.safeParse(v).error?.issues[0]]);
    }
    // The generator reaches both sides.
    assert.ok(valid > CASES / 20 && valid < CASES - CASES / 20, `${valid} valid of ${CASES}`);
  });

  it('operations, list items, bin ids and policies on their own', () => {
    for (let i = 0; i < CASES; i++) {
      const g = gen(1_000_000 + i);
      const op = g.operation();
      same('OperationSchema', op, plain.OperationSchema.safeParse(op), oracle.OperationSchema.safeParse(op));
      const add = g.addItem();
      same('AddItemSchema', add, plain.AddItemSchema.safeParse(add), oracle.AddItemSchema.safeParse(add));
      const move = g.moveItem();
      same(
        'MoveItemSchema',
        move,
        plain.MoveItemSchema.safeParse(move),
        oracle.MoveItemSchema.safeParse(move),
      );
      const bin = g.bin();
      same('zPlanBinId', bin, plain.zPlanBinId.safeParse(bin), oracle.zPlanBinId.safeParse(bin));
      const policy = g.policy();
      same(
        'policy field',
        policy,
        plain.fieldSchema(plain.PlanSchema, 'policy').safeParse(policy),
        oracle.PlanSchema.shape.policy.safeParse(policy),
      );
    }
  });

  it('every field kind on every odd value', () => {
    const pairs: Array<[string, plain.Schema<unknown>, { safeParse(v: unknown): Parsed }]> = [
      ['zPlanAmount', plain.zPlanAmount, oracle.zPlanAmount],
      ['zSmallInt', plain.zSmallInt, oracle.zSmallInt],
      ['zPercent', plain.zPercent, oracle.zPercent],
      ['zSlippage', plain.zSlippage, oracle.zSlippage],
      ['zPrincipalStandard', plain.zPrincipalStandard, oracle.zPrincipalStandard],
      ['zContractPrincipal', plain.zContractPrincipal, oracle.zContractPrincipal],
      ['zPoolRef', plain.zPoolRef, oracle.zPoolRef],
    ];
    const objects: Array<[string, plain.ObjectSchema<unknown>, { shape: Record<string, unknown> }]> = [
      ['PlanSchema', plain.PlanSchema as plain.ObjectSchema<unknown>, oracle.PlanSchema],
      ['PolicySchema', plain.PolicySchema as plain.ObjectSchema<unknown>, oracle.PolicySchema],
      ['AddOpSchema', plain.AddOpSchema as plain.ObjectSchema<unknown>, oracle.AddOpSchema],
      ['WithdrawOpSchema', plain.WithdrawOpSchema as plain.ObjectSchema<unknown>, oracle.WithdrawOpSchema],
      ['MoveOpSchema', plain.MoveOpSchema as plain.ObjectSchema<unknown>, oracle.MoveOpSchema],
      ['SwapOpSchema', plain.SwapOpSchema as plain.ObjectSchema<unknown>, oracle.SwapOpSchema],
      [
        'DistributionSchema',
        plain.DistributionSchema as plain.ObjectSchema<unknown>,
        oracle.DistributionSchema,
      ],
      ['AddItemSchema', plain.AddItemSchema as plain.ObjectSchema<unknown>, oracle.AddItemSchema],
      ['MoveItemSchema', plain.MoveItemSchema as plain.ObjectSchema<unknown>, oracle.MoveItemSchema],
    ];
    for (const [name, p, o] of objects) {
      assert.deepEqual(Object.keys(p.shape), Object.keys(o.shape), `${name}'s fields`);
      for (const key of Object.keys(o.shape))
        pairs.push([`${name}.${key}`, plain.fieldSchema(p, key as never), o.shape[key] as never]);
    }
    for (const [name, p, o] of pairs) for (const v of ODD) same(name, v, p.safeParse(v), o.safeParse(v));
  });
});
