/** Slippage bounds for contract arguments (slippage in ppm of the whole: 1% = 10_000n; see percent.ts). */
import { maxAfterSlippage, minAfterSlippage } from './percent';

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
