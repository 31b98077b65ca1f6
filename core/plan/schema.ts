/**
 * The plan file schema (docs/plan-format.md), written as plain validators: one definition, used by the
 * analyzer and turned into the shipped JSON Schema (jsonSchema.ts, from each field's `json`). Input comes from
 * the plan readers with integers as bigint, so amounts never pass through a JS float. Unknown fields are
 * schema errors (strict objects).
 *
 * The issues (code, path, message) are the ones the zod schema this replaced gave, so every finding reads as
 * before (test/unit/plan/schemaDifferential.test.ts holds that schema and compares): messages.ts words them
 * from their paths, and shows `message` only where it has no wording of its own. A validator builds nothing
 * when a plan loads and does one pass over the value: a 350-position plan, or a 1 MiB one, costs no more
 * than walking it.
 */
import { DEFAULT_MAX_TIP_LAG } from './policy';
import { MAX_UINT128 } from '../dlmm/bins';
import { percentToPpm } from '../dlmm/percent';
import { slippageToPpm, SLIPPAGE_LIMIT } from '../dlmm/bounds';
import { addressProblem, principalAddress } from './address';

export type SchemaPath = (string | number)[];

/** One problem found, at `path` below the value validated. */
export type SchemaIssue =
  | {
      code:
        | 'invalid_type'
        | 'invalid_union'
        | 'invalid_value'
        | 'invalid_format'
        | 'too_small'
        | 'too_big'
        | 'custom';
      path: SchemaPath;
      message: string;
      /** custom: `address` when a principal of the right shape fails c32check. */
      params?: { kind: 'address' };
    }
  | {
      code: 'unrecognized_keys';
      path: SchemaPath;
      message: string;
      /** The unknown keys, in the document's order. */
      keys: string[];
    };

export type SafeParse<T> =
  | { success: true; data: T; error?: undefined }
  | { success: false; error: { issues: SchemaIssue[] }; data?: undefined };

/** A JSON Schema fragment (draft 2020-12), the field's input side as published. */
export type JsonSchema = Record<string, unknown>;

const INVALID = Symbol('invalid');
type Invalid = typeof INVALID;
/** The typed value, or INVALID after adding its issues (at `path`, which the caller restores). */
type Check<T> = (v: unknown, path: SchemaPath, issues: SchemaIssue[]) => T | Invalid;

export interface Schema<T> {
  readonly check: Check<T>;
  readonly json: JsonSchema;
  /** The typed value or the issues; with `maxIssues`, validation stops once that many were found. */
  safeParse(value: unknown, maxIssues?: number): SafeParse<T>;
  /** The typed value; throws on an invalid one (for values the code itself wrote). */
  parse(value: unknown): T;
}

/** The issue count at which `fail` stops the validation under way (safeParse's `maxIssues`). */
let issueLimit = Infinity;
const STOP = Symbol('stop');

function schema<T>(check: Check<T>, json: JsonSchema): Schema<T> {
  const safeParse = (value: unknown, maxIssues = Infinity): SafeParse<T> => {
    const issues: SchemaIssue[] = [];
    const outer = issueLimit;
    issueLimit = maxIssues;
    let out: T | Invalid = INVALID;
    try {
      out = check(value, [], issues);
    } catch (e) {
      if (e !== STOP) throw e;
    } finally {
      issueLimit = outer;
    }
    return out === INVALID || issues.length > 0
      ? { success: false, error: { issues } }
      : { success: true, data: out };
  };
  return {
    check,
    json,
    safeParse,
    parse: (value) => {
      const r = safeParse(value);
      if (!r.success) throw new Error(`invalid value: ${r.error.issues.map((i) => i.message).join('; ')}`);
      return r.data;
    },
  };
}

function fail(
  issues: SchemaIssue[],
  path: SchemaPath,
  code: SchemaIssue['code'],
  message: string,
  extra?: { keys: string[] } | { params: { kind: 'address' } },
): Invalid {
  issues.push({ code, path: [...path], message, ...extra } as SchemaIssue);
  if (issues.length >= issueLimit) throw STOP;
  return INVALID;
}

/** The type name messages use for a value (as zod named it). */
function typeName(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? 'number' : String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const expectedType = (issues: SchemaIssue[], path: SchemaPath, type: string, v: unknown): Invalid =>
  fail(issues, path, 'invalid_type', `Invalid input: expected ${type}, received ${typeName(v)}`);

/** A value that is none of a field's accepted forms. */
const noForm = (issues: SchemaIssue[], path: SchemaPath): Invalid =>
  fail(issues, path, 'invalid_union', 'Invalid input');

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** An integral JS number beyond 2^53: its issue (false when it is exact). */
function unsafeInteger(v: number, path: SchemaPath, issues: SchemaIssue[]): boolean {
  const max = Number.MAX_SAFE_INTEGER;
  if (v > max) fail(issues, path, 'too_big', `Too big: expected int to be <=${max}`);
  else if (v < -max) fail(issues, path, 'too_small', `Too small: expected int to be >=-${max}`);
  else return false;
  return true;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---- Values -----------------------------------------------------------------------------------------

/** Base units as plans take them: decimal digits without a leading zero (`017` is octal in YAML 1.1). */
const DIGITS = /^(?:0|[1-9]\d*)$/;

const AMOUNT_JSON: JsonSchema = {
  description: `Unsigned integer in base units, up to uint128 (${MAX_UINT128}); a number or a digit string.`,
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^(0|[1-9]\\d*)$' },
  ],
};

/** uint128 written as an integer or a digit string -> bigint. */
export const zPlanAmount = schema<bigint>((v, path, issues) => {
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'string') {
    if (!DIGITS.test(v))
      return fail(
        issues,
        path,
        'invalid_format',
        'expected decimal digits only, no leading zero (base units)',
      );
    n = BigInt(v);
  } else if (isInteger(v)) {
    // Integers arrive as bigint; a JS number here was written as a float: accept only exact ones.
    if (unsafeInteger(v, path, issues))
      return fail(issues, path, 'custom', 'a float literal cannot carry an exact amount; write the integer');
    n = BigInt(v);
  } else return noForm(issues, path);
  if (n < 0n || n > MAX_UINT128)
    return fail(issues, path, 'custom', `amount ${n} is outside uint128 (0..${MAX_UINT128})`);
  return n;
}, AMOUNT_JSON);

/** An integer that must fit a JS number (bin ids, offsets, blocks, seconds). */
export const zSmallInt = schema<number>(
  (v, path, issues) => {
    if (typeof v === 'bigint') {
      if (v > 1_000_000_000_000n || v < -1_000_000_000_000n)
        return fail(issues, path, 'custom', `integer ${v} is far outside any accepted range`);
      return Number(v);
    }
    if (!isInteger(v)) return noForm(issues, path);
    return unsafeInteger(v, path, issues) ? INVALID : v;
  },
  { type: 'integer' },
);

/** A signed bin id as written; the range (-500..500) is checked by rules (bin-out-of-range, unsigned-bin-id). */
export const zPlanBinId = schema<number>(zSmallInt.check, {
  type: 'integer',
  description: 'Signed bin id (-500..500), the quote list domain.',
});

/** A small integer within min..max (a positive one: min 1). */
function boundedInt(min: number, max?: number): Check<number> {
  return (v, path, issues) => {
    const n = zSmallInt.check(v, path, issues);
    if (n === INVALID) return n;
    if (n < min)
      return fail(
        issues,
        path,
        'too_small',
        `Too small: expected number to be ${min === 1 ? '>0' : `>=${min}`}`,
      );
    if (max !== undefined && n > max)
      return fail(issues, path, 'too_big', `Too big: expected number to be <=${max}`);
    return n;
  };
}

const PERCENT_JSON: JsonSchema = {
  description: 'Percent as the quote engine takes it: 1 means 1%. At most 4 decimals.',
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\d+(\\.\\d{1,4})?$' },
  ],
};

/** Percent number, exact to 4 fraction digits (1 means 1%); `within` says what else it must be. */
function percent(within?: { test: (p: number) => boolean; message: string }): Check<number> {
  return (v, path, issues) => {
    if (typeof v !== 'bigint' && typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v)))
      return noForm(issues, path);
    if (percentToPpm(v) === undefined)
      return fail(
        issues,
        path,
        'custom',
        `percent ${String(v)} is not a plain decimal with at most 4 fraction digits`,
      );
    const p = Number(v);
    return within && !within.test(p) ? fail(issues, path, 'custom', within.message) : p;
  };
}

export const zPercent = schema<number>(percent(), PERCENT_JSON);

/** A slippage tolerance in percent: 100 or more would let a bound fall to 0 (min out 0), so it is refused. */
export const zSlippage = schema<number>(
  percent({
    test: (p) => slippageToPpm(p) !== undefined,
    message:
      'slippage_tolerance must be below 100 (percent: 1 means 1%); 100 or more would accept receiving nothing',
  }),
  {
    description: 'Slippage tolerance in percent (1 means 1%), below 100. At most 4 decimals.',
    anyOf: [
      { type: 'number', minimum: 0, exclusiveMaximum: SLIPPAGE_LIMIT },
      { type: 'string', pattern: '^\\d{1,2}(\\.\\d{1,4})?$' },
    ],
  },
);

/** A string of min..max characters. */
function text(min = 0, max = Infinity): Check<string> {
  return (v, path, issues) => {
    if (typeof v !== 'string') {
      expectedType(issues, path, 'string', v);
      // As zod did: a list shorter than `min` gets the length issue too.
      if (Array.isArray(v) && v.length < min)
        fail(issues, path, 'too_small', `Too small: expected array to have >=${min} items`);
      return INVALID;
    }
    if (v.length < min)
      return fail(issues, path, 'too_small', `Too small: expected string to have >=${min} characters`);
    if (v.length > max)
      return fail(issues, path, 'too_big', `Too big: expected string to have <=${max} characters`);
    return v;
  };
}

/** One of `values`. */
function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  const message = `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join('|')}`;
  return (v, path, issues) =>
    (values as readonly unknown[]).includes(v) ? (v as T) : fail(issues, path, 'invalid_value', message);
}

const enumJson = (values: readonly string[], defaultValue?: string): JsonSchema => ({
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
  type: 'string',
  enum: [...values],
});

/**
 * A principal of the shape `pattern` whose address part passes c32check (core/plan/address.ts). A value of
 * the wrong shape gets the shape's message alone.
 */
function checkedPrincipal(pattern: RegExp, message: string): Schema<string> {
  return schema<string>(
    (v, path, issues) => {
      if (typeof v !== 'string') return expectedType(issues, path, 'string', v);
      if (!pattern.test(v)) return fail(issues, path, 'invalid_format', message);
      if (POOL_ALIAS.test(v)) return v;
      const address = principalAddress(v);
      const problem = addressProblem(address);
      return problem
        ? fail(issues, path, 'custom', `${address} is not a valid Stacks address: ${problem}`, {
            params: { kind: 'address' },
          })
        : v;
    },
    { type: 'string', pattern: pattern.source },
  );
}

export const POOL_ALIAS = /^dlmm_\d+$/;
export const zPrincipalStandard = checkedPrincipal(
  /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}$/,
  'expected a standard principal such as SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
);
export const zContractPrincipal = checkedPrincipal(
  /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}$/,
  'expected a contract principal ADDR.name',
);
export const zPoolRef = checkedPrincipal(
  /^(dlmm_\d+|S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127})$/,
  'expected a pool contract principal (ADDR.dlmm-pool-...) or an alias dlmm_<n>',
);

/** An operation id: a non-empty string, or an integer (kept as its text). */
const opId: Check<string> = (v, path, issues) => {
  if (typeof v === 'string') return text(1, 200)(v, path, issues);
  if (typeof v === 'bigint') return String(v);
  if (!isInteger(v)) return noForm(issues, path);
  return unsafeInteger(v, path, issues) ? INVALID : String(v);
};

// ---- Lists and mappings -----------------------------------------------------------------------------

/** A list of `item`s, at least `min` of them. */
function list<T>(item: Schema<T>, min = 0): Schema<T[]> {
  return schema<T[]>(
    (v, path, issues) => {
      if (!Array.isArray(v)) {
        expectedType(issues, path, 'array', v);
        // As zod did: a text shorter than `min` gets the length issue too.
        if (typeof v === 'string' && v.length < min)
          fail(issues, path, 'too_small', `Too small: expected string to have >=${min} characters`);
        return INVALID;
      }
      const out: T[] = new Array(v.length);
      let ok = true;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const r = item.check(v[i], path, issues);
        path.pop();
        if (r === INVALID) ok = false;
        else out[i] = r;
      }
      if (v.length < min)
        return fail(issues, path, 'too_small', `Too small: expected array to have >=${min} items`);
      return ok ? out : INVALID;
    },
    { ...(min > 0 ? { minItems: min } : {}), type: 'array', items: item.json },
  );
}

/** A mapping's field: required, optional (absent: no key), or with a default (absent: the default). */
export interface Field<T> {
  check: Check<T>;
  json: JsonSchema;
  absent?: 'optional' | { default: () => unknown };
}
type Shape = Record<string, Field<unknown>>;

const field = <T>(check: Check<T>, json: JsonSchema): Field<T> => ({ check, json });
const optional = <T>(f: Field<T>): Field<T> & { absent: 'optional' } => ({ ...f, absent: 'optional' });
const withDefault = <T>(f: Field<T>, value: T | (() => T)): Field<T> => ({
  ...f,
  absent: { default: typeof value === 'function' ? (value as () => T) : () => value },
});
const of = <T>(s: Schema<T>): Field<T> => field(s.check, s.json);

/** The typed value of a schema. */
export type Infer<S> = S extends Schema<infer T> ? T : never;
type FieldValue<F> = F extends Field<infer T> ? T : never;
type IsOptional<F> = F extends { absent: 'optional' } ? true : false;
/** A mapping's typed value: each field's value, the optional ones only where written. */
type Output<S extends Shape> = {
  [K in keyof S as IsOptional<S[K]> extends true ? never : K]: FieldValue<S[K]>;
} & { [K in keyof S as IsOptional<S[K]> extends true ? K : never]?: FieldValue<S[K]> } extends infer O
  ? { [K in keyof O]: O[K] }
  : never;

export interface ObjectSchema<T> extends Schema<T> {
  /** The accepted fields, in the order they are validated and output. */
  readonly shape: Readonly<Record<keyof T & string, Field<unknown>>>;
}

/** One field of a mapping as a schema of its own, its absence treated as in the mapping. */
export function fieldSchema<T, K extends keyof T & string>(object: ObjectSchema<T>, key: K): Schema<T[K]> {
  const f = object.shape[key];
  return schema<T[K]>(
    (v, path, issues) =>
      (v === undefined && f.absent !== undefined
        ? f.absent === 'optional'
          ? undefined
          : f.absent.default()
        : f.check(v, path, issues)) as T[K] | Invalid,
    f.json,
  );
}

/** A mapping of exactly these fields (unknown keys are issues), output in the shape's order. */
function strictObject<S extends Shape>(shape: S, extraJson: JsonSchema = {}): ObjectSchema<Output<S>> {
  type T = Output<S>;
  const keys = Object.keys(shape);
  const known = new Set(keys);
  const required = keys.filter((k) => shape[k]?.absent === undefined);
  const s = schema<T>(
    (v, path, issues) => {
      if (!isRecord(v)) return expectedType(issues, path, 'object', v);
      const out: Record<string, unknown> = {};
      let ok = true;
      for (const key of keys) {
        const f = shape[key] as Field<unknown>;
        const value = v[key];
        if (value === undefined && f.absent !== undefined) {
          if (f.absent !== 'optional') out[key] = f.absent.default();
          else if (key in v) out[key] = undefined;
          continue;
        }
        path.push(key);
        const r = f.check(value, path, issues);
        path.pop();
        if (r === INVALID) ok = false;
        else if (r !== undefined) out[key] = r;
      }
      let unknown: string[] | undefined;
      for (const key in v) if (!known.has(key)) (unknown ??= []).push(key);
      if (unknown) {
        const list = unknown.map((k) => JSON.stringify(k)).join(', ');
        fail(issues, path, 'unrecognized_keys', `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${list}`, {
          keys: unknown,
        });
        return INVALID;
      }
      return ok ? (out as T) : INVALID;
    },
    {
      type: 'object',
      properties: Object.fromEntries(keys.map((k) => [k, (shape[k] as Field<unknown>).json])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      ...extraJson,
    },
  );
  return { ...s, shape: shape as ObjectSchema<T>['shape'] };
}

// ---- The plan -----------------------------------------------------------------------------------------

const amount = of(zPlanAmount);
const smallInt = of(zSmallInt);
const binId = of(zPlanBinId);
const MODES = ['strict', 'simple'] as const;
const mode = withDefault(field(oneOf(MODES), enumJson(MODES, 'strict')), 'strict');
const id = optional(
  field(opId, {
    anyOf: [
      { type: 'string', minLength: 1, maxLength: 200 },
      { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    ],
  }),
);
const opLiteral = <const T extends string>(op: T): Field<T> =>
  field(
    (v, path, issues) =>
      v === op ? op : fail(issues, path, 'invalid_value', `Invalid input: expected "${op}"`),
    {
      type: 'string',
      const: op,
    },
  );
const pool = of(zPoolRef);

export const AddItemSchema = strictObject({
  bin_id: optional(binId),
  active_bin_offset: optional(smallInt),
  x_amount: amount,
  y_amount: amount,
});

export const MoveItemSchema = strictObject({
  from_bin_id: binId,
  to_bin_id: optional(binId),
  active_bin_offset: optional(smallInt),
  amount,
});

const SHAPES = ['spot', 'curve', 'bid-ask'] as const;
export const DistributionSchema = strictObject(
  {
    shape: field(oneOf(SHAPES), {
      ...enumJson(SHAPES),
      description:
        'spot: equal value per bin on each side; curve: highest at the active bin, falling linearly to the edge; bid-ask: lowest at the active bin, rising linearly to the edge.',
    }),
    from: smallInt,
    to: smallInt,
    x_amount: amount,
    y_amount: amount,
  },
  {
    description:
      'Liquidity shape over from..to: token X is spread over the bins above the active bin, token Y over the bins below; the active bin takes both in the ratio of its reserves.',
  },
);

export const AddOpSchema = strictObject({
  id,
  op: opLiteral('add'),
  mode,
  pool,
  bins: withDefault(of(list(AddItemSchema, 1)), () => []),
  distribution: optional(of(DistributionSchema)),
});

export const WithdrawOpSchema = strictObject({
  id,
  op: opLiteral('withdraw'),
  mode,
  pool,
  withdrawal_percentage: withDefault(
    field(
      percent({ test: (p) => p > 0 && p <= 100, message: 'withdrawal_percentage must be in 0 < p <= 100' }),
      {
        anyOf: [{ type: 'number' }, { type: 'string' }],
      },
    ),
    100,
  ),
  bins: optional(of(list(zPlanBinId))),
});

export const MoveOpSchema = strictObject({
  id,
  op: opLiteral('move'),
  mode,
  pool,
  moves: of(list(MoveItemSchema, 1)),
});

export const SwapOpSchema = strictObject({
  id,
  op: opLiteral('swap'),
  input_token: of(zContractPrincipal),
  output_token: of(zContractPrincipal),
  amount_in: amount,
  amm_strategy: withDefault(field(text(1), { default: 'best', type: 'string', minLength: 1 }), 'best'),
  slippage_tolerance: optional(of(zSlippage)),
  provider: optional(
    of(
      checkedPrincipal(
        /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/,
        'expected a principal',
      ),
    ),
  ),
  aggregator: optional(
    field((v, path, issues) => (typeof v === 'boolean' ? v : expectedType(issues, path, 'boolean', v)), {
      type: 'boolean',
    }),
  ),
});

export type AddOp = Infer<typeof AddOpSchema>;
export type Distribution = Infer<typeof DistributionSchema>;
export type WithdrawOp = Infer<typeof WithdrawOpSchema>;
export type MoveOp = Infer<typeof MoveOpSchema>;
export type SwapOp = Infer<typeof SwapOpSchema>;
export type PlanOperation = AddOp | WithdrawOp | MoveOp | SwapOp;

/** Each operation's schema by its `op`. */
export const OPERATION_SCHEMAS: ReadonlyMap<unknown, ObjectSchema<PlanOperation>> = new Map([
  ['add', AddOpSchema],
  ['withdraw', WithdrawOpSchema],
  ['move', MoveOpSchema],
  ['swap', SwapOpSchema],
] as [string, ObjectSchema<PlanOperation>][]);

/** An operation: the schema its `op` names. */
export const OperationSchema = schema<PlanOperation>(
  (v, path, issues) => {
    if (!isRecord(v)) return expectedType(issues, path, 'object', v);
    const s = OPERATION_SCHEMAS.get(v.op);
    if (s) return s.check(v, path, issues);
    path.push('op');
    fail(
      issues,
      path,
      'invalid_union',
      "Invalid discriminator value. Expected 'add' | 'withdraw' | 'move' | 'swap'",
    );
    path.pop();
    return INVALID;
  },
  { oneOf: [...OPERATION_SCHEMAS.values()].map((s) => s.json) },
);

const nonNegative = boundedInt(0);
const bins0to1000 = boundedInt(0, 1000);
export const PolicySchema = strictObject({
  max_tip_lag: withDefault(field(nonNegative, { type: 'integer' }), DEFAULT_MAX_TIP_LAG),
  slippage_tolerance: withDefault(of(zSlippage), 1),
  active_bin_tolerance: withDefault(field(bins0to1000, { type: 'integer' }), 1),
  deadline_seconds: withDefault(
    field<number | null>((v, path, issues) => (v === null ? null : boundedInt(1)(v, path, issues)), {
      type: ['integer', 'null'],
    }),
    null,
  ),
  max_price_impact: withDefault(of(zPercent), 2),
  range_alert_bins: withDefault(field(bins0to1000, { type: 'integer' }), 5),
});

const NETWORKS = ['mainnet', 'testnet'] as const;
const APIS = ['v2', 'v1'] as const;
export const PlanSchema = strictObject({
  $schema: optional(field(text(), { type: 'string' })),
  version: field((v, path, issues) => (v === 1 || v === 1n ? (1 as const) : noForm(issues, path)), {
    type: 'integer',
    const: 1,
  }),
  network: withDefault(field(oneOf(NETWORKS), enumJson(NETWORKS, 'mainnet')), 'mainnet' as const),
  api: withDefault(field(oneOf(APIS), enumJson(APIS, 'v2')), 'v2' as const),
  sender: optional(of(zPrincipalStandard)),
  // Each field's default is the policy's own (above): an absent policy is an empty one.
  policy: withDefault(of(PolicySchema), () => PolicySchema.parse({})),
  operations: of(list(OperationSchema, 1)),
});

export type Plan = Infer<typeof PlanSchema>;

/**
 * The one rule for the bin a position item targets: its absolute signed id in strict mode (`bin_id` of an add,
 * `to_bin_id` of a move), `active + active_bin_offset` in simple mode; undefined when that field is missing or,
 * in simple mode, the active bin is unknown. Every reader (prepare, the rules, the export's bounds and
 * active-bin window) takes targets from here.
 */
export function itemTarget(
  mode: AddOp['mode'],
  item: { bin_id?: number; to_bin_id?: number; active_bin_offset?: number },
  active: number | undefined,
): number | undefined {
  if (mode === 'strict') return item.bin_id ?? item.to_bin_id;
  if (item.active_bin_offset === undefined || active === undefined) return undefined;
  return active + item.active_bin_offset;
}

/** from/to as absolute signed ids: offsets from `active` in simple mode, ids in strict mode. */
export function distributionRange(
  mode: AddOp['mode'],
  d: Distribution,
  active: number | undefined,
): { lo: number; hi: number } | undefined {
  if (mode === 'strict') return { lo: d.from, hi: d.to };
  if (active === undefined) return undefined;
  return { lo: active + d.from, hi: active + d.to };
}
