/**
 * One verdict per rule across every face (issue 44): each table runs the same inputs through every face's own
 * entry point and asserts they agree with the core rule.
 */
import assert from 'node:assert/strict';
import { analyzeOffline } from '../../../core/check/analyze';
import { DEFAULT_MAX_TIP_LAG, tipVerdict } from '../../../core/check/freshness';
import { effectiveSlippage, minReceived, slippagePlausible, slippageToPpm } from '../../../core/dlmm/bounds';
import { quoteMinReceived } from '../../../core/quote/exact';
import { itemTarget, type AddOp, type MoveOp } from '../../../core/plan/schema';
import { addTarget, moveTarget } from '../../../core/prepare/prepare';
import { grantFromHeaders, retryAfterMs } from '../../../core/api/limiter';
import { parseConfig } from '../../../client/src/settingsSchema';
import { describeRoute } from '../../../protocol/format';
import type { Route } from '../../../core/api/types';
import { parseExportSwapArgs } from '../../../client/src/export/swapPlan';
import { QuoteParamsSchema } from '../../../webview/src/protocol';
import { plan, SBTC, SENDER, USDCX } from '../plan/helpers';

const swap = (extra: string): string =>
  `  - { op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 1000${extra} }\n`;

describe('one verdict per rule across every face', () => {
  it('slippage bounds: the plan schema, the setting, the export-swap arguments and the quote panel agree', () => {
    const cases: Array<[number, boolean]> = [
      [0, true],
      [0.0001, true],
      [1, true],
      [50, true],
      [99.9999, true],
      [100, false],
      [100.5, false],
      [150, false],
      [-1, false],
      [0.00001, false],
    ];
    for (const [p, ok] of cases) {
      assert.equal(slippageToPpm(p) !== undefined, ok, `core ${p}`);
      const text = plan(swap(`, slippage_tolerance: ${p}`));
      const schemaOk = !analyzeOffline(text).findings.some((f) => f.code === 'schema');
      assert.equal(schemaOk, ok, `plan schema ${p}`);
      const setting = parseConfig({ slippageTolerance: p });
      assert.equal(setting.problems.length === 0, ok, `dlmm.slippageTolerance ${p}`);
      if (!ok)
        assert.equal(setting.config.slippageTolerance, 1, 'a refused setting falls back to the default');
      const exported = parseExportSwapArgs([
        { input_token: SBTC, output_token: USDCX, amount_in: '1000', slippage_tolerance: p },
      ]);
      assert.equal(exported.ok, ok, `export swap ${p}`);
      const panel = QuoteParamsSchema.safeParse({
        input_token: SBTC,
        output_token: USDCX,
        amount_in: '1000',
        slippage: p,
      });
      assert.equal(panel.success, ok, `dashboard quote ${p}`);
    }
  });

  it('the plausible band 0.05..50: the plan rule slippage-unit and the CLI quote warning agree', () => {
    for (const p of ['0', '0.01', '0.0499', '0.05', '1', '10', '50', '50.0001', '75']) {
      const ppm = slippageToPpm(p)!;
      const text = plan(swap(''), `sender: ${SENDER}\npolicy:\n  slippage_tolerance: ${p}\n`);
      const ruleFlags = analyzeOffline(text).findings.some((f) => f.code === 'slippage-unit');
      // dlmm quote warns exactly when !slippagePlausible (cli/src/commands/quote.ts).
      assert.equal(ruleFlags, !slippagePlausible(ppm), `slippage ${p}`);
    }
  });

  it('minimum received: one figure from the check, else the engine quote, at the written or default slippage', () => {
    const route = { amount_out: 1_000_000n };
    const verified = { amount_out: 999_000n };
    assert.equal(quoteMinReceived(verified, route, 10_000n), 989_010n);
    assert.equal(quoteMinReceived(undefined, route, 10_000n), minReceived(1_000_000n, 10_000n));
    // The op's slippage, then the plan's, then the setting's; an invalid one (100) is skipped, never 0 out.
    assert.deepEqual(effectiveSlippage(undefined, 2, 3), { percent: 2, ppm: 20_000n });
    assert.deepEqual(effectiveSlippage(100, undefined), { percent: 1, ppm: 10_000n });
    assert.deepEqual(effectiveSlippage<number>(), { percent: 1, ppm: 10_000n });
    assert.equal(quoteMinReceived(verified, route, effectiveSlippage(100).ppm), 989_010n);
  });

  it("minimum received without a check: Get Quote's and hover's route line shows the same figure", () => {
    // The engine's own min_amount_out (here 0) is not shown: the figure is ours, at the slippage asked for.
    const route = {
      hops: [{ pool_id: 'dlmm_1', input_token: SBTC, output_token: USDCX, amount_in: 1000n }],
      amount_out: 1_000_000n,
      min_amount_out: 0n,
      slippage_tolerance: 2,
    } as unknown as Route;
    const d = describeRoute(route, []);
    const min = quoteMinReceived(undefined, route, effectiveSlippage(2).ppm);
    assert.equal(min, 980_000n);
    assert.match(d.detail, /min 980000 at 2% slippage/);
  });

  it('Retry-After: the limiter and the retry delay read one header the same way', () => {
    const now = Date.parse('2026-11-28T20:00:00Z');
    const cases: Array<[string, number | undefined]> = [
      ['', undefined],
      ['  ', undefined],
      ['3', 3000],
      [' 7 ', 7000],
      ['soon', undefined],
      ['-5', undefined],
      ['1.5', undefined],
      ['Sat, 28 Nov 2026 20:00:10 GMT', 10_000],
      ['Sat, 28 Nov 2026 19:59:00 GMT', 0],
      ['999999', 3_600_000],
    ];
    for (const [h, ms] of cases) {
      assert.equal(retryAfterMs(h, now), ms, `'${h}'`);
      assert.equal(grantFromHeaders({ 'retry-after': h }, now).retryAfterMs, ms, `limiter '${h}'`);
    }
  });

  it('the default max tip lag: the plan schema default, the tip verdict and the positions readers', () => {
    const parsed = analyzeOffline(plan(swap('')));
    assert.equal(parsed.plan?.policy.max_tip_lag, DEFAULT_MAX_TIP_LAG);
    assert.equal(tipVerdict(1).kind, 'behind');
    assert.equal((tipVerdict(1) as { withinPolicy: boolean }).withinPolicy, false);
  });

  it('the target bin of a strict or simple item: prepare (add and move) and the one rule agree', () => {
    const cases: Array<
      [AddOp['mode'], number | undefined, number | undefined, number | undefined, number | undefined]
    > = [
      // mode, absolute id, offset, active, expected target
      ['strict', 7, undefined, 3, 7],
      ['strict', -500, undefined, undefined, -500],
      ['simple', undefined, 2, 3, 5],
      ['simple', undefined, -4, -498, -502],
      ['simple', undefined, 0, undefined, undefined],
      ['simple', undefined, undefined, 3, undefined],
    ];
    for (const [mode, id, offset, active, expected] of cases) {
      const add = { bin_id: id, active_bin_offset: offset, x_amount: 1n, y_amount: 0n };
      const move = { from_bin_id: 0, to_bin_id: id, active_bin_offset: offset, amount: 1n };
      assert.equal(itemTarget(mode, { bin_id: id, active_bin_offset: offset }, active), expected);
      assert.equal(addTarget({ mode } as AddOp, add as AddOp['bins'][number], active), expected);
      assert.equal(moveTarget({ mode } as MoveOp, move as MoveOp['moves'][number], active), expected);
    }
  });
});
