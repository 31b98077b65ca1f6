/**
 * Hover on a swap operation that only partly fills, from the language server over real JSON-RPC (stdio)
 * against the simulated engine on loopback: the hover says PARTIAL FILL, gives the input actually used (the
 * figure of the exact recomputation, read by a second client as the oracle) and labels the output as the
 * output for that used part; the diagnostics carry swap-partial-fill with the amount that fits.
 */
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { createApiClient } from '../../../core/api/client';
import { formatUnits } from '../../../core/dlmm/bins';
import { checkRouteLive } from '../../../core/quote/exact';
import { SBTC, USDCX } from '../../../core/sim/defaultWorld';
import type { RunningSimulator } from '../../../core/sim/server';
import { positionOf, startSimLsp, type LspSession, type SimLsp } from './harness';

const AMOUNT = 100_000_000_000n; // 1000 sBTC: more than the sBTC/USDCx pool can take
const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: dump
    op: swap
    input_token: ${SBTC}
    output_token: ${USDCX}
    amount_in: ${AMOUNT}
    slippage_tolerance: 1
`;

const md = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('language server: hover on a partially filling swap (simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let lsp: LspSession;
  const uri = 'file:///work/plans/dump.dlmm.yaml';

  let fixture: SimLsp | undefined;

  before(async () => {
    fixture = await startSimLsp(uri, PLAN, { commands: ['dlmm.getQuote'], statusPollMs: 200 });
    ({ sim, lsp } = fixture);
  });
  after(async () => {
    await fixture?.close();
  });

  it('says PARTIAL FILL with the input used, and labels the output as for that part only', async () => {
    const diags = await lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'swap-partial-fill'));
    const partial = diags.find((d) => d.code === 'swap-partial-fill')!;
    assert.equal(partial.severity, 1, 'an error');

    // The oracle: the engine's route recomputed exactly from the bins by a second client.
    const oracle = createApiClient({ baseUrl: sim.url });
    try {
      const route = await oracle.quote({
        input_token: SBTC,
        output_token: USDCX,
        amount_in: AMOUNT,
        slippage_tolerance: 1,
      });
      const check = await checkRouteLive(oracle, route, AMOUNT);
      assert.equal(check.complete, false);
      const used = formatUnits(check.amount_in_used, 8);
      assert.ok(partial.message.includes(used) || partial.message.includes(String(check.amount_in_used)));

      const hover = md(
        (await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: positionOf(PLAN, 'amount_in', 2),
        })) as Hover,
      );
      assert.match(hover, /PARTIAL FILL/);
      assert.ok(
        hover.includes(`only ${used} sBTC (${check.amount_in_used}) of 1000 sBTC (${AMOUNT})`),
        `the hover names the input used:\n${hover}`,
      );
      const out = `${formatUnits(check.amount_out, 6)} USDCx`;
      assert.ok(
        hover.includes(`${out} (${check.amount_out}) is the output for that used part`),
        `the output is labelled as for the used part:\n${hover}`,
      );
      assert.ok(
        hover.includes(`quote: PARTIAL: ${used} sBTC of 1000 sBTC → ${out} (output for the used part)`),
        `the quote line is marked partial:\n${hover}`,
      );
      assert.match(hover, /min received at 1%: .*\(for the used part only\)/);
    } finally {
      await oracle.close?.();
    }
  });
});
