/**
 * Swaps, exactly as dlmm-core-v-1-1 swap-x-for-y / swap-y-for-x (one bin) and the swap router's
 * simple-multi walk (repeat in the new active bin). docs/contracts.md "Swaps".
 */
import { u128 } from './arith';
import { FEE_SCALE, MAX_BIN_ID, MIN_BIN_ID, PRICE_SCALE, isSignedBinId } from './bins';
import type { BinBalances, PoolFees } from './types';

/** Outcome of one swap call in one bin. */
interface BinSwapResult {
  /** input consumed incl. fee (the contract's `in`) */
  amount_in: bigint;
  fee: bigint;
  protocol_fee: bigint;
  amount_out: bigint;
  bin_after: BinBalances;
  /** output side empty afterwards (or the bin was empty): the active bin moves unless at the edge */
  exhausted: boolean;
}

/** One swap call of a walk (empty bins give a zero step: the contract call still happens). */
export interface SwapStep {
  bin_id: number;
  amount_in: bigint;
  amount_out: bigint;
  fee: bigint;
  protocol_fee: bigint;
}

/** Outcome of a single-pool walk (swap router simple-multi). */
export interface SwapWalkResult {
  amount_in_used: bigint;
  amount_out: bigint;
  unspent: bigint;
  fees: bigint;
  protocol_fees: bigint;
  steps: SwapStep[];
  active_bin_before: number;
  active_bin_after: number;
  /** balances after the walk of every existing bin visited */
  bins_after: Map<number, BinBalances>;
}

/** One hop of a multi-pool route. */
interface RouteHopInput {
  getBin: (binId: number) => BinBalances | undefined;
  activeBinId: number;
  xForY: boolean;
  fees: PoolFees;
}

/** Router walk limit: BIN_INDEX_RANGE of the swap router has 350 entries. */
export const MAX_SWAP_BINS = 350;

/**
 * One input side's fees (bps) with their sum and FEE_SCALE minus it, read once per walk: a 350-bin walk
 * then builds no fee object and no fee sum per bin (fewer allocations, so fewer collections mid-walk).
 */
interface Side {
  protocol: bigint;
  provider: bigint;
  variable: bigint;
  total: bigint;
  /** FEE_SCALE - total */
  net: bigint;
}

function sideOf(fees: PoolFees, xForY: boolean): Side {
  const protocol = xForY ? fees.x_protocol : fees.y_protocol;
  const provider = xForY ? fees.x_provider : fees.y_provider;
  const variable = xForY ? fees.x_variable : fees.y_variable;
  const total = protocol + provider + variable;
  return { protocol, provider, variable, total, net: FEE_SCALE - total };
}

function checkAmountAndPrice(bin: BinBalances, amount: bigint): void {
  checkUnsigned(amount);
  checkAmount(amount);
  checkPrice(bin);
}

function checkUnsigned(amount: bigint): void {
  if (amount < 0n) throw new RangeError(`swap amount must be unsigned, got ${amount}`);
}

/** The body's `(asserts! (> amount u0) ERR_INVALID_AMOUNT)`. */
function checkAmount(amount: bigint): void {
  if (amount <= 0n) throw new RangeError(`swap amount must be > 0 (the contract asserts it), got ${amount}`);
}

function checkPrice(bin: BinBalances): void {
  if (bin.price <= 0n) throw new RangeError(`bin price must be > 0, got ${bin.price}`);
}

function checkFees(fee: Side): void {
  if (fee.protocol < 0n || fee.provider < 0n || fee.variable < 0n || fee.total >= FEE_SCALE) {
    throw new RangeError(
      `fees must be >= 0 and total < 10000 bps, got ${fee.protocol}+${fee.provider}+${fee.variable}`,
    );
  }
}

/**
 * The fee on `used` input, floored. The contract floors the protocol and variable parts separately and the
 * provider takes the remainder, so provider + variable (what stays in the bin) is fee - protocol.
 */
function feeOf(used: bigint, side: Side): bigint {
  return u128(used * side.total, 'input * fee') / FEE_SCALE;
}

/** Scales the exact-output input cap up by the fee: cap * 10000 / (10000 - f) when f > 0. */
function withFee(cap: bigint, side: Side): bigint {
  return side.total > 0n ? u128(cap * FEE_SCALE, 'max input * 10000') / side.net : cap;
}

/**
 * Swap `xIn` of X for Y in one bin (core swap-x-for-y). Throws RangeError for xIn <= 0, price <= 0, fees
 * out of range, and U128RangeError where the contract's u128 arithmetic would abort. In the contract's
 * order: its let-bindings (bin price, the max-input and fee arithmetic) run before the body's
 * `amount > 0` assert, so a zero amount on a bin whose balance times the price leaves u128 aborts with the
 * overflow, not with ERR_INVALID_AMOUNT.
 */
export function swapXForYInBin(bin: BinBalances, xIn: bigint, fees: PoolFees): BinSwapResult {
  return oneBin(bin, xIn, sideOf(fees, true), true);
}

/** Swap `yIn` of Y for X in one bin (core swap-y-for-x); throws like swapXForYInBin, in the same order. */
export function swapYForXInBin(bin: BinBalances, yIn: bigint, fees: PoolFees): BinSwapResult {
  return oneBin(bin, yIn, sideOf(fees, false), false);
}

function oneBin(bin: BinBalances, amount: bigint, side: Side, xForY: boolean): BinSwapResult {
  checkUnsigned(amount);
  checkPrice(bin);
  checkFees(side);
  const r = binSwap(bin, amount, side, xForY);
  checkAmount(amount);
  return r;
}

/**
 * One core swap call with the input and fees already checked: swap-x-for-y takes X in and gives Y out at
 * the bin's price, swap-y-for-x the reverse. The fee's non-protocol part stays in the bin's input side.
 */
function binSwap(bin: BinBalances, amountIn: bigint, side: Side, xForY: boolean): BinSwapResult {
  const { price, reserve_x: bx, reserve_y: by } = bin;
  const wasEmpty = bx === 0n && by === 0n;
  const maxIn = xForY
    ? (u128(by * PRICE_SCALE, 'y balance * 1e8') + price - 1n) / price
    : (u128(bx * price, 'x balance * price') + PRICE_SCALE - 1n) / PRICE_SCALE;
  const maxInWithFee = withFee(maxIn, side);
  const used = amountIn >= maxInWithFee ? maxInWithFee : amountIn;
  const fee = feeOf(used, side);
  const protocol = (used * side.protocol) / FEE_SCALE;
  const keep = fee - protocol;
  const net = used - fee;
  const outBalance = xForY ? by : bx;
  const outRaw = xForY
    ? u128(net * price, 'dx * price') / PRICE_SCALE
    : u128(net * PRICE_SCALE, 'dy * 1e8') / price;
  const out = outRaw > outBalance ? outBalance : outRaw;
  // The contract writes balances only when it took input from a non-empty bin.
  const changed = used > 0n && !wasEmpty;
  const left = outBalance - out;
  let bin_after: BinBalances;
  if (!changed) bin_after = { ...bin };
  else if (xForY) bin_after = { ...bin, reserve_x: u128(bx + net + keep, 'x balance'), reserve_y: left };
  else bin_after = { ...bin, reserve_x: left, reserve_y: u128(by + net + keep, 'y balance') };
  return {
    amount_in: used,
    fee,
    protocol_fee: protocol,
    amount_out: out,
    bin_after,
    exhausted: left === 0n || wasEmpty,
  };
}

/**
 * Walks bins from `activeBinId` as the swap router's simple-multi does: at most `maxBins` swap calls, each
 * in the current active bin, until the input is spent. Missing bins (undefined) are empty: the call takes
 * nothing and the active bin moves. Never moves past -500/500. Throws RangeError on bad input.
 */
export function swapWalk(
  getBin: (binId: number) => BinBalances | undefined,
  activeBinId: number,
  xForY: boolean,
  amountIn: bigint,
  fees: PoolFees,
  maxBins: number = MAX_SWAP_BINS,
): SwapWalkResult {
  if (!isSignedBinId(activeBinId)) throw new RangeError(`active bin ${activeBinId} is outside -500..500`);
  if (amountIn < 0n) throw new RangeError(`swap amount must be >= 0, got ${amountIn}`);
  const bins_after = new Map<number, BinBalances>();
  const steps: SwapStep[] = [];
  let remaining = amountIn;
  let active = activeBinId;
  let out = 0n;
  let feesTotal = 0n;
  let protocolTotal = 0n;
  const side = sideOf(fees, xForY);
  // The fees are checked at the first bin that exists, after its amount and price, as each call does.
  let feesChecked = false;
  for (let call = 0; call < maxBins && remaining > 0n; call++) {
    const bin = bins_after.get(active) ?? getBin(active);
    let exhausted = true;
    if (bin === undefined) {
      steps.push({ bin_id: active, amount_in: 0n, amount_out: 0n, fee: 0n, protocol_fee: 0n });
    } else {
      checkAmountAndPrice(bin, remaining);
      if (!feesChecked) {
        checkFees(side);
        feesChecked = true;
      }
      const r = binSwap(bin, remaining, side, xForY);
      steps.push({
        bin_id: active,
        amount_in: r.amount_in,
        amount_out: r.amount_out,
        fee: r.fee,
        protocol_fee: r.protocol_fee,
      });
      bins_after.set(active, r.bin_after);
      remaining -= r.amount_in;
      out += r.amount_out;
      feesTotal += r.fee;
      protocolTotal += r.protocol_fee;
      exhausted = r.exhausted;
    }
    if (exhausted) {
      const next = xForY ? active - 1 : active + 1;
      // At the edge the contract keeps the active bin; every further call takes nothing, so stop.
      if (next < MIN_BIN_ID || next > MAX_BIN_ID) break;
      active = next;
    }
  }
  return {
    amount_in_used: amountIn - remaining,
    amount_out: out,
    unspent: remaining,
    fees: feesTotal,
    protocol_fees: protocolTotal,
    steps,
    active_bin_before: activeBinId,
    active_bin_after: active,
    bins_after,
  };
}

/** Multi-pool route: hop i's output is hop i+1's input; each hop is a swapWalk. */
export function routeWalk(
  hops: RouteHopInput[],
  amountIn: bigint,
): { amount_out: bigint; hops: SwapWalkResult[] } {
  const results: SwapWalkResult[] = [];
  let amount = amountIn;
  for (const hop of hops) {
    const r = swapWalk(hop.getBin, hop.activeBinId, hop.xForY, amount, hop.fees);
    results.push(r);
    amount = r.amount_out;
  }
  return { amount_out: amount, hops: results };
}

/**
 * What `amount` is worth after one hop at the active bin's `price`, net of the pool's fee on the input side
 * (no walk): the reference for price impact, so impact measures the price moved, not the fees paid.
 */
export function spotOutput(price: bigint, xForY: boolean, fees: PoolFees, amount: bigint): bigint {
  if (price <= 0n) return 0n;
  const feeBps = xForY
    ? fees.x_protocol + fees.x_provider + fees.x_variable
    : fees.y_protocol + fees.y_provider + fees.y_variable;
  const net = (amount * (FEE_SCALE - feeBps)) / FEE_SCALE;
  return xForY ? (net * price) / PRICE_SCALE : (net * PRICE_SCALE) / price;
}

/**
 * Price impact in basis points: the shortfall of `amountOut` against `reference` (the used input valued at
 * the active bins' prices, fees excluded, see spotOutput), floored; 0 when the output is at or above the
 * reference; null when there is no reference (nothing used, or a zero price).
 */
export function priceImpactBps(reference: bigint, amountOut: bigint): number | null {
  if (reference <= 0n) return null;
  return Number(amountOut >= reference ? 0n : ((reference - amountOut) * 10_000n) / reference);
}
