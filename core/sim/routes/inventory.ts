/**
 * Market-maker inventory (/api/mm/v1/pools/{pool}/positions/{principal}): owned bins at the applied tip,
 * unsigned ids, raw strings. 503 TIP_LAG when the tip lag is > 0 or unknown, 503 RECONCILE_DIRTY /
 * INCOMPLETE when the world (or admin) says so; an empty book only as 200 + bins [] + clean true.
 */
import { zPrincipal } from '../../api/schemas';
import { BIN_ID_OFFSET } from '../../dlmm/bins';
import type { SimEngine } from '../engine';
import { HttpError, badRequest, type Router } from '../http';

/** What the simulated inventory (and app v2 current-bins) says with each fault code. */
export const FAULT_MESSAGES = {
  TIP_LAG: 'applied state lags the chain tip',
  RECONCILE_DIRTY: 'book not reconciled',
  INCOMPLETE: 'inventory data incomplete',
} as const;

/** Registers the inventory route under /api/mm/v1. */
export function registerInventory(router: Router, engine: SimEngine): void {
  router.add('GET', '/api/mm/v1/pools/:pool/positions/:principal', (c) => {
    const principal = c.params.principal as string;
    if (!zPrincipal.safeParse(principal).success)
      throw badRequest(`principal '${principal}' is not a Stacks principal`);
    const pool = engine.pool(c.params.pool as string);
    if (!pool)
      throw new HttpError(404, { error: 'Pool not found', code: 'POOL_NOT_FOUND', pool: c.params.pool });
    const s = engine.status;
    const code = s.tip_lag === null || s.tip_lag > 0 ? 'TIP_LAG' : engine.faultFor(pool, principal);
    if (code) {
      throw new HttpError(
        503,
        { code, message: FAULT_MESSAGES[code], tip_lag: s.tip_lag, pool: pool.id },
        { 'Retry-After': '1' },
      );
    }
    const bins = engine
      .userBins(pool, principal)
      .filter((b) => b.shares > 0n)
      .map(({ binId, shares }) => {
        const b = engine.bin(pool, binId);
        return {
          bin_id: binId + BIN_ID_OFFSET,
          shares: String(shares),
          total_shares: String(b.shares),
          reserve_x: String(b.reserve_x),
          reserve_y: String(b.reserve_y),
          price: String(b.price),
        };
      });
    return {
      body: {
        pool: pool.id,
        pool_alias: pool.alias,
        principal,
        clean: true,
        tip_lag: s.tip_lag,
        state_height: s.state_height,
        bin_id_domain: 'unsigned',
        active_bin_id: pool.activeBinId + BIN_ID_OFFSET,
        bins,
      },
    };
  });
}
