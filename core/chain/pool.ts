/**
 * The core contract's functions on a chain pool: add, withdraw, move and one swap walk, each with the exact
 * math of core/dlmm and the pool's own asserts (bin range, pool enabled, the burn's balance check). They
 * change the pool only when they succeed; grouping several into one all-or-nothing transaction is the
 * caller's concern (the executor snapshots the pools it touches).
 */
import { MAX_BIN_ID, MIN_BIN_ID, isSignedBinId } from '../dlmm/bins';
import {
  U128RangeError,
  addLiquidity,
  moveLiquidity,
  swapWalk,
  swapXForYInBin,
  swapYForXInBin,
  withdrawLiquidity,
  type AddOutcome,
  type BinBalances,
  type BodyHead,
  type CoreMinimums,
  type LiquidityResult,
  type PoolFees,
  type SwapWalkResult,
} from '../dlmm/math';
import { binOf, CowBins, creditShares, userSharesOf, type ChainPool } from './state';

/** A failed call: the contract error it reverts with. */
export type ChainResult<T> = LiquidityResult<T>;
type Failure = Extract<LiquidityResult<never>, { ok: false }>['error'];

/** Bounds of an add (the router's per-position arguments). */
interface AddBounds {
  minDlp: bigint;
  maxFeeX: bigint;
  maxFeeY: bigint;
}

interface SwapOutcome extends SwapWalkResult {
  pool_id: string;
  x_for_y: boolean;
}

/** Thrown when a call needs state the analyzer could not read (bin total shares). */
export class UnknownState extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'UnknownState';
  }
}

/** A pool as an API read lists it: the listed bins (prices, reserves, shares as known) and its records. */
interface ListedPool {
  id: string;
  tokenX: string;
  tokenY: string;
  fees: PoolFees;
  active: boolean;
  activeBinId: number;
  bins: Map<number, BinBalances>;
  positions: Map<string, Map<number, bigint>>;
  /** Bins whose total shares no source gave (omitted or empty: all known). */
  unknownShares?: ReadonlySet<number>;
}

/**
 * The chain pool of a read: only the listed bins have a known price (the contract derives the others from
 * the initial price and bin step, which no read gives), so executing into any other bin is unknown state.
 * The listing's bins become the pool's copy-on-write base: the caller never writes that map again.
 */
export function chainPoolFromListing(l: ListedPool): ChainPool {
  const prices = new Map<number, bigint>();
  for (const [id, b] of l.bins) prices.set(id, b.price);
  const pool: ChainPool = {
    id: l.id,
    tokenX: l.tokenX,
    tokenY: l.tokenY,
    fees: l.fees,
    active: l.active,
    activeBinId: l.activeBinId,
    priceOf: (binId) => {
      const price = prices.get(binId);
      if (price === undefined)
        throw new UnknownState(`pool ${l.id}: bin ${binId} is not in the bin list, so its price is unknown`);
      return price;
    },
    bins: new CowBins(l.bins),
    positions: l.positions,
    protocolFeesX: 0n,
    protocolFeesY: 0n,
  };
  if (l.unknownShares && l.unknownShares.size > 0) pool.unknownShares = l.unknownShares;
  return pool;
}

const fail = <T>(error: Failure, detail: string): ChainResult<T> =>
  ({ ok: false, error, detail }) as ChainResult<T>;

/** The token traits a core call was given (contract principals); absent: the pool's own tokens. */
export interface TokenTraits {
  x: string;
  y: string;
}

/**
 * The leading asserts of a core function's body (dlmm-core-v-1-1): the pool enabled (every function but
 * withdraw-liquidity), then the x token trait, then the y token trait, each against the pool. The contract
 * runs them only after all of the function's let-bindings, so an arithmetic abort (or a let's own assert)
 * there is what the chain reports, even for a wrong trait or a disabled pool. The one place for this rule:
 * each core function below raises it at that point.
 */
function bodyHead(pool: ChainPool, traits: TokenTraits | undefined, enabled: boolean): BodyHead {
  return () => {
    if (enabled && !pool.active) return fail<never>('ERR_POOL_DISABLED', `pool ${pool.id} is disabled`);
    if (traits && traits.x !== pool.tokenX)
      return fail<never>('ERR_INVALID_X_TOKEN', `x-token-trait ${traits.x} is not ${pool.tokenX}`);
    if (traits && traits.y !== pool.tokenY)
      return fail<never>('ERR_INVALID_Y_TOKEN', `y-token-trait ${traits.y} is not ${pool.tokenY}`);
    return undefined;
  };
}

function needShares(pool: ChainPool, binId: number, what: string): void {
  if (pool.unknownShares?.has(binId))
    throw new UnknownState(
      `${what} needs the total shares of bin ${binId}, which were not read (the bin list gives no liquidity and no node read answered)`,
    );
}

/**
 * The core's minimums an add into `binId` meets: the pool's as read (undefined: the launch values). A first
 * deposit (the bin has no shares) on a state that could not read them is unknown, never a guess.
 */
function minimumsFor(pool: ChainPool, binId: number, what: string): CoreMinimums | undefined {
  const m = pool.minimumShares;
  if (m === undefined || !('unread' in m)) return m;
  if (binOf(pool, binId).shares > 0n) return undefined;
  throw new UnknownState(
    `${what} is a first deposit into an empty bin, which needs the core's minimum-bin-shares and minimum-burnt-shares: ${m.unread}`,
  );
}

/** Adds (x, y) to `binId` for `user` (core add-liquidity with the router's bounds). */
export function addToPool(
  pool: ChainPool,
  user: string,
  binId: number,
  x: bigint,
  y: bigint,
  bounds: AddBounds,
  traits?: TokenTraits,
): ChainResult<AddOutcome> {
  const r = addOutcome(pool, binId, x, y, bounds, traits);
  if (r.ok) commitAdd(pool, user, binId, r.value);
  return r;
}

/** What `addToPool` would do, without doing it (the pool is left as it is). */
export function addOutcome(
  pool: ChainPool,
  binId: number,
  x: bigint,
  y: bigint,
  bounds: AddBounds,
  traits?: TokenTraits,
): ChainResult<AddOutcome> {
  if (!isSignedBinId(binId))
    return fail('ERR_INVALID_BIN_ID', `bin id ${binId} is outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
  needShares(pool, binId, `the add to bin ${binId}`);
  const minimums = minimumsFor(pool, binId, `the add to bin ${binId}`);
  return addLiquidity(binOf(pool, binId), x, y, {
    ...(minimums ? { minimums } : {}),
    binId,
    activeBinId: pool.activeBinId,
    fees: pool.fees,
    minDlp: bounds.minDlp,
    maxFeeX: bounds.maxFeeX,
    maxFeeY: bounds.maxFeeY,
    bodyHead: bodyHead(pool, traits, true),
  });
}

/** What a successful add leaves: the bin's new balances and the minted shares credited to `user`. */
export function commitAdd(pool: ChainPool, user: string, binId: number, outcome: AddOutcome): void {
  pool.bins.set(binId, outcome.bin_after);
  creditShares(pool, user, binId, outcome.minted);
}

/** Withdraws `amount` shares of `binId` for `user` (core withdraw-liquidity; the pool burn checks the balance). */
export function withdrawFromPool(
  pool: ChainPool,
  user: string,
  binId: number,
  amount: bigint,
  minX: bigint,
  minY: bigint,
  traits?: TokenTraits,
): ChainResult<{ x: bigint; y: bigint; bin_after: BinBalances }> {
  if (!isSignedBinId(binId))
    return fail('ERR_INVALID_BIN_ID', `bin id ${binId} is outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
  needShares(pool, binId, `the withdraw from bin ${binId}`);
  // withdraw-liquidity asserts no pool status: a disabled pool still pays out.
  const r = withdrawLiquidity(binOf(pool, binId), amount, minX, minY, bodyHead(pool, traits, false));
  if (!r.ok) return r;
  const held = userSharesOf(pool, user, binId);
  if (amount > held)
    return fail(
      'ERR_INVALID_AMOUNT',
      `pool burn: ${user} holds ${held} shares of bin ${binId}, not ${amount}`,
    );
  pool.bins.set(binId, r.value.bin_after);
  creditShares(pool, user, binId, -amount);
  return r;
}

/** Moves `amount` shares of `user` from one bin to another (core move-liquidity). */
export function moveInPool(
  pool: ChainPool,
  user: string,
  fromBinId: number,
  toBinId: number,
  amount: bigint,
  bounds: AddBounds,
  traits?: TokenTraits,
): ChainResult<{ x: bigint; y: bigint; withdrawn_from: BinBalances; add: AddOutcome }> {
  if (!isSignedBinId(fromBinId) || !isSignedBinId(toBinId)) {
    return fail(
      'ERR_INVALID_BIN_ID',
      `bin ids ${fromBinId} -> ${toBinId} must be within ${MIN_BIN_ID}..${MAX_BIN_ID}`,
    );
  }
  needShares(pool, fromBinId, `the move out of bin ${fromBinId}`);
  needShares(pool, toBinId, `the move into bin ${toBinId}`);
  const minimums = minimumsFor(pool, toBinId, `the move into bin ${toBinId}`);
  const r = moveLiquidity(binOf(pool, fromBinId), binOf(pool, toBinId), amount, {
    ...(minimums ? { minimums } : {}),
    binId: toBinId,
    fromBinId,
    activeBinId: pool.activeBinId,
    fees: pool.fees,
    minDlp: bounds.minDlp,
    maxFeeX: bounds.maxFeeX,
    maxFeeY: bounds.maxFeeY,
    bodyHead: bodyHead(pool, traits, true),
  });
  if (!r.ok) return r;
  const held = userSharesOf(pool, user, fromBinId);
  if (amount > held)
    return fail(
      'ERR_INVALID_AMOUNT',
      `pool burn: ${user} holds ${held} shares of bin ${fromBinId}, not ${amount}`,
    );
  pool.bins.set(fromBinId, r.value.withdrawn_from);
  pool.bins.set(toBinId, r.value.add.bin_after);
  creditShares(pool, user, fromBinId, -amount);
  creditShares(pool, user, toBinId, r.value.add.minted);
  return r;
}

/** A swap walk from the current state without changing it (at most `maxBins` core calls). */
export function quotePool(
  pool: ChainPool,
  xForY: boolean,
  amountIn: bigint,
  maxBins?: number,
): SwapWalkResult {
  return swapWalk((id) => pool.bins.get(id), pool.activeBinId, xForY, amountIn, pool.fees, maxBins);
}

/**
 * Swaps through the pool: `maxBins` core swap calls, each in the then-active bin (1 = one swap-multi step,
 * 350 = simple-multi). Fails with ERR_MINIMUM_RECEIVED under `minOut`. The first call's body head (pool
 * enabled, token traits) and amount > 0 assert come after that call's let-bindings, as in the contract.
 */
export function swapInPool(
  pool: ChainPool,
  xForY: boolean,
  amountIn: bigint,
  minOut = 0n,
  maxBins?: number,
  traits?: TokenTraits,
): ChainResult<SwapOutcome> {
  const head = bodyHead(pool, traits, true)();
  if (head || amountIn <= 0n) {
    // The core call's let-bindings (the active bin's max-input and fee arithmetic) run before its body
    // asserts the pool enabled, the token traits and the amount > 0, so an overflow there is what the
    // chain reports.
    const abort = firstCallAbort<SwapOutcome>(pool, xForY, amountIn);
    if (abort) return abort;
    if (head) return head;
    return fail('ERR_INVALID_AMOUNT', `swap amount must be > 0, got ${amountIn}`);
  }
  let walk: SwapWalkResult;
  try {
    walk = quotePool(pool, xForY, amountIn, maxBins);
  } catch (e) {
    if (e instanceof U128RangeError) return fail(e.kind, e.message);
    throw e;
  }
  if (walk.amount_out < minOut)
    return fail('ERR_MINIMUM_RECEIVED', `the swap gives ${walk.amount_out}, below the minimum ${minOut}`);
  for (const [id, b] of walk.bins_after) pool.bins.set(id, b);
  pool.activeBinId = walk.active_bin_after;
  if (xForY) pool.protocolFeesX += walk.protocol_fees;
  else pool.protocolFeesY += walk.protocol_fees;
  return { ok: true, value: { ...walk, pool_id: pool.id, x_for_y: xForY } };
}

/** The u128 abort of the first core swap call's let-bindings in the active bin, if it aborts there. */
function firstCallAbort<T>(pool: ChainPool, xForY: boolean, amount: bigint): ChainResult<T> | undefined {
  const bin = pool.bins.get(pool.activeBinId);
  if (bin === undefined || amount < 0n) return undefined;
  try {
    (xForY ? swapXForYInBin : swapYForXInBin)(bin, amount, pool.fees);
  } catch (e) {
    if (e instanceof U128RangeError) return fail(e.kind, e.message);
    // Anything else (the amount assert, a price or fee out of range) is for the caller's own checks.
  }
  return undefined;
}

export type { AddOutcome };
