/**
 * The simulated engine's world file (docs/world.md): tokens, pools with their liquidity, users with
 * positions, API keys, status and inventory faults. YAML or JSON, validated with zod; integers are read
 * exactly (YAML `intAsBigInt`), so amounts never pass through a float.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import * as z from 'zod';
import { INVENTORY_FAULTS } from '../api/errors';
import { MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import { percentToPpm } from '../dlmm/percent';

/** Non-negative integer amount: bigint, digit string or safe integer -> bigint. */
const zWorldAmount = z
  .union([
    z.bigint().nonnegative(),
    z.string().regex(/^\d+$/, 'expected a non-negative integer (digits only)'),
    z.number().int().nonnegative().refine(Number.isSafeInteger, 'integer too large for a number: quote it'),
  ])
  .transform((v) => BigInt(v));

/** A small integer (bin ids, bps, heights): number or bigint from the YAML reader -> number. */
const zSmallInt = z
  .union([
    z.number().int(),
    z.bigint().refine((v) => v >= -(2n ** 53n) && v <= 2n ** 53n, 'integer out of range'),
  ])
  .transform((v) => Number(v));

const zBinId = zSmallInt.pipe(z.number().int().min(MIN_BIN_ID).max(MAX_BIN_ID));
const zBps = zSmallInt.pipe(z.number().int().min(0).max(9999));
const zStandardPrincipal = z
  .string()
  .regex(/^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}$/, 'expected a standard principal (SP…/SM…/ST…)');
const zContractPrincipal = z
  .string()
  .regex(
    /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}$/,
    'expected a contract principal ADDR.name',
  );
// YAML integers arrive as bigint (`share_percent: 30`): percentToPpm reads their decimal text exactly.
const zPercent = z.union([z.bigint(), z.number(), z.string()]).transform((v, ctx) => {
  const ppm = percentToPpm(v);
  if (ppm === undefined || ppm > 1_000_000n) {
    ctx.addIssue({ code: 'custom', message: 'expected a percent between 0 and 100 with at most 4 decimals' });
    return z.NEVER;
  }
  return ppm;
});

export const InventoryFaultCodeSchema = z.enum(INVENTORY_FAULTS);

const TokenSpecSchema = z.strictObject({
  contract: zContractPrincipal,
  symbol: z.string().min(1),
  name: z.string().optional(),
  decimals: zSmallInt.pipe(z.number().int().min(0).max(18)),
  /** define-fungible-token name for post-conditions; null for the native STX wrapper. */
  asset_name: z.string().min(1).nullable(),
  /** The library's tokenId; defaults to `token-<symbol lowercased>`. */
  token_id: z.string().optional(),
});

const FeesSchema = z.strictObject({
  x_protocol: zBps,
  x_provider: zBps,
  x_variable: zBps.default(0),
  y_protocol: zBps,
  y_provider: zBps,
  y_variable: zBps.default(0),
});

/** Generated liquidity: Y in the bins below the active bin, X above, half of each in the active bin. */
const LiquiditySpecSchema = z.strictObject({
  bins_below: zSmallInt.pipe(z.number().int().min(0).max(1000)),
  bins_above: zSmallInt.pipe(z.number().int().min(0).max(1000)),
  x_per_bin: zWorldAmount,
  y_per_bin: zWorldAmount,
  /** flat: every bin the same; triangle: amounts fall linearly with the distance from the active bin. */
  shape: z.enum(['flat', 'triangle']).default('flat'),
});

const ExplicitBinSchema = z.strictObject({
  bin_id: zBinId,
  reserve_x: zWorldAmount,
  reserve_y: zWorldAmount,
  /** Total shares of the bin; default isqrt(liquidity value), as a first deposit would mint. */
  shares: zWorldAmount.optional(),
});

const PoolSpecSchema = z
  .strictObject({
    id: zContractPrincipal,
    alias: z.string().regex(/^dlmm_\d+$/, 'expected an alias of the form dlmm_<n>'),
    token_x: zContractPrincipal,
    token_y: zContractPrincipal,
    bin_step: zSmallInt.pipe(z.number().int().min(1).max(1000)),
    fees: FeesSchema,
    active_bin: zBinId,
    /** Price of the active bin (Y base units per X base unit x 1e8); other bins follow the geometric rule. */
    active_price: zWorldAmount.refine((p) => p > 0n, 'price must be positive'),
    active: z.boolean().default(true),
    quotable: z.boolean().default(true),
    /** In the app v2 current-bins cohort (its owned-bin inventory answers for this pool); default true. */
    current_bins: z.boolean().default(true),
    liquidity: LiquiditySpecSchema.optional(),
    bins: z.array(ExplicitBinSchema).optional(),
  })
  .refine((p) => !(p.liquidity && p.bins), { message: 'give either liquidity or bins, not both' });

const PositionBinSpecSchema = z
  .strictObject({
    bin_id: zBinId,
    /** Raw shares owned by the user. */
    shares: zWorldAmount.optional(),
    /** Or a percent of the bin's total shares (floor). */
    share_percent: zPercent.optional(),
  })
  .refine((b) => (b.shares === undefined) !== (b.share_percent === undefined), {
    message: 'give exactly one of shares or share_percent',
  });

const UserSpecSchema = z.strictObject({
  address: zStandardPrincipal,
  positions: z
    .array(z.strictObject({ pool: z.string().min(1), bins: z.array(PositionBinSpecSchema) }))
    .default([]),
  /**
   * What the principal holds, by token contract (a token of `tokens`; the STX wrapper's entry is native
   * STX in micro-STX), in base units. A token not listed is 0: transfers of more than is held revert.
   */
  balances: z.record(z.string(), zWorldAmount).default({}),
  /** The account's next nonce (transactions mined before the world's state); default 0. */
  nonce: zWorldAmount.default(0n),
});

const ApiKeySchema = z.strictObject({
  key: z.string().min(8, 'API keys have at least 8 characters'),
  requests_per_second: zSmallInt.pipe(z.number().int().min(1).max(1_000_000)),
  label: z.string().optional(),
});

const StatusSpecSchema = z.strictObject({
  state_height: zSmallInt.pipe(z.number().int().min(0)).default(1000),
  /** Distance between chain tip and applied state; null = tip unknown. */
  tip_lag: zSmallInt.pipe(z.number().int().min(0)).nullable().default(0),
  ready: z.boolean().default(true),
  app_ready: z.boolean().default(true),
});

const FaultSpecSchema = z.strictObject({
  /** Pool alias or contract id. */
  pool: z.string().min(1),
  /** Only this principal's book; absent = every principal. */
  principal: zStandardPrincipal.optional(),
  code: InventoryFaultCodeSchema,
});

const LimitsSchema = z.strictObject({
  requests_per_second: zSmallInt.pipe(z.number().int().min(1).max(1_000_000)).default(50),
  node_requests_per_minute: zSmallInt.pipe(z.number().int().min(1).max(60_000_000)).default(500),
});

const HistorySchema = z.strictObject({
  /** Unix seconds of the last generated point (fixed so histories are reproducible). */
  end_timestamp: zSmallInt.pipe(z.number().int().min(0)).default(1_788_220_800),
  interval_seconds: zSmallInt.pipe(z.number().int().min(1)).default(3600),
  points: zSmallInt.pipe(z.number().int().min(1).max(10_000)).default(168),
});

/** The core contract's settings (its admin's data-vars): what first deposits must meet. */
const CoreSpecSchema = z.strictObject({
  /** minimum-bin-shares: a first deposit into an empty bin is worth at least this many shares (launch u10000). */
  minimum_bin_shares: zWorldAmount.default(10_000n),
  /** minimum-burnt-shares: minted to the burn address on a first deposit (launch u1000). */
  minimum_burnt_shares: zWorldAmount.default(1_000n),
});

export const WorldSchema = z.strictObject({
  // YAML integers arrive as bigint: `version: 1` in a world file is 1n.
  version: z
    .union([z.literal(1), z.literal(1n)], { error: 'expected version 1' })
    .default(1)
    .transform(() => 1 as const),
  name: z.string().optional(),
  /** Seed of the deterministic generators (price history). */
  seed: zSmallInt.default(1),
  status: StatusSpecSchema.default({ state_height: 1000, tip_lag: 0, ready: true, app_ready: true }),
  limits: LimitsSchema.default({ requests_per_second: 50, node_requests_per_minute: 500 }),
  history: HistorySchema.default({ end_timestamp: 1_788_220_800, interval_seconds: 3600, points: 168 }),
  core: CoreSpecSchema.default({ minimum_bin_shares: 10_000n, minimum_burnt_shares: 1_000n }),
  tokens: z.array(TokenSpecSchema).min(1),
  pools: z.array(PoolSpecSchema).min(1),
  users: z.array(UserSpecSchema).default([]),
  api_keys: z.array(ApiKeySchema).default([]),
  inventory_faults: z.array(FaultSpecSchema).default([]),
});

export type World = z.infer<typeof WorldSchema>;
export type WorldInput = z.input<typeof WorldSchema>;
export type PoolSpec = World['pools'][number];
export type TokenSpec = World['tokens'][number];
export type FaultSpec = World['inventory_faults'][number];

/** A world file that could not be read: every problem with its path. */
export class WorldError extends Error {
  constructor(
    readonly code: 'world-syntax' | 'world-invalid',
    message: string,
    readonly problems: string[],
  ) {
    super(message);
    this.name = 'WorldError';
  }
}

/** Parses and validates a world file (YAML or JSON text). Throws WorldError listing every problem. */
export function loadWorld(text: string, fileName = 'world'): World {
  let raw: unknown;
  try {
    raw = parseYaml(text, { intAsBigInt: true, uniqueKeys: true });
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? `:${e.linePos[0].line}:${e.linePos[0].col}` : '';
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new WorldError('world-syntax', `${fileName}${where}: not valid YAML/JSON: ${msg}`, [msg ?? '']);
  }
  return parseWorld(raw, fileName);
}

/** Validates an already parsed world value (schema, then cross-references). */
export function parseWorld(raw: unknown, fileName = 'world'): World {
  const parsed = WorldSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new WorldError(
      'world-invalid',
      `${fileName}: invalid world file:\n  ${problems.join('\n  ')}`,
      problems,
    );
  }
  const problems = crossCheck(parsed.data);
  if (problems.length > 0) {
    throw new WorldError(
      'world-invalid',
      `${fileName}: inconsistent world file:\n  ${problems.join('\n  ')}`,
      problems,
    );
  }
  return parsed.data;
}

/** Finds a pool spec by contract id or alias. */
export function findPoolSpec(world: World, idOrAlias: string): PoolSpec | undefined {
  return world.pools.find((p) => p.id === idOrAlias || p.alias === idOrAlias);
}

/** Cross-reference checks zod cannot express: unique ids, known tokens, placement of reserves. */
function crossCheck(w: World): string[] {
  const problems: string[] = [];
  // set-minimum-shares asserts both > 0 and bin > burnt: no core holds other values.
  if (w.core.minimum_burnt_shares === 0n)
    problems.push('core.minimum_burnt_shares: must be > 0 (set-minimum-shares refuses 0)');
  if (w.core.minimum_bin_shares <= w.core.minimum_burnt_shares)
    problems.push(
      'core.minimum_bin_shares: must be above core.minimum_burnt_shares (set-minimum-shares refuses otherwise)',
    );
  const tokens = new Set<string>();
  w.tokens.forEach((t, i) => {
    if (tokens.has(t.contract)) problems.push(`tokens.${i}.contract: duplicate token ${t.contract}`);
    tokens.add(t.contract);
  });
  const ids = new Set<string>();
  w.pools.forEach((p, i) => {
    const at = `pools.${i}`;
    if (ids.has(p.id)) problems.push(`${at}.id: duplicate pool id ${p.id}`);
    if (ids.has(p.alias)) problems.push(`${at}.alias: duplicate alias ${p.alias}`);
    ids.add(p.id).add(p.alias);
    if (!tokens.has(p.token_x)) problems.push(`${at}.token_x: ${p.token_x} is not in tokens`);
    if (!tokens.has(p.token_y)) problems.push(`${at}.token_y: ${p.token_y} is not in tokens`);
    if (p.token_x === p.token_y) problems.push(`${at}: token_x and token_y must differ`);
    const f = p.fees;
    if (f.x_protocol + f.x_provider + f.x_variable >= 10_000)
      problems.push(`${at}.fees: x fees add up to 100% or more`);
    if (f.y_protocol + f.y_provider + f.y_variable >= 10_000)
      problems.push(`${at}.fees: y fees add up to 100% or more`);
    if (p.liquidity) {
      if (
        p.active_bin - p.liquidity.bins_below < MIN_BIN_ID ||
        p.active_bin + p.liquidity.bins_above > MAX_BIN_ID
      ) {
        problems.push(`${at}.liquidity: bins_below/bins_above reach outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
      }
    }
    const seen = new Set<number>();
    (p.bins ?? []).forEach((b, j) => {
      const bat = `${at}.bins.${j}`;
      if (seen.has(b.bin_id)) problems.push(`${bat}.bin_id: duplicate bin ${b.bin_id}`);
      seen.add(b.bin_id);
      if (b.bin_id < p.active_bin && b.reserve_x > 0n)
        problems.push(`${bat}: bins below the active bin hold only Y (reserve_x must be 0)`);
      if (b.bin_id > p.active_bin && b.reserve_y > 0n)
        problems.push(`${bat}: bins above the active bin hold only X (reserve_y must be 0)`);
      if (b.shares === 0n && (b.reserve_x > 0n || b.reserve_y > 0n))
        problems.push(`${bat}.shares: a bin with reserves needs shares > 0`);
    });
  });
  w.users.forEach((u, i) => {
    for (const token of Object.keys(u.balances))
      if (!tokens.has(token)) problems.push(`users.${i}.balances.${token}: ${token} is not in tokens`);
    u.positions.forEach((pos, j) => {
      if (!findPoolSpec(w, pos.pool))
        problems.push(`users.${i}.positions.${j}.pool: unknown pool ${pos.pool}`);
    });
  });
  w.inventory_faults.forEach((f, i) => {
    if (!findPoolSpec(w, f.pool)) problems.push(`inventory_faults.${i}.pool: unknown pool ${f.pool}`);
  });
  const keys = new Set<string>();
  w.api_keys.forEach((k, i) => {
    if (keys.has(k.key)) problems.push(`api_keys.${i}.key: duplicate key`);
    keys.add(k.key);
  });
  return problems;
}
