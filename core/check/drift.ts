/**
 * The drift what-if, by execution: "after the active bin of a pool moves k bins before the plan runs, which
 * of the plan's transactions revert, with which error". One code path with `check`'s execution
 * (execute.ts): the transactions are the ones the export builds on the state read (their bounds, bin ids and
 * post-conditions fixed), executed in order with the chain model on a copy of that state in which the
 * pool's active bin was first moved by a trade.
 *
 * The shift model: the smallest swap on the chain model that moves the active bin exactly k bins (k > 0: a
 * buy of X with Y walks up; k < 0: a sale of X walks down; to end on an empty bin, a swap-multi whose steps
 * stop there). The bins it crosses are left as that trade
 * leaves them (their output token taken, the input token and fees added); empty bins are crossed as the
 * contract crosses them (a step that takes nothing). No trade is invented beyond -500..500: a shift past the
 * edge is reported as not reachable. The strict-drift-risk rule and the dashboard's what-if both read this.
 */
import { lastTrue } from '../dlmm/arith';
import type { ClarityValue } from '@stacks/transactions';
import {
  executeCall,
  quotePool,
  swapInPool,
  type ChainPool,
  type ExecResult,
  type MemoryChainState,
} from '../chain/index';
import { MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import { chainCallOf } from '../tx/context';
import type { RouterConfig } from '../chain/deployments';
import type { BuiltTransaction } from '../tx/types';

/** How the active bin was moved. */
export interface DriftShift {
  pool: string;
  k: number;
  from: number;
  /** The active bin after the shift (from + k when reached). */
  to: number;
  /** False when no trade can move the active bin k bins (it would leave -500..500). */
  reached: boolean;
  /** The trade that moved it: direction and the input it used (0 for k = 0). */
  xForY: boolean;
  amountIn: bigint;
  amountOut: bigint;
  detail: string;
}

export interface DriftRun {
  shift: DriftShift;
  /** Per transaction (aligned with the input), its execution on the shifted state after the ones before it. */
  results: ExecResult[];
}

/** What a what-if needs: the state read (a fresh copy per run), the built transactions and the routers. */
export interface DriftInput {
  /** A fresh copy of the state the plan was checked on (chainStateFromLive). */
  state: () => MemoryChainState;
  transactions: readonly BuiltTransaction[];
  sender: string;
  routers: RouterConfig;
  now?: () => number;
  /**
   * The read a pool's bins in `state()` are built from (the same object: the same bins), so that the trade
   * moving its active bin is found once per read, and once for reads of the same bins (chainState.ts
   * binsReadOf).
   */
  binsRead?: (poolId: string) => object | undefined;
}

/** A shift trade found (null: none moves the active bin k bins). */
type ShiftTrade = { amount: bigint; calls: number | undefined } | null;

/**
 * Shift trades already found, per bin list read (the object itself: one read at one moment), by pool, active
 * bin, fees and k. Every open plan on the same pool analysed in the same live session asks for the same
 * trades on the same read, and the bisection behind one costs some hundred walks. A trade depends only on
 * what the walk reads (bins' prices and reserves, the active bin, the fees), so it is never reused across
 * reads that differ; the entries go with the read they belong to.
 */
const shiftTrades = new WeakMap<object, Map<string, ShiftTrade>>();

/**
 * The same trades by the content of the pool they were found on (every bin's price, reserves and shares, in
 * the order the state holds them): a later live session at the same state height reads the same bins into a
 * new object (the client's cache hands out copies), and a keystroke analysed in it would otherwise bisect
 * every trade again. Exact: two reads with the same content give the walk the same bins. A few pools' worth
 * are kept (the oldest dropped first); a read's own entry (shiftTrades) stays the fast path.
 */
const tradesByContent = new Map<string, Map<string, ShiftTrade>>();
const MAX_CONTENTS_KEPT = 16;

/** The content of `pool`'s bins as the walk reads them (see tradesByContent). */
function binsContent(pool: ChainPool): string {
  const parts: string[] = [pool.id];
  for (const [id, b] of pool.bins) parts.push(`${id}:${b.price}:${b.reserve_x}:${b.reserve_y}:${b.shares}`);
  return parts.join('|');
}

/** The trades found on `read` (pool as built from it): its own map, else the one of a read of the same content. */
function tradesOf(read: object, pool: ChainPool): Map<string, ShiftTrade> {
  let byKey = shiftTrades.get(read);
  if (byKey) return byKey;
  const content = binsContent(pool);
  byKey = tradesByContent.get(content);
  if (byKey) tradesByContent.delete(content);
  else {
    byKey = new Map();
    if (tradesByContent.size >= MAX_CONTENTS_KEPT)
      tradesByContent.delete(tradesByContent.keys().next().value as string);
  }
  // Most recently used last: the oldest content is the one dropped.
  tradesByContent.set(content, byKey);
  shiftTrades.set(read, byKey);
  return byKey;
}

/** shiftTrade, found once per (bin list content, pool, active bin, fees, k) when the read is known. */
function sharedShiftTrade(pool: ChainPool, k: number, read: object | undefined): ShiftTrade {
  if (read === undefined) return shiftTrade(pool, k) ?? null;
  const byKey = tradesOf(read, pool);
  const f = pool.fees;
  const key = `${pool.id}|${pool.activeBinId}|${k}|${f.x_protocol},${f.x_provider},${f.x_variable},${f.y_protocol},${f.y_provider},${f.y_variable}`;
  const hit = byKey.get(key);
  if (hit !== undefined) return hit;
  const found = shiftTrade(pool, k) ?? null;
  byKey.set(key, found);
  return found;
}

/**
 * The smallest-input swap whose walk ends exactly k bins from the active bin: first as the simple-multi
 * swaps walk (until the input is spent); when every such input overshoots (the target is an empty bin, or a
 * gap, which a walk with input left crosses), as a swap-multi with a bounded number of steps.
 */
function shiftTrade(pool: ChainPool, k: number): { amount: bigint; calls: number | undefined } | undefined {
  const xForY = k < 0;
  const target = pool.activeBinId + k;
  const end = (amount: bigint, calls?: number) => quotePool(pool, xForY, amount, calls).active_bin_after;
  const smallest = (calls?: number): bigint | undefined => {
    const reaches = (amount: bigint) => (xForY ? end(amount, calls) <= target : end(amount, calls) >= target);
    // Grow an upper bound, then bisect: the walk's end is monotone in the input.
    let hi = 1n;
    while (!reaches(hi)) {
      if (hi >= 1n << 128n) return undefined;
      hi *= 2n;
    }
    // The first amount that reaches it: one past the last that does not.
    return lastTrue(0n, hi, (n) => !reaches(n)) + 1n;
  };
  const walk = smallest();
  if (walk !== undefined && end(walk) === target) return { amount: walk, calls: undefined };
  const n = Math.abs(k);
  for (let calls = n; calls <= 3 * n + 2; calls++) {
    const a = smallest(calls);
    if (a !== undefined && end(a, calls) === target) return { amount: a, calls };
  }
  return undefined;
}

/**
 * Moves `poolId`'s active bin by `k` on `state` with a trade on the chain model (state is changed). `read`:
 * the object the pool's bins were built from, when `state` is exactly as built from it (not yet changed):
 * the trade is then found once for every caller on that read.
 */
export function shiftActiveBin(
  state: MemoryChainState,
  poolId: string,
  k: number,
  read?: object,
): DriftShift {
  const pool = state.pool(poolId);
  const from = pool?.activeBinId ?? 0;
  const base = { pool: poolId, k, from, xForY: k < 0, amountIn: 0n, amountOut: 0n };
  if (!pool) return { ...base, to: from, reached: false, detail: `pool ${poolId} was not read` };
  if (k === 0) return { ...base, to: from, reached: true, detail: 'no shift' };
  const target = from + k;
  if (target < MIN_BIN_ID || target > MAX_BIN_ID)
    return {
      ...base,
      to: from,
      reached: false,
      detail: `the active bin ${from} cannot move to ${target}, outside ${MIN_BIN_ID}..${MAX_BIN_ID}`,
    };
  const trade = sharedShiftTrade(pool, k, read);
  const r = trade === null ? undefined : swapInPool(pool, k < 0, trade.amount, 0n, trade.calls);
  if (!r?.ok)
    return {
      ...base,
      to: from,
      reached: false,
      detail: `no swap moves the active bin of ${poolId} from ${from} to ${target}${r && !r.ok ? ` (${r.error}: ${r.detail})` : ''}`,
    };
  const used = r.value.amount_in_used;
  const what = k > 0 ? `a buy of X paying ${used} Y` : `a sale of ${used} X`;
  return {
    ...base,
    to: pool.activeBinId,
    reached: pool.activeBinId === target,
    amountIn: used,
    amountOut: r.value.amount_out,
    detail: `${what}${trade?.calls !== undefined ? ` in ${trade.calls} swap steps` : ''} (the smallest trade that moves it) takes the active bin from ${from} to ${pool.activeBinId}`,
  };
}

/** Pool principals a transaction's arguments name (the pools it runs on). */
function poolsNamed(args: readonly ClarityValue[], state: MemoryChainState): Set<string> {
  const out = new Set<string>();
  const walk = (v: ClarityValue): void => {
    switch (v.type) {
      case 'contract':
        if (state.pool(v.value)) out.add(v.value);
        return;
      case 'list':
        v.value.forEach(walk);
        return;
      case 'tuple':
        Object.values(v.value).forEach(walk);
        return;
      case 'some':
        walk(v.value);
        return;
      default:
        return;
    }
  };
  args.forEach(walk);
  return out;
}

/**
 * Executes the transactions in order on a copy of the state read after moving `poolId`'s active bin by `k`.
 * A transaction that cannot be executed (state not read) makes later ones on its pools unknown too, as in
 * the check's own execution. `count`: only the first `count` transactions are executed (a caller that reads
 * no result past them; the results then hold only theirs).
 */
export function executeAfterShift(input: DriftInput, poolId: string, k: number, count?: number): DriftRun {
  const txs =
    count === undefined || count >= input.transactions.length
      ? input.transactions
      : input.transactions.slice(0, Math.max(0, count));
  const state = input.state();
  const shift = shiftActiveBin(state, poolId, k, input.binsRead?.(poolId));
  if (!shift.reached) return { shift, results: txs.map(() => ({ status: 'unknown', detail: shift.detail })) };
  const unknown = new Map<string, string>();
  const results = txs.map((tx): ExecResult => {
    const pools = poolsNamed(tx.functionArgs, state);
    const blocked = [...pools].map((p) => unknown.get(p)).find((d) => d !== undefined);
    if (blocked !== undefined) return { status: 'unknown', detail: blocked };
    const r = executeCall(state, chainCallOf(tx, input.sender), {
      routers: input.routers,
      ...(input.now ? { now: input.now } : {}),
    });
    if (r.status === 'unknown')
      for (const p of pools)
        unknown.set(
          p,
          `it runs on ${p} after operation '${tx.opId}', which could not be executed (${r.detail})`,
        );
    return r;
  });
  return { shift, results };
}
