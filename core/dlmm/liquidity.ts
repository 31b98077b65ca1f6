/**
 * Add / withdraw / move liquidity exactly as dlmm-core-v-1-1 (docs/contracts.md "Liquidity value and shares").
 * Failures are returned as the contract error the call would revert with, checked in the contract's order
 * (see contractErrors.ts).
 */
import { U128RangeError, checkedLiquidityValue, isqrt, u128 } from './arith';
import { FEE_SCALE, MAX_BIN_ID, MIN_BIN_ID, isSignedBinId } from './bins';
import type { ContractErrorName } from './contractErrors';
import type { BinBalances, LiquidityResult, PoolFees } from './types';

/**
 * The core's minimum-bin-shares and minimum-burnt-shares: data-vars its admin can change
 * (`set-minimum-shares`, which asserts both > 0 and bin > burnt), read with `get-minimum-bin-shares` and
 * `get-minimum-burnt-shares`. A first deposit into an empty bin must be worth at least `binShares` shares,
 * and `burntShares` of them are minted to the burn address.
 */
export interface CoreMinimums {
  binShares: bigint;
  burntShares: bigint;
}

/** Their launch values (u10000 and u1000), what a state that read nothing else assumes. */
export const LAUNCH_MINIMUMS: Readonly<CoreMinimums> = { binShares: 10_000n, burntShares: 1_000n };

/** Where and how an add happens. The optional bounds, when given, are checked in the contract's order. */
interface AddParams {
  binId: number;
  activeBinId: number;
  fees: PoolFees;
  /** min-dlp argument; when absent only minted > 0 is required (any min-dlp >= 1 needs it) */
  minDlp?: bigint;
  /** max-x-liquidity-fee / max-y-liquidity-fee arguments; unchecked when absent */
  maxFeeX?: bigint;
  maxFeeY?: bigint;
  /** The body's leading asserts the caller knows (pool enabled, token traits), run after the let-bindings. */
  bodyHead?: BodyHead;
  /** The core's minimums as read (first deposits); absent: the launch values. */
  minimums?: CoreMinimums;
}

/**
 * The leading asserts of a core function's body that only the caller can decide (the pool enabled, the token
 * traits against the pool's tokens): run after every let-binding (the arithmetic, which can abort, and the
 * let's own asserts) and before the body's amount asserts, as the contract evaluates them.
 */
export type BodyHead = () => LiquidityResult<never> | undefined;

/** Result of an add: shares to the caller, fees charged, and the bin afterwards. */
export interface AddOutcome {
  /** shares minted to the caller (the contract's dlp-post-fees) */
  minted: bigint;
  /** isqrt(value post fees) on a first deposit; equal to minted otherwise */
  intended: bigint;
  /** shares minted to the burn address (first deposit only) */
  burned: bigint;
  fee_x: bigint;
  fee_y: bigint;
  bin_after: BinBalances;
}

const fail = <T>(error: ContractErrorName, detail: string): LiquidityResult<T> => ({
  ok: false,
  error,
  detail,
});

/** Runs `f`, turning a u128 abort into the runtime-abort result. */
function guarded<T>(f: () => LiquidityResult<T>): LiquidityResult<T> {
  try {
    return f();
  } catch (e) {
    if (e instanceof U128RangeError) return fail(e.kind, e.message);
    throw e;
  }
}

function binIdError<T>(id: number, what: string): LiquidityResult<T> | undefined {
  return isSignedBinId(id)
    ? undefined
    : fail('ERR_INVALID_BIN_ID', `${what} ${id} is outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
}

/** The add's let-bindings: dlp, active-bin liquidity fee, post-fee dlp and first-deposit rule. */
function computeAdd(bin: BinBalances, x: bigint, y: bigint, p: AddParams): LiquidityResult<AddOutcome> {
  const { price, reserve_x: bx, reserve_y: by, shares } = bin;
  if (price <= 0n) return fail('ERR_INVALID_BIN_PRICE', `bin ${p.binId} price must be > 0, got ${price}`);
  const addValue = checkedLiquidityValue(x, y, price, 'added liquidity value');
  const binValue = checkedLiquidityValue(bx, by, price, 'bin liquidity value');
  const dlp =
    shares === 0n || binValue === 0n ? isqrt(addValue) : u128(addValue * shares, 'value * shares') / binValue;

  let feeX = 0n;
  let feeY = 0n;
  if (p.binId === p.activeBinId && dlp > 0n) {
    const fx = p.fees.x_protocol + p.fees.x_provider + p.fees.x_variable;
    const fy = p.fees.y_protocol + p.fees.y_provider + p.fees.y_variable;
    const after = shares + dlp;
    const wx = u128(dlp * u128(bx + x, 'x balance'), 'dlp * x') / after;
    const wy = u128(dlp * u128(by + y, 'y balance'), 'dlp * y') / after;
    const capX = wy > y && x > wx ? u128((x - wx) * fx, 'x excess * fee') / FEE_SCALE : 0n;
    const capY = wx > x && y > wy ? u128((y - wy) * fy, 'y excess * fee') / FEE_SCALE : 0n;
    feeX = x > capX ? capX : x;
    feeY = y > capY ? capY : y;
  }

  const valuePost = checkedLiquidityValue(x - feeX, y - feeY, price, 'added value post fees');
  const binValuePost = checkedLiquidityValue(bx + feeX, by + feeY, price, 'bin value post fees');
  let minted: bigint;
  let intended: bigint;
  let burned = 0n;
  if (shares === 0n) {
    const min = p.minimums ?? LAUNCH_MINIMUMS;
    burned = min.burntShares;
    intended = isqrt(valuePost);
    if (intended < min.binShares) {
      return fail(
        'ERR_MINIMUM_LP_AMOUNT',
        `first deposit into bin ${p.binId} gives ${intended} shares (isqrt of value ${valuePost}); the core requires at least ${min.binShares} (minimum-bin-shares)`,
      );
    }
    // The burn's pool-mint asserts an amount > 0 (set-minimum-shares never allows 0).
    if (burned === 0n)
      return fail('ERR_INVALID_AMOUNT', 'pool mint: the minimum burnt shares are 0, and a mint of 0 reverts');
    minted = u128(intended - burned, 'intended - burnt shares');
  } else {
    minted =
      binValuePost === 0n ? isqrt(valuePost) : u128(valuePost * shares, 'value * shares') / binValuePost;
    intended = minted;
  }
  const bin_after: BinBalances = {
    price,
    reserve_x: u128(bx + x, 'x balance'),
    reserve_y: u128(by + y, 'y balance'),
    shares: u128(shares + minted + burned, 'bin shares'),
  };
  return { ok: true, value: { minted, intended, burned, fee_x: feeX, fee_y: feeY, bin_after } };
}

/** Placement rule on the target bin: no x below the active bin, no y above it. */
function placementError<T>(
  binId: number,
  activeBinId: number,
  x: bigint,
  y: bigint,
): LiquidityResult<T> | undefined {
  if (binId < activeBinId && x !== 0n)
    return fail(
      'ERR_INVALID_X_AMOUNT',
      `bin ${binId} is below the active bin ${activeBinId}: only y may be added there, got x ${x}`,
    );
  if (binId > activeBinId && y !== 0n)
    return fail(
      'ERR_INVALID_Y_AMOUNT',
      `bin ${binId} is above the active bin ${activeBinId}: only x may be added there, got y ${y}`,
    );
  return undefined;
}

/** The min-dlp and fee-cap asserts (in contract order) for an add or move outcome. */
export function checkAddBounds(
  outcome: AddOutcome,
  minDlp: bigint,
  maxFeeX: bigint,
  maxFeeY: bigint,
): LiquidityResult<AddOutcome> {
  if (minDlp <= 0n) return fail('ERR_INVALID_MIN_DLP_AMOUNT', `min-dlp must be > 0, got ${minDlp}`);
  if (outcome.minted < minDlp)
    return fail('ERR_MINIMUM_LP_AMOUNT', `the add mints ${outcome.minted} shares, below min-dlp ${minDlp}`);
  if (outcome.fee_x > maxFeeX)
    return fail(
      'ERR_MAXIMUM_X_LIQUIDITY_FEE',
      `x liquidity fee ${outcome.fee_x} is above max-x-liquidity-fee ${maxFeeX}`,
    );
  if (outcome.fee_y > maxFeeY)
    return fail(
      'ERR_MAXIMUM_Y_LIQUIDITY_FEE',
      `y liquidity fee ${outcome.fee_y} is above max-y-liquidity-fee ${maxFeeY}`,
    );
  return { ok: true, value: outcome };
}

/** Body asserts shared by add and move: optional bounds, else minted > 0. */
function boundsError(outcome: AddOutcome, p: AddParams): LiquidityResult<AddOutcome> {
  if (p.minDlp !== undefined || p.maxFeeX !== undefined || p.maxFeeY !== undefined) {
    // An absent fee cap is unbounded (u128 max would be the same as no check here).
    const noCap = outcome.fee_x + outcome.fee_y;
    return checkAddBounds(outcome, p.minDlp ?? 1n, p.maxFeeX ?? noCap, p.maxFeeY ?? noCap);
  }
  if (outcome.minted <= 0n)
    return fail(
      'ERR_MINIMUM_LP_AMOUNT',
      `the add mints 0 shares in bin ${p.binId}: any min-dlp (>= 1) fails`,
    );
  return { ok: true, value: outcome };
}

/** Adds (x, y) to `bin` as core add-liquidity would; error when the call would revert. */
export function addLiquidity(
  bin: BinBalances,
  x: bigint,
  y: bigint,
  p: AddParams,
): LiquidityResult<AddOutcome> {
  if (x < 0n || y < 0n) return fail('RUNTIME_UNDERFLOW', `amounts must be unsigned, got x ${x}, y ${y}`);
  return (
    binIdError<AddOutcome>(p.binId, 'bin id') ??
    guarded(() => {
      const computed = computeAdd(bin, x, y, p);
      if (!computed.ok) return computed;
      const head = p.bodyHead?.();
      if (head) return head;
      if (x + y === 0n) return fail('ERR_INVALID_AMOUNT', `x + y must be > 0 for bin ${p.binId}`);
      return placementError<AddOutcome>(p.binId, p.activeBinId, x, y) ?? boundsError(computed.value, p);
    })
  );
}

/** floor(amount * reserve / shares) for both sides: what `amount` shares of `bin` are worth. */
export function sharesToAmounts(bin: BinBalances, amount: bigint): { x: bigint; y: bigint } {
  if (bin.shares <= 0n) return { x: 0n, y: 0n };
  return {
    x: u128(amount * bin.reserve_x, 'amount * x balance') / bin.shares,
    y: u128(amount * bin.reserve_y, 'amount * y balance') / bin.shares,
  };
}

/**
 * Withdraws `amount` shares as core withdraw-liquidity would; minX/minY unchecked when both are absent;
 * `bodyHead` runs after the let-bindings, before the amount asserts.
 */
export function withdrawLiquidity(
  bin: BinBalances,
  amount: bigint,
  minX?: bigint,
  minY?: bigint,
  bodyHead?: BodyHead,
): LiquidityResult<{ x: bigint; y: bigint; bin_after: BinBalances }> {
  return guarded(() => {
    if (bin.shares <= 0n) return fail('ERR_NO_BIN_SHARES', 'the bin has no shares to withdraw');
    if (amount < 0n) return fail('RUNTIME_UNDERFLOW', `amount must be unsigned, got ${amount}`);
    const { x, y } = sharesToAmounts(bin, amount);
    const reserve_x = u128(bin.reserve_x - x, 'x balance after withdraw');
    const reserve_y = u128(bin.reserve_y - y, 'y balance after withdraw');
    const head = bodyHead?.();
    if (head) return head;
    if (amount === 0n) return fail('ERR_INVALID_AMOUNT', 'withdraw amount must be > 0');
    const checkMins = minX !== undefined || minY !== undefined;
    const mx = minX ?? 0n;
    const my = minY ?? 0n;
    if (checkMins && mx + my === 0n)
      return fail('ERR_INVALID_AMOUNT', 'min-x-amount + min-y-amount must be > 0');
    if (x + y === 0n)
      return fail('ERR_INVALID_AMOUNT', `${amount} shares of this bin are worth 0 x and 0 y (floor)`);
    if (x < mx) return fail('ERR_MINIMUM_X_AMOUNT', `withdraw gives x ${x}, below min-x-amount ${mx}`);
    if (y < my) return fail('ERR_MINIMUM_Y_AMOUNT', `withdraw gives y ${y}, below min-y-amount ${my}`);
    // The pool's burn asserts amount <= the caller's balance, which never exceeds the bin's shares.
    if (amount > bin.shares)
      return fail('ERR_INVALID_AMOUNT', `amount ${amount} is above the bin's ${bin.shares} shares`);
    return {
      ok: true,
      value: { x, y, bin_after: { price: bin.price, reserve_x, reserve_y, shares: bin.shares - amount } },
    };
  });
}

/**
 * Moves `amount` shares from `from` (p.fromBinId) to `to` (p.binId) as core move-liquidity would: withdraw
 * with the floor formulas, then add to the to-bin with the add rules (fee when it is the active bin).
 */
export function moveLiquidity(
  from: BinBalances,
  to: BinBalances,
  amount: bigint,
  p: AddParams & { fromBinId: number },
): LiquidityResult<{ x: bigint; y: bigint; withdrawn_from: BinBalances; add: AddOutcome }> {
  type R = { x: bigint; y: bigint; withdrawn_from: BinBalances; add: AddOutcome };
  const idError = binIdError<R>(p.fromBinId, 'from bin id') ?? binIdError<R>(p.binId, 'to bin id');
  if (idError) return idError;
  return guarded(() => {
    if (from.shares <= 0n) return fail('ERR_NO_BIN_SHARES', `from bin ${p.fromBinId} has no shares`);
    if (amount < 0n) return fail('RUNTIME_UNDERFLOW', `amount must be unsigned, got ${amount}`);
    const { x, y } = sharesToAmounts(from, amount);
    const withdrawn_from: BinBalances = {
      price: from.price,
      reserve_x: u128(from.reserve_x - x, 'from x balance'),
      reserve_y: u128(from.reserve_y - y, 'from y balance'),
      shares: from.shares - amount,
    };
    const computed = computeAdd(to, x, y, p);
    if (!computed.ok) return computed;
    const head = p.bodyHead?.();
    if (head) return head;
    if (amount === 0n) return fail('ERR_INVALID_AMOUNT', 'move amount must be > 0');
    if (x + y === 0n)
      return fail(
        'ERR_INVALID_AMOUNT',
        `${amount} shares of bin ${p.fromBinId} floor to 0 x and 0 y: the move reverts`,
      );
    if (p.fromBinId === p.binId) return fail('ERR_MATCHING_BIN_ID', `from and to bin are both ${p.binId}`);
    const rest = placementError<AddOutcome>(p.binId, p.activeBinId, x, y) ?? boundsError(computed.value, p);
    if (!rest.ok) return rest;
    if (amount > from.shares)
      return fail('ERR_INVALID_AMOUNT', `amount ${amount} is above the from bin's ${from.shares} shares`);
    return { ok: true, value: { x, y, withdrawn_from, add: rest.value } };
  });
}
