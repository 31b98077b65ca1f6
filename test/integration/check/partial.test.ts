/**
 * Diagnostics survive a schema error: a plan with a broken operation keeps every finding of the others, byte
 * for byte equal to the same plan without that operation (ranges shifted by the broken operation's text),
 * offline and live against the simulated engine over loopback HTTP. A broken operation is checked as far as
 * its valid parts allow: with an unknown key (of its own or of an item) it has every finding the same
 * operation has unbroken, with an invalid item the findings of its other items, and otherwise its schema
 * findings only. One table: every operation of a plan with findings in each, times every kind of breakage
 * that applies to it.
 */
import assert from 'node:assert/strict';
import { analyzeOffline, analyzePlan, type Analysis } from '../../../core/check/analyze';
import type { DlmmApi } from '../../../core/api/types';
import type { Finding } from '../../../core/plan/diagnostics';
import { POOL1, POOL3, SBTC, SENDER } from '../../unit/plan/helpers';
import { admin, clientFor, startSimulator, type RunningSimulator } from './sim';

const HEAD = `version: 1\nsender: ${SENDER}\npolicy:\n  slippage_tolerance: 0.01\n  max_tip_lag: 0\noperations:\n`;

/** Operations with findings of their own (offline and live), one block each. */
const OPS = [
  `  - id: asks\n    op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 135, x_amount: 150000, y_amount: 0 }\n      - { bin_id: 640, x_amount: 1000, y_amount: 0 }\n      - { bin_id: 139, x_amount: 1000, y_amount: 1000 }\n      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n      - { bin_id: 150, x_amount: 2000, y_amount: 0 }\n`,
  `  - id: shift\n    op: move\n    pool: ${POOL1}\n    moves:\n      - { from_bin_id: 136, to_bin_id: 125, amount: 999999999999999999999 }\n      - { from_bin_id: 137, to_bin_id: 137, amount: 5 }\n      - { from_bin_id: 150, to_bin_id: 155, amount: 1000 }\n`,
  `  - id: pull\n    op: withdraw\n    pool: ${POOL3}\n    withdrawal_percentage: 50\n    bins: [11, 12]\n`,
  `  - id: trade\n    op: swap\n    input_token: ${SBTC}\n    output_token: SP2XD7417HGPRTREMKF748VNEQPDRR0RMANB7X1NK.token-alex\n    amount_in: 1000\n    slippage_tolerance: 0.01\n`,
  `  - id: simple-bids\n    op: add\n    mode: simple\n    pool: dlmm_1\n    bins:\n      - { active_bin_offset: -3, x_amount: 0, y_amount: 1000 }\n      - { active_bin_offset: 2, x_amount: 0, y_amount: 1000 }\n`,
];

/** How much of a broken operation is still checked: all of it, some of its items, or nothing. */
type Salvage = 'whole' | 'part' | 'none';

/** Ways to break one operation's schema; undefined when the breakage does not apply to that operation. */
const BREAKAGES: Record<string, { salvage: Salvage; apply: (op: string) => string | undefined }> = {
  'unknown field': { salvage: 'whole', apply: (op) => op.replace(/\n/, '\n    colour: blue\n') },
  'unknown op kind': { salvage: 'none', apply: (op) => op.replace(/op: (\w+)/, 'op: $1x') },
  'wrong type': {
    salvage: 'none',
    apply: (op) =>
      /pool: /.test(op)
        ? op.replace(/pool: \S+/, 'pool: 42')
        : op.replace(/amount_in: \d+/, 'amount_in: lots'),
  },
  'item with an unknown field': {
    salvage: 'whole',
    apply: (op) => (op.includes('{ ') ? op.replace('{ ', '{ typo: 1, ') : undefined),
  },
  'item with a negative amount': {
    salvage: 'part',
    apply: (op) =>
      /(x_amount|amount): \d/.test(op) && /moves:|bins:\n/.test(op)
        ? op.replace(/(x_amount|amount): (\d)/, '$1: -1$2')
        : undefined,
  },
  'missing required field': {
    salvage: 'none',
    apply: (op) =>
      /\n {4}(bins|moves|amount_in)/.test(op)
        ? op.replace(/\n {4}(bins|moves|amount_in)/, '\n    was_$1')
        : undefined,
  },
};

/** Findings of the plan's execution, which a plan that failed its schema never gets. */
const EXECUTION_CODES = new Set([
  'would-revert',
  'execution-unchecked',
  'insufficient-balance',
  'balance-unchecked',
  'fee-not-covered',
  'strict-drift-risk',
  'clock-skew',
]);

type Comparable = Omit<Finding, 'fixes'> & { fixes?: Finding['fixes'] };

function shifted(f: Finding, from: number, by: number): Comparable {
  const move = (o: number) => (o >= from ? o + by : o);
  const out: Comparable = { ...f, offset: move(f.offset) };
  if (f.fixes)
    out.fixes = f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, offset: move(e.offset) })) }));
  return out;
}

/** What a finding says, apart from where: code, severity, message and the text under its range. */
const said = (text: string, f: Finding) =>
  `${f.code}|${f.severity}|${f.message}|${text.slice(f.offset, f.offset + f.length)}`;

function assertKeepsOthers(broken: Analysis, removed: Analysis, whole: Analysis, c: Case): void {
  const { start, length, name: what } = c;
  const inside = (f: Finding) => f.offset >= start && f.offset < start + length;
  const own = broken.findings.filter(inside);
  assert.ok(
    own.some((f) => f.code === 'schema'),
    `${what}: the broken operation carries its schema findings`,
  );
  assert.ok(!broken.findings.some((f) => EXECUTION_CODES.has(f.code)), `${what}: nothing was executed`);
  const ownChecked = own.filter((f) => f.code !== 'schema').map((f) => said(broken.text, f));
  // The same operation unbroken, in the whole plan (its execution's findings aside).
  const wholeOwn = whole.findings
    .filter((f) => f.offset >= start && f.offset < start + c.opLength && !EXECUTION_CODES.has(f.code))
    .map((f) => said(whole.text, f));
  if (c.salvage === 'none') assert.deepEqual(ownChecked, [], `${what}: schema findings only`);
  else if (c.salvage === 'whole')
    assert.deepEqual(ownChecked.sort(), [...wholeOwn].sort(), `${what}: every finding of the operation`);
  else {
    assert.ok(ownChecked.length > 0, `${what}: its valid items are checked`);
    for (const s of ownChecked)
      assert.ok(wholeOwn.includes(s), `${what}: ${s} is a finding of the unbroken operation`);
  }
  const others = broken.findings.filter((f) => !inside(f));
  // The others' findings: those of the plan without this operation, or, where it is checked whole, of the
  // whole plan (a finding across operations may name it), its execution aside.
  const expected =
    c.salvage === 'none'
      ? removed.findings.map((f) => shifted(f, start, length))
      : whole.findings
          .filter(
            (f) => !(f.offset >= start && f.offset < start + c.opLength) && !EXECUTION_CODES.has(f.code),
          )
          .map((f) => shifted(f, start + c.opLength, length - c.opLength));
  assert.ok(expected.length > 0, `${what}: the reference has findings`);
  assert.deepEqual(JSON.parse(JSON.stringify(others, big)), JSON.parse(JSON.stringify(expected, big)), what);
  assert.deepEqual(broken.internalErrors, [], what);
}

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

interface Case {
  name: string;
  broken: string;
  removed: string;
  whole: string;
  start: number;
  length: number;
  opLength: number;
  salvage: Salvage;
}

function cases(): Case[] {
  const out: Case[] = [];
  OPS.forEach((op, k) => {
    for (const [kind, { salvage, apply }] of Object.entries(BREAKAGES)) {
      const bad = apply(op);
      if (bad === undefined || bad === op) continue;
      const before = HEAD + OPS.slice(0, k).join('');
      out.push({
        name: `${kind} in operation ${k} (${/id: (\S+)/.exec(op)?.[1]})`,
        broken: before + bad + OPS.slice(k + 1).join(''),
        removed: before + OPS.slice(k + 1).join(''),
        whole: HEAD + OPS.join(''),
        start: before.length,
        length: bad.length,
        opLength: op.length,
        salvage,
      });
    }
  });
  return out;
}

describe('diagnostics survive a schema error (offline)', () => {
  for (const c of cases())
    it(c.name, () => {
      const broken = analyzeOffline(c.broken, { fileName: 'p.dlmm.yaml' });
      const removed = analyzeOffline(c.removed, { fileName: 'p.dlmm.yaml' });
      const whole = analyzeOffline(c.whole, { fileName: 'p.dlmm.yaml' });
      assertKeepsOthers(broken, removed, whole, c);
    });

  it('the plan-level rules when no operation can be checked; nothing but the schema finding when the header is invalid', () => {
    const onlyBroken = analyzeOffline(HEAD + BREAKAGES['unknown op kind']!.apply(OPS[0]!)!, {
      fileName: 'p.dlmm.yaml',
    });
    assert.deepEqual(
      [...new Set(onlyBroken.findings.map((f) => f.code))].sort(),
      ['schema', 'slippage-unit'],
      'the policy slippage 0.01 is still reported',
    );
    const badNetwork = analyzeOffline(
      HEAD.replace('version: 1\n', 'version: 1\nnetwork: moon\n') + OPS.join(''),
      {
        fileName: 'p.dlmm.yaml',
      },
    );
    assert.deepEqual([...new Set(badNetwork.findings.map((f) => f.code))], ['schema']);
  });
});

describe('diagnostics survive a schema error (live, simulated engine)', function () {
  this.timeout(120_000);
  let sim: RunningSimulator;
  let api: DlmmApi;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  for (const c of cases())
    it(c.name, async () => {
      const broken = await analyzePlan(c.broken, { api, fileName: 'p.dlmm.yaml' });
      const removed = await analyzePlan(c.removed, { api, fileName: 'p.dlmm.yaml' });
      const whole = await analyzePlan(c.whole, { api, fileName: 'p.dlmm.yaml' });
      assertKeepsOthers(broken, removed, whole, c);
      assert.ok(broken.live, 'live rules ran');
    });

  it('the valid operations are prepared with their index in the document', async () => {
    const c = cases().find((x) => x.name.startsWith('unknown op kind in operation 1'))!;
    const a = await analyzePlan(c.broken, { api, fileName: 'p.dlmm.yaml' });
    assert.equal(a.plan, undefined, 'a plan that failed its schema is not exported or shown as a plan');
    assert.deepEqual(
      a.prepared.map((p) => [p.index, p.id]),
      [
        [0, 'asks'],
        [2, 'pull'],
        [3, 'trade'],
        [4, 'simple-bids'],
      ],
    );
  });

  it('policy-level rules run when the policy is valid, and only then', async () => {
    await admin(sim, '/state', { tip_lag: 2 });
    // A fresh client: the shared one may hold the status read before the change.
    const api = clientFor(sim);
    try {
      const valid = HEAD + OPS.slice(0, 1).join('') + BREAKAGES['unknown field']!.apply(OPS[1]!)!;
      const a = await analyzePlan(valid, { api, fileName: 'p.dlmm.yaml' });
      assert.ok(
        a.findings.some((f) => f.code === 'tip-lag'),
        'tip-lag with a valid policy',
      );
      assert.ok(
        a.findings.some((f) => f.code === 'slippage-unit' && f.operation === undefined),
        'policy slippage',
      );
      const badPolicy = valid.replace('max_tip_lag: 0', 'max_tip_lag: -1');
      const b = await analyzePlan(badPolicy, { api, fileName: 'p.dlmm.yaml' });
      assert.ok(
        !b.findings.some((f) => f.code === 'tip-lag' || f.code === 'tip-unknown'),
        'no tip rule on a bad policy',
      );
      assert.ok(
        b.findings.some((f) => f.code === 'wrong-token-side'),
        'the operations are still checked',
      );
      const override = await analyzePlan(badPolicy, { api, fileName: 'p.dlmm.yaml', maxTipLag: 1 });
      assert.ok(
        override.findings.some((f) => f.code === 'tip-lag'),
        '--max-tip-lag stands in for the policy',
      );
    } finally {
      await api.close?.();
      await admin(sim, '/reset', {});
    }
  });
});
