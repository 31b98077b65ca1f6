/**
 * Wire shapes of the simulated engine: the real service's, as captured on mainnet (test/fixtures/bff/,
 * BitflowFinance/bitflow-market-maker-public test/fixtures/bff.json) and as its published OpenAPI types give
 * them (leather-io/mono bitflow-bff-api.types.ts); docs/service-shapes.md lists each with its source.
 * Amounts as numeric strings, v2 bin ids signed, v1 and single-bin ids unsigned.
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import type { SimEngine, SimPool } from './engine';
import type { TokenSpec } from './world';

/** The library's token id: given in the world, else token-<symbol>. */
export function tokenId(t: TokenSpec): string {
  return t.token_id ?? `token-${t.symbol.toLowerCase()}`;
}

/** Token record (quote v2 /tokens, and v1): the published TokenInfo, no token id. */
export function presentToken(t: TokenSpec): Record<string, unknown> {
  return {
    contract_address: t.contract,
    symbol: t.symbol,
    name: t.name ?? t.symbol,
    decimals: t.decimals,
    asset_name: t.asset_name,
    total_supply: null,
    image: null,
  };
}

/** Bins a pool has (-500..500): the `total_bins` of every bin list, whatever it lists. */
const TOTAL_BINS = MAX_BIN_ID - MIN_BIN_ID + 1;

/**
 * Shares at or below the burnt minimum are a dust bin's (mainnet lists those with `liquidity` null on v2):
 * the first deposit burns 1000 shares, so a bin holding no more than those has no owner's liquidity.
 */
const DUST_SHARES = 1000n;

/** A bin list's `liquidity` on v2: the bin's shares as a string, null on dust bins (as mainnet lists them). */
function listedLiquidity(shares: bigint): string | null {
  return shares <= DUST_SHARES ? null : String(shares);
}

/** `pool_symbol` as mainnet v2 fills it: the token contracts' names without the -token suffix. */
function poolSymbol(pool: SimPool): string {
  const name = (c: string) => (c.split('.')[1] ?? c).replace(/-token$/, '');
  return `${name(pool.tokenX)}-${name(pool.tokenY)}`;
}

/** The pool's total reserves: every bin's added up. */
export function poolReserves(pool: SimPool): { x: bigint; y: bigint } {
  let x = 0n;
  let y = 0n;
  for (const b of pool.bins.values()) {
    x += b.reserve_x;
    y += b.reserve_y;
  }
  return { x, y };
}

/**
 * Pool record of quote v2, field for field as the captured mainnet record: contract principal id (no
 * alias), signed active bin, fees, total fees as strings, pool name and symbol filled, reserves, and the
 * v1 fields that v2 leaves null.
 */
export function presentPoolV2(pool: SimPool): Record<string, unknown> {
  const f = pool.spec.fees;
  const r = poolReserves(pool);
  const symbol = poolSymbol(pool);
  return {
    pool_id: pool.id,
    amm_type: 'dlmm',
    token_x: pool.tokenX,
    token_y: pool.tokenY,
    bin_step: pool.binStep,
    active_bin: pool.activeBinId,
    active: pool.active,
    quotable: pool.quotable,
    pool_status: pool.active ? 'active' : 'inactive',
    x_protocol_fee: f.x_protocol,
    x_provider_fee: f.x_provider,
    x_variable_fee: f.x_variable,
    y_protocol_fee: f.y_protocol,
    y_provider_fee: f.y_provider,
    y_variable_fee: f.y_variable,
    types: null,
    sbtc_incentives: null,
    suggested: null,
    initial_price: null,
    pool_name: `${symbol}-LP`,
    pool_symbol: symbol,
    pool_uri: pool.id,
    creation_height: null,
    variable_fees_manager: null,
    fee_address: null,
    variable_fees_cooldown: null,
    freeze_variable_fees_manager: null,
    core_address: null,
    pool_token: null,
    creator: null,
    x_total_fee_bps: String(f.x_protocol + f.x_provider + f.x_variable),
    y_total_fee_bps: String(f.y_protocol + f.y_provider + f.y_variable),
    reserve_x: String(r.x),
    reserve_y: String(r.y),
    total_shares: null,
    staking_contract: null,
    emissions_contract: null,
    tokens_emitted: null,
    reward_tokens: null,
    is_organic_yield: null,
    is_single_sided: null,
    points_multiple: null,
    lp_decimals: null,
    asset_name: null,
    token_x_id: null,
    token_y_id: null,
  };
}

/**
 * Pool record of legacy v1, as the captured mainnet v1 record: the alias is `pool_id`, the contract
 * principal is `pool_token`, the active bin is unsigned, there is no `quotable`.
 */
export function presentPoolV1(pool: SimPool): Record<string, unknown> {
  const f = pool.spec.fees;
  const symbol = poolSymbol(pool);
  return {
    pool_id: pool.alias,
    amm_type: 'dlmm',
    token_x: pool.tokenX,
    token_y: pool.tokenY,
    bin_step: pool.binStep,
    active_bin: pool.activeBinId + BIN_ID_OFFSET,
    active: pool.active,
    pool_status: String(pool.active),
    x_protocol_fee: f.x_protocol,
    x_provider_fee: f.x_provider,
    x_variable_fee: f.x_variable,
    y_protocol_fee: f.y_protocol,
    y_provider_fee: f.y_provider,
    y_variable_fee: f.y_variable,
    types: ['ALL_POOLS', 'DLMM'],
    sbtc_incentives: false,
    suggested: false,
    pool_name: `${symbol}-LP`,
    pool_symbol: symbol,
    pool_token: pool.id,
    x_total_fee_bps: String(f.x_protocol + f.x_provider + f.x_variable),
    y_total_fee_bps: String(f.y_protocol + f.y_provider + f.y_variable),
  };
}

/**
 * A pool's bin list: only bins with reserves, `total_bins` 1001. Quote v2: signed ids, `liquidity` the
 * bin's shares as a string (null on dust bins), `pool_id` echoing the id as asked (the alias when asked by
 * alias). Legacy v1, as captured: the alias as pool id, unsigned ids, liquidity = the bin's total shares.
 */
export function presentBins(
  engine: SimEngine,
  pool: SimPool,
  generation: 'v1' | 'v2',
  askedId: string,
): Record<string, unknown> {
  const v1 = generation === 'v1';
  const poolId = v1 ? pool.alias : askedId;
  const offset = v1 ? BIN_ID_OFFSET : 0;
  const bins = engine.binsWithReserves(pool).map(([id, b]) => ({
    pool_id: poolId,
    bin_id: id + offset,
    reserve_x: String(b.reserve_x),
    reserve_y: String(b.reserve_y),
    price: String(b.price),
    liquidity: v1 ? String(b.shares) : listedLiquidity(b.shares),
  }));
  return {
    success: true,
    pool_id: poolId,
    bins,
    total_bins: TOTAL_BINS,
    active_bin_id: pool.activeBinId + offset,
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

/**
 * Single bin (quote v2 /bins/{pool}/{unsigned} and /bins/{pool}/active), the published BinDetailResponse:
 * unsigned id, `is_active`; bins without reserves still have a price.
 */
export function presentSingleBin(
  engine: SimEngine,
  pool: SimPool,
  signedId: number,
  askedId: string,
): Record<string, unknown> {
  const b = engine.bin(pool, signedId);
  return {
    success: true,
    pool_id: askedId,
    bin_id: signedId + BIN_ID_OFFSET,
    reserve_x: String(b.reserve_x),
    reserve_y: String(b.reserve_y),
    price: String(b.price),
    liquidity: b.reserve_x === 0n && b.reserve_y === 0n ? null : listedLiquidity(b.shares),
    is_active: signedId === pool.activeBinId,
    error: null,
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
