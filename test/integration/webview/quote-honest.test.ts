/**
 * The dashboard's quote panel in a real Chromium, fed by the real host code: a partial fill is shown as
 * partial (the input used, the output labelled as for that part, no export), with the figures of the exact
 * recomputation; and the configured keys (the core swap API's included) never reach the page, even when a
 * hostile engine on loopback (test/integration/faults/hostile.ts) echoes them in a token symbol and an error.
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { formatUnits } from '../../../core/dlmm/bins';
import { checkRouteLive } from '../../../core/quote/exact';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { userSecrets } from '../../../client/src/userText';
import { patchJson, startHostile, type HostileService } from '../faults/hostile';
import {
  chromiumMissingReason,
  ensureWebviewBundle,
  launchChromium,
  openDashboard,
  screenshot,
  type DashboardPage,
} from '../../webview/harness';
import { skipBecause } from '../../skip';

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';

describe('dashboard quote panel in Chromium: partial fills and keys', function () {
  this.timeout(60_000);
  let browser: Browser;
  let dash: DashboardPage | undefined;

  before(async function () {
    const missing = chromiumMissingReason();
    if (missing && process.env.CI !== 'true') {
      skipBecause(this, missing);
    }
    await ensureWebviewBundle();
    browser = await launchChromium();
  });
  afterEach(async () => {
    if (dash) {
      const problems = await dash.problems();
      await dash.close();
      dash = undefined;
      assert.deepEqual(problems, [], 'no page errors and no CSP violations');
    }
  });
  after(async () => {
    await browser?.close();
  });

  async function quote(page: DashboardPage['page'], amount: string): Promise<void> {
    await page.waitForSelector(`[data-testid=quote-in] option[value="${SBTC}"]`, {
      state: 'attached',
      timeout: 8000,
    });
    await page.selectOption('[data-testid=quote-in]', SBTC);
    await page.selectOption('[data-testid=quote-out]', USDCX);
    await page.fill('[data-testid=quote-amount]', amount);
    await page.press('[data-testid=quote-amount]', 'Enter');
  }

  describe('partial fill (simulated engine)', () => {
    let sim: RunningSimulator;
    let api: DlmmApi;
    let oracle: DlmmApi;
    before(async () => {
      sim = await startSimulator();
      api = createApiClient({ baseUrl: sim.url });
      oracle = createApiClient({ baseUrl: sim.url });
    });
    after(async () => {
      await api?.close?.();
      await oracle?.close?.();
      await sim?.close();
    });

    it('shows the input used, labels the output as for that part, and offers no export', async () => {
      dash = await openDashboard(browser, { api, exportAvailable: true });
      const { page } = dash;
      await quote(page, '1000');
      await page.waitForSelector('[data-testid=quote-best]', { timeout: 8000 });

      // The oracle: the engine's route recomputed exactly from the bins (a second client).
      const amountIn = 1000n * 10n ** 8n;
      const route = await oracle.quote({
        input_token: SBTC,
        output_token: USDCX,
        amount_in: amountIn,
        slippage_tolerance: 1,
        amm_strategy: 'best',
      });
      const check = await checkRouteLive(oracle, route, amountIn);
      assert.equal(check.complete, false, 'the world cannot take 1000 sBTC (the oracle says partial)');
      assert.ok(check.amount_in_used > 0n && check.amount_in_used < amountIn);

      const best = page.locator('[data-testid=quote-best]');
      assert.equal(await best.getAttribute('data-complete'), 'false');
      assert.equal(await best.getAttribute('data-amount-in-used'), check.amount_in_used.toString());
      assert.equal(await best.getAttribute('data-amount-out'), check.amount_out.toString());
      assert.match((await best.getAttribute('class')) ?? '', /partial/);
      const fill = (await page.textContent('[data-testid=quote-fill]')) ?? '';
      assert.match(fill, /PARTIAL/);
      assert.ok(
        fill.includes(`only ${formatUnits(check.amount_in_used, 8)}\u00a0sBTC of 1000\u00a0sBTC`),
        `the fill names the amount used: ${fill}`,
      );
      const text = (await best.textContent()) ?? '';
      assert.match(text, /You receive \(used part\)/);
      assert.equal(await page.isHidden('[data-testid=quote-export]'), true, 'a partial fill is not exported');
      assert.equal(await page.isHidden('[data-testid=quote-wallet]'), true, 'nor sent to a wallet');
      const rows = page.locator('[data-testid=quote-routes] tbody tr');
      assert.equal(await rows.first().getAttribute('data-complete'), 'false');
      assert.match((await rows.first().textContent()) ?? '', /partial: .* used/);
      await screenshot(page, 'quote-partial');

      // The same panel with an amount that fits is complete and exportable again.
      await quote(page, '0.001');
      await page.waitForSelector('[data-testid=quote-best][data-complete=true]', { timeout: 8000 });
      assert.equal(await page.isHidden('[data-testid=quote-export]'), false);
    });
  });

  describe('keys (hostile engine on loopback)', () => {
    const CORE_KEY = 'bf-core-KEY-7d2e9a41c0';
    const NODE_KEY = 'bf-node-KEY-5b8f13e6aa';
    let h: HostileService;
    let api: DlmmApi;
    before(async () => {
      h = await startHostile();
      api = createApiClient({ baseUrl: h.url });
    });
    after(async () => {
      await api?.close?.();
      await h?.close();
    });

    it('a token symbol and an error echoing the core swap API keys reach the page redacted', async () => {
      h.setFaults([
        {
          match: 'GET /api/quotes/v2/tokens',
          answer: {
            body: patchJson((v) => {
              const list = (Array.isArray(v) ? v : (v as { tokens: unknown[] }).tokens) as Array<
                Record<string, unknown>
              >;
              for (const t of list) if (t.contract_address === SBTC) t.symbol = `sBTC ${CORE_KEY}`;
            }),
          },
        },
        {
          match: 'POST /api/quotes/v2/quote',
          answer: {
            status: 401,
            body: JSON.stringify({ error: `invalid key; keys seen: ${CORE_KEY} ${NODE_KEY}` }),
          },
        },
      ]);
      // The keys the extension redacts: secret storage's (none here) and the environment's, through
      // client/src/userText.ts and the one list of core/text/safe.ts.
      const secrets = userSecrets({ BITFLOW_API_KEY: CORE_KEY, READONLY_CALL_API_KEY: NODE_KEY });
      dash = await openDashboard(browser, {
        api,
        exportAvailable: true,
        secrets: secrets.filter((s): s is string => s !== undefined),
      });
      const { page } = dash;
      await quote(page, '0.001');
      await page.waitForFunction(
        () => /keys seen/.test(document.querySelector('[data-testid=quote-result]')?.textContent ?? ''),
        undefined,
        { timeout: 8000 },
      );
      const body = await page.evaluate(() => document.body.innerText + document.body.innerHTML);
      assert.ok(
        h.seen.some((s) => s.line === 'POST /api/quotes/v2/quote'),
        'the quote reached the engine',
      );
      for (const k of [CORE_KEY, NODE_KEY]) assert.ok(!body.includes(k), `the page shows ${k}`);
      assert.ok(!body.includes('7d2e9a41'), 'not even part of it');
      assert.match(body, /keys seen: \[redacted\] \[redacted\]/, 'the error reached the page, redacted');
      assert.match(body, /sBTC \[redacted\]/, 'the symbol reached the page, redacted');
    });
  });
});
