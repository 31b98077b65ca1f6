/**
 * The simulator's read hot path: cached single-bin answers follow state changes, and request targets
 * (plain paths taken as they are, others through the URL parser) route the same way either way.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { call, useSimulator } from './helpers';

/** GET with a raw request target (fetch would normalize dot segments before sending). */
function rawGet(origin: string, target: string): Promise<{ status: number; allow?: string; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: target, method: 'GET', headers: { 'X-API-Key': DEFAULT_SIM_API_KEY } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${target} within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

describe('sim read hot path', () => {
  const sim = useSimulator();
  const origin = () => new URL(sim().url).origin;

  it('serves single bins that follow state changes (no stale cached answer)', async () => {
    const engine = sim().engine;
    const pool = engine.pool('dlmm_1')!;
    const before = pool.activeBinId;
    const url = `${sim().url}/quotes/v2/bins/dlmm_1/${before + 500}`;
    const first = await call(url);
    assert.equal(first.json.is_active, true);
    assert.equal((await call(url)).text, first.text, 'a repeated read answers the same bytes');
    const shifted = engine.shiftActiveBin(pool, 1);
    assert.ok(shifted.ok, 'the admin shift applied');
    const after = await call(url);
    assert.equal(after.json.is_active, false, 'the old active bin is no longer active');
    const now = await call(`${sim().url}/quotes/v2/bins/dlmm_1/${pool.activeBinId + 500}`);
    assert.equal(now.json.is_active, true);
    assert.equal(now.json.reserve_x, String(engine.bin(pool, pool.activeBinId).reserve_x));
    engine.reset();
  });

  it('routes plain, escaped, dotted, slashed and queried targets like the URL parser would', async () => {
    const base = '/api/quotes/v2/bins';
    const plain = await rawGet(origin(), `${base}/dlmm_1/639`);
    assert.equal(plain.status, 200);
    for (const t of [
      `${base}/dlmm_1/639/`,
      `${base}/dlmm_1/639?x=1`,
      `${base}/dlmm%5F1/639`,
      `${base}/x/../dlmm_1/639`,
      `/api/./quotes/v2/bins/dlmm_1/639`,
    ]) {
      const r = await rawGet(origin(), t);
      assert.equal(r.status, 200, t);
      assert.equal(r.body, plain.body, t);
    }
    const byId = await rawGet(origin(), `${base}/${POOL_SBTC_USDCX}/639`);
    assert.equal(JSON.parse(byId.body).pool_id, POOL_SBTC_USDCX);
    assert.equal((await rawGet(origin(), `${base}/%ZZ/639`)).status, 400);
    assert.equal((await rawGet(origin(), `${base}/dlmm_1/639/extra`)).status, 404);
    const post = await call(`${sim().url}/quotes/v2/quote`);
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'POST');
  });
});
