/**
 * Quotes of the simulated engine: every direct and one-hop path between two tokens, each walked with
 * the exact swap math (core/dlmm/math.ts routeWalk) over the current state, best first.
 */
import { BIN_ID_OFFSET } from '../dlmm/bins';
import { priceImpactBps, routeWalk, spotOutput, type SwapWalkResult } from '../dlmm/math';
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
  const impact = priceImpactBps(reference, amount_out);
  return { hops, walks, amountIn, amountInUsed, amountOut: amount_out, complete, priceImpactBps: impact };
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
  // The admin's quote skew (a fault for client tests): the reported output differs from the exact walk.
  const amountOut =
    engine.quoteSkewBps === 0
      ? route.amountOut
      : (route.amountOut * BigInt(10_000 + engine.quoteSkewBps)) / 10_000n;
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
    amount_out: String(amountOut),
    min_amount_out: String(minAfterSlippage(amountOut, slippagePpm)),
    complete: route.complete,
    price_impact_bps: route.priceImpactBps,
    input_token_decimals: engine.token(first.input)?.decimals ?? 0,
    output_token_decimals: engine.token(last.output)?.decimals ?? 0,
    slippage_tolerance: slippagePercent,
    amm_strategy: strategy,
    state_height: engine.status.state_height,
  };
}
