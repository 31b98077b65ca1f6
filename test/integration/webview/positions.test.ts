/**
 * The dashboard's Positions panel (issue #30 item 3): the host's `positions` reply, read and valued by the
 * same code as `dlmm positions` (core/live/live.ts readPositionsLive, core/check/positions.ts positionsOf)
 * from the simulator over loopback, and its render in a real Chromium. Expected figures come from the CLI's
 * JSON for the same simulated world and sender, never from constants; a position whose book cannot be
 * believed (the inventory answers a 503 fault) is shown as unknown with the reason and no figures.
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { createApiClient } from '../../../core/api/client';
import { parseJsonExact } from '../../../core/api/json';
import type { DlmmApi, Pool, Token } from '../../../core/api/types';
import { formatUnits } from '../../../core/dlmm/bins';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import {
  DEFAULT_SIM_API_KEY,
  DEFAULT_USER,
  DEFAULT_WORLD_INPUT,
  POOL_SBTC_USDCX,
  POOL_STX_SBTC,
  POOL_STX_USDCX,
} from '../../../core/sim/defaultWorld';
import { parseWorld } from '../../../core/sim/world';
import { createDashboardHost } from '../../../client/src/dashboard/host';
import { DASHBOARD_WHAT_IF } from '../../../client/src/dashboard/feed';
import { REQUESTS, type HostMessage, type PositionReport } from '../../../webview/src/protocol';
import {
  chromiumMissingReason,
  ensureWebviewBundle,
  launchChromium,
  openDashboard,
  screenshot,
  type DashboardPage,
} from '../../webview/harness';
import { skipBecause } from '../../skip';

type Rec = Record<string, unknown>;

/** The host's reply to one `positions` request (validated against the protocol's schema). */
async function askPosition(
  api: DlmmApi | undefined,
  sender: string | undefined,
  poolId: string,
): Promise<PositionReport> {
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
  await host.receive({ type: 'request', id: 9, method: 'positions', params: { pool_id: poolId } });
  const reply = sent.find((m) => m.type === 'reply' || m.type === 'replyError');
  assert.ok(reply && reply.type === 'reply', `a reply: ${JSON.stringify(sent)}`);
  assert.equal(reply.id, 9);
  return REQUESTS.positions.result.parse(reply.result);
}

/** `dlmm positions --pool POOL --what-if -10..10 --format json` against the same simulator. */
async function cliPosition(sim: RunningSimulator, poolId: string): Promise<Rec> {
  const io = {
    stdout: '',
    stderr: '',
    env: { DLMM_NODE_URL: sim.nodeUrl, DLMM_INVENTORY_URL: sim.inventoryUrl } as Record<
      string,
      string | undefined
    >,
    cwd: process.cwd(),
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  } satisfies CliIO & { stdout: string; stderr: string };
  const range = `${DASHBOARD_WHAT_IF.from}..${DASHBOARD_WHAT_IF.to}`;
  const code = await main(
    [
      'positions',
      '--api',
      sim.url,
      '--sender',
      DEFAULT_USER,
      '--pool',
      poolId,
      '--what-if',
      range,
      '--format',
      'json',
    ],
    io,
  );
  assert.equal(code, 0, io.stderr);
  const doc = parseJsonExact(io.stdout) as { positions: Rec[] };
  assert.equal(doc.positions.length, 1);
  return doc.positions[0]!;
}

describe('dashboard: the Positions panel', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let faulty: RunningSimulator;
  let full: DlmmApi;
  let faultyApi: DlmmApi;
  let pools: Pool[];
  let tokens: Token[];

  before(async () => {
    sim = await startSimulator({ port: 0 });
    // Every pool's inventory answers a 503 fault: a tip-pinned book that failed is never an empty book.
    faulty = await startSimulator({
      port: 0,
      world: parseWorld({
        ...DEFAULT_WORLD_INPUT,
        inventory_faults: [POOL_SBTC_USDCX, POOL_STX_USDCX, POOL_STX_SBTC].map((pool) => ({
          pool,
          code: 'RECONCILE_DIRTY',
        })),
      }),
    });
    const apiOf = (s: RunningSimulator): DlmmApi =>
      createApiClient({
        baseUrl: s.url,
        nodeUrl: s.nodeUrl,
        inventoryUrl: s.inventoryUrl,
        apiKey: DEFAULT_SIM_API_KEY,
      });
    full = apiOf(sim);
    faultyApi = apiOf(faulty);
    const oracle = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
    pools = await oracle.pools();
    tokens = await oracle.tokens();
  });

  after(async () => {
    await sim?.close();
    await faulty?.close();
  });

  describe('host message (simulator over loopback)', () => {
    it('answers exactly the figures `dlmm positions --format json` gives for every pool', async () => {
      assert.ok(pools.length >= 3);
      for (const pool of pools) {
        const p = await askPosition(full, DEFAULT_USER, pool.pool_id);
        const cli = await cliPosition(sim, pool.pool_id);
        assert.equal(p.state, 'ok', JSON.stringify(p));
        if (p.state !== 'ok') return;
        assert.equal(p.sender, DEFAULT_USER);
        assert.equal(p.source, 'setting');
        assert.equal(p.pool, cli.pool);
        assert.equal(p.may_lag, null);
        assert.match(p.read_from, /inventory/);
        assert.equal(p.active_bin_id, cli.active_bin_id);
        assert.equal(p.in_range, cli.in_range);
        assert.equal(p.distance, cli.distance);
        assert.deepEqual(p.bins, cli.bins);
        assert.ok(p.bins.length > 0);
        assert.equal(p.x_total, cli.x_total);
        assert.equal(p.y_total, cli.y_total);
        assert.equal(p.value_in_y, cli.value_in_y);
        const cliWhatIf = cli.what_if as Rec[];
        assert.equal(p.what_if.length, DASHBOARD_WHAT_IF.to - DASHBOARD_WHAT_IF.from + 1);
        assert.deepEqual(
          p.what_if.map((w) => [w.shift, w.active_bin_id, w.value_in_y, w.hold_value_in_y]),
          cliWhatIf.map((w) => [w.shift, w.active_bin_id, w.value_in_y, w.hold_value_in_y]),
        );
        const zero = p.what_if.find((w) => w.shift === 0)!;
        assert.equal(zero.value_in_y, p.value_in_y);
        assert.equal(zero.hold_value_in_y, p.value_in_y);
        const tx = tokens.find((t) => t.contract_address === pool.token_x)!;
        assert.deepEqual(p.token_x, {
          contract: tx.contract_address,
          symbol: tx.symbol,
          decimals: tx.decimals,
        });
      }
    });

    it('an inventory that answers a fault: unknown with the reason, no figures', async () => {
      const p = await askPosition(faultyApi, DEFAULT_USER, pools[0]!.pool_id);
      assert.equal(p.state, 'unknown', JSON.stringify(p));
      assert.match(
        p.state === 'unknown' ? p.reason : '',
        /inventory could not be read or believed.*RECONCILE_DIRTY/,
      );
      assert.ok(!('value_in_y' in p) && !('bins' in p));
    });

    it('a principal holding nothing in the pool: empty, not zero figures', async () => {
      const p = await askPosition(full, 'SP000000000000000000002Q6VF78', pools[0]!.pool_id);
      assert.equal(p.state, 'empty', JSON.stringify(p));
    });

    it('without a sender says how to name one', async () => {
      const p = await askPosition(full, undefined, pools[0]!.pool_id);
      assert.equal(p.state, 'none');
      assert.match(p.state === 'none' ? p.reason : '', /dlmm\.dashboard\.sender/);
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

    it('shows the in-range badge, the exact amounts and value, and the value-vs-hold plot (k = 0: value = hold)', async () => {
      dash = await openDashboard(browser, { api: full, sender: DEFAULT_USER });
      const { page } = dash;
      await page.locator('[data-testid=position-range]').waitFor({ timeout: 15000 });
      const poolId = await page.locator('#pool-picker').inputValue();
      const cli = await cliPosition(sim, poolId);
      const pool = pools.find((p) => p.pool_id === poolId)!;
      const tx = tokens.find((t) => t.contract_address === pool.token_x)!;
      const ty = tokens.find((t) => t.contract_address === pool.token_y)!;
      assert.equal(
        await page.getAttribute('[data-testid=position-range]', 'data-in-range'),
        String(cli.in_range),
      );
      assert.match((await page.textContent('[data-testid=position-range]')) ?? '', /^in range$/);
      for (const [id, key, t] of [
        ['position-x', 'x_total', tx],
        ['position-y', 'y_total', ty],
        ['position-value', 'value_in_y', ty],
      ] as const) {
        const row = page.locator(`[data-testid=${id}]`);
        const exact = cli[key] as string;
        assert.equal(await row.getAttribute('data-amount'), exact);
        const text = await row.innerText();
        assert.ok(
          text.includes(`${formatUnits(BigInt(exact), t.decimals)}\u00a0${t.symbol}`),
          `${id} shows ${formatUnits(BigInt(exact), t.decimals)} ${t.symbol}: ${JSON.stringify(text)}`,
        );
      }
      assert.equal(await page.locator('[data-testid=position-bin]').count(), (cli.bins as Rec[]).length);
      await page.locator('[data-testid=whatif-plot]').waitFor({ timeout: 5000 });
      const points = page.locator('[data-testid=whatif-point]');
      assert.equal(await points.count(), (cli.what_if as Rec[]).filter((w) => w.value_in_y !== null).length);
      const zero = page.locator('[data-testid=whatif-point][data-shift="0"]');
      assert.equal(await zero.getAttribute('data-value'), cli.value_in_y);
      assert.equal(await zero.getAttribute('data-hold'), cli.value_in_y);
      const box = await page.locator('[data-testid=whatif-plot]').boundingBox();
      assert.ok(box && box.width > 100 && box.height > 50, `the plot is drawn: ${JSON.stringify(box)}`);
      await page.locator('[data-testid=position]').scrollIntoViewIfNeeded();
      await screenshot(page, 'positions');
    });

    it('an unknown position shows "unknown: <reason>" and no figures', async () => {
      dash = await openDashboard(browser, { api: faultyApi, sender: DEFAULT_USER });
      const { page } = dash;
      await page.locator('[data-testid=position-unknown]').waitFor({ timeout: 15000 });
      assert.match(
        (await page.textContent('[data-testid=position-unknown]')) ?? '',
        /^unknown: the owned-bin inventory could not be read or believed/,
      );
      assert.equal(await page.locator('[data-testid=position-value]').count(), 0);
      assert.equal(await page.locator('[data-testid=whatif-plot]').count(), 0);
      assert.equal(await page.locator('[data-testid=position-range]').count(), 0);
    });
  });
});
