/** "DLMM: Get Quote" against the simulator: pick tokens, type an amount, see the engine's best route. */
import { strict as assert } from 'node:assert';
import { dlmm, harness } from './support';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';
const AMOUNT = '0.001';

interface CliQuote {
  input_token: { symbol: string };
  output_token: { symbol: string };
  routes: Array<{ amount_out_human: string; amount_out: string }>;
}

describe('DLMM: Get Quote against the simulator', function () {
  it('quotes sBTC to USDCx with the amount the engine computes', async () => {
    const { workbench } = await harness();
    // The oracle: the same quote from the CLI against a fresh embedded simulator (the same default world).
    const cli = JSON.parse(
      (await dlmm(['quote', '--sim', '--in', SBTC, '--out', USDCX, '--amount', AMOUNT, '--format', 'json']))
        .stdout,
    ) as CliQuote;
    const best = cli.routes[0];
    assert.ok(best, 'the CLI returned no route');

    await workbench.runCommand('DLMM: Get Quote');
    await workbench.pickItem(cli.input_token.symbol, 60_000);
    await workbench.pickItem(cli.output_token.symbol);
    await workbench.answerInput(AMOUNT);
    // The quote source (engine or core swap API): this test compares with the CLI's default, the engine.
    await workbench.pickItem('Quote engine');
    const rows = await workbench.quickInputRows(/Best/, 60_000);
    await workbench.screenshot('20-quote-routes');
    await workbench.dismissQuickInput();

    const bestRow = rows.find((r) => /Best/.test(r));
    assert.ok(bestRow, `no 'Best' row among: ${rows.join(' | ')}`);
    const shownOut = /→\s*([\d.,]+)\s*USDCx/.exec(bestRow)?.[1]?.replace(/,/g, '');
    assert.equal(shownOut, best.amount_out_human, `best row: ${bestRow}`);
    assert.match(bestRow, new RegExp(`${AMOUNT.replace('.', '\\.')}\\s*sBTC`));
  });
});
