/**
 * zod schemas for every resource of the interface document (quote v2, app v2, inventory, node proxy),
 * with the tolerant variants DOMAIN.md lists. Response bodies are validated here, at the boundary;
 * the rest of the product only sees the parsed (normalized) types.
 *
 * Amounts: the wire may carry numeric strings, safe integers or (from the exact JSON reader) bigints.
 * All of them become bigint; a float or an unsafe JS number is rejected, never rounded.
 */
import * as z from 'zod';
import { MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';

/** A uint128-ish amount on the wire -> bigint. */
export const zAmount = z
  .union([
    z.bigint().nonnegative(),
    z.string().regex(/^\d+$/, 'expected a non-negative integer string'),
    z.number().int().nonnegative().refine(Number.isSafeInteger, 'integer beyond 2^53 arrived as a JS number'),
  ])
  .transform((v) => BigInt(v));

/** A JSON integer that must fit a JS number (bin ids, heights, decimals, bps). */
export const zInt = z.union([
  z.number().int(),
  z.bigint().transform((v, ctx) => {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      ctx.addIssue({ code: 'custom', message: 'integer out of range' });
      return z.NEVER;
    }
    return Number(v);
  }),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

export const zSignedBinId = zInt.pipe(z.number().int().min(MIN_BIN_ID).max(MAX_BIN_ID));
export const zUnsignedBinId = zInt.pipe(z.number().int().min(0).max(1000));

/** A Stacks principal: standard (SP..., ST..., SM..., SN...) or contract (ADDR.name). */
export const zPrincipal = z
  .string()
  .regex(/^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/);

// ---- quote engine v2 -------------------------------------------------------------------------------

/** GET /quotes/v2/ready and /app/v2/ready: a warmth gate. A 503 also means not ready. */
export const ReadySchema = z.looseObject({ ready: z.boolean().optional(), status: z.string().optional() });

/** GET /quotes/v2/status. tip_lag null means unknown: never caught up. */
export const StatusSchema = z.looseObject({
  ready: z.boolean(),
  state_height: zInt.nullable(),
  chain_tip: zInt.nullable(),
  tip_lag: zInt.nullable(),
  pool_count: zInt,
});
export type Status = z.infer<typeof StatusSchema>;

/** Token record (quote v2 /tokens). Fields beyond contract/decimals/asset_name are display only. */
export const TokenSchema = z.looseObject({
  contract_address: zPrincipal,
  symbol: z.string(),
  name: z.string().optional().nullable(),
  decimals: zInt.pipe(z.number().int().min(0).max(36)),
  /** The define-fungible-token name used in post-conditions; null for native STX wrapper. */
  asset_name: z.string().nullable().optional(),
  token_id: z.string().optional().nullable(),
});
export type Token = z.infer<typeof TokenSchema>;

/** Pool record (quote v2 /pools and /pools/{id}); DOMAIN.md "What mainnet v2 payloads look like". */
export const PoolSchema = z.looseObject({
  pool_id: z.string(),
  pool_alias: z.string().optional().nullable(),
  token_x: zPrincipal,
  token_y: zPrincipal,
  bin_step: zInt,
  active_bin: zSignedBinId,
  active: z.boolean(),
  quotable: z.boolean(),
  pool_status: z.union([z.string(), z.boolean()]).optional().nullable(),
  x_protocol_fee: zInt,
  x_provider_fee: zInt,
  x_variable_fee: zInt,
  y_protocol_fee: zInt,
  y_provider_fee: zInt,
  y_variable_fee: zInt,
  x_total_fee_bps: zInt.optional().nullable(),
  y_total_fee_bps: zInt.optional().nullable(),
  reserve_x: zAmount.optional().nullable(),
  reserve_y: zAmount.optional().nullable(),
});
export type Pool = z.infer<typeof PoolSchema>;

/**
 * Legacy v1 pool record (/quotes/v1/pools). The interface document does not show v1 shapes, so only
 * `pool_id` (the short adapter id) is required; every other PoolSchema field is read when present, with its
 * v2 type (a present field of another type is an unexpected response, never a guess). `pool_contract` is
 * the contract principal where the record names it.
 */
export const V1PoolSchema = PoolSchema.partial().extend({
  pool_id: z.string(),
  pool_contract: z.string().optional().nullable(),
});
export type V1Pool = z.infer<typeof V1PoolSchema>;

/** Pair record (quote v2 /pairs). The document does not show its fields; ours are tolerant. */
export const PairSchema = z.looseObject({
  token_x: zPrincipal,
  token_y: zPrincipal,
  pools: z.array(z.string()).optional(),
});
export type Pair = z.infer<typeof PairSchema>;

/** A quote v2 bin with its id in the given form; liquidity is always null on v2 (never bin shares). */
const binRecord = <Id extends z.ZodType>(binId: Id) =>
  z.looseObject({
    pool_id: z.string().optional(),
    bin_id: binId,
    price: zAmount,
    reserve_x: zAmount,
    reserve_y: zAmount,
    liquidity: zAmount.nullable().optional(),
  });

/** One bin of the quote v2 list: signed id. */
export const BinSchema = binRecord(zSignedBinId);
export type Bin = z.infer<typeof BinSchema>;

/** GET /quotes/v2/bins/{pool_id}. Empty bins + 'Pool not found' is an error (client maps it). */
export const BinListSchema = z.looseObject({
  success: z.boolean().optional(),
  pool_id: z.string().optional().nullable(),
  active_bin_id: zSignedBinId.nullable(),
  bins: z.array(BinSchema),
  total_bins: zInt.optional().nullable(),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});
export type BinList = z.infer<typeof BinListSchema>;

/** GET /quotes/v2/bins/{pool}/{bin_id}: single bin, unsigned id in the path and the body. */
export const SingleBinSchema = binRecord(zUnsignedBinId);
export type SingleBin = z.infer<typeof SingleBinSchema>;

/** POST /quotes/v2/quote body. amount_in is sent as a JSON integer literal (exact, see the client). */
export interface QuoteRequest {
  input_token: string;
  output_token: string;
  amount_in: bigint;
  amm_strategy?: string;
  /** Percent: 1 means 1%. */
  slippage_tolerance?: number;
}

/** One hop of a route as our engine describes it (the document shows only the fields the swap request consumes). */
export const RouteHopSchema = z.looseObject({
  pool_id: z.string(),
  input_token: zPrincipal,
  output_token: zPrincipal,
  x_for_y: z.boolean(),
  amount_in: zAmount,
  amount_out: zAmount,
  /** Signed ids of bins the hop consumed, in walk order, with per-bin in/out. */
  bins: z.array(z.looseObject({ bin_id: zSignedBinId, amount_in: zAmount, amount_out: zAmount })).optional(),
});
export type RouteHop = z.infer<typeof RouteHopSchema>;

/** A route (POST /quotes/v2/quote answer, and each element of /quote/multi). */
export const RouteSchema = z.looseObject({
  execution_path: z.array(RouteHopSchema),
  amount_in: zAmount.optional(),
  amount_out: zAmount,
  input_token_decimals: zInt,
  output_token_decimals: zInt,
  slippage_tolerance: z.number(),
  min_amount_out: zAmount.optional(),
  price_impact_bps: zInt.optional().nullable(),
  amm_strategy: z.string().optional(),
});
export type Route = z.infer<typeof RouteSchema>;

/** /quote answers a route, or an object holding it under `route`; /quote/multi a list or `{routes}`. */
export const QuoteResponseSchema = z.union([RouteSchema, z.looseObject({ route: RouteSchema })]);
export const MultiQuoteResponseSchema = z.union([
  z.array(RouteSchema),
  z.looseObject({ routes: z.array(RouteSchema) }),
]);

/** POST /quotes/v2/swap body. */
export interface SwapParamsRequest {
  execution_path: unknown[];
  amount_in: bigint;
  amount_out: bigint;
  input_token: string;
  output_token: string;
  input_token_decimals: number;
  output_token_decimals: number;
  slippage_tolerance: number;
  swap_parameters_type?: 'simple' | 'full';
  provider?: string;
}

/** POST /quotes/v2/swap answer: the document does not show its fields; ours names the router call. */
export const SwapParamsSchema = z.looseObject({
  contract: z.string(),
  function_name: z.string(),
  min_amount_out: zAmount.optional(),
  provider: z.string().nullable().optional(),
});
export type SwapParams = z.infer<typeof SwapParamsSchema>;

// ---- app v2 ----------------------------------------------------------------------------------------

/**
 * One user position bin (app v2). Accepts the document's snake_case and the camelCase variants seen on
 * mainnet; raw integer shares (`user_liquidity` as integer, or `userShares`) win; a human-scaled
 * `userLiquidity` float is never read as shares. Normalized to snake_case with bigints.
 */
export const PositionBinSchema = z
  .looseObject({
    bin_id: zSignedBinId.optional(),
    binId: zSignedBinId.optional(),
    user_liquidity: zAmount.optional(),
    userShares: zAmount.optional(),
    user_shares: zAmount.optional(),
    liquidity: zAmount.nullable().optional(),
    totalShares: zAmount.nullable().optional(),
    total_shares: zAmount.nullable().optional(),
    reserve_x: zAmount.optional(),
    reserveX: zAmount.optional(),
    reserve_y: zAmount.optional(),
    reserveY: zAmount.optional(),
  })
  .transform((b, ctx) => {
    const binId = b.bin_id ?? b.binId;
    const userLiquidity = b.userShares ?? b.user_shares ?? b.user_liquidity;
    if (binId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['bin_id'], message: 'missing bin_id' });
      return z.NEVER;
    }
    if (userLiquidity === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['user_liquidity'],
        message: 'missing raw integer shares (user_liquidity or userShares)',
      });
      return z.NEVER;
    }
    return {
      bin_id: binId,
      user_liquidity: userLiquidity,
      liquidity: b.liquidity ?? b.total_shares ?? b.totalShares ?? null,
      reserve_x: b.reserve_x ?? b.reserveX ?? 0n,
      reserve_y: b.reserve_y ?? b.reserveY ?? 0n,
    };
  });
export type PositionBin = z.infer<typeof PositionBinSchema>;

export const PositionBinsResponseSchema = z.looseObject({
  bins: z.array(PositionBinSchema),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});

/** GET /app/v2/pools/{id}/bin-price-history: a list of points (tolerant: bare list or {history|points}). */
export const PricePointSchema = z.looseObject({
  timestamp: zInt,
  bin_id: zSignedBinId.optional(),
  price: zAmount,
});
export type PricePoint = z.infer<typeof PricePointSchema>;

// ---- market-maker inventory ------------------------------------------------------------------------

export const InventoryBinSchema = z
  .looseObject({
    bin_id: zUnsignedBinId,
    shares: zAmount.optional(),
    user_liquidity: zAmount.optional(),
    liquidity: zAmount.nullable().optional(),
    total_shares: zAmount.nullable().optional(),
    reserve_x: zAmount,
    reserve_y: zAmount,
  })
  .transform((b, ctx) => {
    const shares = b.shares ?? b.user_liquidity;
    if (shares === undefined) {
      ctx.addIssue({ code: 'custom', path: ['shares'], message: 'missing raw shares' });
      return z.NEVER;
    }
    return {
      bin_id: b.bin_id,
      shares,
      total_shares: b.total_shares ?? b.liquidity ?? null,
      reserve_x: b.reserve_x,
      reserve_y: b.reserve_y,
    };
  });

/** Inventory success body. An empty book is only 200 + bins [] + clean true (the client enforces). */
export const InventorySchema = z.looseObject({
  pool: z.string(),
  pool_alias: z.string().nullable().optional(),
  clean: z.boolean(),
  tip_lag: zInt.nullable(),
  bin_id_domain: z.string(),
  bins: z.array(InventoryBinSchema),
});
export type Inventory = z.infer<typeof InventorySchema>;

/** Inventory 503 body. */
export const InventoryFaultSchema = z.looseObject({
  code: z.enum(['TIP_LAG', 'RECONCILE_DIRTY', 'INCOMPLETE']),
  message: z.string().optional(),
  tip_lag: zInt.nullable().optional(),
});

// ---- node read-only proxy --------------------------------------------------------------------------

/** POST {node}/v2/contracts/call-read/{addr}/{name}/{fn}: Clarity values hex-encoded, as a Stacks node answers. */
export const ReadOnlyResultSchema = z.looseObject({
  okay: z.boolean(),
  result: z.string().optional(),
  cause: z.string().optional(),
});
export type ReadOnlyResult = z.infer<typeof ReadOnlyResultSchema>;
