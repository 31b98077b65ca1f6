/**
 * The dashboard shows the sender's balances (issue #25 item 6): the host's `balances` reply, read with the
 * same reads `check` makes (core/live/live.ts readBalancesOf) from the simulator's node over loopback, and
 * its render in a real Chromium. Expected amounts come from the simulated chain (sim.engine.balanceOf),
 * never from constants; a balance that cannot be read is said so, never shown as 0.
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi, Pool, Token } from '../../../core/api/types';
import { formatUnits } from '../../../core/dlmm/bins';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { DEFAULT_SIM_API_KEY, DEFAULT_USER } from '../../../core/sim/defaultWorld';
import { DEFAULT_ROUTERS } from '../../../core/chain/deployments';
import { createDashboardHost } from '../../../client/src/dashboard/host';
import { REQUESTS, type Balances, type HostMessage } from '../../../webview/src/protocol';
import {
  chromiumMissingReason,
  ensureWebviewBundle,
  launchChromium,
  openDashboard,
  screenshot,
  type DashboardPage,
} from '../../webview/harness';
import { skipBecause } from '../../skip';

const STX_WRAPPER = DEFAULT_ROUTERS.mainnet!.stxWrapper;

/** The host's reply to one `balances` request (validated against the protocol's schema). */
async function askBalances(
  api: DlmmApi | undefined,
  sender: string | undefined,
  poolId: string,
): Promise<Balances> {
  const sent: HostMessage[] = [];
  const host = createDashboardHost({
    getApi: () => api,
    getActivePlan: async () => undefined,
    senderSetting: () => sender,
    post: (m) => sent.push(m),
    revealRange: async () => undefined,
    workspaceFolders: () => [],
    lastPool: { get: () => undefined, set: () => undefined },
    exportSwap: { available: async () => false, run: async () => undefined },
  });
  await host.receive({ type: 'request', id: 7, method: 'balances', params: { pool_id: poolId } });
  const reply = sent.find((m) => m.type === 'reply' || m.type === 'replyError');
  assert.ok(reply && reply.type === 'reply', `a reply: ${JSON.stringify(sent)}`);
  assert.equal(reply.id, 7);
  return REQUESTS.balances.result.parse(reply.result);
}

describe('dashboard: the sender balances', function () {
  let sim: RunningSimulator;
  let withNode: DlmmApi;
  let noNode: DlmmApi;
  let pool: Pool;
  let tokens: Token[];

  before(async () => {
    sim = await startSimulator();
    withNode = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
    noNode = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
    const oracle = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
    pool = (await oracle.pools())[0]!;
    tokens = await oracle.tokens();
  });

  after(async () => {
    await sim?.close();
  });

  describe('host message (simulator over loopback)', () => {
    it("answers the pool's two tokens and STX, exact, as the chain holds them", async () => {
      const b = await askBalances(withNode, DEFAULT_USER, pool.pool_id);
      assert.equal(b.state, 'ok');
      if (b.state !== 'ok') return;
      assert.equal(b.sender, DEFAULT_USER);
      assert.equal(b.source, 'setting');
      assert.deepEqual(
        b.rows.map((r) => r.token),
        [pool.token_x, pool.token_y, STX_WRAPPER],
      );
      for (const r of b.rows) {
        const held = sim.engine.balanceOf(DEFAULT_USER, r.token);
        assert.equal(r.amount, held.toString(), `${r.symbol}: the chain holds ${held}`);
        assert.equal(r.unread, null);
        const listed = tokens.find((t) => t.contract_address === r.token);
        assert.equal(r.decimals, r.stx ? 6 : listed?.decimals);
      }
      assert.equal(b.rows.find((r) => r.stx)?.symbol, 'STX');
    });

    it('says why when no node is configured: never an amount for a balance not read', async () => {
      const b = await askBalances(noNode, DEFAULT_USER, pool.pool_id);
      assert.equal(b.state, 'ok');
      if (b.state !== 'ok') return;
      assert.equal(b.rows.length, 3);
      for (const r of b.rows) {
        assert.equal(r.amount, null);
        assert.match(r.unread ?? '', /no node proxy is configured/);
      }
    });

    it('without a sender says how to name one', async () => {
      const b = await askBalances(withNode, undefined, pool.pool_id);
      assert.equal(b.state, 'none');
      assert.match(b.state === 'none' ? b.reason : '', /dlmm\.dashboard\.sender/);
    });
  });

  describe('render (Chromium)', () => {
    let browser: Browser;
    let dash: DashboardPage | undefined;

    before(async function () {
      const missing = chromiumMissingReason();
      if (missing && process.env.CI !== 'true') skipBecause(this, missing);
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

    it('shows each balance with its token decimals and unit, never split across lines', async () => {
      dash = await openDashboard(browser, { api: withNode, sender: DEFAULT_USER });
      const { page } = dash;
      const rows = page.locator('[data-testid=balance][data-read=true]');
      await rows.nth(2).waitFor({ timeout: 8000 });
      assert.equal(await page.locator('[data-testid=balance]').count(), 3);
      for (const token of [pool.token_x, pool.token_y]) {
        const t = tokens.find((x) => x.contract_address === token)!;
        const held = sim.engine.balanceOf(DEFAULT_USER, token);
        const row = page.locator(`[data-testid=balance][data-token="${token}"]`);
        assert.equal(await row.getAttribute('data-amount'), held.toString());
        const text = (await row.innerText()).trim();
        assert.ok(
          text.includes(`${formatUnits(held, t.decimals)}\u00a0${t.symbol}`),
          `the row shows ${formatUnits(held, t.decimals)} ${t.symbol} (no-break space): ${JSON.stringify(text)}`,
        );
      }
      const stx = page.locator(`[data-testid=balance][data-token="${STX_WRAPPER}"]`);
      const microStx = sim.engine.balanceOf(DEFAULT_USER, STX_WRAPPER);
      assert.match(
        await stx.innerText(),
        new RegExp(`${formatUnits(microStx, 6).replace('.', '\\.')}\\u00a0STX`),
      );
      // An amount is one line: its box is no taller than one line of text.
      const amount = page.locator('[data-testid=balance] .amount').first();
      const box = await amount.boundingBox();
      const lineHeight = await amount.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
      assert.ok(box && box.height <= lineHeight * 1.5, `one line: ${JSON.stringify(box)}`);
      await screenshot(page, 'balances');
    });

    it('says a balance was not read instead of showing 0', async () => {
      dash = await openDashboard(browser, { api: noNode, sender: DEFAULT_USER });
      const { page } = dash;
      await page.locator('[data-testid=balance][data-read=false]').nth(2).waitFor({ timeout: 8000 });
      const text = (await page.locator('[data-testid=balances]').innerText()).trim();
      assert.match(text, /not read: no node proxy is configured/);
      for (const row of await page.locator('[data-testid=balance]').all()) {
        assert.equal(await row.getAttribute('data-amount'), '');
        assert.doesNotMatch(await row.innerText(), /(^|\s)0(\s|$)/);
      }
    });

    it('without a sender says how to name one', async () => {
      dash = await openDashboard(browser, { api: withNode });
      await dash.page.locator('[data-testid=balances-none]').waitFor({ timeout: 8000 });
      assert.match(
        (await dash.page.textContent('[data-testid=balances-none]')) ?? '',
        /dlmm\.dashboard\.sender/,
      );
    });
  });
});
