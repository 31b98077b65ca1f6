/**
 * An add operation's `distribution` (a shape over a range) against a live pool: the range as absolute bin
 * ids, and its expansion into per-bin items with core/dlmm/shapes.ts. Part of preparation: every face
 * sees the expanded items through the prepared operation. Problems are values (the rules report them).
 */
import { MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import { expandShape, type ShapeBin, type ShapeProblem } from '../dlmm/shapes';
import type { LivePool } from '../live/live';
import { distributionRange, type AddOp } from '../plan/schema';

/** Problems of the range itself: from > to, or a range crossing the signed domain -500..500. */
export type RangeProblem = { kind: 'reversed' } | { kind: 'out-of-range'; lo: number; hi: number };

/** Range problems of a distribution once its absolute range is known. */
function rangeProblem(lo: number, hi: number): RangeProblem | undefined {
  if (lo > hi) return { kind: 'reversed' };
  if (lo < MIN_BIN_ID || hi > MAX_BIN_ID) return { kind: 'out-of-range', lo, hi };
  return undefined;
}

export type DistributionResult =
  | { ok: true; lo: number; hi: number; bins: ShapeBin[]; dropped: number[] }
  | {
      ok: false;
      lo?: number;
      hi?: number;
      problem: ShapeProblem | RangeProblem | { kind: 'no-bins'; bins: number[] };
    };

/** Expands `op.distribution` on the live pool `lp` with active bin `active`. */
export function expandDistribution(op: AddOp, lp: LivePool, active: number): DistributionResult | undefined {
  const d = op.distribution;
  if (!d) return undefined;
  const range = distributionRange(op.mode, d, active);
  if (!range) return undefined;
  const { lo, hi } = range;
  const rp = rangeProblem(lo, hi);
  if (rp) return { ok: false, lo, hi, problem: rp };
  const missing: number[] = [];
  for (let b = lo; b <= hi; b++) if (!lp.binById.has(b)) missing.push(b);
  if (missing.length > 0) return { ok: false, lo, hi, problem: { kind: 'no-bins', bins: missing } };
  const activeBin = lp.binById.get(active);
  const r = expandShape({
    shape: d.shape,
    lo,
    hi,
    active,
    x_total: d.x_amount,
    y_total: d.y_amount,
    priceOf: (b) => lp.binById.get(b)?.price,
    active_reserve_x: activeBin?.reserve_x ?? 0n,
    active_reserve_y: activeBin?.reserve_y ?? 0n,
  });
  if (!r.ok) return { ok: false, lo, hi, problem: r.problem };
  return { ok: true, lo, hi, bins: r.bins, dropped: r.dropped };
}

/** A short list of bin ids for messages: "3, 4, 5" or "3, 4, 5, ... (12 bins)". */
export function listBins(ids: readonly number[], max = 6): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')}, ... (${ids.length} bins)`;
}
