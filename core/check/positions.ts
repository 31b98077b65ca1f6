/**
 * The sender's positions, valued on the chain model (docs/positions.md): per bin, exactly what withdrawing
 * all of that bin's shares returns at the state read; the totals, their value in Y at the active bin's price
 * (floor(x × price / 10^8) + y: the contracts' liquidity value over the price scale), whether the active bin
 * is within the position's lowest..highest bin and, out of range, how far. The what-if moves the active bin
 * k bins with the drift machinery's smallest trade (drift.ts, on a copy of the state read) and values the
 * same shares again: the fees that trade paid into the position's bins stay there, as the contracts keep
 * them; beside it, holding today's totals at the new active price. One computation for every face (`dlmm
 * positions` and the editor's positions status bar, client/src/positionsStatusBar.ts).
 *
 * Honest: a position whose pool, bins, shares or inventory could not be read or believed is `unknown` with
 * the reason and carries no figure; app v2 position bins (display data) are valued but say they may lag.
 */
import { DEFAULT_MAX_TIP_LAG } from './freshness';
import type { Token } from '../api/types';
import { binOf, UnknownState, type ChainPool } from '../chain/index';
import { formatRatio, PRICE_SCALE } from '../dlmm/bins';
import { liquidityValue, withdrawLiquidity } from '../dlmm/math';
import { chainStateFromLive, binsReadOf } from '../live/chainState';
import { shiftActiveBin } from './drift';
import { knownShares, type LiveData, type LivePool, type PositionsSource } from '../live/live';
import { laggingInventory } from './rules/inventory-unavailable';

/** What withdrawing all of one bin's shares returns. */
interface PositionBin {
  bin_id: number;
  shares: bigint;
  x_amount: bigint;
  y_amount: bigint;
}

/** One shift of the what-if. */
interface WhatIfPoint {
  shift: number;
  /** The active bin after the shift (the one before it when not reached). */
  active_bin_id: number;
  /** False when no trade moves the active bin k bins, or the position could not be valued after it. */
  reached: boolean;
  /** The position's withdraw value in Y at the new active price (set when reached). */
  value_in_y?: bigint;
  /** Today's x_total/y_total held, valued at the new active price (set when reached). */
  hold_value_in_y?: bigint;
  /** The trade that moved the active bin, or why the shift was not made. */
  detail: string;
}

/** The sender's position in one pool. */
export interface PositionView {
  /** The pool as asked (or as listed), and its principal when known. */
  pool: string;
  principal?: string;
  alias?: string;
  tokenX?: Token;
  tokenY?: Token;
  /** Where the shares came from. */
  source?: PositionsSource;
  /** Set when the source is display data that may lag the chain (app v2 position bins). */
  mayLag?: string;
  /** Why the position could not be valued; when set, no figure below is given. */
  unknown?: string;
  active_bin_id?: number;
  in_range?: boolean;
  /** Bins between the active bin and the position's nearest end when out of range (> 0). */
  distance?: number;
  /** 'above' when the active bin is above the highest bin, 'below' when under the lowest. */
  side?: 'above' | 'below';
  bins: PositionBin[];
  x_total?: bigint;
  y_total?: bigint;
  value_in_y?: bigint;
  what_if?: WhatIfPoint[];
}

export interface PositionsReport {
  sender: string;
  /** Pools where the sender holds shares, and pools whose positions are unknown. */
  positions: PositionView[];
  /** Pools read where the sender holds no shares. */
  withoutShares: string[];
}

export interface PositionsOptions {
  /** The tip-pinned source's tip lag beyond which its book is not believed (policy.max_tip_lag; default DEFAULT_MAX_TIP_LAG). */
  maxTipLag?: number;
  /** The what-if shifts from..to (inclusive), in bins. */
  whatIf?: { from: number; to: number };
}

/** A what-if range is at most this many shifts (each one finds and executes a trade). */
export const MAX_WHAT_IF_SHIFTS = 201;

/** Values the sender's positions in every pool `live` read (readPositionsLive). */
export function positionsOf(live: LiveData, sender: string, opts: PositionsOptions = {}): PositionsReport {
  const report: PositionsReport = { sender, positions: [], withoutShares: [] };
  for (const [ref, lp] of live.byPool) {
    const view = positionOf(ref, lp, live, sender, opts);
    if (view === undefined) report.withoutShares.push(lp.principal ?? ref);
    else report.positions.push(view);
  }
  return report;
}

/** floor(x × price / 10^8) + y: the contracts' liquidity value over the price scale (value in Y). */
function valueInY(x: bigint, y: bigint, price: bigint): bigint {
  return liquidityValue(x, y, price) / PRICE_SCALE;
}

/** The position in one pool; undefined when the sender holds no shares there (and it was read). */
function positionOf(
  ref: string,
  lp: LivePool,
  live: LiveData,
  sender: string,
  opts: PositionsOptions,
): PositionView | undefined {
  const view: PositionView = { pool: lp.principal ?? ref, bins: [] };
  if (lp.principal !== undefined) view.principal = lp.principal;
  if (lp.alias !== undefined) view.alias = lp.alias;
  if (lp.tokenX) view.tokenX = lp.tokenX;
  if (lp.tokenY) view.tokenY = lp.tokenY;
  if (lp.positionsSource !== undefined) view.source = lp.positionsSource;
  const unknown = (why: string): PositionView => ({ ...view, unknown: why });

  const readError = lp.poolError ?? lp.binsError;
  if (readError) return unknown(`the pool could not be read (${readError.message})`);
  if (!lp.pool || lp.principal === undefined)
    return unknown(`the pool '${ref}' was not found in the pools read`);
  if (lp.activeBinId === undefined) return unknown('the pool read gives no active bin');
  if (!lp.bins) return unknown("the pool's bins were not read");
  // A tip-pinned source that failed is never an empty book, and display data is not read in its place.
  if (lp.inventoryError && lp.inventoryError.code !== 'pool-not-found')
    return unknown(`the owned-bin inventory could not be read or believed (${lp.inventoryError.message})`);
  if (lp.positionsError)
    return unknown(`the sender's positions could not be read (${lp.positionsError.message})`);
  if (!lp.positions) return unknown("the sender's positions were not read");
  const pinned = lp.positionsSource === 'inventory' || lp.positionsSource === 'current-bins';
  const lag = pinned
    ? laggingInventory(lp.inventoryTipLag, opts.maxTipLag ?? DEFAULT_MAX_TIP_LAG)
    : undefined;
  if (lag !== undefined)
    return unknown(
      `${lp.positionsSource === 'current-bins' ? 'app v2 current-bins' : 'the inventory'} answered with ${lag}; its book is not believed — retry when it has caught up`,
    );
  if (lp.positionsSource === 'app')
    view.mayLag =
      'read from app v2 position bins, display data that may lag the chain (no tip-pinned inventory answered for this pool)';

  const held = lp.positions.filter((r) => r.user_liquidity > 0n).sort((a, b) => a.bin_id - b.bin_id);
  if (held.length === 0) return undefined;

  // Believable: every bin is listed, its total shares known and not below the sender's, and a tip-pinned
  // book's reserves are those of the bin list the chain model is built on (one state, not two).
  for (const r of held) {
    const listed = lp.binById.get(r.bin_id);
    if (!listed) return unknown(`bin ${r.bin_id} of the position is not in the pool's bin list`);
    const total = knownShares(lp, r.bin_id);
    if (total === undefined)
      return unknown(
        `the total shares of bin ${r.bin_id} were not read (no trusted source stated them and no node read answered)`,
      );
    if (r.user_liquidity > total)
      return unknown(
        `bin ${r.bin_id}: the sender's ${r.user_liquidity} shares exceed the bin's ${total} shares; the book is not believed`,
      );
    if (pinned && (r.reserve_x !== listed.reserve_x || r.reserve_y !== listed.reserve_y))
      return unknown(
        `bin ${r.bin_id}: the inventory's reserves (${r.reserve_x} x, ${r.reserve_y} y) are not the bin list's (${listed.reserve_x} x, ${listed.reserve_y} y): the two reads are of different states; retry`,
      );
  }

  const state = chainStateFromLive(live, sender);
  const pool = state.pool(lp.principal);
  if (!pool) return unknown("the pool's chain state could not be built from the reads");
  const valued = valueShares(pool, held);
  if (!valued.ok) return unknown(valued.error);
  view.bins = valued.bins;
  view.x_total = valued.x;
  view.y_total = valued.y;
  view.active_bin_id = pool.activeBinId;
  const price = priceOf(pool, pool.activeBinId);
  if (price === undefined)
    return unknown(`the active bin ${pool.activeBinId} is not in the bin list, so its price is unknown`);
  view.value_in_y = valueInY(valued.x, valued.y, price);
  const lo = held[0]?.bin_id as number;
  const hi = held[held.length - 1]?.bin_id as number;
  view.in_range = lo <= pool.activeBinId && pool.activeBinId <= hi;
  if (pool.activeBinId < lo) {
    view.distance = lo - pool.activeBinId;
    view.side = 'below';
  } else if (pool.activeBinId > hi) {
    view.distance = pool.activeBinId - hi;
    view.side = 'above';
  }
  if (opts.whatIf) view.what_if = whatIf(live, sender, lp.principal, held, valued.x, valued.y, opts.whatIf);
  return view;
}

type Held = ReadonlyArray<{ bin_id: number; user_liquidity: bigint }>;
type Valued = { ok: true; bins: PositionBin[]; x: bigint; y: bigint } | { ok: false; error: string };

/**
 * What withdrawing all of each bin's shares returns on `pool` (core withdraw-liquidity's floors). A bin whose
 * shares are worth nothing (the contract refuses the withdraw) returns 0 and 0.
 */
function valueShares(pool: ChainPool, held: Held): Valued {
  const bins: PositionBin[] = [];
  let x = 0n;
  let y = 0n;
  for (const r of held) {
    if (pool.unknownShares?.has(r.bin_id))
      return { ok: false, error: `the total shares of bin ${r.bin_id} are unknown` };
    let out: { x: bigint; y: bigint };
    try {
      const w = withdrawLiquidity(binOf(pool, r.bin_id), r.user_liquidity);
      if (w.ok) out = { x: w.value.x, y: w.value.y };
      else if (w.error === 'ERR_INVALID_AMOUNT') out = { x: 0n, y: 0n };
      else
        return {
          ok: false,
          error: `bin ${r.bin_id}: withdrawing its shares fails (${w.error}: ${w.detail})`,
        };
    } catch (e) {
      if (e instanceof UnknownState) return { ok: false, error: e.detail };
      throw e;
    }
    bins.push({ bin_id: r.bin_id, shares: r.user_liquidity, x_amount: out.x, y_amount: out.y });
    x += out.x;
    y += out.y;
  }
  return { ok: true, bins, x, y };
}

function priceOf(pool: ChainPool, binId: number): bigint | undefined {
  try {
    return binOf(pool, binId).price;
  } catch (e) {
    if (e instanceof UnknownState || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Each shift on its own copy of the state read: the smallest trade, then the same shares valued again. */
function whatIf(
  live: LiveData,
  sender: string,
  principal: string,
  held: Held,
  xTotal: bigint,
  yTotal: bigint,
  range: { from: number; to: number },
): WhatIfPoint[] {
  const out: WhatIfPoint[] = [];
  const read = binsReadOf(live, principal);
  for (let k = range.from; k <= range.to; k++) {
    const state = chainStateFromLive(live, sender);
    const shift = shiftActiveBin(state, principal, k, read);
    const pool = state.pool(principal);
    const point: WhatIfPoint = { shift: k, active_bin_id: shift.to, reached: false, detail: shift.detail };
    out.push(point);
    if (!shift.reached || !pool) continue;
    const valued = valueShares(pool, held);
    const price = priceOf(pool, pool.activeBinId);
    if (!valued.ok || price === undefined) {
      point.detail = `${shift.detail}; the position could not be valued after it (${valued.ok ? `the price of bin ${pool.activeBinId} is unknown` : valued.error})`;
      continue;
    }
    point.reached = true;
    point.value_in_y = valueInY(valued.x, valued.y, price);
    point.hold_value_in_y = valueInY(xTotal, yTotal, price);
  }
  return out;
}

/**
 * (value - hold) / hold in percent, exact to 4 decimals toward zero ("-1.2345"); undefined when the hold
 * value is 0.
 */
export function ilPercent(value: bigint, hold: bigint): string | undefined {
  if (hold === 0n) return undefined;
  const text = formatRatio((value - hold) * 100n, hold, 4);
  // A gain carries its sign as a loss does: "+0.0634", never a bare figure that reads as a loss.
  if (text === '0' || text === '-0') return '0';
  return value > hold ? `+${text}` : text;
}

/** "2 positions · 1 out of range" (the status bar's words), with the unknown ones said. */
export function positionsSummary(report: PositionsReport): string {
  const known = report.positions.filter((p) => p.unknown === undefined);
  const unknown = report.positions.length - known.length;
  const out = known.filter((p) => p.in_range === false).length;
  const parts = [`${known.length} position${known.length === 1 ? '' : 's'}`];
  if (out > 0) parts.push(`${out} out of range`);
  if (unknown > 0) parts.push(`${unknown} unknown`);
  return parts.join(' · ');
}
