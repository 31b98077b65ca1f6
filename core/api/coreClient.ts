/**
 * The core swap API operations of the interface document's client library, typed and exact:
 * getAvailableTokens, getPossibleSwaps(tokenX), getAllPossibleTokenY(tokenX),
 * getAllPossibleTokenYRoutes(tokenX, tokenY), getQuoteForRoute(tokenX, tokenY, amount) and
 * getSwapParams(route, sender, slippage). executeSwap is our unsigned export (no keys, no broadcast).
 *
 * HTTP (as the published library uses it): `GET {apiHost}/getAllTokensAndPools`,
 * `GET {apiHost}/getAllRoutes?tokenX=…&depth=…`; a route's quote is the read-only call it names, through
 * the node: `GET {readOnlyHost}/v2/contracts/interface/{addr}/{name}` (argument types) and
 * `POST {readOnlyHost}/v2/contracts/call-read/{addr}/{name}/{function}`. Every body is validated with zod;
 * amounts are bigint in base units (the library reads amounts in human units through floats: we do not).
 *
 * Configuration: API host, optional API key, provider address, read-only call host and key, keeper host and
 * key; from the environment (`BITFLOW_API_HOST`, `BITFLOW_API_KEY`, `BITFLOW_PROVIDER_ADDRESS`,
 * `READONLY_CALL_API_HOST`, `READONLY_CALL_API_KEY`, `KEEPER_API_HOST`, `KEEPER_API_KEY`) when not given.
 * Each key goes only to its own host; 500 requests per minute per host client-side. Units: the library's
 * slippage is a fraction (0.01 = 1%); getSwapParams takes it as a decimal string and converts exactly.
 */
import { Cl, deserializeCV, serializeCV, type ClarityValue, type PostCondition } from '@stacks/transactions';
import * as z from 'zod';
import { fungibleCondition } from '../chain/postConditions';
import type { TokenInfo } from '../chain/postConditions';
import { minReceived } from '../dlmm/bounds';
import { ApiError } from './errors';
import { httpError } from './failures';
import { stringifyJsonExact } from './json';
import {
  createNodeLimiter,
  createRateLimiter,
  MAX_PACING_WAIT_MS,
  NODE_WINDOW_MS,
  type RateLimiter,
} from './limiter';
import { nodeCacheDir, openNodeStore } from './nodeStore';
import { zDecimals, zInt, zPrincipal } from './schemas';
import { Transport, type HttpRequest } from './transport';
import type { ApiStats, Route } from './types';
import { tryParse, validate } from './validate';

// ---- configuration ---------------------------------------------------------------------------------

const zHost = z
  .string()
  .url('expected an http(s) URL')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

const CoreSwapConfigSchema = z.strictObject({
  /** The core swap API host (the library's API host). */
  apiHost: zHost,
  apiKey: z.string().min(1).optional(),
  /** Chain principal used for attribution (no revenue sharing runs from it). */
  providerAddress: zPrincipal.optional(),
  /** Node host for read-only calls and contract interfaces. */
  readOnlyHost: zHost,
  readOnlyKey: z.string().min(1).optional(),
  keeperHost: zHost.optional(),
  keeperKey: z.string().min(1).optional(),
  /** Client-side limit per host (default 500 requests per minute). */
  ratePerMinute: z.number().int().positive().default(500),
  timeoutMs: z.number().int().positive().default(10_000),
});
type CoreSwapConfig = z.input<typeof CoreSwapConfigSchema>;
type Config = z.output<typeof CoreSwapConfigSchema>;

/** The library's environment variable for each configuration field. */
export const CORE_SWAP_ENV = {
  apiHost: 'BITFLOW_API_HOST',
  apiKey: 'BITFLOW_API_KEY',
  providerAddress: 'BITFLOW_PROVIDER_ADDRESS',
  readOnlyHost: 'READONLY_CALL_API_HOST',
  readOnlyKey: 'READONLY_CALL_API_KEY',
  keeperHost: 'KEEPER_API_HOST',
  keeperKey: 'KEEPER_API_KEY',
} as const;

/**
 * Given fields win; missing ones come from the environment variables above. A string is a usage message
 * naming the field (and its variable) at fault; keys never appear in it.
 */
export function coreSwapConfig(
  given: Partial<CoreSwapConfig>,
  env: Record<string, string | undefined>,
): Config | string {
  const merged: Record<string, unknown> = { ...given };
  for (const [field, name] of Object.entries(CORE_SWAP_ENV)) {
    if (merged[field] === undefined && env[name]) merged[field] = env[name];
  }
  const r = CoreSwapConfigSchema.safeParse(merged);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const envName = CORE_SWAP_ENV[field as keyof typeof CORE_SWAP_ENV];
  const missing = merged[field] === undefined;
  return `core swap API configuration: ${field}${envName ? ` (${envName})` : ''} ${missing ? 'is required' : (issue?.message ?? 'is invalid')}`;
}

// ---- resources -------------------------------------------------------------------------------------

/** A token of /getAllTokensAndPools (the library's `tokenId` is the identifier of every operation). */
const CoreTokenSchema = z
  .looseObject({
    'token-id': z.string().min(1).optional(),
    tokenId: z.string().min(1).optional(),
    symbol: z.string(),
    name: z.string().nullable().optional(),
    tokenContract: zPrincipal.nullable(),
    tokenDecimals: zDecimals,
    tokenName: z.string().nullable().optional(),
  })
  .transform((t, ctx) => {
    const id = t.tokenId ?? t['token-id'];
    if (!id) {
      ctx.addIssue({ code: 'custom', message: 'a token needs token-id or tokenId', path: ['token-id'] });
      return z.NEVER;
    }
    return {
      tokenId: id,
      symbol: t.symbol,
      name: t.name ?? t.symbol,
      contract: t.tokenContract,
      decimals: t.tokenDecimals,
      /** The fungible token's asset name; null when the token moves native STX. */
      assetName: t.tokenName === 'token-stx' || t.tokenName === undefined ? null : t.tokenName,
    };
  });
export type CoreToken = z.output<typeof CoreTokenSchema>;

const TokensResponse = z.looseObject({ tokens: z.array(CoreTokenSchema) });

const CallSchema = z.looseObject({
  contract: zPrincipal.refine((c) => c.includes('.'), 'expected a contract principal'),
  function: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()),
});

const PostConditionSideSchema = z.looseObject({
  senderAddress: z.string(),
  tokenContract: z.string(),
  tokenName: z.string(),
  tokenDecimals: zInt,
});

/** One route of /getAllRoutes. */
const CoreRouteSchema = z
  .looseObject({
    token_path: z.array(z.string()).min(2),
    dex_path: z.array(z.string()).default([]),
    tokenXDecimals: zInt,
    tokenYDecimals: zInt,
    quoteData: CallSchema.nullable(),
    swapData: CallSchema,
    postConditions: z.record(z.string(), PostConditionSideSchema).default({}),
  })
  .transform((r) => ({
    tokenPath: r.token_path,
    dexPath: r.dex_path,
    tokenXDecimals: r.tokenXDecimals,
    tokenYDecimals: r.tokenYDecimals,
    quoteData: r.quoteData,
    swapData: r.swapData,
    postConditions: r.postConditions,
  }));
export type CoreRoute = z.output<typeof CoreRouteSchema>;

const RoutesResponse = z.record(z.string(), z.array(CoreRouteSchema));

type ClarityType = string | { optional?: unknown; tuple?: unknown; list?: unknown; response?: unknown };
const InterfaceSchema = z.looseObject({
  functions: z.array(
    z.looseObject({
      name: z.string(),
      args: z.array(z.looseObject({ name: z.string(), type: z.unknown() })),
    }),
  ),
});
type ContractInterface = z.output<typeof InterfaceSchema>;

const CallReadResponse = z.union([
  z.looseObject({ okay: z.literal(true), result: z.string().regex(/^(0x)?[0-9a-fA-F]+$/) }),
  z.looseObject({ okay: z.literal(false), cause: z.string().optional() }),
]);

/** One route's quote (the library's RouteQuote): exact amounts, or why it could not be quoted. */
export interface RouteQuote {
  route: CoreRoute;
  amountIn: bigint;
  /** Output for amountInUsed (the quote call's answer); 0 when it failed. */
  amountOut: bigint;
  /** Input the route takes, when the quote call says (the simulator's does); else undefined. */
  amountInUsed?: bigint;
  error?: string;
}

/** The library's QuoteResult: the best route and every route. */
export interface QuoteResult {
  bestRoute: RouteQuote | null;
  allRoutes: RouteQuote[];
  inputData: { tokenX: string; tokenY: string; amount: bigint; provider: string | null };
}

/** getSwapParams: the router call, its arguments and post-conditions, ready for the unsigned export. */
export interface CoreSwapParams {
  contract: string;
  functionName: string;
  functionArgs: ClarityValue[];
  argNames: string[];
  postConditions: PostCondition[];
  postConditionMode: 'deny';
  amountIn: bigint;
  /** The quoted output less the slippage (exact, floor). */
  minOut: bigint;
  /** The slippage as parts per million (converted from the library's fraction). */
  slippagePpm: bigint;
  tokenIn: TokenInfo;
  tokenOut: TokenInfo;
  /** The pool contract (the post-condition's "sends at least" side). */
  pool: string;
  provider: string | null;
}

export interface CoreSwapClient {
  readonly config: Readonly<Omit<Config, 'apiKey' | 'readOnlyKey' | 'keeperKey'>>;
  getAvailableTokens(): Promise<CoreToken[]>;
  getPossibleSwaps(tokenX: string): Promise<Record<string, CoreRoute[]>>;
  getAllPossibleTokenY(tokenX: string): Promise<string[]>;
  getAllPossibleTokenYRoutes(tokenX: string, tokenY: string): Promise<CoreRoute[]>;
  /** `amount` in base units of tokenX. */
  getQuoteForRoute(tokenX: string, tokenY: string, amount: bigint): Promise<QuoteResult>;
  /** `slippageFraction`: the library's unit, a decimal fraction (0.01 means 1%). */
  getSwapParams(quote: RouteQuote, sender: string, slippageFraction: string): Promise<CoreSwapParams>;
  stats(): ApiStats;
  close(): Promise<void>;
}

/** The library's fraction (0.01 = 1%) as parts per million, exactly; undefined when not a fraction in 0..1. */
export function fractionToPpm(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!m) return undefined;
  // Exact decimal arithmetic on the text: f * 1e8, then / 100 gives parts per million (f * 1e6).
  const frac = (m[2] ?? '').padEnd(8, '0');
  const scaled = BigInt(m[1] as string) * 100_000_000n + BigInt(frac); // f * 1e8
  if (scaled > 100_000_000n) return undefined;
  if (scaled % 100n !== 0n) return undefined; // finer than 1 ppm
  return scaled / 100n;
}

/** Creates the client. Throws a plain Error with the usage message when the configuration is invalid. */
export function createCoreSwapClient(
  given: Partial<CoreSwapConfig>,
  env: Record<string, string | undefined> = {},
): CoreSwapClient {
  const cfg = coreSwapConfig(given, env);
  if (typeof cfg === 'string') throw new Error(cfg);
  const stats: ApiStats = { requests: 0, cacheHits: 0, coalesced: 0, retries: 0, rateLimited: 0 };
  const transport = (apiKey: string | undefined): Transport =>
    new Transport(
      { apiKey, timeoutMs: cfg.timeoutMs, maxRetries: 2, retryBaseMs: 250, maxRetryDelayMs: 5000 },
      stats,
    );
  const coreLimiter: RateLimiter = createRateLimiter({
    limit: cfg.ratePerMinute,
    windowMs: NODE_WINDOW_MS,
    guardMs: 100,
    probeFirst: true,
    name: 'the core swap API',
    maxWaitMs: MAX_PACING_WAIT_MS,
  });
  // The read-only host is a node: its limiter is the one every client of that node builds (limiter.ts), paced
  // machine-wide with the quote engine client's node reads through the same on-disk store when there is one.
  const cacheDir = nodeCacheDir(env, cfg.readOnlyHost);
  const pacing = cacheDir !== undefined ? openNodeStore(cacheDir, cfg.readOnlyHost) : undefined;
  const nodeLimiter = createNodeLimiter({
    limit: cfg.ratePerMinute,
    probeFirst: true,
    ...(pacing ? { pacing } : {}),
  });
  // One transport (and so one key) and one limiter per host: a key is never sent to another host.
  const core = { t: transport(cfg.apiKey), l: coreLimiter, host: cfg.apiHost };
  const node = { t: transport(cfg.readOnlyKey), l: nodeLimiter, host: cfg.readOnlyHost };

  const getJson = async (
    side: typeof core,
    method: 'GET' | 'POST',
    path: string,
    body?: string,
  ): Promise<unknown> => {
    const req: HttpRequest = {
      method,
      url: side.host + path,
      endpoint: `${method} ${path.replace(/\?.*$/, '')}`,
      body,
      withKey: true,
      limiter: side.l,
    };
    const res = await side.t.send(req);
    const parsed = tryParse(res.text);
    if (res.status < 200 || res.status >= 300) throw httpError(req, res, parsed);
    if (parsed === undefined)
      throw new ApiError('unexpected-response', `${req.endpoint}: the answer is not JSON`, {
        endpoint: req.endpoint,
        status: res.status,
      });
    return parsed;
  };

  const tokens = readOnce(() =>
    getJson(core, 'GET', '/getAllTokensAndPools').then(
      (b) => validate(TokensResponse, b, 'GET /getAllTokensAndPools').tokens,
    ),
  );
  const routesFrom = readOnce((tokenX) => {
    const q = new URLSearchParams({ tokenX, depth: '4' });
    return getJson(core, 'GET', `/getAllRoutes?${q.toString()}`).then((b) =>
      validate(RoutesResponse, b, 'GET /getAllRoutes'),
    );
  });
  const contractInterface = readOnce((contract): Promise<ContractInterface> => {
    const [addr, name] = contract.split('.') as [string, string];
    const path = `/v2/contracts/interface/${addr}/${name}`;
    return getJson(node, 'GET', path).then((b) => validate(InterfaceSchema, b, `GET ${path}`));
  });

  const argsFor = async (
    call: { contract: string; function: string },
    params: Record<string, unknown>,
  ): Promise<{ args: ClarityValue[]; names: string[] }> => {
    const iface = await contractInterface(call.contract);
    const fn = iface.functions.find((f) => f.name === call.function);
    if (!fn)
      throw new ApiError(
        'unexpected-response',
        `${call.contract} has no function ${call.function} in its interface`,
        { endpoint: `GET /v2/contracts/interface/${call.contract}` },
      );
    return {
      args: fn.args.map((a) => encodeArg(a.name, a.type as ClarityType, params[a.name])),
      names: fn.args.map((a) => a.name),
    };
  };

  const quoteRoute = async (route: CoreRoute, amount: bigint): Promise<RouteQuote> => {
    const q: RouteQuote = { route, amountIn: amount, amountOut: 0n };
    if (!route.quoteData) return { ...q, error: 'the route names no quote call' };
    try {
      const params = withInput(route.quoteData.parameters, amount);
      const { args } = await argsFor(route.quoteData, params);
      const [addr, name] = route.quoteData.contract.split('.') as [string, string];
      const path = `/v2/contracts/call-read/${addr}/${name}/${route.quoteData.function}`;
      const body = await getJson(
        node,
        'POST',
        path,
        stringifyJsonExact({ sender: addr, arguments: args.map((a) => `0x${serializeCV(a)}`) }),
      );
      const r = validate(CallReadResponse, body, `POST ${path}`);
      if (!r.okay) return { ...q, error: `the quote call failed: ${r.cause ?? 'no cause given'}` };
      const whole = wholeClarityValue(r.result);
      const decoded = typeof whole === 'string' ? whole : readQuoteResult(whole);
      if (typeof decoded === 'string') return { ...q, error: decoded };
      return {
        ...q,
        amountOut: decoded.out,
        ...(decoded.used !== undefined ? { amountInUsed: decoded.used } : {}),
      };
    } catch (e) {
      return { ...q, error: e instanceof Error ? e.message : String(e) };
    }
  };

  const client: CoreSwapClient = {
    config: {
      apiHost: cfg.apiHost,
      readOnlyHost: cfg.readOnlyHost,
      ratePerMinute: cfg.ratePerMinute,
      timeoutMs: cfg.timeoutMs,
      ...(cfg.providerAddress ? { providerAddress: cfg.providerAddress } : {}),
      ...(cfg.keeperHost ? { keeperHost: cfg.keeperHost } : {}),
    },
    getAvailableTokens: () => tokens(''),
    getPossibleSwaps: (tokenX) => routesFrom(tokenX),
    async getAllPossibleTokenY(tokenX) {
      return Object.keys(await client.getPossibleSwaps(tokenX));
    },
    async getAllPossibleTokenYRoutes(tokenX, tokenY) {
      return (await client.getPossibleSwaps(tokenX))[tokenY] ?? [];
    },
    async getQuoteForRoute(tokenX, tokenY, amount) {
      const list = await client.getAllPossibleTokenYRoutes(tokenX, tokenY);
      const all = await Promise.all(list.map((r) => quoteRoute(r, amount)));
      // Best: quoted, then the larger exact output.
      all.sort((a, b) => {
        if (!!a.error !== !!b.error) return a.error ? 1 : -1;
        return b.amountOut > a.amountOut ? 1 : b.amountOut < a.amountOut ? -1 : 0;
      });
      const best = all[0] && !all[0].error && all[0].amountOut > 0n ? all[0] : null;
      return {
        bestRoute: best,
        allRoutes: all,
        inputData: { tokenX, tokenY, amount, provider: cfg.providerAddress ?? null },
      };
    },
    async getSwapParams(quote, sender, slippageFraction) {
      const ppm = fractionToPpm(slippageFraction);
      if (ppm === undefined)
        throw new Error(
          `slippage ${slippageFraction} is not a fraction between 0 and 1 (the library's unit: 0.01 means 1%)`,
        );
      if (quote.error || quote.amountOut === 0n)
        throw new Error(
          `the route has no quote to build swap parameters from (${quote.error ?? 'output 0'})`,
        );
      const minOut = minReceived(quote.amountOut, ppm);
      const sd = quote.route.swapData;
      let params = withInput(sd.parameters, quote.amountIn);
      params = withMin(params, minOut);
      if (cfg.providerAddress && 'provider' in params && params.provider == null)
        params = { ...params, provider: cfg.providerAddress };
      const { args, names } = await argsFor(sd, params);
      const pool = String(params['pool-trait'] ?? '');
      const all = await client.getAvailableTokens();
      const byId = (id: string | undefined) => all.find((t) => t.tokenId === id);
      const info = (t: CoreToken | undefined, id: string | undefined): TokenInfo => {
        if (!t || !t.contract) throw new Error(`token ${id} is not in /getAllTokensAndPools`);
        return { contract: t.contract, symbol: t.symbol, decimals: t.decimals, assetName: t.assetName };
      };
      const idIn = quote.route.tokenPath[0];
      const idOut = quote.route.tokenPath[quote.route.tokenPath.length - 1];
      const tokenIn = info(byId(idIn), idIn);
      const tokenOut = info(byId(idOut), idOut);
      if (!pool.includes('.')) throw new Error('the route names no pool-trait to state what the pool sends');
      return {
        contract: sd.contract,
        functionName: sd.function,
        functionArgs: args,
        argNames: names,
        postConditions: [
          fungibleCondition(sender, 'lte', quote.amountIn, tokenIn),
          fungibleCondition(pool, 'gte', minOut, tokenOut),
        ],
        postConditionMode: 'deny',
        amountIn: quote.amountIn,
        minOut,
        slippagePpm: ppm,
        tokenIn,
        tokenOut,
        pool,
        provider: (params.provider as string | undefined) ?? cfg.providerAddress ?? null,
      };
    },
    stats: () => ({ ...stats }),
    async close() {
      pacing?.flush();
      await Promise.all([core.t.close(), node.t.close()]);
    },
  };
  return client;
}

/**
 * A core route's quote in the quote engine's Route shape (one hop through the route's pool), so the exact
 * check (core/quote/exact.ts) and every quote view handle both sources alike. `slippagePercent`: percent.
 */
export function coreQuoteToRoute(
  q: RouteQuote,
  inputContract: string,
  outputContract: string,
  slippagePercent: number,
): Route {
  const xForY = /x-for-y/.test(q.route.swapData.function);
  const pool = String(q.route.swapData.parameters['pool-trait'] ?? '');
  const amountIn = q.amountInUsed ?? q.amountIn;
  return {
    // The core API names no bins: the route has one hop and no per-bin steps.
    execution_path: [],
    hops: [
      {
        pool_id: pool,
        alias: null,
        input_token: inputContract,
        output_token: outputContract,
        x_for_y: xForY,
        amount_in: amountIn,
        amount_out: q.amountOut,
        bins: [],
      },
    ],
    amount_out: q.amountOut,
    amount_out_text: String(q.amountOut),
    min_amount_out: q.amountOut,
    min_amount_out_text: String(q.amountOut),
    ...(q.amountInUsed !== undefined ? { amount_in_used: q.amountInUsed } : {}),
    route_path: [inputContract, outputContract],
    fee: '0',
    price_impact_bps: null,
    price_impact_tokens: '0',
    input_token_decimals: q.route.tokenXDecimals,
    output_token_decimals: q.route.tokenYDecimals,
    slippage_tolerance: slippagePercent,
  };
}

/** `read` once per key, its answer kept; a read that fails is forgotten (the next call asks again). */
function readOnce<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const kept = new Map<string, Promise<V>>();
  return (key) => {
    let p = kept.get(key);
    if (!p) {
      p = read(key);
      p.catch(() => kept.delete(key));
      kept.set(key, p);
    }
    return p;
  };
}

const INPUT_KEYS = ['dx', 'dy', 'amount', 'amt-in', 'amt-in-max', 'x-amount', 'y-amount'];
const MIN_KEYS = ['min-dy', 'min-dx', 'min-received', 'amt-out-min', 'min-x-amount', 'min-y-amount'];

/** The call's parameters with the input amount in the (null) input slot the route left open. */
function withInput(params: Record<string, unknown>, amount: bigint): Record<string, unknown> {
  const out = { ...params };
  const key = INPUT_KEYS.find((k) => k in out && out[k] === null);
  if (key) out[key] = amount;
  return out;
}

function withMin(params: Record<string, unknown>, min: bigint): Record<string, unknown> {
  const out = { ...params };
  for (const k of MIN_KEYS) if (k in out && out[k] === null) out[k] = min;
  return out;
}

/** A parameter as the Clarity value its interface type asks for (the types routes use). */
function encodeArg(name: string, type: ClarityType, value: unknown): ClarityValue {
  const bad = (): never => {
    throw new Error(`argument ${name}: cannot encode ${String(value)} as ${JSON.stringify(type)}`);
  };
  if (typeof type === 'object' && type !== null && 'optional' in type) {
    return value === null || value === undefined
      ? Cl.none()
      : Cl.some(encodeArg(name, type.optional as ClarityType, value));
  }
  const big = (): bigint =>
    typeof value === 'bigint'
      ? value
      : typeof value === 'string' && /^-?\d+$/.test(value)
        ? BigInt(value)
        : typeof value === 'number' && Number.isSafeInteger(value)
          ? BigInt(value)
          : bad();
  switch (type) {
    case 'uint128':
      return Cl.uint(big());
    case 'int128':
      return Cl.int(big());
    case 'bool':
      return typeof value === 'boolean' ? Cl.bool(value) : bad();
    case 'principal':
    case 'trait_reference':
      return typeof value === 'string' && zPrincipal.safeParse(value).success ? Cl.principal(value) : bad();
    default:
      return bad();
  }
}

/** The quote call's answer: (ok uint), or (ok {amount-out | dy | dx, amount-in-used?}). */
/**
 * A node's hex answer as one Clarity value, only when it is whole: hex digits only, and exactly the
 * serialization of the value read (a byte missing or more, or a digit that is not hex, is no answer: the
 * library's decoder alone would read a cut uint, and ignore trailing bytes). Otherwise why, as text.
 */
function wholeClarityValue(hex: string): ClarityValue | string {
  const body = hex.replace(/^0x/i, '');
  const refused = `the quote call answered ${JSON.stringify(hex.slice(0, 80))}, not one whole Clarity value`;
  if (!/^(?:[0-9a-f]{2})+$/i.test(body)) return refused;
  try {
    const cv = deserializeCV(body);
    return serializeCV(cv) === body.toLowerCase() ? cv : refused;
  } catch {
    return refused;
  }
}

function readQuoteResult(cv: ClarityValue): { out: bigint; used?: bigint } | string {
  let v = cv;
  if (v.type === 'err')
    return `the quote call answered an error (${JSON.stringify(v.value, (_, x) => (typeof x === 'bigint' ? String(x) : x))})`;
  if (v.type === 'ok') v = v.value;
  if (v.type === 'uint') return { out: BigInt(v.value) };
  if (v.type === 'tuple') {
    const data = v.value as Record<string, ClarityValue>;
    const outCv = data['amount-out'] ?? data.dy ?? data.dx;
    if (outCv?.type !== 'uint') return 'the quote call answered a tuple without an output amount';
    const usedCv = data['amount-in-used'];
    return {
      out: BigInt(outCv.value),
      ...(usedCv?.type === 'uint' ? { used: BigInt(usedCv.value) } : {}),
    };
  }
  return `the quote call answered a ${v.type}, not an amount`;
}
