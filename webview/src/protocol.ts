/**
 * The dashboard's typed message protocol, shared by the webview (webview/src) and its host
 * (client/src/dashboard). Shapes follow the GitLens / Pull Requests webviews: commands (fire and forget),
 * requests with matched replies, and notifications. What the webview sends is validated with zod by the
 * host on arrival. What the host sends is built by our own extension from data it validated when reading
 * the engine: the page trusts it and loads no validator (zod was three quarters of its bundle); every
 * dashboard test checks the host's messages against these schemas (test/webview/harness.ts). Amounts
 * travel as decimal strings: bigint cannot cross postMessage's JSON.
 */
import * as z from 'zod';
import { slippageToPpm } from '../../core/dlmm/bounds';

/** A decimal integer string: amounts, shares, prices, signed deltas. */
const zDec = z.string().regex(/^-?\d+$/, 'expected a decimal integer string');
const zBinId = z.number().int().min(-500).max(500);
const zRange = z.object({ offset: z.number().int().min(0), length: z.number().int().min(0) });
/** Nothing to show, and why (no sender, no plan open). */
const zNone = z.object({ state: z.literal('none'), reason: z.string() });
/** Whose figures: the open plan's sender, else the `dlmm.dashboard.sender` setting. */
const zSender = { sender: z.string(), source: z.enum(['plan', 'setting']) };
/** Whose figures, in which pool. */
const zSenderPool = { ...zSender, pool: z.string() };
const zOpKind = z.enum(['add', 'withdraw', 'move']);
const zMode = z.enum(['strict', 'simple']);

// ---- data shapes ---------------------------------------------------------------------------------

export const TokenInfoSchema = z.object({
  contract: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(36),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

const PoolSummarySchema = z.object({
  pool_id: z.string(),
  alias: z.string().nullable(),
  symbol_x: z.string(),
  symbol_y: z.string(),
  bin_step: z.number().int(),
  active: z.boolean(),
  quotable: z.boolean(),
});

/** Engine status as /quotes/v2/status said it; tip_lag null means unknown (never caught up). */
export const EngineStatusSchema = z.object({
  ready: z.boolean(),
  state_height: z.number().int().nullable(),
  chain_tip: z.number().int().nullable(),
  tip_lag: z.number().int().nullable(),
  pool_count: z.number().int(),
});
export type EngineStatus = z.infer<typeof EngineStatusSchema>;

const FeesSchema = z.object({
  x_protocol: z.number().int(),
  x_provider: z.number().int(),
  x_variable: z.number().int(),
  y_protocol: z.number().int(),
  y_provider: z.number().int(),
  y_variable: z.number().int(),
});

export const PoolHeaderSchema = z.object({
  pool_id: z.string(),
  alias: z.string().nullable(),
  token_x: TokenInfoSchema,
  token_y: TokenInfoSchema,
  bin_step: z.number().int(),
  fees: FeesSchema,
  active: z.boolean(),
  quotable: z.boolean(),
  pool_status: z.string().nullable(),
  active_bin: zBinId,
  /** Raw price of the active bin (Y base units per X base unit, times 1e8), when the ladder lists it. */
  active_price: zDec.nullable(),
});
export type PoolHeader = z.infer<typeof PoolHeaderSchema>;

export const LadderBinSchema = z.object({ bin_id: zBinId, price: zDec, reserve_x: zDec, reserve_y: zDec });
export type LadderBin = z.infer<typeof LadderBinSchema>;

const PositionSchema = z.object({
  bin_id: zBinId,
  user_liquidity: zDec,
  liquidity: zDec.nullable(),
  reserve_x: zDec,
  reserve_y: zDec,
});
export type Position = z.infer<typeof PositionSchema>;

export const ErrorInfoSchema = z.object({
  code: z.string(),
  /** What was found. */
  message: z.string(),
  /** What to do about it. */
  action: z.string(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

export const PositionsSchema = z.discriminatedUnion('state', [
  zNone,
  z.object({
    state: z.literal('ok'),
    ...zSender,
    bins: z.array(PositionSchema),
  }),
  z.object({ state: z.literal('error'), sender: z.string(), error: ErrorInfoSchema }),
]);
export type Positions = z.infer<typeof PositionsSchema>;

/** One balance of the sender: exact base units, or null with why it was not read (never 0 for unknown). */
export const BalanceRowSchema = z.object({
  token: z.string(),
  symbol: z.string(),
  /** Decimals of the amount; null when the token list does not give them (the amount is shown raw). */
  decimals: z.number().int().min(0).max(36).nullable(),
  stx: z.boolean(),
  amount: zDec.nullable(),
  unread: z.string().nullable(),
});
export type BalanceRow = z.infer<typeof BalanceRowSchema>;

/** The sender's balances of the pool's two tokens and of STX (fees), read as `check` reads them. */
export const BalancesSchema = z.discriminatedUnion('state', [
  zNone,
  z.object({
    state: z.literal('ok'),
    ...zSender,
    rows: z.array(BalanceRowSchema),
  }),
]);
export type Balances = z.infer<typeof BalancesSchema>;

/** One bin of the sender's position: what withdrawing all its shares returns (core/check/positions.ts). */
const PositionBinRowSchema = z.object({
  bin_id: zBinId,
  shares: zDec,
  x_amount: zDec,
  y_amount: zDec,
});

/** One shift of the what-if: the position's value and the hold value at the moved price (null: not reached). */
export const WhatIfRowSchema = z.object({
  shift: z.number().int(),
  active_bin_id: z.number().int(),
  value_in_y: zDec.nullable(),
  hold_value_in_y: zDec.nullable(),
  /** Why the shift was not made (the figures are then null). */
  unknown: z.string().nullable(),
});
export type WhatIfRow = z.infer<typeof WhatIfRowSchema>;

const zTokenUnit = TokenInfoSchema.extend({
  /** null when the token list does not give them (amounts are shown as base units). */
  decimals: TokenInfoSchema.shape.decimals.nullable(),
});

/**
 * The sender's position in one pool, valued on the chain model exactly as `dlmm positions` values it
 * (amounts as decimal strings of base units). `unknown`: why it could not be valued; no figure is given.
 */
export const PositionReportSchema = z.discriminatedUnion('state', [
  zNone,
  z.object({ state: z.literal('empty'), ...zSenderPool }),
  z.object({ state: z.literal('unknown'), ...zSenderPool, reason: z.string() }),
  z.object({
    state: z.literal('ok'),
    ...zSenderPool,
    /** Where the shares were read: the inventory, app v2 current-bins or app v2 position bins. */
    read_from: z.string(),
    /** Set when the source is display data that may lag the chain. */
    may_lag: z.string().nullable(),
    token_x: zTokenUnit,
    token_y: zTokenUnit,
    active_bin_id: z.number().int(),
    in_range: z.boolean(),
    /** Bins from the active bin to the position's nearest end when out of range. */
    distance: z.number().int().nullable(),
    side: z.enum(['above', 'below']).nullable(),
    bins: z.array(PositionBinRowSchema),
    x_total: zDec,
    y_total: zDec,
    value_in_y: zDec,
    what_if: z.array(WhatIfRowSchema),
  }),
]);
export type PositionReport = z.infer<typeof PositionReportSchema>;

export const PoolViewSchema = z.object({
  header: PoolHeaderSchema,
  status: EngineStatusSchema,
  bins: z.array(LadderBinSchema),
  positions: PositionsSchema,
});
export type PoolView = z.infer<typeof PoolViewSchema>;

export const FindingInfoSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  offset: z.number().int(),
  length: z.number().int(),
});
export type FindingInfo = z.infer<typeof FindingInfoSchema>;

/** What one prepared item does to one bin: signed deltas of the bin's reserves. */
export const BinEffectSchema = z.object({ bin_id: zBinId, dx: zDec, dy: zDec });
export type BinEffect = z.infer<typeof BinEffectSchema>;

export const PreviewItemSchema = z.object({
  kind: zOpKind,
  label: z.string(),
  /** Target bin (add: the bin; withdraw: the bin; move: the to bin). */
  bin_id: zBinId,
  from_bin_id: zBinId.nullable(),
  active_bin_offset: z.number().int().nullable(),
  x_amount: zDec,
  y_amount: zDec,
  effects: z.array(BinEffectSchema),
  range: zRange.nullable(),
  findings: z.array(FindingInfoSchema),
});
export type PreviewItem = z.infer<typeof PreviewItemSchema>;

export const PreviewOpSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  op: zOpKind,
  mode: zMode,
  /** Active bin the analysis prepared against. */
  active_bin_id: zBinId,
  range: zRange.nullable(),
  items: z.array(PreviewItemSchema),
  /** Findings of the operation not tied to one item. */
  findings: z.array(FindingInfoSchema),
  /** Each of its transactions' share of a block's execution budget, in core's words (core/tx/cost.ts). */
  costs: z.array(z.string()),
});
export type PreviewOp = z.infer<typeof PreviewOpSchema>;

/** One item after a shift of the active bin: its transaction executed on the shifted state (host side). */
export const DriftOutcomeSchema = z.object({
  op_id: z.string(),
  mode: zMode,
  kind: zOpKind,
  label: z.string(),
  /** Where the item acted (executed) or would act (reverted), when known. */
  landing_bin: zBinId.nullable(),
  status: z.enum(['ok', 'reverts', 'unknown']),
  reason: z.string(),
  range: zRange.nullable(),
});
export type DriftOutcome = z.infer<typeof DriftOutcomeSchema>;

/** The plan's transactions executed after the pool's active bin moved k bins by a trade (core/check/drift.ts). */
const DriftStepSchema = z.object({
  k: z.number().int(),
  from: zBinId,
  to: zBinId,
  reached: z.boolean(),
  /** How the shift was made (the trade), or why it could not be. */
  detail: z.string(),
  outcomes: z.array(DriftOutcomeSchema),
});

export const DriftTableSchema = z.object({
  /** False when the plan could not be executed (no sender, no routers, state not read): `reason` says why. */
  available: z.boolean(),
  reason: z.string(),
  steps: z.array(DriftStepSchema),
});
export type DriftTable = z.infer<typeof DriftTableSchema>;

export const PlanPreviewSchema = z.discriminatedUnion('state', [
  zNone,
  z.object({
    state: z.literal('ok'),
    uri: z.string(),
    file_name: z.string(),
    sender: z.string().nullable(),
    active_bin_tolerance: z.number().int(),
    ops: z.array(PreviewOpSchema),
    /** Ops of the plan on other pools (count), so the user knows they exist. */
    other_pool_ops: z.number().int(),
    file_findings: z.array(FindingInfoSchema),
    /** The drift what-if for shifts -10..10 of this pool's active bin, executed on the host. */
    drift: DriftTableSchema,
  }),
]);
export type PlanPreview = z.infer<typeof PlanPreviewSchema>;

export const RouteInfoSchema = z.object({
  amount_in: zDec,
  /** Input the route actually takes (exact recomputation from the bins read). */
  amount_in_used: zDec,
  /** The route takes the whole amount_in; false: amount_out is the output for amount_in_used only. */
  complete: z.boolean(),
  /** Recomputed exactly from the bins read; false: the engine's figures, unverified (reason beside). */
  verified: z.boolean(),
  unverified_reason: z.string().nullable(),
  /** The engine's output when it differs from the exact recomputation (amount_out). */
  engine_amount_out: zDec.nullable(),
  amount_out: zDec,
  min_received: zDec,
  slippage: z.number(),
  price_impact_bps: z.number().int().nullable(),
  /** Bins used and crossed (core/quote/routeBins.ts, the one definition); null when the quote names no steps. */
  bins_used: z.number().int().nullable(),
  bins_crossed: z.number().int().nullable(),
  input_decimals: z.number().int(),
  output_decimals: z.number().int(),
  hops: z.array(
    z.object({
      pool_id: z.string(),
      input_token: z.string(),
      output_token: z.string(),
      x_for_y: z.boolean(),
      amount_in: zDec,
      amount_out: zDec,
      bins: z.number().int(),
    }),
  ),
});
export type RouteInfo = z.infer<typeof RouteInfoSchema>;

export const QuoteResultSchema = z.object({
  best: RouteInfoSchema,
  routes: z.array(RouteInfoSchema),
  state_height: z.number().int().nullable(),
});
export type QuoteResult = z.infer<typeof QuoteResultSchema>;

const PricePointInfoSchema = z.object({
  timestamp: z.number(),
  price: zDec,
  bin_id: zBinId.nullable(),
});
export const PriceHistorySchema = z.object({ points: z.array(PricePointInfoSchema) });
export type PriceHistory = z.infer<typeof PriceHistorySchema>;

export const OverviewSchema = z.object({
  pools: z.array(PoolSummarySchema),
  tokens: z.array(TokenInfoSchema),
  status: EngineStatusSchema,
});
export type Overview = z.infer<typeof OverviewSchema>;

export const QuoteParamsSchema = z.object({
  input_token: z.string().min(1),
  output_token: z.string().min(1),
  /** Base units of the input token. */
  amount_in: zDec.refine((s) => !s.startsWith('-') && s !== '0', 'amount must be positive'),
  /** Percent: 1 means 1%. */
  slippage: z
    .number()
    .refine((p) => slippageToPpm(p) !== undefined, 'slippage must be a percent from 0 to below 100'),
});
export type QuoteParams = z.infer<typeof QuoteParamsSchema>;

// ---- requests (webview -> host, answered by one reply) -------------------------------------------

const zPoolParams = z.object({ pool_id: z.string().min(1) });

export const REQUESTS = {
  overview: { params: z.object({}), result: OverviewSchema },
  poolView: { params: zPoolParams, result: PoolViewSchema },
  planPreview: { params: zPoolParams, result: PlanPreviewSchema },
  quote: { params: QuoteParamsSchema, result: QuoteResultSchema },
  priceHistory: { params: zPoolParams, result: PriceHistorySchema },
  balances: { params: zPoolParams, result: BalancesSchema },
  positions: { params: zPoolParams, result: PositionReportSchema },
} as const;
export type RequestMethod = keyof typeof REQUESTS;
export type RequestParams<M extends RequestMethod> = z.infer<(typeof REQUESTS)[M]['params']>;
export type RequestResult<M extends RequestMethod> = z.infer<(typeof REQUESTS)[M]['result']>;

// ---- envelopes -----------------------------------------------------------------------------------

/** webview -> host */
export const WebviewMessageSchema = z.discriminatedUnion('type', [
  /** The ready handshake: the host sends `init` only after this arrives. */
  z.object({ type: z.literal('ready'), last_pool_id: z.string().nullable() }),
  z.object({
    type: z.literal('request'),
    id: z.number().int(),
    method: z.enum(Object.keys(REQUESTS) as [RequestMethod, ...RequestMethod[]]),
    params: z.unknown(),
  }),
  z.object({ type: z.literal('selectPool'), pool_id: z.string().min(1) }),
  z.object({
    type: z.literal('revealRange'),
    uri: z.string(),
    offset: z.number().int().min(0),
    length: z.number().int().min(0),
  }),
  // `then: 'wallet'`: the swap plan goes to Send to Wallet instead of the export formats.
  z.object({
    type: z.literal('exportSwap'),
    params: QuoteParamsSchema,
    then: z.enum(['export', 'wallet']).optional(),
  }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

/** host -> webview */
export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    /** The pool to open: the webview's remembered one, else the host memento's, else the first listed. */
    pool_id: z.string().nullable(),
    /** True only when the swap export command exists. */
    export_available: z.boolean(),
    /** The pool list (absent when it could not be read: the page asks for it and shows why). */
    overview: OverviewSchema.optional(),
    /** The view of `pool_id` (absent when it could not be read: the page asks for it and shows why). */
    view: PoolViewSchema.optional(),
  }),
  z.object({ type: z.literal('reply'), id: z.number().int(), result: z.unknown() }),
  z.object({ type: z.literal('replyError'), id: z.number().int(), error: ErrorInfoSchema }),
  /** The engine's applied state height changed: reread what is shown. */
  z.object({ type: z.literal('stateChanged'), state_height: z.number().int().nullable() }),
  /** Show this pool (the "Show in dashboard" code lens of an operation). */
  z.object({ type: z.literal('showPool'), pool_id: z.string().min(1) }),
  /** The plan open in the editor changed (edited, saved, or another plan became active). */
  z.object({ type: z.literal('planChanged') }),
  /** A command the webview sent could not be carried out. */
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'error']), message: z.string() }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** The state the webview keeps across reloads (vscode.setState). */
export const WebviewStateSchema = z.object({
  pool_id: z.string().nullable(),
  zoom: z.number().int().min(10).max(1001),
});
export type WebviewState = z.infer<typeof WebviewStateSchema>;

/** Short text of a zod error for messages that say what was found. */
export function describeZodError(e: z.ZodError): string {
  return e.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`)
    .join('; ');
}
