/** Rate limits, readiness and admin changes over real HTTP. */
import assert from 'node:assert/strict';
import { BinListSchema, StatusSchema } from '../../../core/api/schemas';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { call, useSimulator } from './helpers';

const SBTC_USDCX_QUOTE = (amount: number) => ({ input_token: SBTC, output_token: USDCX, amount_in: amount });

describe('simulator rate limits', () => {
  let sim: RunningSimulator;
  let clock = 0;
  afterEach(async () => sim?.close());

  it('refuses requests beyond 50/s per IP without a key with 429 and Retry-After', async () => {
    // The clock stands still, so all 60 concurrent requests fall in one second however loaded the machine is.
    sim = await startSimulator({ now: () => 5_000 });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => call(`${sim.url}/quotes/v2/tokens`, { key: null })),
    );
    const limited = answers.filter((a) => a.status === 429);
    assert.equal(limited.length, 10);
    assert.equal(answers.filter((a) => a.status === 200).length, 50);
    for (const a of limited) {
      assert.match(a.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal(a.json.code, 'RATE_LIMITED');
    }
  });

  it('keeps a log of the limited requests only when asked (class, method, target, body), none otherwise', async () => {
    sim = await startSimulator({ recordRequests: true });
    const tokens = SBTC_USDCX_QUOTE;
    await call(`${sim.url}/quotes/v2/status`);
    await call(`${sim.url}/quotes/v2/status`);
    await call(`${sim.url}/quotes/v2/quote`, { body: tokens(1000) });
    await call(`${sim.url}/quotes/v2/quote`, { body: tokens(1000) });
    await call(`${sim.url}/quotes/v2/quote`, { body: tokens(2000) });
    await call(`${sim.url}/admin/state`, { key: null });
    const log = sim.requestLog();
    assert.deepEqual(
      log.map((r) => r.cls),
      ['service', 'service', 'service', 'service', 'service'],
      'admin is not limited, so not logged',
    );
    assert.equal(log[0]?.key, 'GET /api/quotes/v2/status');
    assert.match(log[2]?.key ?? '', /^POST \/api\/quotes\/v2\/quote \{.*"amount_in":1000/);
    // Repeats are told from distinct requests by their key: two statuses, two quotes of 1000, one of 2000.
    assert.equal(new Set(log.map((r) => r.key)).size, 3);
    assert.equal(sim.requests().service, 5);
    await sim.close();

    sim = await startSimulator();
    await call(`${sim.url}/quotes/v2/status`);
    assert.deepEqual(sim.requestLog(), [], 'nothing is kept per request unless asked');
  });

  it('lets a valid X-API-Key through and answers an unknown key with 401', async () => {
    sim = await startSimulator();
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(`${sim.url}/quotes/v2/tokens`)));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    const bad = await call(`${sim.url}/quotes/v2/tokens`, { key: 'not-a-real-key' });
    assert.equal(bad.status, 401);
    assert.doesNotMatch(bad.text, /not-a-real-key/, 'the key is never echoed');
  });

  it('counts exactly 50 per sliding second (injected clock) and never limits admin or inventory', async () => {
    clock = 1_000_000;
    sim = await startSimulator({ now: () => clock });
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) statuses.push((await call(`${sim.url}/app/v2/ready`, { key: null })).status);
    assert.equal(statuses.filter((s) => s === 200).length, 50);
    assert.equal(statuses.filter((s) => s === 429).length, 5);
    for (let i = 0; i < 55; i++)
      assert.equal((await call(`${sim.url}/admin/state`, { key: null })).status, 200);
    clock += 999;
    assert.equal((await call(`${sim.url}/quotes/v1/tokens`, { key: null })).status, 429);
    clock += 1;
    assert.equal((await call(`${sim.url}/quotes/v1/tokens`, { key: null })).status, 200);
  });
});

describe('simulator admin', () => {
  const sim = useSimulator();
  const url = (p: string) => `${sim().url}${p}`;
  afterEach(async () => {
    assert.equal((await call(url('/admin/reset'), { method: 'POST' })).status, 200);
  });

  it('controls readiness of quote v2 and app v2', async () => {
    await call(url('/admin/state'), { body: { ready: false, app_ready: false } });
    assert.equal((await call(url('/quotes/v2/ready'))).status, 503);
    assert.equal((await call(url('/app/v2/ready'))).status, 503);
    assert.equal(StatusSchema.parse((await call(url('/quotes/v2/status'))).json).ready, false);
    await call(url('/admin/state'), { body: { ready: true } });
    assert.equal((await call(url('/quotes/v2/ready'))).status, 200);
    assert.equal((await call(url('/app/v2/ready'))).status, 503);
  });

  it('shifts the active bin as trades would and bumps the state height', async () => {
    const before = StatusSchema.parse((await call(url('/quotes/v2/status'))).json).state_height!;
    const binsBefore = BinListSchema.parse((await call(url('/quotes/v2/bins/dlmm_1'))).json);
    for (const k of [2, -5]) {
      const start = sim().engine.pool('dlmm_1')!.activeBinId;
      const a = await call(url('/admin/pools/dlmm_1/shift'), { body: { bins: k } });
      assert.equal(a.status, 200, a.text);
      assert.equal(a.json.active_bin_after, start + k);
      const list = BinListSchema.parse((await call(url('/quotes/v2/bins/dlmm_1'))).json);
      assert.equal(list.active_bin_id, start + k);
      for (const b of list.bins) {
        if (b.bin_id < start + k)
          assert.equal(b.reserve_x, 0n, `bin ${b.bin_id} below the active bin holds no X`);
        if (b.bin_id > start + k)
          assert.equal(b.reserve_y, 0n, `bin ${b.bin_id} above the active bin holds no Y`);
      }
    }
    const after = StatusSchema.parse((await call(url('/quotes/v2/status'))).json).state_height!;
    assert.equal(after, before + 2);
    const binsAfter = BinListSchema.parse((await call(url('/quotes/v2/bins/dlmm_1'))).json);
    assert.notDeepEqual(binsAfter.bins, binsBefore.bins);
    await call(url('/admin/state'), { body: { bump_height: 3 } });
    assert.equal(StatusSchema.parse((await call(url('/quotes/v2/status'))).json).state_height, after + 3);
  });

  it('rejects bad admin input with 400 and resets to the world', async () => {
    assert.equal((await call(url('/admin/pools/dlmm_1/shift'), { body: { bins: 900 } })).status, 400);
    assert.equal((await call(url('/admin/pools/dlmm_1/shift'), { body: { bins: 'up' } })).status, 400);
    assert.equal((await call(url('/admin/pools/dlmm_9/shift'), { body: { bins: 1 } })).status, 404);
    assert.equal((await call(url('/admin/state'), { body: { tip_lag: -1 } })).status, 400);
    await call(url('/admin/pools/dlmm_2/shift'), { body: { bins: 1 } });
    await call(url('/admin/reset'), { method: 'POST' });
    assert.equal(sim().engine.pool('dlmm_2')!.activeBinId, sim().engine.world.pools[1]!.active_bin);
  });

  it('hands a transaction to the dry-run and reports a malformed one as not applied', async () => {
    const a = await call(url('/admin/apply'), { body: { tx_hex: '00deadbeef' } });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.json.ok, false);
    assert.equal(typeof a.json.error, 'string');
    assert.equal((await call(url('/admin/apply'), { body: { tx_hex: 'xyz' } })).status, 400);
  });
});
