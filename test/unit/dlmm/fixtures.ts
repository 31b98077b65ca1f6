/** Shared math fixtures: mainnet dlmm_1 fees and the sBTC/USDCx bin 139 price (docs/contracts.md). */
import type { PoolFees } from '../../../core/dlmm/math';

/** Mainnet dlmm_1 fees: 25 + 25 + 0 bps each side. */
export const FEES: PoolFees = {
  x_protocol: 25n,
  x_provider: 25n,
  x_variable: 0n,
  y_protocol: 25n,
  y_provider: 25n,
  y_variable: 0n,
};

export const NO_FEES: PoolFees = {
  x_protocol: 0n,
  x_provider: 0n,
  x_variable: 0n,
  y_protocol: 0n,
  y_provider: 0n,
  y_variable: 0n,
};

/** sBTC/USDCx bin 139 price on mainnet. */
export const P = 76060388561n;
