/**
 * Bin prices of a simulated pool from the geometric rule (docs/contracts.md "Bins and prices"):
 * price(b) = price(active) * (1 + step/10000)^(b - active), computed as an exact rational and floored.
 */
import { BIN_ID_OFFSET, FEE_SCALE, MAX_BIN_ID, MIN_BIN_ID, NUM_BINS } from '../dlmm/bins';

/** Prices of all 1001 bins, indexed by unsigned id (signed + 500). */
export function geometricBinPrices(activeBinId: number, activePrice: bigint, binStep: number): bigint[] {
  const up = FEE_SCALE + BigInt(binStep);
  const prices = new Array<bigint>(NUM_BINS).fill(0n);
  prices[activeBinId + BIN_ID_OFFSET] = activePrice;
  // Exact powers accumulate step by step; each bin divides once, so no rounding compounds.
  let num = 1n;
  let den = 1n;
  for (let b = activeBinId + 1; b <= MAX_BIN_ID; b++) {
    num *= up;
    den *= FEE_SCALE;
    prices[b + BIN_ID_OFFSET] = (activePrice * num) / den;
  }
  num = 1n;
  den = 1n;
  for (let b = activeBinId - 1; b >= MIN_BIN_ID; b--) {
    num *= FEE_SCALE;
    den *= up;
    prices[b + BIN_ID_OFFSET] = (activePrice * num) / den;
  }
  return prices;
}
