/** App v2, legacy v1 and generation mixing over real HTTP. */
import assert from 'node:assert/strict';
import {
  BinListSchema,
  PositionBinsResponseSchema,
  PricePointSchema,
  TokenSchema,
} from '../../../core/api/schemas';
import { sharesToAmounts } from '../../../core/dlmm/math';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator } from '../../../core/sim/server';
import { call, useSimulator } from './helpers';

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

  it('serves legacy v1 as bare arrays with short ids; a v2 principal gets 200 + Pool not found', async () => {
    const v1 = (p: string) => `${sim().url}/quotes/v1${p}`;
    const tokens = (await call(v1('/tokens'))).json as unknown[];
    assert.ok(Array.isArray(tokens));
    tokens.forEach((t) => TokenSchema.parse(t));
    const pools = (await call(v1('/pools'))).json as { pool_id: string }[];
    assert.ok(Array.isArray(pools) && pools.some((p) => p.pool_id === 'dlmm_1'));
    const byAlias = BinListSchema.parse((await call(v1('/bins/dlmm_1'))).json);
    assert.ok(byAlias.bins.length > 0);
    const mixed = await call(v1(`/bins/${POOL_SBTC_USDCX}`));
    assert.equal(mixed.status, 200);
    const parsed = BinListSchema.parse(mixed.json);
    assert.deepEqual(parsed.bins, []);
    assert.equal(parsed.error, 'Pool not found');
  });
});
