/** The API client against the simulated engine over loopback HTTP: every endpoint, errors, limits, cache. */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import { ApiError, isApiError } from '../../../core/api/errors';
import type { ApiClientOptions, DlmmApi } from '../../../core/api/types';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { type World } from '../../../core/sim/world';
import { defaultWorld } from '../../../core/sim/defaultWorld';

const USER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const NOBODY = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const DLMM_1 = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isApiError(e), `expected an ApiError, got ${String(e)}`);
    return e as ApiError;
  }
  assert.fail('expected a rejection');
}

/** Drives the simulator's admin endpoints over HTTP, as an operator would. */
async function admin(
  sim: RunningSimulator,
  path: string,
  body: unknown = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${sim.url}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `admin ${path}: ${await res.clone().text()}`);
  return (await res.json()) as Record<string, unknown>;
}

describe('api client against the simulated engine', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  const clients: DlmmApi[] = [];
  const client = (extra: Partial<ApiClientOptions> = {}): DlmmApi => {
    const c = createApiClient({
      baseUrl: sim.url,
      inventoryUrl: sim.inventoryUrl,
      nodeUrl: sim.nodeUrl,
      ...extra,
    });
    clients.push(c);
    return c;
  };

  before(async () => {
    sim = await startSimulator({ port: 0 });
  });
  after(async () => {
    await sim.close();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close?.()));
    await admin(sim, '/reset');
  });

  it('parses every endpoint of the interface into typed values', async () => {
    const api = client();
    assert.deepEqual(await api.quoteReady(), { ready: true });
    assert.deepEqual(await api.appReady(), { ready: true });
    const status = await api.status();
    assert.equal(status.tip_lag, 0);
    assert.equal(status.pool_count, (await api.pools()).length);
    const tokens = await api.tokens();
    assert.ok(tokens.some((t) => t.symbol === 'sBTC' && t.decimals === 8));
    const pools = await api.pools();
    assert.deepEqual(new Set(pools.map((p) => p.bin_step)), new Set([1, 10, 20]));
    const pool = await api.pool(DLMM_1);
    assert.equal(pool.pool_alias, undefined, 'the real v2 pool record carries no alias');
    assert.equal(pool.pool_name, 'sbtc-usdcx-LP');
    assert.equal(pool.x_total_fee_bps, 50, "x_total_fee_bps arrives as the string '50'");
    assert.equal((await api.pool('dlmm_1')).pool_id, DLMM_1, 'aliases still work on quote v2 pools');
    const sbtc = tokens.find((t) => t.symbol === 'sBTC')?.contract_address as string;
    const pairs = await api.pairs(sbtc);
    assert.equal(pairs.input_token, sbtc);
    assert.ok(pairs.pairs.length >= 1);
    assert.ok(pairs.pairs.every((p) => p.pools.length === p.pools_id.length && p.amm_types.includes('dlmm')));
    assert.ok(pairs.pairs.some((p) => p.pools.includes(DLMM_1) && p.pools_id.includes('dlmm_1')));

    const ladder = await api.bins(DLMM_1);
    assert.equal(ladder.active_bin_id, pool.active_bin);
    assert.equal(ladder.total_bins, 1001);
    assert.ok(ladder.bins.length > 10);
    assert.ok(
      ladder.bins.some((b) => typeof b.liquidity === 'bigint'),
      'liquidity is filled on most bins',
    );
    assert.ok(ladder.bins.every((b) => typeof b.reserve_x === 'bigint'));
    assert.equal((await api.bins('dlmm_1')).pool_id, 'dlmm_1', 'pool_id echoes the alias asked for');
    const single = await api.bin(DLMM_1, pool.active_bin);
    assert.equal(single.bin_id, pool.active_bin + 500, 'single bin read is addressed and answered unsigned');
    assert.equal(single.is_active, true);
    const listed = ladder.bins.find((b) => b.bin_id === pool.active_bin);
    assert.equal(single.price, listed?.price);
    assert.deepEqual(await api.activeBin(DLMM_1), single);
    assert.equal((await api.bin(DLMM_1, pool.active_bin + 1)).is_active, false);

    const book = await api.currentBins(USER, 'dlmm_1');
    assert.equal(book.poolContract, DLMM_1);
    assert.equal(book.tipLag, 0);
    assert.ok(book.bins.length > 0 && book.bins.every((b) => b.binIdUnsigned === b.binIdSigned + 500));
    await assert.rejects(
      api.currentBins(USER, DLMM_1),
      (e: { code?: string }) => e.code === 'pool-not-found',
    );

    const positions = await api.userPositionBins(USER, DLMM_1);
    assert.ok(positions.length > 1);
    assert.ok(positions.every((b) => b.user_liquidity > 0n && typeof b.bin_id === 'number'));
    const history = await api.priceHistory(DLMM_1);
    assert.ok(history.length > 0 && typeof history[0]?.price === 'bigint');

    const inventory = await api.inventory('dlmm_1', USER);
    assert.equal(inventory.clean, true);
    assert.deepEqual(
      inventory.bins.map((b) => b.bin_id - 500).sort((a, b) => a - b),
      positions.map((b) => b.bin_id).sort((a, b) => a - b),
      'inventory (unsigned) and app positions (signed) name the same bins',
    );
    const empty = await api.inventory('dlmm_1', NOBODY);
    assert.deepEqual(empty.bins, [], 'an empty book is 200 + bins [] + clean true');

    const v1 = await api.v1Bins('dlmm_1');
    assert.equal(v1.bins.length, ladder.bins.length);

    const [x, y] = [pool.token_x, pool.token_y];
    const route = await api.quote({
      input_token: x,
      output_token: y,
      amount_in: 100_000n,
      slippage_tolerance: 1,
    });
    assert.ok(route.amount_out > 0n);
    assert.equal(route.hops[0]?.input_token, x);
    assert.equal(route.execution_path[0]?.x_token_trait, x);
    const routes = await api.quoteMulti({ input_token: x, output_token: y, amount_in: 100_000n });
    assert.ok(routes.length >= 1);
    assert.ok(routes.some((r) => r.amount_out === route.amount_out));
    const params = await api.swapParams({
      execution_path: route.execution_path,
      amount_in: 100_000n,
      amount_out: route.amount_out,
      input_token: x,
      output_token: y,
      input_token_decimals: route.input_token_decimals,
      output_token_decimals: route.output_token_decimals,
      slippage_tolerance: 1,
    });
    assert.match(params.swap_contract, /dlmm-swap-router/);
    assert.equal(params.function_name, 'swap-simple-multi', 'the engine names it; the export never uses it');

    const read = await api.callReadOnly(DLMM_1, 'get-bin-balances', ['0100000000000000000000000000000000']);
    assert.equal(read.okay, true);
    assert.match(read.result ?? '', /^0x[0-9a-f]+$/);
  });

  it("maps 'Pool not found' to pool-not-found for 404 and for HTTP 200 with empty bins", async () => {
    const api = client();
    const e404 = await rejection(api.bins('dlmm_99'));
    assert.equal(e404.code, 'pool-not-found');
    assert.equal(e404.context.status, 404);
    const ePool = await rejection(api.pool('dlmm_99'));
    assert.equal(ePool.code, 'pool-not-found');
    // a v2 principal on the v1 path, and a v1 alias on app v2: HTTP 200, empty bins, 'Pool not found'
    const eV1 = await rejection(api.v1Bins(DLMM_1));
    assert.equal(eV1.code, 'pool-not-found');
    assert.equal(eV1.context.status, 200);
    const eApp = await rejection(api.userPositionBins(USER, 'dlmm_1'));
    assert.equal(eApp.code, 'pool-not-found');
    assert.equal(eApp.context.status, 200);
    assert.match(eApp.message, /dlmm_1.*one generation/);
    const eInv = await rejection(api.inventory('dlmm_99', USER));
    assert.equal(eInv.code, 'pool-not-found');
  });

  for (const fault of ['TIP_LAG', 'RECONCILE_DIRTY', 'INCOMPLETE'] as const) {
    it(`reads inventory 503 ${fault} as inventory-unavailable, never an empty book, without retrying`, async () => {
      const api = client({ retryBaseMs: 5 });
      if (fault === 'TIP_LAG') await admin(sim, '/state', { tip_lag: 3 });
      else await admin(sim, '/state', { inventory_faults: [{ pool: 'dlmm_1', code: fault }] });
      const before = api.stats();
      const e = await rejection(api.inventory('dlmm_1', USER));
      assert.equal(e.code, 'inventory-unavailable');
      assert.equal(e.context.fault, fault);
      assert.equal(e.context.status, 503);
      assert.match(e.message, new RegExp(`${fault}.*not an empty book`));
      assert.equal(api.stats().requests - before.requests, 1, 'a fault answer is not retried');
      assert.equal(api.stats().retries, 0);
    });
  }

  it('reads readiness gates: 503 and ready:false are "not ready" with the reason', async () => {
    const api = client();
    await admin(sim, '/state', { ready: false, app_ready: false, tip_lag: null });
    const q = await api.quoteReady();
    const a = await api.appReady();
    assert.equal(q.ready, false);
    assert.equal(a.ready, false);
    assert.ok(a.detail && a.detail.length > 0);
    const status = await api.status();
    assert.equal(status.ready, false);
    assert.equal(status.tip_lag, null);
  });

  it('coalesces identical concurrent reads into one request', async () => {
    const api = client();
    const before = api.stats();
    const results = await Promise.all(Array.from({ length: 12 }, () => api.bins(DLMM_1)));
    const after = api.stats();
    assert.equal(after.requests - before.requests, 1);
    assert.equal(after.coalesced - before.coalesced, 11);
    assert.ok(results.every((r) => r.bins.length === results[0]?.bins.length));
    // Each caller gets the answer frozen: one caller's edit throws and never reaches another's answer.
    const length = results[1]?.bins.length ?? 0;
    assert.ok(length > 0);
    assert.throws(() => results[0]?.bins.splice(0), TypeError);
    assert.equal(results[1]?.bins.length, length);
  });

  it('serves a quote kept at its height as read once: frozen, so no caller edits the next answer', async () => {
    const api = client();
    await api.status(); // the height is known: the quote is kept under it
    const pool = (await api.pools())[0]!;
    const q = { input_token: pool.token_x, output_token: pool.token_y, amount_in: 100_000n };
    const first = await api.quote(q);
    const before = api.stats();
    const second = await api.quote(q);
    const after = api.stats();
    assert.equal(after.requests, before.requests, 'served from the cache');
    assert.ok(after.cacheHits > before.cacheHits);
    // The same validated route (not validated again), each call its own outer object.
    assert.notEqual(second, first);
    assert.equal(second.hops, first.hops);
    assert.equal(second.execution_path, first.execution_path);
    const amountOut = first.amount_out;
    const hops = first.hops.length;
    assert.throws(() => first.hops.splice(0), TypeError);
    assert.throws(() => {
      (first.execution_path[0] as { x_token_trait: string }).x_token_trait = 'SP000.other';
    }, TypeError);
    first.amount_out = 1n; // the caller's own outer object: its edit stays its own
    const third = await api.quote(q);
    assert.equal(third.amount_out, amountOut);
    assert.equal(third.hops.length, hops);
    assert.equal(third.execution_path[0]?.x_token_trait, pool.token_x);
  });

  it('caches reads under the state height and drops them when the height changes', async () => {
    let clock = 1_000_000;
    const api = client({ now: () => clock, statusTtlMs: 250 });
    const s1 = await api.status();
    const first = await api.bins(DLMM_1);
    let st = api.stats();
    await api.bins(DLMM_1);
    assert.equal(api.stats().requests, st.requests, 'second read served from the cache');
    assert.equal(api.stats().cacheHits, st.cacheHits + 1);

    // status is reused within its TTL
    st = api.stats();
    await api.status();
    assert.equal(api.stats().requests, st.requests);

    const shifted = await admin(sim, `/pools/dlmm_1/shift`, { bins: 2 });
    assert.notEqual(shifted.state_height, s1.state_height);
    // within the TTL the client cannot know yet: still the cached ladder
    assert.equal((await api.bins(DLMM_1)).active_bin_id, first.active_bin_id);
    clock += 300;
    st = api.stats();
    const fresh = await api.bins(DLMM_1);
    assert.equal(fresh.active_bin_id, (first.active_bin_id ?? 0) + 2);
    assert.equal(api.stats().requests - st.requests, 2, 'one status refresh, one bins read');
    assert.equal((await api.status()).state_height, shifted.state_height);

    api.clearCache();
    st = api.stats();
    await api.bins(DLMM_1);
    assert.equal(api.stats().requests - st.requests, 1, 'clearCache drops reads (and the learned height)');
  });

  it('stays under the server limit on its own when checking many things at once', async () => {
    const world: World = {
      ...defaultWorld(),
      limits: { requests_per_second: 5, node_requests_per_minute: 500 },
    };
    const tight = await startSimulator({ port: 0, world });
    try {
      const api = createApiClient({ baseUrl: tight.url, serviceRatePerSecond: 5 });
      clients.push(api);
      const started = performance.now();
      const reads = await Promise.all(Array.from({ length: 11 }, (_, i) => api.bin('dlmm_1', 130 + i)));
      assert.equal(reads.length, 11);
      assert.equal(api.stats().rateLimited, 0, 'the client limiter kept every request inside the window');
      assert.ok(performance.now() - started >= 2000, '11 requests at 5/s need two windows');
    } finally {
      await tight.close();
    }
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    const world: World = {
      ...defaultWorld(),
      limits: { requests_per_second: 5, node_requests_per_minute: 500 },
    };
    const tight = await startSimulator({ port: 0, world });
    try {
      // The limiter is opened up (and deaf to the server's grant) so the server's 429 path is exercised.
      const api = createApiClient({
        baseUrl: tight.url,
        serviceRatePerSecond: 10_000,
        followRateHeaders: false,
        maxRetryDelayMs: 1500,
      });
      clients.push(api);
      const reads = await Promise.all(Array.from({ length: 8 }, (_, i) => api.bin('dlmm_1', 130 + i)));
      assert.equal(reads.length, 8);
      const s = api.stats();
      assert.equal(s.rateLimited, 3);
      assert.equal(s.retries, 3);
      assert.equal(s.requests, 11);
    } finally {
      await tight.close();
    }
  });

  it('gives up with rate-limited after its bounded retries', async () => {
    const world: World = {
      ...defaultWorld(),
      limits: { requests_per_second: 2, node_requests_per_minute: 500 },
    };
    const tight = await startSimulator({ port: 0, world });
    try {
      const api = createApiClient({
        baseUrl: tight.url,
        serviceRatePerSecond: 10_000,
        followRateHeaders: false,
        maxRetries: 2,
        maxRetryDelayMs: 20,
      });
      clients.push(api);
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => api.bin('dlmm_1', 130 + i)),
      );
      const errors = settled
        .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
        .map((r) => r.reason as ApiError);
      assert.equal(errors.length, 4);
      assert.ok(errors.every((e) => e.code === 'rate-limited' && e.context.status === 429));
      assert.match(errors[0]?.message ?? '', /429.*--api-key-env/);
      assert.equal(api.stats().rateLimited, 12, 'each of the 4 tried 3 times');

      // with the world's API key, the raised limit applies
      const keyed = createApiClient({
        baseUrl: tight.url,
        apiKey: DEFAULT_SIM_API_KEY,
        serviceRatePerSecond: 10_000,
        maxRetries: 0,
      });
      clients.push(keyed);
      await Promise.all(Array.from({ length: 10 }, (_, i) => keyed.bin('dlmm_1', 150 + i)));
      assert.equal(keyed.stats().rateLimited, 0);
    } finally {
      await tight.close();
    }
  });
});
