/**
 * Prepared items: the output of the interface document's "Rules for preparing liquidity operations".
 * They are the single input of hover, export and the dashboard's plan preview. Field names follow the
 * interface document (snake_case); amounts and shares are bigint; bin ids are signed (-500..500).
 */
import type { Pool, Token } from '../api/types';
import type { DistributionResult } from './distribution';

export type OpMode = 'strict' | 'simple';

/** What the analysis knew about a pool when it prepared an operation. */
export interface PoolSnapshot {
  /** As written in the plan. */
  written_id: string;
  /** Contract principal (resolved from the pools list when an alias was written), when known. */
  pool_id: string;
  pool: Pool;
  token_x: Token | undefined;
  token_y: Token | undefined;
  active_bin_id: number;
  /** Engine applied state height the data belongs to (null when unknown). */
  state_height: number | null;
}

export interface PreparedAddItem {
  /** Index of the item in the plan's `bins` list, or in the expansion when `from_distribution`. */
  index: number;
  /** Expanded from the op's `distribution` (its source range is the distribution). */
  from_distribution?: true;
  is_active_bin: boolean;
  bin_id: number;
  x_amount: bigint;
  y_amount: bigint;
  bin_price: bigint;
  reserve_x: bigint;
  reserve_y: bigint;
  /** 0 when the list's liquidity is null (always on v2): never used for sizing. */
  bin_shares: bigint;
  /** Bin shares from a trusted source (node read-only get-bin-balances / inventory), when read. */
  bin_shares_known?: bigint;
  user_liquidity: bigint;
  has_ever_added_to_bin: boolean;
  active_bin_offset?: number;
}

export interface PreparedWithdrawItem {
  bin_id: number;
  user_liquidity: bigint;
  liquidity: bigint;
  reserve_x: bigint;
  reserve_y: bigint;
  /** As written (percent, 0 < p <= 100). */
  withdrawal_percentage: number;
  /** Shares withdrawn: floor(user_liquidity * p / 100), exact. */
  amount: bigint;
  /** Expected token amounts: floor(amount * reserve / liquidity). */
  x_amount: bigint;
  y_amount: bigint;
  has_ever_added_to_bin: boolean;
  active_bin_offset?: number;
}

export interface PreparedMoveItem {
  index: number;
  from_bin_id: number;
  to_bin_id: number;
  amount: bigint;
  /** floor(amount * from.reserve_x / from.liquidity) */
  x_amount: bigint;
  /** floor(amount * from.reserve_y / from.liquidity) */
  y_amount: bigint;
  /** Of the to bin. */
  bin_price: bigint;
  reserve_x: bigint;
  reserve_y: bigint;
  bin_shares: bigint;
  bin_shares_known?: bigint;
  is_active_bin: boolean;
  has_ever_added_to_from_bin: boolean;
  has_ever_added_to_to_bin: boolean;
  active_bin_offset?: number;
}

export interface PreparedSwap {
  input_token: string;
  output_token: string;
  amount_in: bigint;
  amm_strategy: string;
  /** Percent, as the quote engine takes it. */
  slippage_tolerance: number;
  provider?: string;
  /** The plan asks for the aggregator's swap parameters (POST /quotes/v2/agg/swap). */
  aggregator?: boolean;
  /** The engine's best route, when quoted. */
  route?: import('../api/types').Route;
  /** The route recomputed exactly from the bins read: input used, fill, output, disagreement. */
  check?: import('../quote/exact').QuoteCheck;
}

interface PreparedBase {
  /** The op's id, or its index as a string. */
  id: string;
  /** Index in `operations`. */
  index: number;
}

export type PreparedOperation =
  | (PreparedBase & {
      op: 'add';
      mode: OpMode;
      pool: PoolSnapshot;
      /** Explicit items first, then the distribution's expansion (when it expanded). */
      items: PreparedAddItem[];
      /** The distribution's expansion or its problem, when the op has one. */
      distribution?: DistributionResult;
    })
  | (PreparedBase & { op: 'withdraw'; mode: OpMode; pool: PoolSnapshot; items: PreparedWithdrawItem[] })
  | (PreparedBase & { op: 'move'; mode: OpMode; pool: PoolSnapshot; items: PreparedMoveItem[] })
  | (PreparedBase & { op: 'swap'; swap: PreparedSwap });
