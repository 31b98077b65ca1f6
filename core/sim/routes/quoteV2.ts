/** Quote engine v2 (/api/quotes/v2/*): market data, bins, quotes and swap parameters. */
import * as z from 'zod';
import { stringifyJsonExact } from '../../api/json';
import { zPrincipal } from '../../api/schemas';
import { isUnsignedBinId, MAX_UINT128 } from '../../dlmm/bins';
import { minAfterSlippage, percentToPpm } from '../../dlmm/percent';
import type { SimEngine, SimPool } from '../engine';
import type { TokenSpec } from '../world';
import { HttpError, badRequest, missingQuery, parseFastApiBody, type Reply, type Router } from '../http';
import { presentBins, presentPoolV2, presentSingleBin, presentToken } from '../present';
import { presentRoute, quoteAll, quotePath, type PathHop, type QuotedRoute } from '../quote';

/** Mainnet swap router (v-1-2 takes a trailing optional deadline). */
export const SWAP_ROUTER = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-swap-router-v-1-2';
const DEFAULT_SLIPPAGE_PERCENT = 1;

const zSlippage = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ppm = percentToPpm(v);
  if (ppm === undefined || ppm > 1_000_000n) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected a percent from 0 to 100 (1 means 1%) with at most 4 decimals',
    });
    return z.NEVER;
  }
  return { percent: Number(v), ppm };
});
/**
 * An amount as the published types send it: a string of base units. A JSON number is refused with 422
 * string_type, as FastAPI refuses it (the interface document's form; the client retries with a string).
 */
const zWireAmount = z.unknown().transform((v, ctx) => {
  if (typeof v !== 'string') {
    ctx.addIssue({
      code: 'custom',
      message: 'Input should be a valid string',
      params: { type: 'string_type' },
    });
    return z.NEVER;
  }
  if (!/^\d+$/.test(v)) {
    ctx.addIssue({ code: 'custom', message: 'expected the amount in base units, digits only' });
    return z.NEVER;
  }
  return BigInt(v);
});
const zPositiveAmount = zWireAmount
  .refine((v) => v > 0n, 'must be greater than 0')
  .refine((v) => v <= MAX_UINT128, 'must fit uint128 (the contracts take uint amounts)');

/** The published QuoteRequest (amm_strategy best | preferred | pure; preferred_amm for the latter two). */
const QuoteBody = z.looseObject({
  input_token: zPrincipal,
  output_token: zPrincipal,
  amount_in: zPositiveAmount,
  amm_strategy: z.enum(['best', 'preferred', 'pure']).optional(),
  preferred_amm: z.string().nullable().optional(),
  slippage_tolerance: zSlippage.nullable().optional(),
});

/** A posted execution step (published ExecutionStep): the pool and direction are what the sim reads. */
const StepBody = z.looseObject({
  pool_trait: zPrincipal,
  pool_id: z.string().nullable().optional(),
  x_token_trait: zPrincipal,
  y_token_trait: zPrincipal,
  expected_bin_id: z.number().int(),
  function_name: z.enum(['swap-x-for-y', 'swap-y-for-x']),
});

/** The published SwapRequest. */
const SwapBody = z.looseObject({
  execution_path: z.array(StepBody).min(1),
  amount_in: zPositiveAmount,
  amount_out: zWireAmount,
  input_token: zPrincipal,
  output_token: zPrincipal,
  input_token_decimals: z.number().int().min(0).max(36).nullable().optional(),
  output_token_decimals: z.number().int().min(0).max(36).nullable().optional(),
  slippage_tolerance: zSlippage.nullable().optional(),
  swap_parameters_type: z.enum(['simple', 'full']).nullable().optional(),
  provider: zPrincipal.nullable().optional(),
});

/** agg/swap: the document shows only `provider`; a swap request, or a quote request with `provider`. */
const AggSwapBody = z.union([
  SwapBody,
  QuoteBody.extend({
    provider: zPrincipal.nullable().optional(),
    swap_parameters_type: z.enum(['simple', 'full']).nullable().optional(),
  }),
]);

/** A token's fields in a pairs answer, prefixed `input_token` / `output_token` (the published PairsResponse). */
function tokenFields(prefix: 'input_token' | 'output_token', t: TokenSpec): Record<string, unknown> {
  return {
    [prefix]: t.contract,
    [`${prefix}_symbol`]: t.symbol,
    [`${prefix}_name`]: t.name ?? t.symbol,
    [`${prefix}_decimals`]: t.decimals,
    [`${prefix}_image`]: '',
  };
}

/** Pool by alias or contract id (quote v2 accepts both); 404 'Pool not found' otherwise. */
function poolOr404(engine: SimEngine, id: string): SimPool {
  const pool = engine.pool(id);
  if (!pool)
    throw new HttpError(404, {
      success: false,
      pool_id: id,
      bins: [],
      error: 'Pool not found',
      message: 'Pool not found',
    });
  return pool;
}

function requireToken(engine: SimEngine, contract: string, field: string): void {
  if (!engine.token(contract)) {
    throw badRequest(`${field} ${contract} is not a token of this engine; see GET /quotes/v2/tokens`, {
      code: 'UNKNOWN_TOKEN',
    });
  }
}

function runQuote(
  engine: SimEngine,
  body: z.infer<typeof QuoteBody>,
): { routes: QuotedRoute[]; slip: { percent: number; ppm: bigint } } {
  requireToken(engine, body.input_token, 'input_token');
  requireToken(engine, body.output_token, 'output_token');
  if (body.input_token === body.output_token)
    throw badRequest('input_token and output_token are the same token');
  // Every simulated pool is a DLMM pool: best, preferred (dlmm) and pure (dlmm) walk the same paths.
  const routes = quoteAll(engine, body.input_token, body.output_token, body.amount_in);
  if (routes.length === 0) {
    throw new HttpError(404, {
      success: false,
      error: `no route from ${body.input_token} to ${body.output_token}`,
      code: 'NO_ROUTE',
    });
  }
  return { routes, slip: slippageOf(body.slippage_tolerance) };
}

function slippageOf(v: { percent: number; ppm: bigint } | null | undefined): {
  percent: number;
  ppm: bigint;
} {
  return v ?? { percent: DEFAULT_SLIPPAGE_PERCENT, ppm: 10_000n };
}

/**
 * Resolves posted per-bin steps to hops over live pools: the pool from pool_trait, the direction from
 * function_name, a new hop wherever the pool or direction changes (400 when they do not chain).
 */
function hopsOf(
  engine: SimEngine,
  path: z.infer<typeof StepBody>[],
  input: string,
  output: string,
): PathHop[] {
  const hops: PathHop[] = [];
  let token = input;
  path.forEach((step, i) => {
    const xForY = step.function_name === 'swap-x-for-y';
    const prev = hops[hops.length - 1];
    if (prev && prev.pool.id === step.pool_trait && prev.xForY === xForY) return;
    const pool = engine.pool(step.pool_trait);
    if (!pool) throw badRequest(`execution_path.${i}.pool_trait: unknown pool ${step.pool_trait}`);
    if (pool.tokenX !== step.x_token_trait || pool.tokenY !== step.y_token_trait)
      throw badRequest(`execution_path.${i}: the token traits are not pool ${pool.alias}'s tokens`);
    const from = xForY ? pool.tokenX : pool.tokenY;
    if (from !== token) throw badRequest(`execution_path.${i}: the step spends ${from}, not ${token}`);
    const next = xForY ? pool.tokenY : pool.tokenX;
    hops.push({ pool, xForY, input: token, output: next });
    token = next;
  });
  if (token !== output) throw badRequest(`execution_path ends in ${token}, not output_token ${output}`);
  return hops;
}

/** A typed Clarity value of swap_parameters_typed (the published shape names only {type, value}). */
const typed = (type: string, value: unknown) => ({ type, value });

/** The Clarity type of each swap parameter. */
const PARAMETER_TYPES: Record<string, string> = {
  pool_trait: 'principal',
  x_token_trait: 'principal',
  y_token_trait: 'principal',
  expected_bin_id: 'int',
  amount: 'uint',
  min_received: 'uint',
  x_for_y: 'bool',
  max_steps: 'uint',
};

/** A swap parameter as its typed tuple: kebab-case keys, numbers as digit strings, booleans as they are. */
function typedTuple(params: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.entries(params).map(([k, v]) => [
    k.replaceAll('_', '-'),
    typed(PARAMETER_TYPES[k] as string, typeof v === 'boolean' ? v : String(v)),
  ]);
  return typed('tuple', Object.fromEntries(fields));
}

/**
 * Swap parameters in the published SwapResponse shape: 'simple' groups the steps by pool and direction
 * for swap-simple-multi (what the engine names; Bitflow's own bot documents it as broken on v-1-2), 'full'
 * lists every bin for swap-multi. Post-conditions: the sender sends at most amount_in, the last pool sends
 * at least the minimum.
 */
function swapParameters(
  engine: SimEngine,
  route: QuotedRoute,
  amountOut: bigint,
  slip: { percent: number; ppm: bigint },
  type: 'simple' | 'full',
): Record<string, unknown> {
  const minOut = minAfterSlippage(amountOut, slip.ppm);
  const last = route.hops.length - 1;
  const params: Record<string, unknown>[] = [];
  route.hops.forEach((h, i) => {
    const steps = route.walks[i]?.steps ?? [];
    const traits = {
      pool_trait: h.pool.id,
      x_token_trait: h.pool.tokenX,
      y_token_trait: h.pool.tokenY,
    };
    if (type === 'simple') {
      const amount = steps.reduce((n, s) => n + s.amount_in, 0n);
      const out = steps.reduce((n, s) => n + s.amount_out, 0n);
      const min = i === last ? minAfterSlippage(out, slip.ppm) : 0n;
      params.push({
        ...traits,
        amount: String(amount),
        min_received: String(min),
        x_for_y: h.xForY,
        max_steps: steps.length,
      });
      return;
    }
    for (const s of steps) {
      const empty = s.amount_in === 0n;
      const amount = empty ? 1n : s.amount_in;
      const min = empty || i !== last ? 0n : minAfterSlippage(s.amount_out, slip.ppm);
      params.push({
        ...traits,
        expected_bin_id: s.bin_id,
        amount: String(amount),
        min_received: String(min),
        x_for_y: h.xForY,
      });
    }
  });
  const first = route.hops[0] as PathHop;
  const lastHop = route.hops[last] as PathHop;
  const inTok = engine.token(first.input);
  const outTok = engine.token(lastHop.output);
  const condition = (
    tok: ReturnType<SimEngine['token']>,
    contract: string,
    amount: bigint,
    sender: string,
    code: string,
    kind: 'standard' | 'contract',
  ) => ({
    amount: String(amount),
    sender_address: sender,
    condition_code: code,
    token_contract: tok?.asset_name ? `${contract}::${tok.asset_name}` : contract,
    token_decimals: tok?.decimals ?? 0,
    token_asset_name: tok?.asset_name ?? '',
    post_condition_type: `${kind}_${tok?.asset_name ? 'fungible' : 'stx'}`,
  });
  return {
    success: true,
    slippage_tolerance: slip.percent,
    swap_contract: SWAP_ROUTER,
    function_name: type === 'simple' ? 'swap-simple-multi' : 'swap-multi',
    swap_parameters: params,
    swap_parameters_typed: params.map(typedTuple),
    post_conditions: [
      condition(inTok, first.input, route.amountIn, 'tx-sender', 'less_than_or_equal_to', 'standard'),
      condition(outTok, lastHop.output, minOut, lastHop.pool.id, 'greater_than_or_equal_to', 'contract'),
    ],
    total_hops: route.hops.length,
    error: null,
  };
}

/** Registers the quote v2 routes under /api/quotes/v2. */
export function registerQuoteV2(router: Router, engine: SimEngine): void {
  const P = '/api/quotes/v2';
  const binsCache = new Map<string, { revision: number; raw: Buffer }>();
  // Single-bin answers by unsigned id (at most 1001 per pool), dropped when the engine revision moves.
  const binCache = new Map<string, { revision: number; raw: Map<number, Buffer> }>();

  router.add('GET', `${P}/ready`, () => {
    const ready = engine.status.ready;
    return { status: ready ? 200 : 503, body: { ready, status: ready ? 'ok' : 'warming' } };
  });
  router.add('GET', `${P}/status`, () => {
    const s = engine.status;
    return {
      body: {
        ready: s.ready,
        state_height: s.state_height,
        chain_tip: engine.chainTip,
        tip_lag: s.tip_lag,
        pool_count: engine.pools().length,
      },
    };
  });
  router.add('GET', `${P}/tokens`, () => ({ body: { tokens: engine.tokens().map(presentToken) } }));
  router.add('GET', `${P}/pools`, () => ({ body: { pools: engine.pools().map(presentPoolV2) } }));
  router.add('GET', `${P}/pools/:pool`, (c) => ({
    body: presentPoolV2(poolOr404(engine, c.params.pool as string)),
  }));
  router.add('GET', `${P}/pairs`, (c) => {
    const input = c.query.get('input_token');
    if (input === null) throw missingQuery('input_token');
    const token = engine.token(input);
    if (!token)
      throw badRequest(`input_token ${input} is not a token of this engine; see GET /quotes/v2/tokens`);
    const only = c.query.get('output_token');
    const pairs = new Map<string, { output: string; pools: SimPool[] }>();
    for (const p of engine.pools()) {
      if (!p.active) continue;
      const output = p.tokenX === input ? p.tokenY : p.tokenY === input ? p.tokenX : undefined;
      if (output === undefined || (only !== null && output !== only)) continue;
      const pair = pairs.get(output) ?? { output, pools: [] };
      pair.pools.push(p);
      pairs.set(output, pair);
    }
    return {
      body: {
        ...tokenFields('input_token', token),
        pairs: [...pairs.values()].map(({ output, pools }) => {
          const t = engine.token(output);
          return {
            ...(t ? tokenFields('output_token', t) : { output_token: output }),
            pools: pools.map((p) => p.id),
            pools_id: pools.map((p) => p.alias),
            amm_types: ['dlmm'],
          };
        }),
      },
    };
  });
  router.add('GET', `${P}/bins/:pool`, (c): Reply => {
    const asked = c.params.pool as string;
    const pool = poolOr404(engine, asked);
    const key = `${pool.id} ${asked}`;
    const hit = binsCache.get(key);
    if (hit && hit.revision === engine.revision) return { raw: hit.raw };
    const raw = Buffer.from(stringifyJsonExact(presentBins(engine, pool, 'v2', asked)));
    binsCache.set(key, { revision: engine.revision, raw });
    return { raw };
  });
  router.add('GET', `${P}/bins/:pool/:bin`, (c) => {
    const asked = c.params.pool as string;
    const pool = poolOr404(engine, asked);
    const text = c.params.bin as string;
    if (text === 'active') return { body: presentSingleBin(engine, pool, pool.activeBinId, asked) };
    const unsigned = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
    if (!isUnsignedBinId(unsigned))
      throw badRequest(`bin id '${text}' is not an unsigned bin id 0..1000 (unsigned = signed + 500)`);
    const key = `${pool.id} ${asked}`;
    let cache = binCache.get(key);
    if (!cache || cache.revision !== engine.revision) {
      cache = { revision: engine.revision, raw: new Map() };
      binCache.set(key, cache);
    }
    let raw = cache.raw.get(unsigned);
    if (raw === undefined) {
      raw = Buffer.from(stringifyJsonExact(presentSingleBin(engine, pool, unsigned - 500, asked)));
      cache.raw.set(unsigned, raw);
    }
    return { raw };
  });
  router.add('POST', `${P}/quote`, async (c) => {
    const body = parseFastApiBody(QuoteBody, await c.body());
    const { routes, slip } = runQuote(engine, body);
    return { body: presentRoute(engine, routes[0] as QuotedRoute, slip.percent, slip.ppm) };
  });
  router.add('POST', `${P}/quote/multi`, async (c) => {
    const body = parseFastApiBody(QuoteBody, await c.body());
    const { routes, slip } = runQuote(engine, body);
    return {
      body: {
        success: true,
        routes: routes.map((r, i) => presentRoute(engine, r, slip.percent, slip.ppm, i + 1)),
        best_route_index: 1,
        error: null,
      },
    };
  });
  const swap = (b: z.infer<typeof SwapBody>) => {
    requireToken(engine, b.input_token, 'input_token');
    requireToken(engine, b.output_token, 'output_token');
    const route = quotePath(hopsOf(engine, b.execution_path, b.input_token, b.output_token), b.amount_in);
    return swapParameters(
      engine,
      route,
      b.amount_out,
      slippageOf(b.slippage_tolerance),
      b.swap_parameters_type ?? 'simple',
    );
  };
  router.add('POST', `${P}/swap`, async (c) => ({ body: swap(parseFastApiBody(SwapBody, await c.body())) }));
  router.add('POST', `${P}/agg/swap`, async (c) => {
    const body = parseFastApiBody(AggSwapBody, await c.body());
    if ('execution_path' in body && Array.isArray(body.execution_path))
      return { body: swap(body as z.infer<typeof SwapBody>) };
    const q = body as z.infer<typeof QuoteBody> & { swap_parameters_type?: 'simple' | 'full' | null };
    const { routes, slip } = runQuote(engine, q);
    const best = routes[0] as QuotedRoute;
    return { body: swapParameters(engine, best, best.amountOut, slip, q.swap_parameters_type ?? 'simple') };
  });
}
