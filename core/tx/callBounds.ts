/**
 * Protective bounds written into router calls, computed with the exact core math (core/dlmm/math.ts) on the
 * prepared items at the plan's slippage. Decisions (also shown in the summary as each bound's basis):
 * - strict add/move: min-dlp = expected minted shares less slippage (never below 1); max fee = the
 *   expected active-bin liquidity fee plus slippage (0 off the active bin, so a shift that makes the bin
 *   active reverts, as strict mode promises).
 * - simple add/move: the target bin is chosen at execution (active bin + offset, the active bin anywhere
 *   in the window expected ± policy.active_bin_tolerance): min-dlp = the fewest shares the position mints
 *   over the window (windowBounds.ts, executed on the state read) less slippage; the fee caps = the largest
 *   liquidity fee over the window plus slippage (0 for an offset other than 0: it never lands on the active
 *   bin). Without the state read, or with a window bin whose price or shares were not read, min-dlp is 1.
 * - unknown bin shares (v2 list liquidity is null and no node read): min-dlp 1, reported as
 *   `min-dlp-unprotected` (so is every simple-mode min-dlp of 1, whatever the reason: `weak`).
 * - withdraw: min x/y = expected less slippage per bin; when both floor to 0 while something is expected,
 *   the larger side's minimum is 1 (the contract requires min-x + min-y > 0).
 * - swap: min received = quoted output less slippage.
 */
import { FEE_SCALE } from '../dlmm/bins';
import {
  addLiquidity,
  maxLiquidityFee,
  minDlp,
  minReceived,
  type AddOutcome,
  type BinBalances,
  type LiquidityResult,
  type PoolFees,
} from '../dlmm/math';
import type { ChainPool } from '../chain/index';
import { sharesToAmounts } from '../dlmm/math';
import { chainStateFromLive } from '../live/chainState';
import type { LiveData } from '../live/live';
import type { PreparedOperation } from '../prepare/prepared';
import { poolFees } from '../quote/exact';
import {
  activeWindow,
  windowOutcomes,
  type ActiveWindow,
  type WindowItem,
  type WindowOutcome,
} from './windowBounds';

/** Bounds of one add (or the add half of a move). */
export interface AddBounds {
  /** Expected minted shares, when the bin's shares were known. */
  expectedDlp: bigint | undefined;
  expectedFeeX: bigint;
  expectedFeeY: bigint;
  minDlp: bigint;
  maxFeeX: bigint;
  maxFeeY: bigint;
  /** False when min-dlp fell back to 1 because shares were unknown (min-dlp-unprotected). */
  protectedDlp: boolean;
  basisDlp: string;
  basisFee: string;
  /** Set when the math says the add would revert at today's state (a bound cannot help). */
  revert?: string;
  /** Why min-dlp is 1 (no protection from it), when it is. */
  weak?: string;
  /** The window bin whose price or shares were not read, when that made min-dlp 1 (simple mode). */
  unknownBin?: number;
}

const pct = (ppm: bigint): string => `${Number(ppm) / 10_000}%`;

/** The contract's own ceiling on a liquidity fee: amount * total fee / 10000 (fee <= (amount - w) * f). */
function feeCeiling(amount: bigint, totalFeeBps: bigint): bigint {
  return (amount * totalFeeBps) / FEE_SCALE;
}

export interface AddBoundsArgs {
  bin: Omit<BinBalances, 'shares'> & { shares: bigint | undefined };
  x: bigint;
  y: bigint;
  binId: number;
  activeBinId: number;
  fees: PoolFees;
  slippagePpm: bigint;
  mode: 'strict' | 'simple';
  /**
   * The core's minimums a first deposit meets (the chain pool's `minimumShares`): absent, the launch values;
   * unread, a first deposit's outcome is not computable.
   */
  minimums?: ChainPool['minimumShares'];
}

/** Bounds for adding (x, y) to `bin` (shares undefined = unknown) in a pool with `fees`. */
export function addBounds(args: AddBoundsArgs): AddBounds {
  return addBoundsAndOutcome(args).bounds;
}

/**
 * `addBounds` and the unbounded add it computed them from (undefined when the bin's shares are unknown):
 * the exporter's sequential bounds apply that outcome to their scratch state instead of computing it again.
 */
export function addBoundsAndOutcome(args: AddBoundsArgs): {
  bounds: AddBounds;
  outcome: LiquidityResult<AddOutcome> | undefined;
} {
  const minimums = args.minimums;
  const firstDepositUnread = args.bin.shares === 0n && minimums !== undefined && 'unread' in minimums;
  const outcome =
    args.bin.shares === undefined || firstDepositUnread
      ? undefined
      : addLiquidity(
          {
            price: args.bin.price,
            reserve_x: args.bin.reserve_x,
            reserve_y: args.bin.reserve_y,
            shares: args.bin.shares,
          },
          args.x,
          args.y,
          {
            binId: args.binId,
            activeBinId: args.activeBinId,
            fees: args.fees,
            ...(minimums !== undefined && !('unread' in minimums) ? { minimums } : {}),
          },
        );
  return { bounds: boundsOf(args, outcome), outcome };
}

function boundsOf(args: AddBoundsArgs, outcome: LiquidityResult<AddOutcome> | undefined): AddBounds {
  // Literal objects, no spreads: this runs per item (350 per operation) and spread-built objects are slow.
  const { bin, x, y, fees, slippagePpm } = args;
  const fx = fees.x_protocol + fees.x_provider + fees.x_variable;
  const fy = fees.y_protocol + fees.y_provider + fees.y_variable;
  const ceilingX = feeCeiling(x, fx);
  const ceilingY = feeCeiling(y, fy);
  const expected = outcome?.ok ? outcome.value : undefined;
  const expectedDlp = expected?.minted;
  const expectedFeeX = expected?.fee_x ?? 0n;
  const expectedFeeY = expected?.fee_y ?? 0n;
  const revert = outcome && !outcome.ok ? `${outcome.error}: ${outcome.detail}` : undefined;
  if (args.mode === 'simple') {
    // The window's bounds need the state read (windowAddBounds); without it nothing bounds the shares.
    const why = 'relative placement without the state read: the bins of the active-bin window are unknown';
    return {
      expectedDlp,
      expectedFeeX,
      expectedFeeY,
      revert,
      minDlp: 1n,
      maxFeeX: ceilingX,
      maxFeeY: ceilingY,
      protectedDlp: false,
      weak: why,
      basisDlp: `${why}: min-dlp falls back to 1`,
      basisFee: `fee ceiling of the pool: amount x ${fx}/${fy} bps`,
    };
  }
  if (!expected) {
    const why =
      bin.shares === undefined
        ? 'bin shares unknown (list liquidity is null, no node read)'
        : `the add reverts today (${revert})`;
    return {
      expectedDlp,
      expectedFeeX,
      expectedFeeY,
      revert,
      minDlp: 1n,
      maxFeeX: args.binId === args.activeBinId ? ceilingX : 0n,
      maxFeeY: args.binId === args.activeBinId ? ceilingY : 0n,
      protectedDlp: false,
      weak: why,
      basisDlp: `${why}: min-dlp falls back to 1`,
      basisFee:
        args.binId === args.activeBinId
          ? 'active bin, fee unknown: the pool fee ceiling'
          : 'not the active bin: no liquidity fee accepted',
    };
  }
  const active = args.binId === args.activeBinId;
  const out: AddBounds = {
    expectedDlp,
    expectedFeeX,
    expectedFeeY,
    revert,
    minDlp: minDlp(expected.minted, slippagePpm),
    maxFeeX: active ? min(maxLiquidityFee(expected.fee_x, slippagePpm), ceilingX) : 0n,
    maxFeeY: active ? min(maxLiquidityFee(expected.fee_y, slippagePpm), ceilingY) : 0n,
    protectedDlp: true,
    basisDlp: `expected ${expected.minted} shares (exact core math on bin ${args.binId}) less ${pct(slippagePpm)} slippage`,
    basisFee: active
      ? `expected liquidity fee ${expected.fee_x}/${expected.fee_y} (active bin) plus ${pct(slippagePpm)} slippage, capped at the pool fee ceiling`
      : 'not the active bin: no liquidity fee accepted',
  };
  if (out.minDlp === 1n) out.weak = `the ${out.basisDlp} is below 1`;
  return out;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Per-bin withdraw minimums: expected less slippage; min-x + min-y > 0 whenever x + y > 0. */
export function withdrawMinimums(x: bigint, y: bigint, slippagePpm: bigint): { minX: bigint; minY: bigint } {
  let minX = minReceived(x, slippagePpm);
  let minY = minReceived(y, slippagePpm);
  if (minX + minY === 0n && x + y > 0n) {
    if (x >= y) minX = 1n;
    else minY = 1n;
  }
  return { minX, minY };
}

/** Basis text for a slippage-derived minimum. */
export function slippageBasis(what: string, expected: bigint, slippagePpm: bigint): string {
  return `${what} ${expected} less ${pct(slippagePpm)} slippage`;
}

/** What a simple-mode position's bounds are made from: its outcomes over the window (windowBounds.ts). */
export interface WindowBoundsArgs {
  outcome: WindowOutcome;
  window: ActiveWindow;
  /** The window in words (`windowWords`), made once per operation. */
  span: string;
  offset: number;
  x: bigint;
  y: bigint;
  fees: PoolFees;
  slippagePpm: bigint;
  /** A relative move: the router takes no tolerance, the window is the plan's policy. */
  move: boolean;
}

/** The window in words, for the bounds' basis. */
export function windowWords(w: ActiveWindow, move: boolean): string {
  if (w.lo === w.hi) return `active bin ${w.expected} (no deviation allowed)`;
  const tol = Math.max(w.expected - w.lo, w.hi - w.expected);
  const why = move ? ', policy.active_bin_tolerance: a relative move takes no tolerance' : '';
  return `active bins ${w.lo}..${w.hi} (${w.expected} ± ${tol}${why})`;
}

const OFF_ACTIVE = 'offset not 0: it never lands on the active bin, so no liquidity fee is accepted';

/**
 * Bounds of a simple-mode add or move position: min-dlp = the fewest shares it mints over the active-bin
 * window less slippage; fee caps = the largest liquidity fee over the window plus slippage, capped at the
 * pool's ceiling (0 off the active bin: an offset other than 0 never lands on it). A window bin whose price
 * or shares were not read: min-dlp 1 (unprotected), naming the bin.
 */
export function windowAddBounds(args: WindowBoundsArgs): AddBounds {
  // Literal objects, no spreads: this runs per position (350 per operation).
  const { outcome: o, span, offset, slippagePpm } = args;
  const active = offset === 0;
  const fx = args.fees.x_protocol + args.fees.x_provider + args.fees.x_variable;
  const fy = args.fees.y_protocol + args.fees.y_provider + args.fees.y_variable;
  const ceilingX = active ? feeCeiling(args.x, fx) : 0n;
  const ceilingY = active ? feeCeiling(args.y, fy) : 0n;
  const out: AddBounds = {
    expectedDlp: o.expected?.minted,
    expectedFeeX: o.expected?.feeX ?? 0n,
    expectedFeeY: o.expected?.feeY ?? 0n,
    minDlp: 1n,
    maxFeeX: ceilingX,
    maxFeeY: ceilingY,
    protectedDlp: true,
    basisDlp: '',
    basisFee: OFF_ACTIVE,
  };
  if (o.expectedRevert !== undefined) out.revert = o.expectedRevert;
  const f = o.fewest;
  if (o.unknown) {
    const why = `bin ${o.unknown.bin} (where offset ${offset} lands at active ${o.unknown.active}) cannot be computed: ${o.unknown.why}`;
    out.protectedDlp = false;
    out.weak = why;
    out.unknownBin = o.unknown.bin;
    out.basisDlp = `over ${span}: ${why}, so min-dlp falls back to 1`;
    if (active) out.basisFee = 'fee unknown over the window: the pool fee ceiling';
  } else if (!f) {
    const why = `the ${args.move ? 'move' : 'add'} reverts at every active bin of the window (at ${args.window.expected}: ${o.expectedRevert ?? 'outside -500..500'})`;
    out.weak = why;
    out.basisDlp = `over ${span}: ${why}`;
    if (active) out.basisFee = 'no landing: the pool fee ceiling';
  } else {
    const fewest = `fewest ${f.minted} shares over ${span}, in bin ${f.bin} at active ${f.active} (exact core math on the state read) less ${pct(slippagePpm)} slippage`;
    out.minDlp = minDlp(f.minted, slippagePpm);
    if (out.minDlp === 1n) out.weak = `the ${fewest} is below 1`;
    out.basisDlp = fewest;
    if (active) {
      out.maxFeeX = min(maxLiquidityFee(o.feeX, slippagePpm), ceilingX);
      out.maxFeeY = min(maxLiquidityFee(o.feeY, slippagePpm), ceilingY);
      out.basisFee = `largest liquidity fee ${o.feeX}/${o.feeY} over ${span} plus ${pct(slippagePpm)} slippage, capped at the pool fee ceiling`;
    }
  }
  return out;
}

/** A simple-mode add or move, as prepared. */
export type SimpleOperation = Extract<PreparedOperation, { op: 'add' | 'move' }>;

/** A prepared simple-mode item's offset: as written, else its bin's distance from the active bin read. */
export function simpleOffset(op: SimpleOperation, item: { active_bin_offset?: number }, bin: number): number {
  return item.active_bin_offset ?? bin - op.pool.active_bin_id;
}

/**
 * The bounds of every position of a simple-mode operation on `pool` (the chain state the operation runs
 * on: its active bin is the expected one), over the window of `tolerance` bins; aligned with `op.items`.
 */
export function simpleBounds(
  pool: ChainPool,
  sender: string,
  op: SimpleOperation,
  slippagePpm: bigint,
  tolerance: number,
): { window: ActiveWindow; bounds: AddBounds[] } {
  const window = activeWindow(pool.activeBinId, tolerance);
  const move = op.op === 'move';
  const list: WindowItem[] =
    op.op === 'add'
      ? op.items.map((i) => ({
          kind: 'add',
          offset: simpleOffset(op, i, i.bin_id),
          x: i.x_amount,
          y: i.y_amount,
        }))
      : op.items.map((i) => ({
          kind: 'move',
          offset: simpleOffset(op, i, i.to_bin_id),
          from: i.from_bin_id,
          amount: i.amount,
        }));
  const outcomes = windowOutcomes(pool, sender, list, window);
  const fees = poolFees(op.pool.pool);
  const span = windowWords(window, move);
  const bounds = list.map((w, k) => {
    let x = w.kind === 'add' ? w.x : (op.items[k] as { x_amount: bigint }).x_amount;
    let y = w.kind === 'add' ? w.y : (op.items[k] as { y_amount: bigint }).y_amount;
    if (w.kind === 'move') {
      // What the shares are worth in the from bin of the state (the fee ceiling's amounts).
      const from = pool.unknownShares?.has(w.from) ? undefined : pool.bins.get(w.from);
      if (from) ({ x, y } = sharesToAmounts(from, w.amount));
    }
    return windowAddBounds({
      outcome: outcomes[k] as WindowOutcome,
      window,
      span,
      offset: w.offset,
      x,
      y,
      fees,
      slippagePpm,
      move,
    });
  });
  return { window, bounds };
}

/**
 * `simpleBounds` on the state an analysis read (hover): the operation's pool as read, before the plan's
 * other operations. Undefined when that pool's state was not read.
 */
export function simpleBoundsRead(
  live: LiveData,
  op: SimpleOperation,
  sender: string | undefined,
  slippagePpm: bigint,
  tolerance: number,
): AddBounds[] | undefined {
  const pool = chainStateFromLive(live, sender).pool(op.pool.pool_id);
  return pool ? simpleBounds(pool, sender ?? '', op, slippagePpm, tolerance).bounds : undefined;
}
