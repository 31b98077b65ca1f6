/** `dlmm.exportSwap`'s pure part: argument checks, the swap plan it writes (read back by the analyzer), names. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  parseExportSwapArgs,
  ppmToPercentText,
  senderProblem,
  swapPlanFileName,
  swapPlanText,
  tokenLabel,
  type ExportSwapArgs,
} from '../../../../client/src/export/swapPlan';
import { parseConfig } from '../../../../client/src/settingsSchema';
import { MAX_UINT128 } from '../../../../core/dlmm/bins';
import { networkOfPrincipal } from '../../../../core/chain/deployments';
import { percentToPpm } from '../../../../core/dlmm/percent';
import { analyzeOffline } from '../../../../core/check/analyze';
import { testnetPrincipal } from '../../../testnet';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const TESTNET_SENDER = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const AT = new Date(2025, 0, 2, 3, 4, 5);

const args = (over: Record<string, unknown> = {}) => ({
  input_token: SBTC,
  output_token: USDCX,
  amount_in: '100000',
  slippage_tolerance: 1,
  ...over,
});

function parsedSwap(over: Record<string, unknown> = {}): ExportSwapArgs {
  const r = parseExportSwapArgs([args(over)]);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
}

/** The generated plan as the analyzer reads it (no live data). */
function analyze(text: string) {
  const a = analyzeOffline(text, { fileName: 'swap-sBTC-USDCx-20250102-030405.dlmm.yaml' });
  return {
    plan: a.plan,
    schemaFindings: a.findings.filter((f) => f.code === 'schema'),
    findings: a.findings,
  };
}

describe('export swap: arguments', () => {
  it('accepts what the dashboard sends, with slippage as exact ppm', () => {
    const swap = parsedSwap({ slippage_tolerance: 0.5 });
    assert.deepEqual(swap, {
      input_token: SBTC,
      output_token: USDCX,
      amount_in: '100000',
      slippage_tolerance: 5_000n,
    });
    assert.equal(parsedSwap({ slippage_tolerance: '0.1234' }).slippage_tolerance, 1_234n);
    assert.equal(parsedSwap({ slippage_tolerance: undefined }).slippage_tolerance, undefined);
  });

  it('keeps uint128 max as the exact digit string', () => {
    assert.equal(parsedSwap({ amount_in: MAX_UINT128.toString() }).amount_in, MAX_UINT128.toString());
  });

  const bad: Array<[string, unknown[], RegExp]> = [
    ['nothing', [], /input_token|arguments/],
    ['a string', ['sbtc'], /arguments/],
    ['float amount', [args({ amount_in: 1.5 })], /amount_in/],
    ['decimal amount', [args({ amount_in: '0.001' })], /amount_in.*digits/],
    ['zero amount', [args({ amount_in: '0' })], /amount_in must be positive/],
    ['negative amount', [args({ amount_in: '-5' })], /amount_in/],
    ['amount above uint128', [args({ amount_in: (MAX_UINT128 + 1n).toString() })], /uint128/],
    ['same tokens', [args({ output_token: SBTC })], /must differ/],
    ['token not a contract', [args({ input_token: SENDER })], /input_token.*contract principal/],
    ['slippage above 100', [args({ slippage_tolerance: 101 })], /slippage_tolerance/],
    [
      'slippage of 100 (would accept receiving nothing)',
      [args({ slippage_tolerance: 100 })],
      /slippage_tolerance/,
    ],
    ['slippage with 5 decimals', [args({ slippage_tolerance: 0.00001 })], /4 fraction digits/],
    ['negative slippage', [args({ slippage_tolerance: -1 })], /slippage_tolerance/],
  ];
  for (const [name, input, message] of bad) {
    it(`refuses ${name} with a message naming the field`, () => {
      const r = parseExportSwapArgs(input);
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.message, message);
    });
  }
});

describe('export swap: plan text', () => {
  it('parses as a v1 plan with one swap and no schema findings', () => {
    const text = swapPlanText({ sender: SENDER, swap: parsedSwap({ slippage_tolerance: 0.5 }), at: AT });
    const { plan, schemaFindings } = analyze(text);
    assert.deepEqual(schemaFindings, []);
    assert.ok(plan);
    assert.equal(plan.version, 1);
    assert.equal(plan.network, 'mainnet');
    assert.equal(plan.api, 'v2');
    assert.equal(plan.sender, SENDER);
    assert.equal(plan.operations.length, 1);
    const op = plan.operations[0];
    assert.ok(op?.op === 'swap');
    assert.equal(op.input_token, SBTC);
    assert.equal(op.output_token, USDCX);
    assert.equal(op.amount_in, 100_000n);
    assert.equal(op.slippage_tolerance, 0.5);
    assert.match(text, /2025-01-02 03:04:05/);
  });

  it('carries uint128 max exactly, as text and as the parsed bigint', () => {
    const max = MAX_UINT128.toString();
    const text = swapPlanText({ sender: SENDER, swap: parsedSwap({ amount_in: max }), at: AT });
    assert.ok(text.includes(`amount_in: "${max}"`), text);
    const { plan, schemaFindings } = analyze(text);
    assert.deepEqual(schemaFindings, []);
    const op = plan?.operations[0];
    assert.ok(op?.op === 'swap');
    assert.equal(op.amount_in, MAX_UINT128);
  });

  it('round-trips any amount and slippage exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: MAX_UINT128 }),
        // Every accepted slippage: 0 up to just below 100% (100% is refused, see the table above).
        fc.integer({ min: 0, max: 999_999 }),
        (amount, ppm) => {
          const percent = ppmToPercentText(BigInt(ppm));
          const swap = parsedSwap({ amount_in: amount.toString(), slippage_tolerance: percent });
          const { plan, schemaFindings } = analyze(swapPlanText({ sender: SENDER, swap, at: AT }));
          const op = plan?.operations[0];
          return (
            schemaFindings.length === 0 &&
            op?.op === 'swap' &&
            op.amount_in === amount &&
            op.slippage_tolerance !== undefined &&
            percentToPpm(op.slippage_tolerance) === BigInt(ppm)
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('leaves slippage to the policy when none is given, and follows a testnet sender', () => {
    // A testnet sender swaps testnet tokens (a mainnet token in a testnet plan is a schema error).
    const text = swapPlanText({
      sender: TESTNET_SENDER,
      swap: parsedSwap({
        slippage_tolerance: undefined,
        input_token: testnetPrincipal(SBTC),
        output_token: testnetPrincipal(USDCX),
      }),
      at: AT,
    });
    assert.doesNotMatch(text, /slippage_tolerance/);
    const { plan, schemaFindings } = analyze(text);
    assert.deepEqual(schemaFindings, []);
    assert.equal(plan?.network, 'testnet');
    assert.equal(networkOfPrincipal(SENDER), 'mainnet');
  });

  it('writes percents in their shortest exact form', () => {
    assert.equal(ppmToPercentText(10_000n), '1');
    assert.equal(ppmToPercentText(5_000n), '0.5');
    assert.equal(ppmToPercentText(1_234n), '0.1234');
    assert.equal(ppmToPercentText(1_000_000n), '100');
    assert.equal(ppmToPercentText(0n), '0');
  });
});

describe('export swap: sender and names', () => {
  it('reads the dlmm.dashboard.sender setting, trimmed; a bad one falls back to none with a message', () => {
    assert.equal(parseConfig({}).config.dashboard.sender, '');
    assert.equal(parseConfig({ 'dashboard.sender': ` ${SENDER} ` }).config.dashboard.sender, SENDER);
    const bad = parseConfig({ 'dashboard.sender': SBTC, slippageTolerance: 2 });
    assert.equal(bad.config.dashboard.sender, '');
    assert.equal(bad.config.slippageTolerance, 2);
    assert.equal(bad.problems.length, 1);
    assert.match(bad.problems[0] ?? '', /dlmm\.dashboard\.sender: expected a standard principal/);
  });

  it('checks the typed sender is a standard principal', () => {
    assert.equal(senderProblem(` ${SENDER} `), undefined);
    assert.match(senderProblem('') ?? '', /Enter the principal/);
    assert.match(senderProblem(SBTC) ?? '', /not a standard principal/);
    assert.match(senderProblem('bob') ?? '', /not a standard principal/);
  });

  it('names the file after the symbols and the local time, with a suffix on later attempts', () => {
    const inLabel = tokenLabel(SBTC, { symbol: 'sBTC' });
    const outLabel = tokenLabel(USDCX, { symbol: 'USDCx' });
    assert.equal(swapPlanFileName(inLabel, outLabel, AT), 'swap-sBTC-USDCx-20250102-030405.dlmm.yaml');
    assert.equal(swapPlanFileName(inLabel, outLabel, AT, 2), 'swap-sBTC-USDCx-20250102-030405-2.dlmm.yaml');
  });

  it('falls back to the name, then the contract name, and keeps names file-safe', () => {
    assert.equal(tokenLabel(SBTC, { symbol: '', name: 'Stacks BTC' }), 'Stacks_BTC');
    assert.equal(tokenLabel(SBTC), 'sbtc-token');
    assert.equal(tokenLabel(SBTC, { symbol: '../..' }), 'sbtc-token');
    assert.equal(tokenLabel(USDCX, { symbol: 'a/b c' }), 'a_b_c');
  });
});
