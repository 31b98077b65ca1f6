/**
 * Every mistake of a plan in one run (issue 45): a broken operation checked as far as its valid parts allow,
 * plan-level rules with no valid operation, a repeated key, a mistyped key as one finding with its fix, and
 * the offline unit warnings.
 */
import assert from 'node:assert/strict';
import { analyzeOffline } from '../../../core/check/analyze';
import { assertFindings, plan, POOL1, SENDER } from './helpers';

const apply = (text: string, edit: { offset: number; length: number; newText: string }) =>
  text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length);

describe('every finding in one run', () => {
  it('a mistyped key is one finding, with did-you-mean and a rename that makes the plan valid', () => {
    const text = plan(
      `  - op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 150, x_amount: 1, y_ammount: 0 }\n`,
    );
    const a = analyzeOffline(text);
    assertFindings(a, [['schema', 'error', 'y_ammount']]);
    assert.match(
      a.findings[0]!.message,
      /unknown field 'y_ammount' in operations\[0\]\.bins\[0\]; did you mean 'y_amount'\?/,
    );
    const fix = a.findings[0]!.fixes?.[0];
    assert.ok(fix?.preferred);
    const fixed = analyzeOffline(apply(text, fix.edits[0]!));
    assert.ok(fixed.plan, 'the renamed key makes the plan valid');
  });

  it('a mistyped word value (op, mode, shape, network) gets did-you-mean and a fix', () => {
    const text = plan(
      `  - op: add\n    mode: stict\n    pool: ${POOL1}\n    distribution: { shape: curv, from: -2, to: 2, x_amount: 1, y_amount: 1 }\n`,
    );
    const a = analyzeOffline(text);
    assertFindings(a, [
      ['schema', 'error', 'stict'],
      ['schema', 'error', 'curv'],
    ]);
    assert.match(a.findings[0]!.message, /operations\[0\]\.mode is "stict"; did you mean 'strict'\?/);
    let fixed = text;
    for (const f of [...a.findings].reverse()) fixed = apply(fixed, f.fixes![0]!.edits[0]!);
    assert.ok(analyzeOffline(fixed).plan, 'both fixes make the plan valid');
    const op = analyzeOffline(
      plan(`  - op: ad\n    pool: ${POOL1}\n    bins: [{ bin_id: 1, x_amount: 1, y_amount: 0 }]\n`),
    );
    assert.match(op.findings[0]!.message, /did you mean 'add'\?/);
  });

  it('a key in JSON keeps its quotes in the rename', () => {
    const text = `{"version": 1, "sender": "${SENDER}", "operations": [{"op": "withdraw", "pool": "${POOL1}", "withdrawl_percentage": 50}]}`;
    const a = analyzeOffline(text, { fileName: 'p.dlmm.json' });
    const f = a.findings.find((x) => x.code === 'schema');
    assert.equal(f?.fixes?.[0]?.edits[0]?.newText, '"withdrawal_percentage"');
  });

  it('a far unknown key lists the accepted fields, and the missing one is still reported', () => {
    const a = analyzeOffline(
      plan(`  - op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 150, x_amount: 1, colour: 0 }\n`),
    );
    assert.deepEqual(a.findings.filter((f) => f.code === 'schema').length, 2);
    assert.ok(a.findings.every((f) => !f.fixes));
  });

  it("a broken operation's other parts and the policy are checked", () => {
    const text = plan(
      `  - op: add\n    pool: ${POOL1}\n    colour: blue\n    bins:\n      - { bin_id: 640, x_amount: 0, y_amount: 0 }\n      - { bin_id: 150, x_amount: -1, y_amount: 0 }\n      - { bin_id: 151, x_amount: 0, y_amount: 0 }\n`,
      `sender: ${SENDER}\npolicy:\n  slippage_tolerance: 0.01\n`,
    );
    const a = analyzeOffline(text);
    assert.equal(a.plan, undefined);
    assertFindings(a, [
      ['slippage-unit', 'warning', '0.01'],
      ['schema', 'error', 'colour'],
      ['unsigned-bin-id', 'error', '640'],
      ['zero-amount', 'error', '0'],
      ['schema', 'error', '-1'],
      ['zero-amount', 'error', '0'],
    ]);
    // The item left out does not shift the others' names.
    assert.match(a.findings[5]!.message, /^bins\[2\] /);
  });

  it('plan-level rules run when no operation can be checked', () => {
    const a = analyzeOffline(
      plan(
        `  - op: add\n    pool: 42\n    bins:\n      - { bin_id: 1, x_amount: 1, y_amount: 0 }\n`,
        `sender: ${SENDER}\npolicy:\n  slippage_tolerance: 0.01\n`,
      ),
    );
    assertFindings(a, [
      ['slippage-unit', 'warning', '0.01'],
      ['schema', 'error', '42'],
    ]);
  });

  it('a repeated key in an operation is reported and the rest is checked; in the policy it stops the reading', () => {
    const ops = `  - op: add\n    pool: ${POOL1}\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 640, x_amount: 1, y_amount: 0 }\n  - op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 641, x_amount: 1, y_amount: 0 }\n`;
    const a = analyzeOffline(plan(ops, `sender: ${SENDER}\npolicy:\n  slippage_tolerance: 0.01\n`));
    assertFindings(a, [
      ['slippage-unit', 'warning', '0.01'],
      ['syntax', 'error', 'p'],
      ['unsigned-bin-id', 'error', '641'],
    ]);
    const inPolicy = analyzeOffline(
      plan(ops, `sender: ${SENDER}\npolicy:\n  max_tip_lag: 1\n  max_tip_lag: 2\n`),
    );
    assert.deepEqual([...new Set(inPolicy.findings.map((f) => f.code))], ['syntax']);
  });
});

describe('unit plausibility (offline)', () => {
  it('percent-below-one: a fraction as withdrawal_percentage, with the percent as fix', () => {
    const text = plan(`  - op: withdraw\n    pool: ${POOL1}\n    withdrawal_percentage: 0.5\n`);
    const a = analyzeOffline(text);
    assertFindings(a, [['percent-below-one', 'warning', '0.5']], ['percent-below-one']);
    assert.match(a.findings.find((f) => f.code === 'percent-below-one')!.message, /write 50$/);
    const fix = a.findings.find((f) => f.code === 'percent-below-one')!.fixes![0]!;
    assert.equal(fix.edits[0]!.newText, '50');
    const one = analyzeOffline(plan(`  - op: withdraw\n    pool: ${POOL1}\n    withdrawal_percentage: 1\n`));
    assert.ok(!one.findings.some((f) => f.code === 'percent-below-one'));
  });

  it('slippage-high above 10 up to 50; slippage-unit beyond', () => {
    const at = (v: string) =>
      analyzeOffline(
        plan(
          `  - op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n`,
          `sender: ${SENDER}\npolicy:\n  slippage_tolerance: ${v}\n`,
        ),
      )
        .findings.filter((f) => f.code.startsWith('slippage'))
        .map((f) => f.code);
    assert.deepEqual(at('10'), []);
    assert.deepEqual(at('10.5'), ['slippage-high']);
    assert.deepEqual(at('49'), ['slippage-high']);
    assert.deepEqual(at('51'), ['slippage-unit']);
  });
});
