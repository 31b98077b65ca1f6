/**
 * Honest quotes: the engine's route recomputed exactly from the bins we read.
 *
 * The interface document names only the route fields a swap request consumes (execution_path, amount_out,
 * decimals, slippage); whether the whole input fits and what the used part is worth are not named, so we
 * do not take them from the engine. For every DLMM hop we read the pool (fees, tokens) and its bin list and
 * run the core walk (core/dlmm/swap.ts: at most 350 bins, never past ±500), hop by hop, on the requested
 * input. The result says how much input is used, whether the route fills the whole amount, the exact
 * output, the price impact, and whether the engine's figure differs from ours.
 *
 * When a hop cannot be recomputed (not a DLMM pool we can read, bins unreadable) the check says so and falls
 * back to the engine's own figures, marked unverified: never a silent pass.
 */
import type { BinList, DlmmApi, Pool, Route } from '../api/types';
import {
  minReceived,
  priceImpactBps,
  routeWalk,
  spotOutput,
  type BinBalances,
  type PoolFees,
} from '../dlmm/math';

/** Pool fee fields (bps) as the math takes them. */
export function poolFees(pool: Pool): PoolFees {
  return {
    x_protocol: BigInt(pool.x_protocol_fee),
    x_provider: BigInt(pool.x_provider_fee),
    x_variable: BigInt(pool.x_variable_fee),
    y_protocol: BigInt(pool.y_protocol_fee),
    y_provider: BigInt(pool.y_provider_fee),
    y_variable: BigInt(pool.y_variable_fee),
  };
}

/** One hop as recomputed. */
export interface CheckedHop {
  pool_id: string;
  x_for_y: boolean;
  amount_in_used: bigint;
  amount_out: bigint;
  /** Swap calls made in this pool (bins visited, including empty ones). */
  bins_walked: number;
}

export interface QuoteCheck {
  /** The input asked for. */
  amount_in: bigint;
  /** Input the route actually takes (first hop); equals amount_in when complete. */
  amount_in_used: bigint;
  /** Output for the used part (ours when verified, else the engine's). */
  amount_out: bigint;
  /** The route fills the whole amount_in (every hop spends all it receives). */
  complete: boolean;
  /** Price moved by the swap in bps (ours when verified, else the engine's when given). */
  price_impact_bps: number | null;
  /** Pool ids of the hops, in order. */
  hops: string[];
  /** The engine's amount_out, as it answered. */
  engine_amount_out: bigint;
  /** True when every hop was recomputed from the bins we read. */
  verified: boolean;
  /** Why the recomputation could not run (verified false). */
  unverified_reason?: string;
  /** Engine and exact recomputation disagree on the output (verified only). */
  mismatch: boolean;
  checked_hops: CheckedHop[];
}

/** What the recomputation reads: a pool record by id or alias, and its bin list. */
interface QuoteReads {
  pool(id: string): Pool | undefined;
  bins(id: string): BinList | undefined;
}

/** Engine-reported figures for an unverified check (the input used, where the route's source states it). */
function engineFallback(route: Route, amountIn: bigint, reason: string): QuoteCheck {
  // The input the route takes: as its source states it, else the engine's per-bin steps summed.
  const first = route.hops[0];
  const used = route.amount_in_used ?? (first && first.bins.length > 0 ? first.amount_in : amountIn);
  const complete = used >= amountIn;
  return {
    amount_in: amountIn,
    amount_in_used: used,
    amount_out: route.amount_out,
    complete,
    price_impact_bps: route.price_impact_bps ?? null,
    hops: route.hops.map((h) => h.pool_id),
    engine_amount_out: route.amount_out,
    verified: false,
    unverified_reason: reason,
    mismatch: false,
    checked_hops: [],
  };
}

/**
 * Recomputes `route` for `amountIn` from `reads` (pure). Every hop must be a pool of the DLMM pools list
 * with a readable bin list; otherwise the check is unverified and carries the engine's figures.
 */
export function checkRoute(route: Route, amountIn: bigint, reads: QuoteReads): QuoteCheck {
  const hops = route.hops;
  if (hops.length === 0) return engineFallback(route, amountIn, 'the route has no hops');
  const walks: Parameters<typeof routeWalk>[0] = [];
  /** Each hop's active bin price (the price-impact reference). */
  const activePrices: bigint[] = [];
  for (const h of hops) {
    const pool = reads.pool(h.pool_id);
    if (!pool) return engineFallback(route, amountIn, `pool ${h.pool_id} is not in the DLMM pools list`);
    const list = reads.bins(h.pool_id);
    if (!list) return engineFallback(route, amountIn, `the bins of ${h.pool_id} could not be read`);
    let xForY: boolean;
    if (pool.token_x === h.input_token && pool.token_y === h.output_token) xForY = true;
    else if (pool.token_y === h.input_token && pool.token_x === h.output_token) xForY = false;
    else
      return engineFallback(
        route,
        amountIn,
        `hop ${h.pool_id} trades ${h.input_token} -> ${h.output_token}, not this pool's tokens`,
      );
    const active = list.active_bin_id ?? pool.active_bin;
    const map = new Map<number, BinBalances>();
    for (const b of list.bins)
      map.set(b.bin_id, { price: b.price, reserve_x: b.reserve_x, reserve_y: b.reserve_y, shares: 0n });
    walks.push({ getBin: (id) => map.get(id), activeBinId: active, xForY, fees: poolFees(pool) });
    activePrices.push(map.get(active)?.price ?? 0n);
  }
  let walked: ReturnType<typeof routeWalk>;
  try {
    walked = routeWalk(walks, amountIn);
  } catch (e) {
    return engineFallback(route, amountIn, `the exact walk failed on the bins read (${errText(e)})`);
  }
  const used = walked.hops[0]?.amount_in_used ?? 0n;
  const complete = walked.hops.every((w) => w.unspent === 0n);
  let reference = used;
  for (const [k, w] of walks.entries())
    reference = spotOutput(activePrices[k] as bigint, w.xForY, w.fees, reference);
  return {
    amount_in: amountIn,
    amount_in_used: used,
    amount_out: walked.amount_out,
    complete,
    price_impact_bps: priceImpactBps(reference, walked.amount_out),
    hops: hops.map((h) => h.pool_id),
    engine_amount_out: route.amount_out,
    verified: true,
    mismatch: walked.amount_out !== route.amount_out,
    checked_hops: walked.hops.map((w, k) => ({
      pool_id: hops[k]!.pool_id,
      x_for_y: walks[k]!.xForY,
      amount_in_used: w.amount_in_used,
      amount_out: w.amount_out,
      bins_walked: w.steps.length,
    })),
  };
}

/** Pools list lookup by contract id or alias. */
export function poolLookup(pools: Pool[]): (id: string) => Pool | undefined {
  const m = new Map<string, Pool>();
  for (const p of pools) {
    m.set(p.pool_id, p);
    if (p.pool_alias) m.set(p.pool_alias, p);
  }
  return (id) => m.get(id);
}

/**
 * Reads what `checkRoute` needs through the api (the pools list and each hop's bin list; the client caches
 * them by state height) and checks `route`. Never throws: a failed read is an unverified check.
 */
export async function checkRouteLive(
  api: DlmmApi,
  route: Route,
  amountIn: bigint,
  /** The pools list when the caller read it already (e.g. beside the quote request): not read again. */
  known: { pools?: Pool[] } = {},
): Promise<QuoteCheck> {
  // The pools list and every hop's bin list are read at once (one round trip, not two).
  const ids = [...new Set(route.hops.map((h) => h.pool_id))];
  const [pools, ...lists] = await Promise.all([
    (known.pools ? Promise.resolve(known.pools) : api.pools()).then(
      (p) => p,
      (e: unknown) => e,
    ),
    ...ids.map((id) => api.bins(id).catch(() => undefined)),
  ]);
  if (!Array.isArray(pools))
    return engineFallback(route, amountIn, `the pools list could not be read (${errText(pools)})`);
  const byId = new Map(ids.map((id, i) => [id, lists[i] as BinList | undefined]));
  return checkRoute(route, amountIn, { pool: poolLookup(pools as Pool[]), bins: (id) => byId.get(id) });
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** One line in words: what is used, whether it fills, and any disagreement (for summaries, hovers, logs). */
export function fillWords(
  check: QuoteCheck,
  fmtIn: (v: bigint) => string,
  fmtOut: (v: bigint) => string,
): string[] {
  const lines: string[] = [];
  if (check.complete) lines.push(`fills the whole amount: ${fmtIn(check.amount_in)} used`);
  else
    lines.push(
      `PARTIAL FILL: only ${fmtIn(check.amount_in_used)} of ${fmtIn(check.amount_in)} finds liquidity; ` +
        `${fmtOut(check.amount_out)} is the output for that used part, not for the whole amount`,
    );
  if (!check.verified) lines.push(`not recomputed: ${check.unverified_reason} (engine figures shown)`);
  else if (check.mismatch)
    lines.push(
      `engine and exact recomputation differ: engine says ${fmtOut(check.engine_amount_out)}, ` +
        `the bins read give ${fmtOut(check.amount_out)}`,
    );
  return lines;
}

/**
 * The output a quoted swap is bounded with: the check's (ours when verified, else the engine's), or without
 * a check the engine's quote.
 */
export function quoteBoundOutput(
  check: Pick<QuoteCheck, 'amount_out'> | undefined,
  route: Pick<Route, 'amount_out'>,
): bigint {
  return check?.amount_out ?? route.amount_out;
}

/**
 * The minimum received of a quoted swap at `slippagePpm`: floor(bound output * (1 - s)). Every face (CLI
 * quote, hover, dashboard, export) shows this figure; the export bounds with it unless it walks the chain
 * state the plan's earlier operations leave.
 */
export function quoteMinReceived(
  check: Pick<QuoteCheck, 'amount_out'> | undefined,
  route: Pick<Route, 'amount_out'>,
  slippagePpm: bigint,
): bigint {
  return minReceived(quoteBoundOutput(check, route), slippagePpm);
}
