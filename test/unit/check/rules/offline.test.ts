/** Offline rules: one data-driven table, input plan snippet -> expected (code, severity, source under the range). */
import assert from 'node:assert/strict';
import { analyzeOffline } from '../../../../core/check/analyze';
import { assertFindings, plan, POOL1, SBTC, SENDER, USDCX, type Expect } from '../../plan/helpers';

const add = (bins: string, extra = ''): string =>
  `  - op: add\n    pool: ${POOL1}\n${extra}    bins:\n${bins}`;
const swap = (extra: string): string =>
  `  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 1000${extra} }\n`;

const table: Array<{ name: string; text: string; expect: Expect[]; codes?: string[] }> = [
  {
    name: 'clean strict add',
    text: plan(add('      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n')),
    expect: [],
  },
  {
    name: 'unsigned-bin-id on bin_id',
    text: plan(add('      - { bin_id: 640, x_amount: 1, y_amount: 0 }\n')),
    expect: [['unsigned-bin-id', 'error', '640']],
  },
  {
    name: 'unsigned-bin-id on from/to and withdraw filter',
    text: plan(
      `  - op: move\n    pool: ${POOL1}\n    moves:\n      - { from_bin_id: 636, to_bin_id: 1000, amount: 5 }\n  - op: withdraw\n    pool: ${POOL1}\n    bins: [501]\n`,
    ),
    expect: [
      ['unsigned-bin-id', 'error', '636'],
      ['unsigned-bin-id', 'error', '1000'],
      ['unsigned-bin-id', 'error', '501'],
    ],
  },
  {
    name: 'bin-out-of-range',
    text: plan(
      add(
        '      - { bin_id: -501, x_amount: 0, y_amount: 1 }\n      - { bin_id: 1001, x_amount: 1, y_amount: 0 }\n',
      ),
    ),
    expect: [
      ['bin-out-of-range', 'error', '-501'],
      ['bin-out-of-range', 'error', '1001'],
    ],
  },
  {
    name: 'zero-amount',
    text: plan(add('      - { bin_id: 150, x_amount: 0, y_amount: "0" }\n')),
    expect: [['zero-amount', 'error', '0']],
  },
  {
    name: 'duplicate-bin strict',
    text: plan(
      add(
        '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n      - { bin_id: 150, x_amount: 2, y_amount: 0 }\n',
      ),
    ),
    expect: [['duplicate-bin', 'warning', '150']],
  },
  {
    name: 'duplicate-bin simple offsets',
    text: plan(
      add(
        '      - { active_bin_offset: 2, x_amount: 1, y_amount: 0 }\n      - { active_bin_offset: 2, x_amount: 2, y_amount: 0 }\n',
        '    mode: simple\n',
      ),
    ),
    expect: [['duplicate-bin', 'warning', '2']],
  },
  {
    name: 'duplicate-bin in withdraw filter',
    text: plan(`  - op: withdraw\n    pool: ${POOL1}\n    bins: [140, 141, 140]\n`),
    expect: [['duplicate-bin', 'warning', '140']],
  },
  {
    name: 'move-same-bin strict',
    text: plan(
      `  - op: move\n    pool: ${POOL1}\n    moves:\n      - { from_bin_id: 140, to_bin_id: 140, amount: 5 }\n`,
    ),
    expect: [['move-same-bin', 'error', '140']],
  },
  {
    name: 'slippage-unit fraction in policy',
    text: plan(swap(''), `sender: ${SENDER}\npolicy:\n  slippage_tolerance: 0.01\n`),
    expect: [['slippage-unit', 'warning', '0.01']],
  },
  {
    name: 'sender-missing: an add and a swap without sender (export would refuse), on the first key',
    text: plan(
      swap('') +
        '  - op: add\n    pool: ' +
        POOL1 +
        '\n    bins:\n      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n',
      '',
    ),
    expect: [['sender-missing', 'warning', 'version']],
  },
  {
    name: 'sender-missing: not for a withdraw (its missing sender is a schema error)',
    text: plan(`  - { op: withdraw, pool: ${POOL1} }\n`, ''),
    expect: [['schema', 'error', 'withdraw']],
  },
  {
    name: 'slippage-unit typo on swap',
    text: plan(swap(', slippage_tolerance: 75')),
    expect: [['slippage-unit', 'warning', '75']],
  },
  { name: 'slippage in range', text: plan(swap(', slippage_tolerance: 0.5')), expect: [] },
  {
    name: 'prefer-contract-id for an add alias',
    text: plan(
      '  - op: add\n    pool: dlmm_1\n    bins:\n      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n',
    ),
    expect: [['prefer-contract-id', 'info', 'dlmm_1']],
  },
  {
    name: 'mixed-generation: alias on withdraw in v2',
    text: plan('  - op: withdraw\n    pool: dlmm_1\n'),
    expect: [['mixed-generation', 'error', 'dlmm_1']],
  },
  {
    name: 'mixed-generation: principal in v1',
    text: plan(
      add('      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n'),
      `api: v1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\n`,
    ),
    expect: [['mixed-generation', 'error', POOL1]],
  },
  {
    name: 'too-many-positions',
    text: plan(
      add(
        Array.from(
          { length: 351 },
          (_, i) => `      - { bin_id: ${i - 175}, x_amount: 1, y_amount: 1 }\n`,
        ).join(''),
      ),
    ),
    expect: [['too-many-positions', 'error', 'bins']],
  },
  {
    name: '350 positions is fine',
    text: plan(
      add(
        Array.from(
          { length: 350 },
          (_, i) => `      - { bin_id: ${i - 175}, x_amount: 1, y_amount: 1 }\n`,
        ).join(''),
      ),
    ),
    expect: [],
  },
];

describe('offline rules', () => {
  for (const c of table) it(c.name, () => assertFindings(analyzeOffline(c.text), c.expect, c.codes));

  it('unsigned-bin-id fix writes the signed id', () => {
    const text = plan(add('      - { bin_id: 640, x_amount: 1, y_amount: 0 }\n'));
    const f = analyzeOffline(text).findings.find((x) => x.code === 'unsigned-bin-id');
    const edit = f?.fixes?.[0]?.edits[0];
    assert.ok(edit);
    assert.equal(
      text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length),
      text.replace('640', '140'),
    );
    assert.equal(f?.operation, '0');
  });

  it('findings carry the op id and are sorted by offset', () => {
    const text = plan(
      `  - id: asks\n    op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 700, x_amount: 0, y_amount: 0 }\n`,
    );
    const a = analyzeOffline(text);
    assert.deepEqual(
      a.findings.map((f) => f.operation),
      ['asks', 'asks'],
    );
    assert.ok(a.findings.every((f, i, all) => i === 0 || (all[i - 1]?.offset ?? 0) <= f.offset));
  });
});
