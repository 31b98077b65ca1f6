/**
 * Quotes of the simulated engine: every direct and one-hop path between two tokens, each walked with
 * the exact swap math (core/dlmm/math.ts routeWalk) over the current state, best first.
 */
import { BIN_ID_OFFSET, FEE_SCALE, PRICE_SCALE } from '../dlmm/bins';
import { routeWalk, type SwapWalkResult } from '../dlmm/math';
import { minAfterSlippage } from '../dlmm/percent';
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
  /** Shortfall of amount_out against the active bins' prices (fees included), in bps; null without a reference. */
  priceImpactBps: number | null;
}

function hopFor(pool: SimPool, input: string): PathHop | undefined {
  if (pool.tokenX === input) return { pool, xForY: true, input, output: pool.tokenY };
  if (pool.tokenY === input) return { pool, xForY: false, input, output: pool.tokenX };
  return undefined;
}

/** Direct paths and paths through one intermediate token, over active and quotable pools. */
export function candidatePaths(
  engine: SimEngine,
  input: string,
  output: string,
  directOnly = false,
): PathHop[][] {
  const pools = engine.pools().filter((p) => p.active && p.quotable);
  const paths: PathHop[][] = [];
  for (const p of pools) {
    const hop = hopFor(p, input);
    if (hop && hop.output === output) paths.push([hop]);
  }
  if (directOnly) return paths;
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

/**
 * What `amount` is worth after the hop at the active bin's price, net of the pool's fee on the input side
 * (no walk): the reference for price impact, so impact measures the price moved, not the fees paid.
 */
function spotOut(hop: PathHop, amount: bigint): bigint {
  const price = hop.pool.prices[hop.pool.activeBinId + BIN_ID_OFFSET] as bigint;
  const f = hop.pool.fees;
  const feeBps = hop.xForY
    ? f.x_protocol + f.x_provider + f.x_variable
    : f.y_protocol + f.y_provider + f.y_variable;
  const net = (amount * (FEE_SCALE - feeBps)) / FEE_SCALE;
  return hop.xForY ? (net * price) / PRICE_SCALE : (net * PRICE_SCALE) / price;
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
  for (const h of hops) reference = spotOut(h, reference);
  const priceImpactBps =
    reference > 0n
      ? Number(amount_out >= reference ? 0n : ((reference - amount_out) * 10_000n) / reference)
      : null;
  return { hops, walks, amountIn, amountInUsed, amountOut: amount_out, complete, priceImpactBps };
}

/** Every path quoted, best first: complete routes before partial ones, then larger output, then fewer hops. */
export function quoteAll(
  engine: SimEngine,
  input: string,
  output: string,
  amountIn: bigint,
  directOnly = false,
): QuotedRoute[] {
  const routes = candidatePaths(engine, input, output, directOnly).map((p) => quotePath(p, amountIn));
  return routes.sort((a, b) => {
    if (a.complete !== b.complete) return a.complete ? -1 : 1;
    if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1;
    return a.hops.length - b.hops.length;
  });
}

/** The wire shape of a route (RouteSchema in core/api/schemas.ts), amounts as numeric strings. */
export function presentRoute(
  engine: SimEngine,
  route: QuotedRoute,
  slippagePercent: number,
  slippagePpm: bigint,
  strategy: string,
): Record<string, unknown> {
  const first = route.hops[0] as PathHop;
  const last = route.hops[route.hops.length - 1] as PathHop;
  const execution_path = route.hops.map((h, i) => {
    const w = route.walks[i] as SwapWalkResult;
    return {
      pool_id: h.pool.id,
      pool_alias: h.pool.alias,
      input_token: h.input,
      output_token: h.output,
      x_for_y: h.xForY,
      amount_in: String(w.amount_in_used),
      amount_out: String(w.amount_out),
      unspent: String(w.unspent),
      fee: String(w.fees),
      protocol_fee: String(w.protocol_fees),
      active_bin_before: w.active_bin_before,
      active_bin_after: w.active_bin_after,
      bins: w.steps
        .filter((s) => s.amount_in > 0n)
        .map((s) => ({
          bin_id: s.bin_id,
          amount_in: String(s.amount_in),
          amount_out: String(s.amount_out),
          fee: String(s.fee),
        })),
    };
  });
  return {
    route_id: route.hops.map((h) => h.pool.alias).join('>'),
    route_type: route.hops.length === 1 ? 'direct' : 'multi-hop',
    input_token: first.input,
    output_token: last.output,
    execution_path,
    amount_in: String(route.amountIn),
    amount_in_used: String(route.amountInUsed),
    amount_out: String(route.amountOut),
    min_amount_out: String(minAfterSlippage(route.amountOut, slippagePpm)),
    complete: route.complete,
    price_impact_bps: route.priceImpactBps,
    input_token_decimals: engine.token(first.input)?.decimals ?? 0,
    output_token_decimals: engine.token(last.output)?.decimals ?? 0,
    slippage_tolerance: slippagePercent,
    amm_strategy: strategy,
    state_height: engine.status.state_height,
  };
}
