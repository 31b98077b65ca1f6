/**
 * zod schemas for every resource of the interface document (quote v2, app v2, inventory, node proxy),
 * with the tolerant variants docs/service-shapes.md lists. Response bodies are validated here, at the boundary;
 * the rest of the product only sees the parsed (normalized) types.
 *
 * Amounts: the wire may carry numeric strings, safe integers or (from the exact JSON reader) bigints.
 * All of them become bigint; a float or an unsafe JS number is rejected, never rounded.
 */
import * as z from 'zod';
import { MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import { INVENTORY_FAULTS } from './errors';
import { isJsonDecimal, type JsonDecimal } from './json';

/** A decimal the exact reader kept as text (recognised across bundles: isJsonDecimal). */
const zJsonDecimal = z.custom<JsonDecimal>(isJsonDecimal, 'expected a decimal number');

/** The largest uint128: no amount on the chain is larger. */
const MAX_U128 = (1n << 128n) - 1n;

/**
 * A number with a fraction or an exponent (kept as its text by the exact reader, json.ts) where a whole
 * number is expected: refused, never rounded (`1e-400` is not 0, `138.99999999999999999999` not 139).
 */
const zNotWhole = zJsonDecimal.transform((_v, ctx): never => {
  ctx.addIssue({
    code: 'custom',
    message: 'expected a whole number; a fraction or an exponent is never rounded to one',
  });
  return z.NEVER;
});

/** A uint128 amount on the wire -> bigint: a digit string, a safe integer or a bigint, up to 2^128 - 1. */
const zAmount = z
  .union([
    z.bigint().nonnegative(),
    z.string().regex(/^\d+$/, 'expected a non-negative integer string'),
    z.number().int().nonnegative().refine(Number.isSafeInteger, 'integer beyond 2^53 arrived as a JS number'),
    zNotWhole,
  ])
  .transform((v) => BigInt(v))
  .refine((v) => v <= MAX_U128, 'exceeds uint128 (2^128 - 1)');

/**
 * A JSON integer that must fit a JS number (bin ids, heights, decimals, bps): a safe integer, a bigint or a
 * digit string within the safe range (beyond it: refused, never rounded).
 */
export const zInt = z.union([
  z.number().int().refine(Number.isSafeInteger, 'integer beyond 2^53 arrived as a JS number'),
  z.bigint().transform((v, ctx) => {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      ctx.addIssue({ code: 'custom', message: 'integer out of range (beyond 2^53)' });
      return z.NEVER;
    }
    return Number(v);
  }),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform((v, ctx) => {
      const n = Number(v);
      if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: 'custom', message: 'integer out of range (beyond 2^53)' });
        return z.NEVER;
      }
      return n;
    }),
  zNotWhole,
]);

/** A height, a count or a lag: a non-negative safe integer. */
const zCount = zInt.pipe(z.number().int().min(0));

const zSignedBinId = zInt.pipe(z.number().int().min(MIN_BIN_ID).max(MAX_BIN_ID));
const zUnsignedBinId = zInt.pipe(z.number().int().min(0).max(1000));
/** A token's decimals. */
export const zDecimals = zInt.pipe(z.number().int().min(0).max(36));

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
  state_height: zCount.nullable(),
  chain_tip: zCount.nullable(),
  // A negative lag is read, and never believed as caught up (tip-unknown); a fraction is refused.
  tip_lag: zInt.nullable(),
  pool_count: zCount,
});
export type Status = z.infer<typeof StatusSchema>;

/**
 * Token record (quote v2 /tokens), as the published types give it (TokenInfo): contract_address, symbol,
 * name, decimals, asset_name, total_supply, image; there is no token id on the quote engine. Fields beyond
 * contract/decimals/asset_name are display only.
 */
export const TokenSchema = z.looseObject({
  contract_address: zPrincipal,
  symbol: z.string(),
  name: z.string().optional().nullable(),
  decimals: zDecimals,
  /** The define-fungible-token name used in post-conditions; null for native STX wrapper. */
  asset_name: z.string().nullable().optional(),
  /** Display only: a JSON number on the wire (possibly beyond 2^53, read exactly), a string, or null. */
  total_supply: z
    .union([z.bigint(), z.number(), z.string(), zJsonDecimal.transform((v) => v.text)])
    .nullable()
    .optional(),
  image: z.string().nullable().optional(),
});
export type Token = z.infer<typeof TokenSchema>;

/** A nullable display string of the pool record (the engine leaves many v1 fields null on v2). */
const zOptText = z.string().nullable().optional();

/**
 * Pool record (quote v2 /pools and /pools/{id}): the document's fields plus the published PoolInfo fields
 * and what the captured mainnet record carries (test/fixtures/bff/README.md). `x_total_fee_bps` arrives as a
 * digit string; `pool_alias` is not a field of the real record (kept optional for older engines only: the
 * alias comes from the v1 pools list, core/live/live.ts).
 */
export const PoolSchema = z.looseObject({
  pool_id: z.string(),
  pool_alias: z.string().optional().nullable(),
  amm_type: zOptText,
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
  types: z.array(z.string()).nullable().optional(),
  sbtc_incentives: z.boolean().nullable().optional(),
  suggested: z.boolean().nullable().optional(),
  initial_price: zAmount.nullable().optional(),
  pool_name: zOptText,
  pool_symbol: zOptText,
  pool_uri: zOptText,
  creation_height: zCount.nullable().optional(),
  variable_fees_manager: zOptText,
  fee_address: zOptText,
  variable_fees_cooldown: zInt.nullable().optional(),
  freeze_variable_fees_manager: z.union([z.string(), z.boolean()]).nullable().optional(),
  core_address: zOptText,
  /** The pool's contract principal on v1 records (the SIP-013 pool token is the pool contract). */
  pool_token: zOptText,
  creator: zOptText,
  total_shares: zAmount.nullable().optional(),
  lp_decimals: zInt.nullable().optional(),
  asset_name: zOptText,
});
export type Pool = z.infer<typeof PoolSchema>;

/**
 * Legacy v1 pool record (/quotes/v1/pools, the captured mainnet v1 record): `pool_id` is the short alias
 * (dlmm_<n>) and `pool_token` the pool's contract principal, so this list is where an alias is mapped to its
 * principal. Only `pool_id` is required; every other PoolSchema field is read when present, with its type
 * (a present field of another type is an unexpected response, never a guess). The v1 `active_bin` is
 * unsigned on the wire (the published PoolInfo: "Returns unsigned active_bin"; mainnet dlmm_1 639): it
 * becomes the signed id here, at the edge.
 */
export const V1PoolSchema = PoolSchema.partial().extend({
  pool_id: z.string(),
  active_bin: zUnsignedBinId.transform((id) => id - 500).optional(),
});
export type V1Pool = z.infer<typeof V1PoolSchema>;

/** One reachable output of GET /quotes/v2/pairs?input_token=… (the published PairInfo). */
export const PairSchema = z.looseObject({
  output_token: zPrincipal,
  output_token_symbol: zOptText,
  output_token_name: zOptText,
  output_token_decimals: zInt.nullable().optional(),
  output_token_image: zOptText,
  /** Pool contract principals that trade the pair. */
  pools: z.array(z.string()),
  /** The same pools' ids (aliases) in the same order. */
  pools_id: z.array(z.string()),
  amm_types: z.array(z.string()),
});
export type Pair = z.infer<typeof PairSchema>;

/** GET /quotes/v2/pairs?input_token=… (the published PairsResponse); 422 without the parameter. */
export const PairsResponseSchema = z.looseObject({
  input_token: zPrincipal,
  input_token_symbol: zOptText,
  input_token_name: zOptText,
  input_token_decimals: zInt.nullable().optional(),
  input_token_image: zOptText,
  pairs: z.array(PairSchema),
});
export type PairsResponse = z.infer<typeof PairsResponseSchema>;
/**
 * A quote v2 bin with its id in the given form. `liquidity` carries the bin's shares as a digit string on
 * most mainnet bins (null on dust bins); it is read (a malformed value is an unexpected response) but never
 * used as bin shares: the interface document's rule (trusted shares: core/plan/shares.ts).
 */
const binRecord = <Id extends z.ZodType>(binId: Id) =>
  z.looseObject({
    pool_id: z.string().optional(),
    bin_id: binId,
    price: zAmount,
    reserve_x: zAmount,
    reserve_y: zAmount,
    liquidity: zAmount.nullable().optional(),
  });

/** The fields of a bin list, its bin ids (the list's and each bin's) in the given form. */
const binListFields = <Id extends z.ZodType>(binId: Id) => ({
  success: z.boolean().optional(),
  pool_id: z.string().optional().nullable(),
  active_bin_id: binId.nullable(),
  bins: z.array(binRecord(binId)),
  total_bins: zCount.optional().nullable(),
  error: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});

/**
 * GET /quotes/v2/bins/{pool_id}. Empty bins + 'Pool not found' is an error (client maps it). `pool_id`
 * echoes the id as asked (the alias when asked by alias); `total_bins` is the pool's 1001, not the count
 * listed (only bins with reserves are listed).
 */
export const BinListSchema = z.looseObject(binListFields(zSignedBinId));
export type BinList = z.infer<typeof BinListSchema>;
/** One bin of the quote v2 list: signed id. */
export type Bin = BinList['bins'][number];

/**
 * GET /quotes/v1/bins/{pool_id}: the legacy list names bins by unsigned id (mainnet dlmm_1: bin 639 active),
 * converted to the signed domain here, at the edge, so the rest of the product sees one domain.
 */
export const V1BinListSchema = z.looseObject(binListFields(zUnsignedBinId)).transform((l): BinList => ({
  ...l,
  active_bin_id: l.active_bin_id === null ? null : l.active_bin_id - 500,
  bins: l.bins.map((b) => ({ ...b, bin_id: b.bin_id - 500 })),
}));

/**
 * GET /quotes/v2/bins/{pool}/{bin_id} and /bins/{pool}/active (the published BinDetailResponse): one bin
 * with `is_active`. The id in the path and the body is unsigned (the document's single-bin rule).
 */
export const SingleBinSchema = binRecord(zUnsignedBinId).extend({
  success: z.boolean().optional(),
  is_active: z.boolean(),
  error: z.string().nullable().optional(),
});
export type SingleBin = z.infer<typeof SingleBinSchema>;

/**
 * POST /quotes/v2/quote body. `amount_in` is written as the interface document's JSON integer (exact, never
 * through a float) until the service refuses that with a 422 naming `amount_in`; the client then sends it as
 * the published string of base units (core/api/client.ts).
 */
export interface QuoteRequest {
  input_token: string;
  output_token: string;
  amount_in: bigint;
  /** best | preferred | pure (the published QuoteRequest); 'best' when absent. */
  amm_strategy?: string;
  /** Percent: 1 means 1%. */
  slippage_tolerance?: number;
}

/**
 * A decimal figure of the quote engine, e.g. "2995802098.950524737631184408" (published QuoteResponse:
 * amount_out, min_amount_out, fee, price_impact_tokens are strings). Kept as the text sent; read by its
 * digits only (decimalFloor), never through a float. A JSON integer (the document's number) is read too, and a
 * JSON number with a fraction by the digits it was written with (kept as text by the exact reader, json.ts);
 * one with an exponent is refused.
 */
const zDecimalText = z.union([
  z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal number as a string, e.g. "1234.5"'),
  zJsonDecimal
    .refine((v) => /^-?\d+(\.\d+)?$/.test(v.text), 'expected a plain decimal, e.g. 1234.5 (no exponent)')
    .transform((v) => v.text),
  z.bigint().transform(String),
  z
    .number()
    .int()
    .refine(Number.isSafeInteger, 'integer beyond 2^53 arrived as a JS number')
    .transform(String),
]);

/** A non-negative decimal figure (amounts). */
const zAmountText = zDecimalText.refine((t) => !t.startsWith('-'), 'expected a non-negative amount');

/** The integer part of a non-negative decimal text (base units the engine's figure covers whole). */
function decimalFloor(text: string): bigint {
  const dot = text.indexOf('.');
  return BigInt(dot === -1 ? text : text.slice(0, dot));
}

/** A contract principal ADDR.name (pool and token traits). */
const zContractPrincipal = zPrincipal.refine(
  (v) => v.includes('.'),
  'expected a contract principal ADDR.name',
);

/**
 * One step of a route (published ExecutionStep): one bin of one pool. Kept as the engine sent it (it is
 * posted back unchanged to /quotes/v2/swap); the hops are derived from the steps (routeHops).
 * `expected_bin_id` is read as the v2 signed id (the quote v2 convention, and the router's Clarity int).
 */
const ExecutionStepSchema = z.looseObject({
  pool_trait: zContractPrincipal,
  pool_id: z.string().nullable().optional(),
  x_token_trait: zContractPrincipal,
  y_token_trait: zContractPrincipal,
  expected_bin_id: zSignedBinId,
  function_name: z.enum(['swap-x-for-y', 'swap-y-for-x']),
  x_in: zAmountText.nullable().optional(),
  y_in: zAmountText.nullable().optional(),
  x_out: zAmountText.nullable().optional(),
  y_out: zAmountText.nullable().optional(),
  is_empty_swap: z.boolean().nullable().optional(),
});
export type ExecutionStep = z.infer<typeof ExecutionStepSchema>;

/** One bin of a hop: signed id and the base units in and out (0 in for a crossed bin that trades nothing). */
export interface RouteBin {
  bin_id: number;
  amount_in: bigint;
  amount_out: bigint;
}

/** One hop of a route: consecutive steps in one pool and direction. */
export interface RouteHop {
  /** The pool's contract principal (the steps' pool_trait). */
  pool_id: string;
  /** The engine's own pool id for it (the steps' pool_id, e.g. dlmm_1), when given. */
  alias: string | null;
  input_token: string;
  output_token: string;
  x_for_y: boolean;
  /** Sum of the steps' input (integer parts). */
  amount_in: bigint;
  /** Sum of the steps' output (integer parts). */
  amount_out: bigint;
  bins: RouteBin[];
}

/**
 * A display-only figure (slippage in percent, price impact in bps): shown, never used in a bound; a decimal
 * is read as the nearest double, and one beyond a double's range is refused.
 */
const numberish = z.union([
  z.number(),
  z.bigint().transform((v) => Number(v)),
  zJsonDecimal
    .transform((v) => Number(v.text))
    .refine(Number.isFinite, 'beyond the range of a display figure'),
]);

/** The fields of a route (published QuoteResponse and RouteInfo), before its hops are derived. */
const routeFields = {
  success: z.boolean().optional(),
  execution_path: z.array(ExecutionStepSchema),
  amount_out: zAmountText,
  min_amount_out: zAmountText,
  slippage_tolerance: numberish,
  route_path: z.array(zPrincipal),
  fee: zDecimalText,
  price_impact_bps: numberish.nullable(),
  price_impact_tokens: zDecimalText,
  input_token_decimals: zDecimals.nullable().optional(),
  output_token_decimals: zDecimals.nullable().optional(),
  execution_details: z
    .looseObject({
      amm_type: z.string().optional().nullable(),
      bins_traversed: zInt.optional().nullable(),
      strategy: z.string().optional().nullable(),
      unique_bins_used: zInt.optional().nullable(),
    })
    .nullable()
    .optional(),
  error: z.string().nullable().optional(),
};

/** A route as the product uses it: the engine's fields, its decimal figures as integers, and its hops. */
export type Route = Omit<z.output<z.ZodObject<typeof routeFields>>, 'amount_out' | 'min_amount_out'> & {
  /** Integer part of the engine's amount_out (base units). */
  amount_out: bigint;
  /** The engine's amount_out as sent (keeps its fraction). */
  amount_out_text: string;
  min_amount_out: bigint;
  min_amount_out_text: string;
  /** The hops derived from the per-bin steps: a new hop wherever the pool (or direction) changes. */
  hops: RouteHop[];
  /** /quote/multi only: the route's 1-based index and hop count as the engine numbered them. */
  route_index?: number;
  total_hops?: number;
  /** The strategy asked for (not an engine field). */
  amm_strategy?: string;
  /** Input the route takes, where its source states it (the core swap API's quote; the engine does not). */
  amount_in_used?: bigint;
};

/**
 * The hops of a route from its per-bin steps: the pool from pool_trait, the direction from function_name,
 * a new hop wherever the pool or direction changes; consecutive hops must chain (one's output is the next
 * one's input). A step's input and output amounts for its direction must be given (an empty swap's input
 * counts 0: it only moves the active bin).
 */
function routeHops(steps: readonly ExecutionStep[], ctx: z.RefinementCtx): RouteHop[] | undefined {
  const hops: RouteHop[] = [];
  for (const [i, s] of steps.entries()) {
    const xForY = s.function_name === 'swap-x-for-y';
    const inKey = xForY ? 'x_in' : 'y_in';
    const outKey = xForY ? 'y_out' : 'x_out';
    const empty = s.is_empty_swap === true;
    const inText = s[inKey];
    const outText = s[outKey];
    const missing = empty ? undefined : [inKey, outKey].find((k) => s[k] === undefined || s[k] === null);
    if (missing) {
      ctx.addIssue({
        code: 'custom',
        path: ['execution_path', i, missing],
        message: `a ${s.function_name} step needs ${missing}`,
      });
      return undefined;
    }
    const amountIn = empty ? 0n : decimalFloor(inText as string);
    const amountOut = outText === undefined || outText === null ? 0n : decimalFloor(outText);
    const input = xForY ? s.x_token_trait : s.y_token_trait;
    const output = xForY ? s.y_token_trait : s.x_token_trait;
    let hop = hops[hops.length - 1];
    if (!hop || hop.pool_id !== s.pool_trait || hop.x_for_y !== xForY) {
      if (hop && hop.output_token !== input) {
        ctx.addIssue({
          code: 'custom',
          path: ['execution_path', i, 'function_name'],
          message: `this step spends ${input}, but the previous hop gives ${hop.output_token}`,
        });
        return undefined;
      }
      hop = {
        pool_id: s.pool_trait,
        alias: s.pool_id ?? null,
        input_token: input,
        output_token: output,
        x_for_y: xForY,
        amount_in: 0n,
        amount_out: 0n,
        bins: [],
      };
      hops.push(hop);
    } else if (hop.input_token !== input || hop.output_token !== output) {
      ctx.addIssue({
        code: 'custom',
        path: ['execution_path', i, 'x_token_trait'],
        message: `this step names other tokens than the earlier steps in pool ${s.pool_trait}`,
      });
      return undefined;
    }
    hop.amount_in += amountIn;
    hop.amount_out += amountOut;
    hop.bins.push({ bin_id: s.expected_bin_id, amount_in: amountIn, amount_out: amountOut });
  }
  return hops;
}

const toRoute = <T extends { amount_out: string; min_amount_out: string; execution_path: ExecutionStep[] }>(
  r: T,
  ctx: z.RefinementCtx,
) => {
  const hops = routeHops(r.execution_path, ctx);
  if (!hops) return z.NEVER;
  return {
    ...r,
    amount_out: decimalFloor(r.amount_out),
    amount_out_text: r.amount_out,
    min_amount_out: decimalFloor(r.min_amount_out),
    min_amount_out_text: r.min_amount_out,
    hops,
  };
};

/** POST /quotes/v2/quote answer (published QuoteResponse): flat. */
export const QuoteResponseSchema = z.looseObject(routeFields).transform((r, ctx): Route => toRoute(r, ctx));

/** One route of /quote/multi (published RouteInfo). */
const RouteInfoSchema = z
  .looseObject({ ...routeFields, route_index: zInt.pipe(z.number().int().min(1)), total_hops: zInt })
  .transform((r, ctx): Route => toRoute(r, ctx));

/** POST /quotes/v2/quote/multi answer (published MultiRouteQuoteResponse). */
export const MultiQuoteResponseSchema = z.looseObject({
  success: z.boolean(),
  routes: z.array(RouteInfoSchema),
  best_route_index: zInt.nullable().optional(),
  error: z.string().nullable().optional(),
});

/**
 * POST /quotes/v2/swap (and agg/swap) body (published SwapRequest). The amounts are written like the quote's
 * amount_in (a JSON integer, or the string form once the host asked for it).
 */
export interface SwapParamsRequest {
  /** The route's steps exactly as the engine sent them. */
  execution_path: ExecutionStep[];
  amount_in: bigint;
  /** Base units: the integer part of the route's amount_out. */
  amount_out: bigint;
  input_token: string;
  output_token: string;
  input_token_decimals?: number | null;
  output_token_decimals?: number | null;
  slippage_tolerance: number;
  swap_parameters_type?: 'simple' | 'full';
  provider?: string;
}

/** A post-condition the engine proposes (published PostCondition); shown, never used to bound. */
const SwapPostConditionSchema = z.looseObject({
  amount: zAmountText,
  sender_address: z.string(),
  condition_code: z.string(),
  /** "ADDR.name::asset" for a fungible token. */
  token_contract: z.string(),
  token_decimals: zInt,
  token_asset_name: z.string(),
  post_condition_type: z.string(),
});

/**
 * POST /quotes/v2/swap and /quotes/v2/agg/swap answer (published SwapResponse). Read to be shown: the export
 * builds its own router call and never takes the engine's function on trust (its simple swap names
 * swap-simple-multi, which Bitflow's own bot documents as broken on v-1-2).
 */
export const SwapParamsSchema = z.looseObject({
  success: z.boolean(),
  slippage_tolerance: numberish,
  swap_contract: zContractPrincipal,
  function_name: z.string(),
  swap_parameters: z.array(z.looseObject({})),
  swap_parameters_typed: z.array(z.looseObject({})),
  post_conditions: z.array(SwapPostConditionSchema),
  total_hops: zInt,
  error: z.string().nullable().optional(),
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

/** One owned bin of app v2 current-bins: both id forms (they must agree), raw shares and reserves as strings. */
const CurrentBinSchema = z
  .looseObject({
    binIdUnsigned: zUnsignedBinId,
    binIdSigned: zSignedBinId,
    userShares: zAmount,
    binShares: zAmount,
    reserveX: zAmount,
    reserveY: zAmount,
  })
  .superRefine((b, ctx) => {
    if (b.binIdSigned + 500 !== b.binIdUnsigned)
      ctx.addIssue({
        code: 'custom',
        path: ['binIdSigned'],
        message: `binIdSigned ${b.binIdSigned} does not match binIdUnsigned ${b.binIdUnsigned} (unsigned = signed + 500)`,
      });
  });

/**
 * GET /app/v2/users/{principal}/positions/{alias}/current-bins: the owned-bin inventory pinned to a block
 * (captured on mainnet, test/fixtures/bff/README.md). camelCase; it answers 200 while a few blocks behind
 * (`tipLag` > 0), and its gates (clean, complete, reservesComplete, tipLag) are the caller's to apply.
 */
export const CurrentBinsSchema = z.looseObject({
  poolContract: z.string(),
  poolAlias: z.string().nullable().optional(),
  principal: z.string(),
  asOfHeight: zCount,
  indexBlockHash: z.string().nullable().optional(),
  chainTip: zCount.nullable(),
  tipLag: zInt.nullable(),
  finality: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  complete: z.boolean(),
  clean: z.boolean(),
  reservesComplete: z.boolean(),
  overallUserShares: zAmount.nullable().optional(),
  activeBinIdUnsigned: zUnsignedBinId.nullable().optional(),
  activeBinIdSigned: zSignedBinId.nullable().optional(),
  bins: z.array(CurrentBinSchema),
  errorCode: z.string().nullable().optional(),
});
export type CurrentBins = z.infer<typeof CurrentBinsSchema>;

/** GET /app/v2/pools/{id}/bin-price-history: a list of points (tolerant: bare list or {history|points}). */
export const PricePointSchema = z.looseObject({
  timestamp: zInt,
  bin_id: zSignedBinId.optional(),
  price: zAmount,
});
export type PricePoint = z.infer<typeof PricePointSchema>;

// ---- market-maker inventory ------------------------------------------------------------------------

const InventoryBinSchema = z
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
  code: z.enum(INVENTORY_FAULTS),
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
