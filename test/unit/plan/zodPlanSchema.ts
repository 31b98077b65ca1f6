/**
 * The zod plan schema that core/plan/schema.ts replaced, kept as it was as the oracle of
 * schemaDifferential.test.ts: the plain validators must give its verdicts, values and issues.
 */
import * as z from 'zod';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import { percentToPpm } from '../../../core/dlmm/percent';
import { addressProblem, principalAddress } from '../../../core/plan/address';

/** Base units as plans take them: decimal digits without a leading zero (`017` is octal in YAML 1.1). */
const DIGITS = /^(?:0|[1-9]\d*)$/;

/** uint128 written as an integer or a digit string -> bigint. */
export const zPlanAmount = z
  .union([
    z.bigint(),
    z.string().regex(DIGITS, 'expected decimal digits only, no leading zero (base units)'),
    // Integers arrive as bigint (intAsBigInt); a JS number here was written as a float: accept only exact ones.
    z
      .number()
      .int()
      .refine(Number.isSafeInteger, 'a float literal cannot carry an exact amount; write the integer'),
  ])
  .transform((v, ctx) => {
    const n = BigInt(v);
    if (n < 0n || n > MAX_UINT128) {
      ctx.addIssue({ code: 'custom', message: `amount ${n} is outside uint128 (0..${MAX_UINT128})` });
      return z.NEVER;
    }
    return n;
  })
  .meta({ description: 'Unsigned integer in base units, up to uint128; a number or a digit string.' });

/** An integer that must fit a JS number (bin ids, offsets, blocks, seconds). */
export const zSmallInt = z.union([z.bigint(), z.number().int()]).transform((v, ctx) => {
  if (typeof v === 'bigint' && (v > 1_000_000_000_000n || v < -1_000_000_000_000n)) {
    ctx.addIssue({ code: 'custom', message: `integer ${v} is far outside any accepted range` });
    return z.NEVER;
  }
  return Number(v);
});

/** A signed bin id as written; the range (-500..500) is checked by rules (bin-out-of-range, unsigned-bin-id). */
export const zPlanBinId = zSmallInt.meta({
  description: 'Signed bin id (-500..500), the quote list domain.',
});

/** Percent number, exact to 4 fraction digits (1 means 1%). */
export const zPercent = z.union([z.bigint(), z.number(), z.string()]).transform((v, ctx) => {
  const ppm = percentToPpm(v);
  if (ppm === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `percent ${String(v)} is not a plain decimal with at most 4 fraction digits`,
    });
    return z.NEVER;
  }
  return Number(typeof v === 'bigint' ? v : v);
});

/** A slippage tolerance in percent: 100 or more would let a bound fall to 0 (min out 0), so it is refused. */
export const zSlippage = zPercent.refine(
  (p) => p < 100,
  'slippage_tolerance must be below 100 (percent: 1 means 1%); 100 or more would accept receiving nothing',
);

/**
 * A principal of the shape `pattern` whose address part passes c32check (core/plan/address.ts). A value of
 * the wrong shape gets the shape's message alone.
 */
function zCheckedPrincipal(pattern: RegExp, message: string) {
  return z
    .string()
    .regex(pattern, { message, abort: true })
    .superRefine((v, ctx) => {
      if (POOL_ALIAS.test(v)) return;
      const address = principalAddress(v);
      const problem = addressProblem(address);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          message: `${address} is not a valid Stacks address: ${problem}`,
          params: { kind: 'address' },
        });
    });
}

export const POOL_ALIAS = /^dlmm_\d+$/;
export const zPrincipalStandard = zCheckedPrincipal(
  /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}$/,
  'expected a standard principal such as SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
);
export const zContractPrincipal = zCheckedPrincipal(
  /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}$/,
  'expected a contract principal ADDR.name',
);
export const zPoolRef = zCheckedPrincipal(
  /^(dlmm_\d+|S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127})$/,
  'expected a pool contract principal (ADDR.dlmm-pool-...) or an alias dlmm_<n>',
);

const zMode = z.enum(['strict', 'simple']).default('strict');
const zOpId = z
  .union([z.string().min(1).max(200), z.bigint(), z.number().int()])
  .transform(String)
  .optional();

export const AddItemSchema = z.strictObject({
  bin_id: zPlanBinId.optional(),
  active_bin_offset: zSmallInt.optional(),
  x_amount: zPlanAmount,
  y_amount: zPlanAmount,
});

export const MoveItemSchema = z.strictObject({
  from_bin_id: zPlanBinId,
  to_bin_id: zPlanBinId.optional(),
  active_bin_offset: zSmallInt.optional(),
  amount: zPlanAmount,
});

/** A shape over a range, expanded into bins at preparation (core/prepare/distribution.ts). */
export const DistributionSchema = z
  .strictObject({
    shape: z.enum(['spot', 'curve', 'bid-ask']).meta({
      description:
        'spot: equal value per bin on each side; curve: highest at the active bin, falling linearly to the edge; bid-ask: lowest at the active bin, rising linearly to the edge.',
    }),
    // Offsets from the active bin (simple) or absolute signed bin ids (strict), from <= to, inclusive.
    from: zSmallInt,
    to: zSmallInt,
    x_amount: zPlanAmount,
    y_amount: zPlanAmount,
  })
  .meta({
    description:
      'Liquidity shape over from..to: token X is spread over the bins above the active bin, token Y over the bins below; the active bin takes both in the ratio of its reserves.',
  });

export const AddOpSchema = z.strictObject({
  id: zOpId,
  op: z.literal('add'),
  mode: zMode,
  pool: zPoolRef,
  // Absent when a distribution gives the bins (parse.ts asks for one of the two).
  bins: z.array(AddItemSchema).min(1).default([]),
  distribution: DistributionSchema.optional(),
});

export const WithdrawOpSchema = z.strictObject({
  id: zOpId,
  op: z.literal('withdraw'),
  mode: zMode,
  pool: zPoolRef,
  withdrawal_percentage: zPercent
    .refine((p) => p > 0 && p <= 100, 'withdrawal_percentage must be in 0 < p <= 100')
    .default(100),
  bins: z.array(zPlanBinId).optional(),
});

export const MoveOpSchema = z.strictObject({
  id: zOpId,
  op: z.literal('move'),
  mode: zMode,
  pool: zPoolRef,
  moves: z.array(MoveItemSchema).min(1),
});

export const SwapOpSchema = z.strictObject({
  id: zOpId,
  op: z.literal('swap'),
  input_token: zContractPrincipal,
  output_token: zContractPrincipal,
  amount_in: zPlanAmount,
  amm_strategy: z.string().min(1).default('best'),
  slippage_tolerance: zSlippage.optional(),
  provider: zCheckedPrincipal(
    /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/,
    'expected a principal',
  ).optional(),
  /** Ask the engine's aggregator (POST /quotes/v2/agg/swap) for the swap parameters, when it offers it. */
  aggregator: z.boolean().optional(),
});

export const OperationSchema = z.discriminatedUnion('op', [
  AddOpSchema,
  WithdrawOpSchema,
  MoveOpSchema,
  SwapOpSchema,
]);

export const PolicySchema = z.strictObject({
  max_tip_lag: zSmallInt.pipe(z.number().int().min(0)).default(0),
  slippage_tolerance: zSlippage.default(1),
  active_bin_tolerance: zSmallInt.pipe(z.number().int().min(0).max(1000)).default(1),
  deadline_seconds: zSmallInt.pipe(z.number().int().positive()).nullable().default(null),
  /** Percent (2 means 2%): a swap whose price impact is above it gets a price-impact warning. */
  max_price_impact: zPercent.default(2),
  /** out-of-range warns when the sender's liquidity in a pool is farther than this from the active bin. */
  range_alert_bins: zSmallInt.pipe(z.number().int().min(0).max(1000)).default(5),
});

export const PlanSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.union([z.literal(1), z.literal(1n)]).transform(() => 1 as const),
  network: z.enum(['mainnet', 'testnet']).default('mainnet'),
  api: z.enum(['v2', 'v1']).default('v2'),
  sender: zPrincipalStandard.optional(),
  // Each field's default is the policy's own (above): an absent policy is an empty one.
  policy: PolicySchema.default(() => PolicySchema.parse({})),
  operations: z.array(OperationSchema).min(1),
});
