/** Shared shapes of the pool math (re-exported by math.ts). All amounts are u128 values held in bigint. */
import type { ContractErrorName } from './contractErrors';

/** A pool's fees in basis points (FEE_SCALE = 10000); x_* apply to x input, y_* to y input. */
export interface PoolFees {
  x_protocol: bigint;
  x_provider: bigint;
  x_variable: bigint;
  y_protocol: bigint;
  y_provider: bigint;
  y_variable: bigint;
}

/** One bin: price (Y per X times 1e8), reserves in base units and total shares (incl. burned shares). */
export interface BinBalances {
  price: bigint;
  reserve_x: bigint;
  reserve_y: bigint;
  shares: bigint;
}

/** Either a value or the contract error the call would revert with. */
export type LiquidityResult<T> =
  { ok: true; value: T } | { ok: false; error: ContractErrorName; detail: string };
