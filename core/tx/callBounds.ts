/**
 * Protective bounds written into router calls, computed with the exact core math (core/dlmm/math.ts) on the
 * prepared items at the plan's slippage. Decisions (also shown in the summary as each bound's basis):
 * - strict add/move: min-dlp = expected minted shares less slippage (never below 1); max fee = the
 *   expected active-bin liquidity fee plus slippage (0 off the active bin, so a shift that makes the bin
 *   active reverts, as strict mode promises).
 * - simple add/move: the target bin is chosen at execution (active bin + offset), so a bound computed
 *   on today's bin would defeat the mode. min-dlp is 1 and the fee cap is the contract's own ceiling
 *   (amount * total pool fee / 10000); the signer is protected by the active-bin tolerance and by the
 *   sender's outflow caps.
 * - unknown bin shares (v2 list liquidity is null and no node read): min-dlp 1, reported as
 *   `min-dlp-unprotected`.
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
    return {
      expectedDlp,
      expectedFeeX,
      expectedFeeY,
      revert,
      minDlp: 1n,
      maxFeeX: ceilingX,
      maxFeeY: ceilingY,
      protectedDlp: true,
      basisDlp:
        'relative placement: the bin is chosen at execution, so min-dlp is 1 (protection: active-bin tolerance and outflow caps)',
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
      basisDlp: `${why}: min-dlp falls back to 1`,
      basisFee:
        args.binId === args.activeBinId
          ? 'active bin, fee unknown: the pool fee ceiling'
          : 'not the active bin: no liquidity fee accepted',
    };
  }
  const active = args.binId === args.activeBinId;
  return {
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
