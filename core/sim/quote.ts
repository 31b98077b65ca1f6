/**
 * Quotes of the simulated engine: every direct and one-hop path between two tokens, each walked with
 * the exact swap math (core/dlmm/math.ts routeWalk) over the current state, best first.
 */
import { BIN_ID_OFFSET, formatRatio } from '../dlmm/bins';
import { priceImpactBps, routeWalk, spotOutput, type SwapWalkResult } from '../dlmm/math';
import type { SimEngine, SimPool } from './engine';

export interface PathHop {
  pool: SimPool;
  xForY: boolean;
  input: string;
  output: string;
}

export interface QuotedRoute {
  hops: PathHop[];
  walks: SwapWalkResult[];
  amountIn: bigint;
  amountInUsed: bigint;
  amountOut: bigint;
  /** The whole input was swapped (no pool ran out of bins). */
  complete: boolean;
  /** The used input valued at the active bins' prices, fees excluded (spotOutput): the impact's reference. */
  reference: bigint;
  /** Shortfall of amount_out against the active bins' prices (fees included), in bps; null without a reference. */
  priceImpactBps: number | null;
}

function hopFor(pool: SimPool, input: string): PathHop | undefined {
  if (pool.tokenX === input) return { pool, xForY: true, input, output: pool.tokenY };
  if (pool.tokenY === input) return { pool, xForY: false, input, output: pool.tokenX };
  return undefined;
}

/** Direct paths and paths through one intermediate token, over active and quotable pools. */
function candidatePaths(engine: SimEngine, input: string, output: string): PathHop[][] {
  const pools = engine.pools().filter((p) => p.active && p.quotable);
  const paths: PathHop[][] = [];
  for (const p of pools) {
    const hop = hopFor(p, input);
    if (hop && hop.output === output) paths.push([hop]);
  }
  for (const p1 of pools) {
    const first = hopFor(p1, input);
    if (!first || first.output === output) continue;
    for (const p2 of pools) {
      if (p2 === p1) continue;
      const second = hopFor(p2, first.output);
      if (second && second.output === output) paths.push([first, second]);
    }
  }
  return paths;
}

/** Walks one path with the exact math over the current state (state unchanged). */
export function quotePath(hops: PathHop[], amountIn: bigint): QuotedRoute {
  const { amount_out, hops: walks } = routeWalk(
    hops.map((h) => ({
      getBin: (id: number) => h.pool.bins.get(id),
      activeBinId: h.pool.activeBinId,
      xForY: h.xForY,
      fees: h.pool.fees,
    })),
    amountIn,
  );
  const amountInUsed = walks[0]?.amount_in_used ?? 0n;
  const complete = walks.every((w) => w.unspent === 0n);
  let reference = amountInUsed;
  for (const h of hops) {
    const price = h.pool.prices[h.pool.activeBinId + BIN_ID_OFFSET] as bigint;
    reference = spotOutput(price, h.xForY, h.pool.fees, reference);
  }
  const priceImpact = priceImpactBps(reference, amount_out);
  return {
    hops,
    walks,
    amountIn,
    amountInUsed,
    amountOut: amount_out,
    complete,
    reference,
    priceImpactBps: priceImpact,
  };
}

/** Every path quoted, best first: complete routes before partial ones, then larger output, then fewer hops. */
export function quoteAll(engine: SimEngine, input: string, output: string, amountIn: bigint): QuotedRoute[] {
  const routes = candidatePaths(engine, input, output).map((p) => quotePath(p, amountIn));
  return routes.sort((a, b) => {
    if (a.complete !== b.complete) return a.complete ? -1 : 1;
    if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1;
    return a.hops.length - b.hops.length;
  });
}

/**
 * A route in the quote engine's published shape (leather-io/mono
 * packages/services/src/infrastructure/api/bitflow/bitflow-bff-api.types.ts, QuoteResponse and RouteInfo):
 * flat; `execution_path` has one step per bin the walk crosses (a crossed bin that trades nothing is an
 * empty swap); amount_out, min_amount_out, fee and price_impact_tokens are decimal strings (the minimum
 * keeps its fraction, as the engine's figures do). `routeIndex` adds the multi-quote's route_index and
 * total_hops.
 */
export function presentRoute(
  engine: SimEngine,
  route: QuotedRoute,
  slippagePercent: number,
  slippagePpm: bigint,
  routeIndex?: number,
): Record<string, unknown> {
  const first = route.hops[0] as PathHop;
  const last = route.hops[route.hops.length - 1] as PathHop;
  // The admin's quote skew (a fault for client tests): the reported output differs from the exact walk.
  const amountOut = engine.skewed(route.amountOut);
  const execution_path = route.hops.flatMap((h, i) => {
    const w = route.walks[i] as SwapWalkResult;
    return w.steps.map((s) => ({
      pool_trait: h.pool.id,
      pool_id: h.pool.alias,
      x_token_trait: h.pool.tokenX,
      y_token_trait: h.pool.tokenY,
      expected_bin_id: s.bin_id,
      function_name: h.xForY ? 'swap-x-for-y' : 'swap-y-for-x',
      x_in: h.xForY ? String(s.amount_in) : null,
      y_in: h.xForY ? null : String(s.amount_in),
      x_out: h.xForY ? null : String(s.amount_out),
      y_out: h.xForY ? String(s.amount_out) : null,
      is_empty_swap: s.amount_in === 0n,
    }));
  });
  const binsUsed = execution_path.length;
  return {
    success: true,
    ...(routeIndex !== undefined ? { route_index: routeIndex } : {}),
    amount_out: String(amountOut),
    min_amount_out: formatRatio(amountOut * (1_000_000n - slippagePpm), 1_000_000n, 18),
    slippage_tolerance: slippagePercent,
    route_path: [first.input, ...route.hops.map((h) => h.output)],
    execution_path,
    // The fee in the input token of each hop, summed as the engine reports one figure.
    fee: String(route.walks.reduce((n, w) => n + w.fees, 0n)),
    price_impact_bps: route.priceImpactBps ?? 0,
    price_impact_tokens: String(amountOut - route.reference),
    ...(routeIndex !== undefined ? { total_hops: route.hops.length } : {}),
    error: null,
    input_token_decimals: engine.token(first.input)?.decimals ?? null,
    output_token_decimals: engine.token(last.output)?.decimals ?? null,
    execution_details: {
      amm_type: 'dlmm',
      bins_traversed: binsUsed,
      strategy: binsUsed > 1 ? 'multi_bin' : 'single_bin',
      unique_bins_used: new Set(execution_path.map((s) => `${s.pool_trait}|${s.expected_bin_id}`)).size,
    },
  };
}
