/** Test fixtures for the exporter: a world whose user has a known key, and hand-made prepared operations. */
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import type { Token } from '../../../core/api/types';
import { addLiquidity } from '../../../core/dlmm/math';
import type {
  PreparedAddItem,
  PreparedMoveItem,
  PreparedOperation,
  PreparedWithdrawItem,
  PoolSnapshot,
} from '../../../core/prepare/prepared';
import { PlanSchema, type Plan } from '../../../core/plan/schema';
import { DEFAULT_WORLD_INPUT } from '../../../core/sim/defaultWorld';
import { SimEngine, type SimPool } from '../../../core/sim/engine';
import { parseWorld } from '../../../core/sim/world';
import type { ExportableAnalysis } from '../../../core/tx/build';
import { clonePool, MemoryChainState } from '../../../core/chain/index';

/** Not a secret: a fixed test key so the world's user can be the transaction's signer. */
export const TEST_PRIVATE_KEY = '11'.repeat(32) + '01';
export const PUBLIC_KEY = privateKeyToPublic(TEST_PRIVATE_KEY) as string;
export const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');

/**
 * The default world with its user replaced by USER (same positions), whose next nonce is 7: the nonce the
 * export tests sign with (the engine mines only the sender's next nonce).
 */
export function testEngine(): SimEngine {
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  input.users = (input.users ?? []).map((u) => ({ ...u, address: USER, nonce: 7 }));
  return new SimEngine(parseWorld(input, 'test-world'));
}

export function tokensOf(engine: SimEngine): Token[] {
  return engine.tokens().map(
    (t) =>
      ({
        contract_address: t.contract,
        symbol: t.symbol,
        decimals: t.decimals,
        asset_name: t.asset_name ?? null,
      }) as Token,
  );
}

export function snapshot(engine: SimEngine, pool: SimPool): PoolSnapshot {
  const tokens = tokensOf(engine);
  return {
    written_id: pool.id,
    pool_id: pool.id,
    pool: {
      pool_id: pool.id,
      token_x: pool.tokenX,
      token_y: pool.tokenY,
      bin_step: pool.binStep,
      active_bin: pool.activeBinId,
      active: pool.active,
      quotable: pool.quotable,
      x_protocol_fee: Number(pool.fees.x_protocol),
      x_provider_fee: Number(pool.fees.x_provider),
      x_variable_fee: Number(pool.fees.x_variable),
      y_protocol_fee: Number(pool.fees.y_protocol),
      y_provider_fee: Number(pool.fees.y_provider),
      y_variable_fee: Number(pool.fees.y_variable),
    },
    token_x: tokens.find((t) => t.contract_address === pool.tokenX),
    token_y: tokens.find((t) => t.contract_address === pool.tokenY),
    active_bin_id: pool.activeBinId,
    state_height: engine.status.state_height,
  };
}

const hasEver = (pool: SimPool, bin: number) => pool.positions.get(USER)?.has(bin) ?? false;

export function addItem(
  engine: SimEngine,
  pool: SimPool,
  index: number,
  binId: number,
  x: bigint,
  y: bigint,
  simple = false,
): PreparedAddItem {
  const b = engine.bin(pool, binId);
  return {
    index,
    is_active_bin: binId === pool.activeBinId,
    bin_id: binId,
    x_amount: x,
    y_amount: y,
    bin_price: b.price,
    reserve_x: b.reserve_x,
    reserve_y: b.reserve_y,
    bin_shares: 0n,
    bin_shares_known: b.shares,
    user_liquidity: engine.userShares(pool, USER, binId),
    has_ever_added_to_bin: hasEver(pool, binId),
    ...(simple ? { active_bin_offset: binId - pool.activeBinId } : {}),
  };
}

export function withdrawItem(
  engine: SimEngine,
  pool: SimPool,
  binId: number,
  pct: number,
): PreparedWithdrawItem {
  const b = engine.bin(pool, binId);
  const user = engine.userShares(pool, USER, binId);
  const amount = (user * BigInt(pct)) / 100n;
  return {
    bin_id: binId,
    user_liquidity: user,
    liquidity: b.shares,
    reserve_x: b.reserve_x,
    reserve_y: b.reserve_y,
    withdrawal_percentage: pct,
    amount,
    x_amount: (amount * b.reserve_x) / b.shares,
    y_amount: (amount * b.reserve_y) / b.shares,
    has_ever_added_to_bin: true,
  };
}

export function moveItem(
  engine: SimEngine,
  pool: SimPool,
  index: number,
  from: number,
  to: number,
  amount: bigint,
  simple = false,
): PreparedMoveItem {
  const f = engine.bin(pool, from);
  const t = engine.bin(pool, to);
  return {
    index,
    from_bin_id: from,
    to_bin_id: to,
    amount,
    x_amount: (amount * f.reserve_x) / f.shares,
    y_amount: (amount * f.reserve_y) / f.shares,
    bin_price: t.price,
    reserve_x: t.reserve_x,
    reserve_y: t.reserve_y,
    bin_shares: 0n,
    bin_shares_known: t.shares,
    is_active_bin: to === pool.activeBinId,
    has_ever_added_to_from_bin: true,
    has_ever_added_to_to_bin: hasEver(pool, to),
    ...(simple ? { active_bin_offset: to - pool.activeBinId } : {}),
  };
}

/** Expected minted shares of an add at today's state (the preview the dry-run must match). */
export function expectedMint(engine: SimEngine, pool: SimPool, binId: number, x: bigint, y: bigint): bigint {
  const r = addLiquidity(engine.bin(pool, binId), x, y, {
    binId,
    activeBinId: pool.activeBinId,
    fees: pool.fees,
  });
  if (!r.ok) throw new Error(r.detail);
  return r.value.minted;
}

export function plan(policy: Partial<Plan['policy']> = {}): Plan {
  return PlanSchema.parse({
    version: 1,
    sender: USER,
    policy: { slippage_tolerance: 1, ...policy },
    operations: [{ op: 'withdraw', pool: 'dlmm_1' }],
  });
}

export function analysisOf(
  engine: SimEngine,
  prepared: PreparedOperation[],
  p: Plan = plan(),
): ExportableAnalysis {
  return { plan: p, findings: [], prepared, live: { tokens: tokensOf(engine) } };
}

/** The engine's pools as a chain state read (copies): what a live export builds simple-mode bounds on. */
export function stateOf(engine: SimEngine): MemoryChainState {
  const names = new Map<string, string>();
  for (const t of engine.tokens()) if (t.asset_name) names.set(t.contract, t.asset_name);
  return new MemoryChainState(engine.pools().map(clonePool), names);
}
