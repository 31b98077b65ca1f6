/**
 * What each exported transaction spends of a Stacks block's execution budget (core/chain/costs.ts holds
 * the table): the one figure and the one verdict the check, the export, its summary, hover and the
 * dashboard use. A transaction above the block's limit is never mined (miners drop it and the sender's
 * later nonces stall behind it); the export writes nothing above the safe budget (SAFE_BLOCK_SHARE).
 *
 * A liquidity call costs by its list elements; the export splits by cost (`positionsPerTx`), so each
 * part stays within the safe budget. A simple swap (one pool, simple-multi) cannot be split: it costs by
 * the bins its walk may use at execution, which the slippage bound decides (`simpleSwapBins`). swap-multi
 * costs by its steps, as written.
 */
import type { ClarityValue } from '@stacks/transactions';
import {
  BLOCK_LIMIT,
  blockShare,
  callCost,
  FUNCTION_COSTS,
  maxUnitsWithin,
  SAFE_BLOCK_SHARE,
  type Cost,
  type CostUnit,
} from '../chain/costs';
import type { ChainPool } from '../chain/index';
import { minReceived } from '../dlmm/bounds';
import { MAX_SWAP_BINS, swapWalk } from '../dlmm/swap';
import { lastTrue } from '../dlmm/arith';

type RouterVersion = 'v-1-1' | 'v-1-2';

/** A transaction's cost figure: what it spends, over how many units, and its share of a block. */
export interface BlockCost {
  functionName: string;
  /** Units the figure counts: list elements, bins a simple swap may walk, swap-multi steps. */
  units: number;
  unit: CostUnit;
  cost: Cost;
  /** The largest dimension's share of the block's limit (1 = the whole block). */
  share: number;
  dimension: keyof Cost;
  /** A simple swap: bins its walk uses on the state read, and the further bins the slippage bound allows. */
  walk?: SwapBins;
  /**
   * A simple swap above the safe budget: the largest amount in whose walk stays within it on the same
   * state, with the same slippage (0n when not even the smallest does).
   */
  largestAmount?: bigint;
}

/** Whether a cost fits: within the safe budget, above it but within the block, or above the block. */
export type CostVerdict = 'fits' | 'over-safe' | 'over-limit';

/** The one verdict on a cost figure. */
export function costVerdict(c: Pick<BlockCost, 'share'>): CostVerdict {
  return c.share > 1 ? 'over-limit' : c.share > SAFE_BLOCK_SHARE ? 'over-safe' : 'fits';
}

/**
 * The cost figure of `units` units of `fn`; undefined for a function the table does not hold. `worst`: every
 * unit is counted at its costliest (a position into a bin with no shares, moving both tokens), which is what a
 * list call may meet when it runs: the bins it lands on are only known then (simple mode follows the active
 * bin, and other transactions may empty or fill a bin first).
 */
export function blockCostOf(
  fn: string,
  units: number,
  version: RouterVersion,
  worst = false,
): BlockCost | undefined {
  const f = FUNCTION_COSTS[fn];
  const cost = callCost(fn, units, version, worst ? { newBins: units, bothTokens: units } : {});
  if (!f || !cost) return undefined;
  const { share, dimension } = blockShare(cost);
  return { functionName: fn, units, unit: f.unit, cost, share, dimension };
}

/**
 * The cost figure of a call that takes a list first (liquidity calls, swap-multi): by its list elements,
 * each at its costliest (blockCostOf `worst`).
 * Undefined for a call whose first argument is no list (a simple swap: simpleSwapCost) or not in the table.
 */
export function listBlockCost(
  tx: { functionName: string; functionArgs: readonly ClarityValue[] },
  version: RouterVersion,
): BlockCost | undefined {
  const list = tx.functionArgs[0];
  if (list?.type !== 'list') return undefined;
  return blockCostOf(tx.functionName, list.value.length, version, true);
}

/**
 * The most list elements one call of `fn` may take: the router's list limit (or a smaller configured one)
 * and the most whose cost stays within the safe budget, whichever is smaller.
 */
export function positionsPerTx(fn: string, listLimit: number, version: RouterVersion): number {
  // At the costliest a position can be (listBlockCost): the split holds whatever bins the call meets.
  const byCost = maxUnitsWithin(fn, SAFE_BLOCK_SHARE, version, { newBins: true, bothTokens: true });
  return Math.max(1, Math.min(listLimit, byCost ?? listLimit));
}

const DIMENSION_WORDS: Record<keyof Cost, string> = {
  readCount: 'reads',
  readLength: 'bytes read',
  writeCount: 'writes',
  writeLength: 'bytes written',
  runtime: 'runtime units',
};

/** 15000 -> "15,000" (digits grouped by three, no locale). */
function grouped(n: number): string {
  return String(Math.ceil(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A share as a whole percent, rounded up (a transaction at 100.2% never reads "100%"). */
export function percentOfBlock(share: number): number {
  return Math.ceil(share * 100 - 1e-9);
}

/** "cost 62% of a block (9,310 of 15,000 reads)": every face words the figure this way. */
export function blockCostText(c: BlockCost): string {
  const d = c.dimension;
  return `cost ${percentOfBlock(c.share)}% of a block (${grouped(c.cost[d])} of ${grouped(BLOCK_LIMIT[d])} ${DIMENSION_WORDS[d]})`;
}

/** "9,310 reads" of the figure's largest dimension, and the safe budget in the same unit. */
export function safeBudgetText(c: BlockCost): string {
  const d = c.dimension;
  return `${Math.round(SAFE_BLOCK_SHARE * 100)}% of a block (${grouped(BLOCK_LIMIT[d] * SAFE_BLOCK_SHARE)} ${DIMENSION_WORDS[d]})`;
}

/** Bins a simple swap may walk: the ones it uses on the state read, and the further ones slippage allows. */
export interface SwapBins {
  used: number;
  /** Bins beyond `used` the walk may still cross and stay above min-received (0 when none). */
  extra: number;
}

/**
 * The bins a simple swap's walk may take at execution while it still succeeds, the unit of its cost.
 *
 * On the state read the walk from the active bin A uses `used` bins. At execution the walk may start k
 * bins further in its direction (earlier trades in the same direction moved the active bin) or cross k
 * bins that were emptied (withdrawn) before reaching the bins as read; in both cases it then takes the
 * bins from A + k on as read, so the output is the walk W_k from A + k, and the swap succeeds only while
 * that output is at least min-received. W_(k+1) takes the same bins as W_k less the first, so its output
 * never grows and k plus its bins never shrinks: the most bins a successful call may touch is k* plus the
 * bins of W_k*, where k* is the largest k whose output still reaches min-received (found by bisection),
 * capped at the router's 350-bin walk. Bins the read does not list are empty (the service lists only
 * bins with reserves).
 */
export function simpleSwapBins(
  pool: Pick<ChainPool, 'bins' | 'activeBinId' | 'fees'>,
  xForY: boolean,
  amountIn: bigint,
  minOut: bigint,
  used?: number,
): SwapBins {
  const getBin = (id: number) => pool.bins.get(id);
  const dir = xForY ? -1 : 1;
  const walkFrom = (k: number): { out: bigint; bins: number } | undefined => {
    try {
      const w = swapWalk(getBin, pool.activeBinId + dir * k, xForY, amountIn, pool.fees);
      return { out: w.amount_out, bins: w.steps.length };
    } catch {
      return undefined;
    }
  };
  const first = used ?? walkFrom(0)?.bins ?? 0;
  // The furthest start still inside the bin range, and beyond which the count is capped anyway.
  const edge = Math.min(MAX_SWAP_BINS, xForY ? pool.activeBinId + 500 : 500 - pool.activeBinId);
  const ok = (k: number) => {
    const w = walkFrom(k);
    return w !== undefined && w.out >= minOut;
  };
  let lo = 0;
  let hi = edge;
  if (!ok(0)) return { used: first, extra: 0 };
  if (ok(hi)) lo = hi;
  else
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ok(mid)) lo = mid;
      else hi = mid;
    }
  const worst = Math.min(MAX_SWAP_BINS, lo + (walkFrom(lo)?.bins ?? 0));
  return { used: first, extra: Math.max(0, worst - first) };
}

/** The cost figure of a simple swap of `amountIn` on `pool` with min-received `minOut`. */
export function simpleSwapCost(
  fn: string,
  pool: Pick<ChainPool, 'bins' | 'activeBinId' | 'fees'>,
  xForY: boolean,
  amountIn: bigint,
  minOut: bigint,
  version: RouterVersion,
  used?: number,
): BlockCost | undefined {
  const walk = simpleSwapBins(pool, xForY, amountIn, minOut, used);
  const c = blockCostOf(fn, walk.used + walk.extra, version);
  return c && { ...c, walk };
}

/**
 * The largest amount in (at most `amountIn`) whose simple swap stays within the safe budget on `pool`,
 * its min-received taken from the walk's output at the same slippage (`ppm`): a bisection over the amount
 * on the exact walk. 0n when not even one base unit does.
 */
export function largestSwapWithin(
  fn: string,
  pool: Pick<ChainPool, 'bins' | 'activeBinId' | 'fees'>,
  xForY: boolean,
  amountIn: bigint,
  ppm: bigint,
  version: RouterVersion,
): bigint {
  const maxBins = maxUnitsWithin(fn, SAFE_BLOCK_SHARE, version) ?? 0;
  if (maxBins === 0) return 0n;
  const fits = (a: bigint): boolean => {
    let out: bigint;
    let used: number;
    try {
      const w = swapWalk((id) => pool.bins.get(id), pool.activeBinId, xForY, a, pool.fees);
      out = w.amount_out;
      used = w.steps.length;
    } catch {
      return false;
    }
    if (used > maxBins) return false;
    const b = simpleSwapBins(pool, xForY, a, minReceived(out, ppm), used);
    return b.used + b.extra <= maxBins;
  };
  // No amount above what the first maxBins bins take fits: the bisection starts there.
  let hi = amountIn;
  try {
    const w = swapWalk((id) => pool.bins.get(id), pool.activeBinId, xForY, amountIn, pool.fees, maxBins);
    if (w.amount_in_used < hi) hi = w.amount_in_used;
  } catch {
    // the bisection below finds nothing that walks
  }
  if (fits(hi)) return hi;
  return lastTrue(0n, hi, fits);
}

/** Units of a cost figure in words: "261 positions", "230 bins (…)", "12 steps". */
function unitsText(c: BlockCost): string {
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (c.walk)
    return `${plural(c.units, 'bin')} its walk may take: ${c.walk.used} on the state read${c.walk.extra > 0 ? ` and ${c.walk.extra} more the slippage tolerance lets it cross` : ''}`;
  return plural(c.units, c.unit);
}

/** The figure with what it counts: "cost 62% of a block (9,310 of 15,000 reads) for 200 positions". */
export function blockCostDetail(c: BlockCost): string {
  return `${blockCostText(c)} for ${unitsText(c)}`;
}

/**
 * Why an operation was split, for the note on each part: the most positions one call takes within the
 * safe budget (when that is below the list limit), the list limit, and the post-condition budget.
 */
export function splitReason(
  fn: string,
  listLimit: number,
  maxPostConditions: number,
  version: RouterVersion,
): string {
  const perTx = positionsPerTx(fn, listLimit, version);
  const at = blockCostOf(fn, perTx, version, true);
  const byCost =
    perTx < listLimit && at
      ? `${Math.round(SAFE_BLOCK_SHARE * 100)}% of a block's execution budget (at most ${perTx} positions of ${fn} per transaction: ${blockCostText(at)}), `
      : '';
  return `split to stay within ${byCost}${listLimit} positions and ${maxPostConditions} post-conditions per transaction`;
}

/**
 * What is wrong with a transaction over budget and what to do, for the check's finding and the export's
 * refusal alike; undefined when it fits. `amount` words an amount of the swap's input token.
 */
export function costProblem(
  c: BlockCost,
  what: string,
  amount: (a: bigint) => string = String,
): string | undefined {
  const verdict = costVerdict(c);
  if (verdict === 'fits') return undefined;
  const why =
    verdict === 'over-limit'
      ? "above a block's limit: it would never be mined (miners drop it, and every later nonce of the sender waits behind it)"
      : `above the safe budget of ${safeBudgetText(c)}: a block is shared with other transactions and the state may change before it is mined`;
  let fix: string;
  if (c.walk)
    fix =
      c.largestAmount !== undefined && c.largestAmount > 0n
        ? `lower amount_in to at most ${amount(c.largestAmount)}, the largest whose walk stays within the safe budget on the state read at this slippage tolerance, and swap the rest in another operation (a lower slippage tolerance also shortens the walk)`
        : 'lower amount_in, or the slippage tolerance, and swap the rest in another operation';
  else if (c.unit === 'step')
    fix = 'lower amount_in so the route takes fewer bins, and swap the rest in another operation';
  else fix = 'split the operation into smaller operations';
  return `${what} would ${blockCostDetail(c)}, ${why}; ${fix}`;
}
