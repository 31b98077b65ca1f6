/**
 * App v2 (/api/app/v2/*): analytics pool object, price history, user liquidity, position bins and the
 * owned-bin inventory `current-bins`. App v2 takes contract principals: an alias (the other generation's id)
 * gets HTTP 200 with empty bins and 'Pool not found', as the interface document describes for mixed clients.
 * current-bins is the exception, as on mainnet: it takes the alias only (a principal gets 404
 * `{errorCode: POOL_NOT_FOUND}`) and answers camelCase, pinned to the applied height.
 */
import { zPrincipal } from '../../api/schemas';
import { BIN_ID_OFFSET } from '../../dlmm/bins';
import { sharesToAmounts } from '../../dlmm/math';
import type { SimEngine, SimPool } from '../engine';
import { HttpError, badRequest, type Reply, type Router } from '../http';
import { priceHistory } from '../history';
import { poolNotFoundBody, poolReserves, presentPositionBins } from '../present';
import { FAULT_MESSAGES } from './inventory';

/** Resolves an app v2 pool id: principal only; alias -> 200 'Pool not found'; unknown -> 404. */
function appPool(engine: SimEngine, id: string): SimPool | Reply {
  const pool = engine.poolByPrincipal(id);
  if (pool) return pool;
  if (engine.poolByAlias(id)) return { body: poolNotFoundBody(id) };
  throw new HttpError(404, { ...poolNotFoundBody(id) });
}

function isPool(v: SimPool | Reply): v is SimPool {
  return 'prices' in v;
}

function requireUser(user: string): void {
  if (!zPrincipal.safeParse(user).success)
    throw badRequest(`user '${user}' is not a Stacks principal (SP…/SM…/ST…)`);
}

/** A block hash for a height: 32 bytes of hex, stable per height (the simulator has no real blocks). */
function blockHashOf(height: number): string {
  return '0x' + height.toString(16).padStart(64, '0');
}

/**
 * GET /app/v2/users/{principal}/positions/{alias}/current-bins: the shape captured on mainnet. The alias of
 * a pool in the cohort only; a fault of the world (RECONCILE_DIRTY, INCOMPLETE) is a 503 carrying
 * `errorCode`; a lagging engine still answers 200 with its `tipLag` (the client's policy gates it).
 */
function currentBins(engine: SimEngine, alias: string, user: string): Reply {
  const pool = engine.poolByAlias(alias);
  if (!pool || !pool.spec.current_bins)
    throw new HttpError(404, { errorCode: 'POOL_NOT_FOUND', message: `pool ${alias} not found` });
  const fault = engine.faultFor(pool, user);
  if (fault === 'RECONCILE_DIRTY' || fault === 'INCOMPLETE')
    throw new HttpError(503, { errorCode: fault, message: FAULT_MESSAGES[fault] }, { 'Retry-After': '1' });
  const s = engine.status;
  let overall = 0n;
  const bins = engine
    .userBins(pool, user)
    .filter((b) => b.shares > 0n)
    .map(({ binId, shares }) => {
      const b = engine.bin(pool, binId);
      overall += shares;
      return {
        binIdUnsigned: binId + BIN_ID_OFFSET,
        binIdSigned: binId,
        userShares: String(shares),
        binShares: String(b.shares),
        reserveX: String(b.reserve_x),
        reserveY: String(b.reserve_y),
      };
    });
  return {
    body: {
      poolContract: pool.id,
      poolAlias: alias,
      principal: user,
      asOfHeight: s.state_height,
      indexBlockHash: blockHashOf(s.state_height),
      chainTip: engine.chainTip,
      tipLag: s.tip_lag,
      finality: 'anchored',
      source: 'memory-join',
      complete: true,
      clean: true,
      reservesComplete: true,
      overallUserShares: String(overall),
      activeBinIdUnsigned: pool.activeBinId + BIN_ID_OFFSET,
      activeBinIdSigned: pool.activeBinId,
      bins,
    },
  };
}

/** Registers the app v2 routes under /api/app/v2. */
export function registerAppV2(router: Router, engine: SimEngine): void {
  const P = '/api/app/v2';
  router.add('GET', `${P}/ready`, () => {
    const ready = engine.status.app_ready;
    return { status: ready ? 200 : 503, body: { ready, status: ready ? 'ok' : 'replaying events' } };
  });
  router.add('GET', `${P}/pools/:pool`, (c) => {
    const pool = appPool(engine, c.params.pool as string);
    if (!isPool(pool)) return pool;
    const { x, y } = poolReserves(pool);
    const holders = new Set(
      [...pool.positions].filter(([, m]) => [...m.values()].some((s) => s > 0n)).map(([u]) => u),
    );
    return {
      body: {
        success: true,
        pool_id: pool.id,
        token_x: pool.tokenX,
        token_y: pool.tokenY,
        bin_step: pool.binStep,
        active_bin_id: pool.activeBinId,
        active_bin_price: String(pool.prices[pool.activeBinId + 500]),
        reserve_x: String(x),
        reserve_y: String(y),
        bins_with_liquidity: engine.binsWithReserves(pool).length,
        known_liquidity_providers: holders.size,
        protocol_fees_x: String(pool.protocolFeesX),
        protocol_fees_y: String(pool.protocolFeesY),
        state_height: engine.status.state_height,
        fresh: c.query.get('fresh') === 'true',
      },
    };
  });
  router.add('GET', `${P}/pools/:pool/bin-price-history`, (c) => {
    const pool = appPool(engine, c.params.pool as string);
    if (!isPool(pool)) return { body: { ...poolNotFoundBody(c.params.pool as string), history: [] } };
    return { body: { success: true, pool_id: pool.id, history: priceHistory(engine.world, pool) } };
  });
  router.add('GET', `${P}/users/:user/liquidity/:pool`, (c) => {
    requireUser(c.params.user as string);
    const pool = appPool(engine, c.params.pool as string);
    if (!isPool(pool)) return pool;
    let amountX = 0n;
    let amountY = 0n;
    let binsHeld = 0;
    for (const { binId, shares } of engine.userBins(pool, c.params.user as string)) {
      if (shares === 0n) continue;
      binsHeld++;
      const v = sharesToAmounts(engine.bin(pool, binId), shares);
      amountX += v.x;
      amountY += v.y;
    }
    return {
      body: {
        success: true,
        user: c.params.user,
        pool_id: pool.id,
        bins_with_liquidity: binsHeld,
        amount_x: String(amountX),
        amount_y: String(amountY),
        token_x: pool.tokenX,
        token_y: pool.tokenY,
      },
    };
  });
  router.add('GET', `${P}/users/:user/positions/:pool/current-bins`, (c) => {
    requireUser(c.params.user as string);
    return currentBins(engine, c.params.pool as string, c.params.user as string);
  });
  router.add('GET', `${P}/users/:user/positions/:pool/bins`, (c) => {
    requireUser(c.params.user as string);
    const pool = appPool(engine, c.params.pool as string);
    if (!isPool(pool)) return pool;
    const user = c.params.user as string;
    return {
      body: {
        success: true,
        user,
        pool_id: pool.id,
        active_bin_id: pool.activeBinId,
        bins: presentPositionBins(engine, pool, user),
      },
    };
  });
}
