/**
 * How many bins a swap route walks: the one definition every face uses (`dlmm quote`, the dashboard's quote
 * panel, Get Quote), documented in docs/quotes.md ("Bins used and bins crossed").
 *
 * - bins used: the bins the route takes liquidity from, counted from the engine's per-bin steps of every hop;
 * - bins crossed: how often the active bin moves during the swap, i.e. bins used less one per hop (a swap
 *   that stays inside one bin crosses none).
 *
 * Unknown when a hop names no per-bin steps (the core swap API's quotes): never counted as 0.
 */

/** Bins used and crossed by one route. */
export interface RouteBins {
  used: number;
  crossed: number;
}

/** The route's bins from its hops' per-bin steps; undefined when a hop names none. */
export function routeBins(hops: readonly { bins?: readonly unknown[] | null }[]): RouteBins | undefined {
  if (hops.length === 0 || hops.some((h) => !h.bins || h.bins.length === 0)) return undefined;
  const used = hops.reduce((n, h) => n + (h.bins?.length ?? 0), 0);
  return { used, crossed: Math.max(0, used - hops.length) };
}

/** The figure as every face words it: "0 (1 bin used)", "3 (5 bins used)", or why it is unknown. */
export function routeBinsText(b: RouteBins | undefined): string {
  if (!b) return 'unknown (the quote names no per-bin steps)';
  return `${b.crossed} (${b.used} bin${b.used === 1 ? '' : 's'} used)`;
}
