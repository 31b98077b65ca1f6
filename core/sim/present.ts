/**
 * Wire shapes of the simulated engine, modelled on the mainnet payloads in DOMAIN.md ("What mainnet v2
 * payloads look like"): amounts as numeric strings, v2 bin ids signed, single-bin and inventory ids unsigned.
 */
import { BIN_ID_OFFSET } from '../dlmm/bins';
import type { SimEngine, SimPool } from './engine';
import type { TokenSpec } from './world';

/** The library's token id: given in the world, else token-<symbol>. */
export function tokenId(t: TokenSpec): string {
  return t.token_id ?? `token-${t.symbol.toLowerCase()}`;
}

/** Token record (quote v2 /tokens, and v1). */
export function presentToken(t: TokenSpec): Record<string, unknown> {
  return {
    contract_address: t.contract,
    symbol: t.symbol,
    name: t.name ?? t.symbol,
    decimals: t.decimals,
    asset_name: t.asset_name,
    token_id: tokenId(t),
  };
}

function poolReserves(pool: SimPool): { x: bigint; y: bigint } {
  let x = 0n;
  let y = 0n;
  for (const b of pool.bins.values()) {
    x += b.reserve_x;
    y += b.reserve_y;
  }
  return { x, y };
}

/** Pool record of quote v2: contract principal id, signed active bin, fees, totals; v1-only fields null. */
export function presentPoolV2(pool: SimPool): Record<string, unknown> {
  const f = pool.spec.fees;
  const r = poolReserves(pool);
  return {
    pool_id: pool.id,
    pool_alias: pool.alias,
    token_x: pool.tokenX,
    token_y: pool.tokenY,
    bin_step: pool.binStep,
    active_bin: pool.activeBinId,
    active_bin_price: String(pool.prices[pool.activeBinId + BIN_ID_OFFSET]),
    active: pool.active,
    quotable: pool.quotable,
    pool_status: pool.active ? 'active' : 'disabled',
    x_protocol_fee: f.x_protocol,
    x_provider_fee: f.x_provider,
    x_variable_fee: f.x_variable,
    y_protocol_fee: f.y_protocol,
    y_provider_fee: f.y_provider,
    y_variable_fee: f.y_variable,
    x_total_fee_bps: f.x_protocol + f.x_provider + f.x_variable,
    y_total_fee_bps: f.y_protocol + f.y_provider + f.y_variable,
    reserve_x: String(r.x),
    reserve_y: String(r.y),
    // v1 fields that mainnet v2 leaves null
    pool_name: null,
    pool_symbol: null,
    tvl_usd: null,
    volume_24h_usd: null,
  };
}

/** Pool record of legacy v1: the short adapter id is the pool id. */
export function presentPoolV1(pool: SimPool): Record<string, unknown> {
  const f = pool.spec.fees;
  return {
    pool_id: pool.alias,
    pool_contract: pool.id,
    token_x: pool.tokenX,
    token_y: pool.tokenY,
    bin_step: pool.binStep,
    active_bin: pool.activeBinId,
    active: pool.active,
    quotable: pool.quotable,
    x_protocol_fee: f.x_protocol,
    x_provider_fee: f.x_provider,
    x_variable_fee: f.x_variable,
    y_protocol_fee: f.y_protocol,
    y_provider_fee: f.y_provider,
    y_variable_fee: f.y_variable,
  };
}

/** Quote v2 bin list: signed ids, only bins with reserves, liquidity always null. */
export function presentBinsV2(engine: SimEngine, pool: SimPool): Record<string, unknown> {
  const bins = engine.binsWithReserves(pool).map(([id, b]) => ({
    pool_id: pool.id,
    bin_id: id,
    reserve_x: String(b.reserve_x),
    reserve_y: String(b.reserve_y),
    price: String(b.price),
    liquidity: null,
  }));
  return {
    success: true,
    pool_id: pool.id,
    bins,
    total_bins: bins.length,
    active_bin_id: pool.activeBinId,
    error: null,
  };
}

/** Legacy v1 bin list: alias as pool id, liquidity = the bin's total shares. */
export function presentBinsV1(engine: SimEngine, pool: SimPool): Record<string, unknown> {
  const bins = engine.binsWithReserves(pool).map(([id, b]) => ({
    bin_id: id,
    reserve_x: String(b.reserve_x),
    reserve_y: String(b.reserve_y),
    price: String(b.price),
    liquidity: String(b.shares),
  }));
  return {
    success: true,
    pool_id: pool.alias,
    bins,
    total_bins: bins.length,
    active_bin_id: pool.activeBinId,
    error: null,
  };
}

/** HTTP 200 body for an id of the other generation (the interface document's 'Pool not found'). */
export function poolNotFoundBody(poolId: string): Record<string, unknown> {
  return {
    success: false,
    pool_id: poolId,
    bins: [],
    total_bins: 0,
    active_bin_id: null,
    error: 'Pool not found',
    message: 'Pool not found',
  };
}

/** Single bin (quote v2 /bins/{pool}/{unsigned}): unsigned id; bins without reserves still have a price. */
export function presentSingleBin(
  engine: SimEngine,
  pool: SimPool,
  signedId: number,
): Record<string, unknown> {
  const b = engine.bin(pool, signedId);
  return {
    success: true,
    pool_id: pool.id,
    bin_id: signedId + BIN_ID_OFFSET,
    signed_bin_id: signedId,
    is_active_bin: signedId === pool.activeBinId,
    price: String(b.price),
    reserve_x: String(b.reserve_x),
    reserve_y: String(b.reserve_y),
    liquidity: null,
  };
}

/** App v2 position bins: signed ids, raw integer shares; a 0 entry means 'has ever added'. */
export function presentPositionBins(
  engine: SimEngine,
  pool: SimPool,
  user: string,
): Record<string, unknown>[] {
  return engine.userBins(pool, user).map(({ binId, shares }) => {
    const b = engine.bin(pool, binId);
    return {
      bin_id: binId,
      user_liquidity: String(shares),
      liquidity: String(b.shares),
      reserve_x: String(b.reserve_x),
      reserve_y: String(b.reserve_y),
      price: String(b.price),
    };
  });
}
