/**
 * The interface document's "Rules for preparing liquidity operations", exactly: add strict/simple,
 * withdraw (percentage, exact floor via ppm), move strict/simple, plus the swap with the engine's route.
 * Pure: takes the plan and the live data read by live.ts. Items a rule rejects outright (target bin not in
 * the pool's bins, from bin without user liquidity) are not prepared; the analyzer reports them.
 */
import { applyPpm, percentToPpm } from '../dlmm/percent';
import type {
  PoolSnapshot,
  PreparedAddItem,
  PreparedMoveItem,
  PreparedOperation,
  PreparedSwap,
  PreparedWithdrawItem,
} from './prepared';
import { itemTarget, type AddOp, type MoveOp, type Plan, type SwapOp, type WithdrawOp } from '../plan/schema';
import type { Bin } from '../api/types';
import { knownShares, type LiveData, type LivePool } from '../live/live';
import { expandDistribution, type DistributionResult } from './distribution';

/** Target bin of an add item: bin_id (strict) or active_bin_id + active_bin_offset (simple). */
export function addTarget(
  op: AddOp,
  item: AddOp['bins'][number],
  active: number | undefined,
): number | undefined {
  return itemTarget(op.mode, { bin_id: item.bin_id, active_bin_offset: item.active_bin_offset }, active);
}

/** To bin of a move item: to_bin_id (strict) or active_bin_id + active_bin_offset (simple). */
export function moveTarget(
  op: MoveOp,
  item: MoveOp['moves'][number],
  active: number | undefined,
): number | undefined {
  return itemTarget(
    op.mode,
    { to_bin_id: item.to_bin_id, active_bin_offset: item.active_bin_offset },
    active,
  );
}

/** floor(amount * reserve / liquidity); 0 when liquidity is unknown or 0 (the contract would reject). */
function shareOf(amount: bigint, reserve: bigint, liquidity: bigint | null): bigint {
  if (liquidity === null || liquidity <= 0n) return 0n;
  return (amount * reserve) / liquidity;
}

/**
 * Bin shares from the bin list: only the legacy (v1) list carries them. On v2 the list's `liquidity` is
 * always null by the interface document and never bin shares: a v2 server that sends one is not believed.
 */
function listShares(lp: LivePool, bin: Bin): bigint | undefined {
  return lp.generation === 'v1' ? (bin.liquidity ?? undefined) : undefined;
}

/** The pool snapshot a prepared op carries; undefined when the pool or its active bin is unknown. */
function snapshotOf(lp: LivePool | undefined, live: LiveData): PoolSnapshot | undefined {
  if (!lp?.pool || lp.activeBinId === undefined) return undefined;
  return {
    written_id: lp.written,
    pool_id: lp.principal ?? lp.pool.pool_id,
    pool: lp.pool,
    token_x: lp.tokenX,
    token_y: lp.tokenY,
    active_bin_id: lp.activeBinId,
    state_height: live.status?.state_height ?? null,
  };
}

/** Add: rule 1 (target in the pool bins), rule 3 (every listed field); placement is a rule's finding. */
function prepareAddItems(op: AddOp, lp: LivePool, active: number): PreparedAddItem[] {
  const out: PreparedAddItem[] = [];
  op.bins.forEach((item, index) => {
    const target = addTarget(op, item, active);
    if (target === undefined) return;
    const prepared = addItemAt(lp, active, target, item.x_amount, item.y_amount, index);
    if (!prepared) return;
    if (op.mode === 'simple' && item.active_bin_offset !== undefined)
      prepared.active_bin_offset = item.active_bin_offset;
    out.push(prepared);
  });
  return out;
}

/** The distribution's expanded bins as prepared items (after the explicit ones), when it expanded. */
function prepareDistributionItems(
  op: AddOp,
  lp: LivePool,
  active: number,
  expansion: DistributionResult | undefined,
): PreparedAddItem[] {
  if (!expansion?.ok) return [];
  const out: PreparedAddItem[] = [];
  expansion.bins.forEach((b, index) => {
    const prepared = addItemAt(lp, active, b.bin_id, b.x_amount, b.y_amount, index);
    if (!prepared) return;
    prepared.from_distribution = true;
    if (op.mode === 'simple') prepared.active_bin_offset = b.bin_id - active;
    out.push(prepared);
  });
  return out;
}

/** One add item on bin `target` (rule 1: the bin must be in the pool's list, else undefined). */
function addItemAt(
  lp: LivePool,
  active: number,
  target: number,
  x: bigint,
  y: bigint,
  index: number,
): PreparedAddItem | undefined {
  const bin = lp.binById.get(target);
  if (!bin) return undefined;
  const position = lp.positionById.get(target);
  const prepared: PreparedAddItem = {
    index,
    is_active_bin: target === active,
    bin_id: target,
    x_amount: x,
    y_amount: y,
    bin_price: bin.price,
    reserve_x: bin.reserve_x,
    reserve_y: bin.reserve_y,
    bin_shares: listShares(lp, bin) ?? 0n,
    user_liquidity: position?.user_liquidity ?? 0n,
    has_ever_added_to_bin: position !== undefined,
  };
  const known = knownShares(lp, target);
  if (known !== undefined) prepared.bin_shares_known = known;
  return prepared;
}

/** Withdraw: every user bin with user_liquidity > 0 (optionally filtered), shares = floor(ul * p / 100). */
function prepareWithdrawItems(op: WithdrawOp, lp: LivePool, active: number): PreparedWithdrawItem[] {
  const ppm = percentToPpm(op.withdrawal_percentage) ?? 0n;
  const filter = op.bins ? new Set(op.bins) : undefined;
  const out: PreparedWithdrawItem[] = [];
  for (const b of lp.positions ?? []) {
    if (b.user_liquidity <= 0n) continue;
    if (filter && !filter.has(b.bin_id)) continue;
    const amount = applyPpm(b.user_liquidity, ppm);
    const item: PreparedWithdrawItem = {
      bin_id: b.bin_id,
      user_liquidity: b.user_liquidity,
      liquidity: b.liquidity ?? 0n,
      reserve_x: b.reserve_x,
      reserve_y: b.reserve_y,
      withdrawal_percentage: op.withdrawal_percentage,
      amount,
      x_amount: shareOf(amount, b.reserve_x, b.liquidity),
      y_amount: shareOf(amount, b.reserve_y, b.liquidity),
      has_ever_added_to_bin: true,
    };
    if (op.mode === 'simple') item.active_bin_offset = b.bin_id - active;
    out.push(item);
  }
  return out.sort((a, b) => a.bin_id - b.bin_id);
}

/** Move: rules 1-2 select what can be prepared, rule 4 computes x/y, rule 6 lists the fields. */
function prepareMoveItems(op: MoveOp, lp: LivePool, active: number): PreparedMoveItem[] {
  const out: PreparedMoveItem[] = [];
  op.moves.forEach((item, index) => {
    const from = lp.positionById.get(item.from_bin_id);
    const to = moveTarget(op, item, active);
    if (!from || from.user_liquidity <= 0n || to === undefined) return;
    const toBin = lp.binById.get(to);
    if (!toBin) return;
    const prepared: PreparedMoveItem = {
      index,
      from_bin_id: item.from_bin_id,
      to_bin_id: to,
      amount: item.amount,
      x_amount: shareOf(item.amount, from.reserve_x, from.liquidity),
      y_amount: shareOf(item.amount, from.reserve_y, from.liquidity),
      bin_price: toBin.price,
      reserve_x: toBin.reserve_x,
      reserve_y: toBin.reserve_y,
      bin_shares: listShares(lp, toBin) ?? 0n,
      is_active_bin: to === active,
      has_ever_added_to_from_bin: true,
      has_ever_added_to_to_bin: lp.positionById.has(to),
    };
    const known = knownShares(lp, to);
    if (known !== undefined) prepared.bin_shares_known = known;
    if (op.mode === 'simple' && item.active_bin_offset !== undefined)
      prepared.active_bin_offset = item.active_bin_offset;
    out.push(prepared);
  });
  return out;
}

/** A swap as it would be requested, with the engine's best route when it was quoted. */
function prepareSwap(op: SwapOp, plan: Plan, live: LiveData | undefined, index: number): PreparedSwap {
  const swap: PreparedSwap = {
    input_token: op.input_token,
    output_token: op.output_token,
    amount_in: op.amount_in,
    amm_strategy: op.amm_strategy,
    slippage_tolerance: op.slippage_tolerance ?? plan.policy.slippage_tolerance,
  };
  if (op.provider !== undefined) swap.provider = op.provider;
  if (op.aggregator === true) swap.aggregator = true;
  const quoted = live?.swaps.get(index);
  if (quoted?.route) swap.route = quoted.route;
  if (quoted?.check) swap.check = quoted.check;
  return swap;
}

/** Prepared items of every operation that has the data it needs (swaps always; liquidity ops with live pools). */
export function prepareOperations(
  plan: Plan,
  live: LiveData | undefined,
  idOf: (index: number) => string,
): PreparedOperation[] {
  const out: PreparedOperation[] = [];
  plan.operations.forEach((op, index) => {
    const id = idOf(index);
    if (op.op === 'swap') {
      out.push({ id, index, op: 'swap', swap: prepareSwap(op, plan, live, index) });
      return;
    }
    if (!live) return;
    const lp = live.byPool.get(op.pool);
    const pool = snapshotOf(lp, live);
    if (!lp || !pool) return;
    const active = pool.active_bin_id;
    // An operation is prepared only from data that was read: no bin list (or no positions) -> not prepared,
    // so it can never be exported with items silently missing.
    if (op.op === 'add') {
      if (!lp.bins) return;
      const items = prepareAddItems(op, lp, active);
      const expansion = expandDistribution(op, lp, active);
      items.push(...prepareDistributionItems(op, lp, active, expansion));
      const prepared: PreparedOperation = { id, index, op: 'add', mode: op.mode, pool, items };
      if (expansion) prepared.distribution = expansion;
      out.push(prepared);
    } else if (op.op === 'withdraw') {
      if (!lp.positions) return;
      out.push({
        id,
        index,
        op: 'withdraw',
        mode: op.mode,
        pool,
        items: prepareWithdrawItems(op, lp, active),
      });
    } else {
      if (!lp.positions || !lp.bins) return;
      out.push({ id, index, op: 'move', mode: op.mode, pool, items: prepareMoveItems(op, lp, active) });
    }
  });
  return out;
}
