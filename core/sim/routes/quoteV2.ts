/** Quote engine v2 (/api/quotes/v2/*): market data, bins, quotes and swap parameters. */
import * as z from 'zod';
import { stringifyJsonExact } from '../../api/json';
import { zAmount, zPrincipal } from '../../api/schemas';
import { isUnsignedBinId, MAX_UINT128 } from '../../dlmm/bins';
import { minAfterSlippage, percentToPpm } from '../../dlmm/percent';
import type { SimEngine, SimPool } from '../engine';
import { HttpError, badRequest, parseBody, type Reply, type Router } from '../http';
import { presentBinsV2, presentPoolV2, presentSingleBin, presentToken } from '../present';
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
const zPositiveAmount = zAmount
  .refine((v) => v > 0n, 'must be greater than 0')
  .refine((v) => v <= MAX_UINT128, 'must fit uint128 (the contracts take uint amounts)');

const QuoteBody = z.looseObject({
  input_token: zPrincipal,
  output_token: zPrincipal,
  amount_in: zPositiveAmount,
  amm_strategy: z.enum(['best', 'direct']).optional(),
  slippage_tolerance: zSlippage.optional(),
});

const SwapBody = z.looseObject({
  execution_path: z
    .array(
      z.looseObject({
        pool_id: z.string(),
        input_token: zPrincipal.optional(),
        output_token: zPrincipal.optional(),
      }),
    )
    .min(1),
  amount_in: zPositiveAmount,
  amount_out: zAmount,
  input_token: zPrincipal,
  output_token: zPrincipal,
  input_token_decimals: z.number().int().min(0).max(36),
  output_token_decimals: z.number().int().min(0).max(36),
  slippage_tolerance: zSlippage,
  swap_parameters_type: z.enum(['simple', 'full']).optional(),
  provider: zPrincipal.optional(),
});

const AggSwapBody = z.union([
  SwapBody,
  QuoteBody.extend({
    provider: zPrincipal.optional(),
    swap_parameters_type: z.enum(['simple', 'full']).optional(),
  }),
]);

/** Pool by alias or contract id (quote v2 accepts both); 404 'Pool not found' otherwise. */
export function poolOr404(engine: SimEngine, id: string): SimPool {
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
): { routes: QuotedRoute[]; slip: { percent: number; ppm: bigint }; strategy: string } {
  requireToken(engine, body.input_token, 'input_token');
  requireToken(engine, body.output_token, 'output_token');
  if (body.input_token === body.output_token)
    throw badRequest('input_token and output_token are the same token');
  const strategy = body.amm_strategy ?? 'best';
  const routes = quoteAll(engine, body.input_token, body.output_token, body.amount_in, strategy === 'direct');
  if (routes.length === 0) {
    throw new HttpError(404, {
      success: false,
      error: `no route from ${body.input_token} to ${body.output_token}`,
      code: 'NO_ROUTE',
    });
  }
  const slip = body.slippage_tolerance ?? { percent: DEFAULT_SLIPPAGE_PERCENT, ppm: 10_000n };
  return { routes, slip, strategy };
}

/** Resolves a posted execution path to hops over live pools (400 when it does not chain). */
function hopsOf(
  engine: SimEngine,
  path: z.infer<typeof SwapBody>['execution_path'],
  input: string,
  output: string,
): PathHop[] {
  const hops: PathHop[] = [];
  let token = input;
  path.forEach((step, i) => {
    const pool = engine.pool(step.pool_id);
    if (!pool) throw badRequest(`execution_path.${i}.pool_id: unknown pool ${step.pool_id}`);
    const xForY = pool.tokenX === token;
    if (!xForY && pool.tokenY !== token)
      throw badRequest(`execution_path.${i}: pool ${pool.alias} does not trade ${token}`);
    const next = xForY ? pool.tokenY : pool.tokenX;
    hops.push({ pool, xForY, input: token, output: next });
    token = next;
  });
  if (token !== output) throw badRequest(`execution_path ends in ${token}, not output_token ${output}`);
  return hops;
}

/** Router call for a route: simple-multi for one pool, swap-multi with per-bin steps across pools. */
function swapParameters(
  engine: SimEngine,
  route: QuotedRoute,
  amountOut: bigint,
  slippagePpm: bigint,
  type: 'simple' | 'full',
  provider: string | undefined,
): Record<string, unknown> {
  const minOut = minAfterSlippage(amountOut, slippagePpm);
  const base = {
    success: true,
    contract: SWAP_ROUTER,
    swap_parameters_type: type,
    post_condition_mode: 'deny',
    amount_in: String(route.amountIn),
    amount_out: String(amountOut),
    min_amount_out: String(minOut),
    provider: provider ?? null,
    state_height: engine.status.state_height,
  };
  let call: Record<string, unknown>;
  const first = route.hops[0] as PathHop;
  if (route.hops.length === 1) {
    const p = first.pool;
    call = {
      function_name: first.xForY ? 'swap-x-for-y-simple-multi' : 'swap-y-for-x-simple-multi',
      parameters: {
        'pool-trait': p.id,
        'x-token-trait': p.tokenX,
        'y-token-trait': p.tokenY,
        [first.xForY ? 'x-amount' : 'y-amount']: String(route.amountIn),
        [first.xForY ? 'min-dy' : 'min-dx']: String(minOut),
        deadline: null,
      },
    };
  } else {
    const last = route.hops.length - 1;
    const swaps = route.hops.flatMap((h, i) =>
      (route.walks[i]?.steps ?? [])
        .filter((s) => s.amount_in > 0n)
        .map((s) => ({
          'pool-trait': h.pool.id,
          'x-token-trait': h.pool.tokenX,
          'y-token-trait': h.pool.tokenY,
          'expected-bin-id': s.bin_id,
          amount: String(s.amount_in),
          // The slippage bound sits on the final hop's steps; intermediate steps only need any output.
          'min-received': String(i === last ? minAfterSlippage(s.amount_out, slippagePpm) : 0n),
          'x-for-y': h.xForY,
        })),
    );
    call = { function_name: 'swap-multi', parameters: { swaps, 'max-unfavorable-bins': 0, deadline: null } };
  }
  if (type === 'full') {
    const inTok = engine.token(first.input);
    const outTok = engine.token(route.hops[route.hops.length - 1]?.output ?? '');
    call.post_conditions = [
      {
        who: 'sender',
        condition: 'sends at most',
        amount: String(route.amountIn),
        token: inTok?.contract,
        asset_name: inTok?.asset_name ?? null,
      },
      ...route.hops.slice(-1).map((h) => ({
        who: h.pool.id,
        condition: 'sends at least',
        amount: String(minOut),
        token: outTok?.contract,
        asset_name: outTok?.asset_name ?? null,
      })),
    ];
  }
  return { ...base, ...call };
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
  router.add('GET', `${P}/pairs`, () => {
    const pairs = new Map<string, { token_x: string; token_y: string; pools: string[] }>();
    for (const p of engine.pools()) {
      const key = `${p.tokenX}|${p.tokenY}`;
      const pair = pairs.get(key) ?? { token_x: p.tokenX, token_y: p.tokenY, pools: [] };
      pair.pools.push(p.id);
      pairs.set(key, pair);
    }
    return { body: { pairs: [...pairs.values()] } };
  });
  router.add('GET', `${P}/bins/:pool`, (c): Reply => {
    const pool = poolOr404(engine, c.params.pool as string);
    const hit = binsCache.get(pool.id);
    if (hit && hit.revision === engine.revision) return { raw: hit.raw };
    const raw = Buffer.from(stringifyJsonExact(presentBinsV2(engine, pool)));
    binsCache.set(pool.id, { revision: engine.revision, raw });
    return { raw };
  });
  router.add('GET', `${P}/bins/:pool/:bin`, (c) => {
    const pool = poolOr404(engine, c.params.pool as string);
    const text = c.params.bin as string;
    const unsigned = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
    if (!isUnsignedBinId(unsigned))
      throw badRequest(`bin id '${text}' is not an unsigned bin id 0..1000 (unsigned = signed + 500)`);
    let cache = binCache.get(pool.id);
    if (!cache || cache.revision !== engine.revision) {
      cache = { revision: engine.revision, raw: new Map() };
      binCache.set(pool.id, cache);
    }
    let raw = cache.raw.get(unsigned);
    if (raw === undefined) {
      raw = Buffer.from(stringifyJsonExact(presentSingleBin(engine, pool, unsigned - 500)));
      cache.raw.set(unsigned, raw);
    }
    return { raw };
  });
  router.add('POST', `${P}/quote`, async (c) => {
    const body = parseBody(QuoteBody, await c.body(), 'quote request');
    const { routes, slip, strategy } = runQuote(engine, body);
    return {
      body: {
        success: true,
        ...presentRoute(engine, routes[0] as QuotedRoute, slip.percent, slip.ppm, strategy),
      },
    };
  });
  router.add('POST', `${P}/quote/multi`, async (c) => {
    const body = parseBody(QuoteBody, await c.body(), 'quote request');
    const { routes, slip, strategy } = runQuote(engine, body);
    return {
      body: {
        success: true,
        routes: routes.map((r) => presentRoute(engine, r, slip.percent, slip.ppm, strategy)),
      },
    };
  });
  router.add('POST', `${P}/swap`, async (c) => {
    const body = parseBody(SwapBody, await c.body(), 'swap parameters request');
    requireToken(engine, body.input_token, 'input_token');
    requireToken(engine, body.output_token, 'output_token');
    const route = quotePath(
      hopsOf(engine, body.execution_path, body.input_token, body.output_token),
      body.amount_in,
    );
    return {
      body: swapParameters(
        engine,
        route,
        body.amount_out,
        body.slippage_tolerance.ppm,
        body.swap_parameters_type ?? 'simple',
        body.provider,
      ),
    };
  });
  router.add('POST', `${P}/agg/swap`, async (c) => {
    const body = parseBody(AggSwapBody, await c.body(), 'aggregated swap request');
    const type = body.swap_parameters_type ?? 'simple';
    if ('execution_path' in body && Array.isArray(body.execution_path)) {
      const b = body as z.infer<typeof SwapBody>;
      const route = quotePath(hopsOf(engine, b.execution_path, b.input_token, b.output_token), b.amount_in);
      return {
        body: swapParameters(engine, route, b.amount_out, b.slippage_tolerance.ppm, type, b.provider),
      };
    }
    const q = body as z.infer<typeof QuoteBody> & { provider?: string };
    const { routes, slip, strategy } = runQuote(engine, q);
    const best = routes[0] as QuotedRoute;
    return {
      body: {
        ...swapParameters(engine, best, best.amountOut, slip.ppm, type, q.provider),
        route: presentRoute(engine, best, slip.percent, slip.ppm, strategy),
      },
    };
  });
}
