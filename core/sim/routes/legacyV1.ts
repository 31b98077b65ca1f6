/**
 * Legacy v1 (/api/quotes/v1/*) in the shapes captured on mainnet and the published types: short adapter ids
 * (dlmm_<n>), `{tokens}` and `{pools}` lists, the pool's principal as `pool_token` (the list clients map an
 * alias with), unsigned bin ids. A v2 contract principal gets HTTP 200 with empty bins and 'Pool not found',
 * so generation mixing can be shown.
 */
import type { SimEngine } from '../engine';
import { HttpError, type Router } from '../http';
import { poolNotFoundBody, presentBins, presentPoolV1, presentToken } from '../present';

/** Registers the v1 routes under /api/quotes/v1. */
export function registerLegacyV1(router: Router, engine: SimEngine): void {
  const P = '/api/quotes/v1';
  router.add('GET', `${P}/tokens`, () => ({ body: { tokens: engine.tokens().map(presentToken) } }));
  router.add('GET', `${P}/pools`, () => ({ body: { pools: engine.pools().map(presentPoolV1) } }));
  router.add('GET', `${P}/bins/:pool`, (c) => {
    const id = c.params.pool as string;
    const pool = engine.poolByAlias(id);
    if (pool) return { body: presentBins(engine, pool, 'v1', id) };
    if (engine.poolByPrincipal(id)) return { body: poolNotFoundBody(id) };
    throw new HttpError(404, poolNotFoundBody(id));
  });
}
