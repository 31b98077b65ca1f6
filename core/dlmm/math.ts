/**
 * Exact integer DLMM math (bigint, u128, floor division as Clarity), mirroring dlmm-core-v-1-1 and the
 * routers. Entry point for other areas; the implementation lives in the sibling files.
 */
export type { BinBalances, LiquidityResult, PoolFees } from './types';
export type { ContractErrorName } from './contractErrors';
export { contractErrorCode } from './contractErrors';
export { U128RangeError, isqrt, liquidityValue } from './arith';
export type { SwapStep, SwapWalkResult } from './swap';
export { priceImpactBps, routeWalk, spotOutput, swapWalk, swapXForYInBin, swapYForXInBin } from './swap';
export type { AddOutcome, BodyHead, CoreMinimums } from './liquidity';
export {
  LAUNCH_MINIMUMS,
  addLiquidity,
  checkAddBounds,
  moveLiquidity,
  sharesToAmounts,
  withdrawLiquidity,
} from './liquidity';
export { maxLiquidityFee, minDlp, minReceived } from './bounds';
