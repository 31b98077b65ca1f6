/** Slippage bounds for contract arguments (slippage in ppm of the whole: 1% = 10_000n; see percent.ts). */
import { maxAfterSlippage, minAfterSlippage, percentToPpm, PPM_SCALE } from './percent';

/** min-dlp for an add/move: floor(expected * (1 - s)), never below 1 (the contract asserts min-dlp > 0). */
export function minDlp(expectedMinted: bigint, slippagePpm: bigint): bigint {
  const bound = minAfterSlippage(expectedMinted < 0n ? 0n : expectedMinted, slippagePpm);
  return bound < 1n ? 1n : bound;
}

/** max-x/y-liquidity-fee: ceil(expected * (1 + s)); 0 stays 0 (no fee expected means none accepted). */
export function maxLiquidityFee(expectedFee: bigint, slippagePpm: bigint): bigint {
  if (expectedFee <= 0n) return 0n;
  return maxAfterSlippage(expectedFee, slippagePpm < 0n ? 0n : slippagePpm);
}

/** Minimum output of a swap: floor(expected * (1 - s)); may be 0 for a zero quote. */
export function minReceived(expectedOut: bigint, slippagePpm: bigint): bigint {
  return minAfterSlippage(expectedOut < 0n ? 0n : expectedOut, slippagePpm);
}

/**
 * Slippage tolerance: percent (1 means 1%), at most 4 fraction digits, from 0 to below 100 (100 or more
 * would let a bound fall to 0, accepting to receive nothing). The one rule every face reads a slippage by.
 */
export const DEFAULT_SLIPPAGE = 1;

/** Exclusive upper bound of a slippage tolerance, in percent. */
export const SLIPPAGE_LIMIT = 100;

/** A slippage percent (number or decimal text) to ppm; undefined when not exact or not below 100. */
export function slippageToPpm(value: number | string): bigint | undefined {
  const ppm = percentToPpm(value);
  return ppm !== undefined && ppm < PPM_SCALE ? ppm : undefined;
}

/** The plausible band, in percent: outside it, a slippage is likely a fraction (0.01 for 1%) or a typo. */
export const SLIPPAGE_PLAUSIBLE = { low: 0.05, high: 50 } as const;

const PLAUSIBLE_PPM = {
  low: percentToPpm(SLIPPAGE_PLAUSIBLE.low)!,
  high: percentToPpm(SLIPPAGE_PLAUSIBLE.high)!,
};

/** Whether a slippage (ppm) lies in the plausible band 0.05..50 percent (both ends included). */
export function slippagePlausible(ppm: bigint): boolean {
  return ppm >= PLAUSIBLE_PPM.low && ppm <= PLAUSIBLE_PPM.high;
}

/**
 * The slippage a face applies: the first of `written` (the operation's, then the plan's, then the setting's,
 * in the caller's order) that is a valid slippage, else the default 1%. Every face takes its minimum received
 * at this percent.
 */
export function effectiveSlippage<T extends number | string>(
  ...written: (T | undefined | null)[]
): { percent: T | typeof DEFAULT_SLIPPAGE; ppm: bigint } {
  for (const w of written) {
    if (w === undefined || w === null) continue;
    const ppm = slippageToPpm(w);
    if (ppm !== undefined) return { percent: w, ppm };
  }
  return { percent: DEFAULT_SLIPPAGE, ppm: slippageToPpm(DEFAULT_SLIPPAGE)! };
}
