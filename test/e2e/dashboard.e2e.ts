/** "DLMM: Open Dashboard" renders the pool dashboard webview with the simulator's live pool, and quotes in it. */
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import { findPoolSpec } from '../../core/sim/world';
import { defaultWorld } from '../../core/sim/defaultWorld';
import { dlmm, harness } from './support';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';

describe('DLMM: Open Dashboard', function () {
  let frame: Frame;

  it('renders the selected pool with its active bin and the bin ladder', async () => {
    const { workbench } = await harness();
    await workbench.runCommand('DLMM: Open Dashboard');
    frame = await workbench.frameWith('[data-testid="app"]', 60_000);
    const activeBin = frame.locator('[data-testid="active-bin"]');
    await activeBin.waitFor({ timeout: 60_000 });
    await frame.locator('[data-testid="ladder"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    // Let the price history finish loading so the screenshot shows the whole dashboard (not asserted here).
    await frame
      .locator('[data-testid="price-history"]')
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 })
      .catch(() => undefined);
    await workbench.screenshot('30-dashboard');

    const poolId = await frame.locator('[data-testid="pool-picker"]').inputValue();
    const pool = findPoolSpec(defaultWorld(), poolId);
    assert.ok(pool, `the dashboard selected '${poolId}', which the default world does not have`);
    assert.equal(Number(await activeBin.getAttribute('data-bin')), pool.active_bin);
    const pair = await frame.locator('[data-testid="pair"]').innerText();
    assert.match(pair, /^\S+\/\S+$/);
    const box = await frame.locator('[data-testid="ladder"]').first().boundingBox();
    assert.ok(box && box.width > 50 && box.height > 50, `ladder is ${JSON.stringify(box)}`);
  });

  it('quotes in the dashboard with the amount the engine computes', async () => {
    const { workbench } = await harness();
    assert.ok(frame, 'the dashboard did not open');
    const cli = JSON.parse(
      (await dlmm(['quote', '--sim', '--in', SBTC, '--out', USDCX, '--amount', '0.001', '--format', 'json']))
        .stdout,
    ) as { routes: Array<{ amount_out: string }> };
    await frame.locator('[data-testid="quote-in"]').selectOption(SBTC);
    await frame.locator('[data-testid="quote-out"]').selectOption(USDCX);
    await frame.locator('[data-testid="quote-amount"]').fill('0.001');
    await frame.locator('[data-testid="quote-submit"]').click();
    const best = frame.locator('[data-testid="quote-best"]');
    await best.waitFor({ timeout: 30_000 });
    // The result as a user scrolls to it (the screenshot shows the figures, not only the form).
    await best.scrollIntoViewIfNeeded();
    await workbench.screenshot('31-dashboard-quote');
    assert.equal(await best.getAttribute('data-amount-out'), cli.routes[0]?.amount_out);
  });

  after(async () => {
    const { workbench } = await harness();
    await workbench.closeAllEditors().catch(() => undefined);
  });
});
