/** App v2, legacy v1 and generation mixing over real HTTP. */
import assert from 'node:assert/strict';
import {
  BinListSchema,
  CurrentBinsSchema,
  PositionBinSchema,
  PricePointSchema,
  TokenSchema,
  V1BinListSchema,
  V1PoolSchema,
} from '../../../core/api/schemas';
import { sharesToAmounts } from '../../../core/dlmm/math';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator } from '../../../core/sim/server';
import { call, useSimulator } from './helpers';
import { z } from 'zod';

/** The app v2 user position bins answer; the client reads only its `bins` list (core/api/client.ts). */
const PositionBinsResponseSchema = z.looseObject({
  bins: z.array(PositionBinSchema),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});

describe('simulator app v2 and generations', () => {
  const sim = useSimulator();
  const app = (p: string) => `${sim().url}/app/v2${p}`;

  it('answers the app readiness gate and the analytics pool object', async () => {
    assert.equal((await call(app('/ready'))).status, 200);
    const a = await call(app(`/pools/${POOL_SBTC_USDCX}`));
    assert.equal(a.json.pool_id, POOL_SBTC_USDCX);
    assert.equal(a.json.active_bin_id, sim().engine.pool('dlmm_1')!.activeBinId);
  });

  it('serves the user position bins by contract id with raw shares matching the engine', async () => {
    const a = await call(app(`/users/${DEFAULT_USER}/positions/${POOL_SBTC_USDCX}/bins`));
    const { bins } = PositionBinsResponseSchema.parse(a.json);
    const pool = sim().engine.pool('dlmm_1')!;
    assert.ok(bins.length >= 3);
    for (const b of bins) {
      assert.equal(b.user_liquidity, sim().engine.userShares(pool, DEFAULT_USER, b.bin_id));
      assert.equal(b.liquidity, pool.bins.get(b.bin_id)!.shares);
      assert.ok(b.user_liquidity <= (b.liquidity ?? 0n));
    }
  });

  it('sums the user liquidity summary from the same shares', async () => {
    const a = await call(app(`/users/${DEFAULT_USER}/liquidity/${POOL_SBTC_USDCX}`));
    const pool = sim().engine.pool('dlmm_1')!;
    let y = 0n;
    for (const { binId, shares } of sim().engine.userBins(pool, DEFAULT_USER))
      y += sharesToAmounts(sim().engine.bin(pool, binId), shares).y;
    assert.equal(a.json.amount_y, String(y));
  });

  it('answers an alias on app v2 with HTTP 200, empty bins and Pool not found', async () => {
    for (const path of [
      `/users/${DEFAULT_USER}/positions/dlmm_1/bins`,
      '/pools/dlmm_1',
      '/pools/dlmm_1/bin-price-history',
    ]) {
      const a = await call(app(path));
      assert.equal(a.status, 200, path);
      assert.deepEqual(a.json.bins, []);
      assert.match(a.text, /Pool not found/);
    }
    assert.equal((await call(app('/pools/SP000000000000000000002Q6VF78.nope'))).status, 404);
    assert.equal((await call(app('/users/not-a-principal/positions/dlmm_1/bins'))).status, 400);
  });

  it('generates the same price history for the same world, ending at the active bin', async () => {
    const other = await startSimulator();
    try {
      const path = `/app/v2/pools/${POOL_SBTC_USDCX}/bin-price-history`;
      const a = await call(sim().url + path);
      const b = await call(other.url + path);
      assert.equal(a.text, b.text);
      const points = (a.json.history as unknown[]).map((p) => PricePointSchema.parse(p));
      assert.ok(points.length > 100);
      const last = points[points.length - 1]!;
      assert.equal(last.bin_id, sim().engine.pool('dlmm_1')!.activeBinId);
      assert.ok(points.every((p, i) => i === 0 || p.timestamp > points[i - 1]!.timestamp));
      assert.ok(new Set(points.map((p) => p.bin_id)).size > 3, 'the price moves');
    } finally {
      await other.close();
    }
  });

  it('serves current-bins by alias as captured (camelCase, tip-pinned), with its faults and its tip lag', async () => {
    const url = (pool: string) => app(`/users/${DEFAULT_USER}/positions/${pool}/current-bins`);
    const book = CurrentBinsSchema.parse((await call(url('dlmm_1'))).json);
    const pool = sim().engine.pool('dlmm_1')!;
    assert.equal(book.poolContract, POOL_SBTC_USDCX);
    assert.equal(book.principal, DEFAULT_USER);
    assert.equal(book.asOfHeight, sim().engine.status.state_height);
    assert.equal(book.tipLag, 0);
    assert.ok(book.clean && book.complete && book.reservesComplete);
    assert.equal(book.activeBinIdSigned, pool.activeBinId);
    assert.equal(
      book.overallUserShares,
      book.bins.reduce((s, b) => s + b.userShares, 0n),
    );
    for (const b of book.bins) {
      assert.equal(b.userShares, sim().engine.userShares(pool, DEFAULT_USER, b.binIdSigned));
      assert.equal(b.binShares, pool.bins.get(b.binIdSigned)!.shares);
    }
    const byPrincipal = await call(url(POOL_SBTC_USDCX));
    assert.equal(byPrincipal.status, 404);
    assert.equal(byPrincipal.json.errorCode, 'POOL_NOT_FOUND');

    const admin = (body: unknown) => call(`${sim().url}/admin/state`, { body });
    try {
      await admin({ tip_lag: 3 });
      const lagging = await call(url('dlmm_1'));
      assert.equal(lagging.status, 200, 'it answers while a few blocks behind');
      assert.equal(lagging.json.tipLag, 3);
      await admin({ tip_lag: 0, inventory_faults: [{ pool: 'dlmm_1', code: 'RECONCILE_DIRTY' }] });
      const dirty = await call(url('dlmm_1'));
      assert.equal(dirty.status, 503);
      assert.equal(dirty.json.errorCode, 'RECONCILE_DIRTY');
    } finally {
      await call(`${sim().url}/admin/reset`, { method: 'POST' });
    }
  });

  it('serves legacy v1 as captured (alias ids, pool_token, unsigned bins); a v2 principal gets 200 + Pool not found', async () => {
    const v1 = (p: string) => `${sim().url}/quotes/v1${p}`;
    const tokens = (await call(v1('/tokens'))).json.tokens as unknown[];
    tokens.forEach((t) => TokenSchema.parse(t));
    const pools = ((await call(v1('/pools'))).json.pools as unknown[]).map((p) => V1PoolSchema.parse(p));
    const dlmm1 = pools.find((p) => p.pool_id === 'dlmm_1');
    assert.equal(dlmm1?.pool_token, POOL_SBTC_USDCX, 'the v1 record pairs the alias with the principal');
    assert.equal(dlmm1?.active_bin, 139, 'read from the unsigned 639');
    assert.equal(dlmm1?.quotable, undefined, 'the v1 record has no quotable flag');
    const raw = (await call(v1('/bins/dlmm_1'))).json as {
      active_bin_id: number;
      bins: { bin_id: number }[];
    };
    assert.equal(raw.active_bin_id, 639, 'the v1 list names bins unsigned');
    const byAlias = V1BinListSchema.parse(raw);
    assert.ok(byAlias.bins.length > 0 && byAlias.active_bin_id === 139);
    const mixed = await call(v1(`/bins/${POOL_SBTC_USDCX}`));
    assert.equal(mixed.status, 200);
    const parsed = BinListSchema.parse(mixed.json);
    assert.deepEqual(parsed.bins, []);
    assert.equal(parsed.error, 'Pool not found');
  });
});
