/**
 * Liquidity shapes (spot, curve, bid-ask) expanded into per-bin amounts, exactly: bigint only, largest-remainder
 * rounding, the per-bin amounts add up to the requested totals to the unit. Pure; docs/distributions.md
 * explains the weights with a table and a picture.
 *
 * Sides: token Y goes to the bins at or below the active bin, token X to the bins at or above it (the
 * placement rule holds by construction). Each side is weighted on its own, by the distance d from the active
 * bin and the side's farthest distance D (its edge):
 *   spot     w = 1
 *   curve    w = D + 1 - d   (highest at the active bin, 1 at the edge)
 *   bid-ask  w = d + 1       (1 at the active bin, highest at the edge)
 * The weights are value weights. On the Y side value is the amount. On the X side one unit of X in bin i is
 * worth price_i / 1e8 of Y, so the X amount of bin i is proportional to w_i / price_i: a spot X side puts equal
 * value, not equal amounts, in each bin (as Meteora does), and both sides of a symmetric shape look alike on a
 * value ladder.
 *
 * The active bin (when in range) takes both tokens in the ratio of its current reserves, so the add pays no
 * fee on an unbalanced part: it starts from its nominal share of each side and shrinks the larger one to the
 * reserve ratio; what it gives up goes to the other bins of that side. When its reserves are both empty there
 * is no ratio to follow and the contract charges no such fee on a first deposit: it keeps its nominal shares.
 * When a side has no bin besides the active one, the active bin keeps that side's whole total (exact totals
 * win over the ratio).
 */

export type ShapeName = 'spot' | 'curve' | 'bid-ask';
export const SHAPES: readonly ShapeName[] = ['spot', 'curve', 'bid-ask'];

/** Scale of X-side amount weights: w * 2^160 / price keeps ~9 significant digits even at u128 prices. */
export const X_WEIGHT_SCALE = 1n << 160n;

export interface ShapeRequest {
  shape: ShapeName;
  /** Absolute signed bin ids, lo <= hi. */
  lo: number;
  hi: number;
  active: number;
  x_total: bigint;
  y_total: bigint;
  /** Price (Y per X times 1e8) of a bin at or above the active one; undefined when the pool lists none. */
  priceOf(bin: number): bigint | undefined;
  /** Reserves of the active bin. */
  active_reserve_x: bigint;
  active_reserve_y: bigint;
}

export interface ShapeBin {
  bin_id: number;
  x_amount: bigint;
  y_amount: bigint;
}

export type ShapeProblem =
  | { kind: 'empty-range' }
  | { kind: 'no-x-side'; x_total: bigint }
  | { kind: 'no-y-side'; y_total: bigint }
  | { kind: 'no-price'; bins: number[] };

type ShapeResult =
  | {
      ok: true;
      /** Non-empty bins, ascending by id. */
      bins: ShapeBin[];
      /** Bins of the range that rounded to nothing (dropped). */
      dropped: number[];
    }
  | { ok: false; problem: ShapeProblem };

/** Value weight of a bin at distance `d` from the active bin on a side whose edge is at distance `edge`. */
export function shapeWeight(shape: ShapeName, d: number, edge: number): bigint {
  if (shape === 'spot') return 1n;
  if (shape === 'curve') return BigInt(edge + 1 - d);
  return BigInt(d + 1);
}

/**
 * Splits `total` in proportion to `weights`, exactly: floors, then one more unit to the largest remainders
 * (ties: larger weight, then lower index). The result adds up to `total` when any weight is > 0, else all 0.
 */
export function splitExact(total: bigint, weights: readonly bigint[]): bigint[] {
  let sum = 0n;
  for (const w of weights) {
    if (w < 0n) throw new RangeError('weights must be >= 0');
    sum += w;
  }
  const out = weights.map(() => 0n);
  if (sum === 0n || total <= 0n) return out;
  const rem: bigint[] = new Array<bigint>(weights.length);
  let given = 0n;
  for (let i = 0; i < weights.length; i++) {
    const num = total * (weights[i] as bigint);
    const q = num / sum;
    out[i] = q;
    rem[i] = num - q * sum;
    given += q;
  }
  let left = total - given; // < weights.length
  if (left === 0n) return out;
  const order = weights.map((_, i) => i);
  order.sort((a, b) => {
    const ra = rem[a] as bigint;
    const rb = rem[b] as bigint;
    if (ra !== rb) return ra > rb ? -1 : 1;
    const wa = weights[a] as bigint;
    const wb = weights[b] as bigint;
    if (wa !== wb) return wa > wb ? -1 : 1;
    return a - b;
  });
  for (const i of order) {
    if (left === 0n) break;
    out[i] = (out[i] as bigint) + 1n;
    left--;
  }
  return out;
}

/** Largest (ax, ay) <= (nx, ny) in the ratio rx : ry (floor on the shrunk side); nominal when both are 0. */
export function fitToReserves(nx: bigint, ny: bigint, rx: bigint, ry: bigint): { x: bigint; y: bigint } {
  if (rx === 0n && ry === 0n) return { x: nx, y: ny };
  if (nx * ry <= ny * rx) return { x: nx, y: rx === 0n ? ny : (nx * ry) / rx };
  return { x: ry === 0n ? nx : (ny * rx) / ry, y: ny };
}

/** Expands a shape over lo..hi around `active` into per-bin amounts (see the file comment). */
export function expandShape(req: ShapeRequest): ShapeResult {
  const { lo, hi, active, x_total: X, y_total: Y } = req;
  if (!(lo <= hi)) return { ok: false, problem: { kind: 'empty-range' } };
  // Y side: lo..min(hi, active); X side: max(lo, active)..hi. Index 0 is the bin nearest the active one.
  const yBins: number[] = [];
  for (let b = Math.min(hi, active); b >= lo; b--) yBins.push(b);
  const xBins: number[] = [];
  for (let b = Math.max(lo, active); b <= hi; b++) xBins.push(b);
  if (X > 0n && xBins.length === 0) return { ok: false, problem: { kind: 'no-x-side', x_total: X } };
  if (Y > 0n && yBins.length === 0) return { ok: false, problem: { kind: 'no-y-side', y_total: Y } };

  const xw: bigint[] = [];
  if (X > 0n) {
    const missing: number[] = [];
    const edge = hi - active;
    for (const b of xBins) {
      const p = req.priceOf(b);
      if (p === undefined || p <= 0n) {
        missing.push(b);
        continue;
      }
      xw.push((shapeWeight(req.shape, b - active, edge) * X_WEIGHT_SCALE) / p || 1n);
    }
    if (missing.length > 0) return { ok: false, problem: { kind: 'no-price', bins: missing } };
  }
  const yEdge = active - lo;
  const yw = yBins.map((b) => shapeWeight(req.shape, active - b, yEdge));

  const x = new Map<number, bigint>();
  const y = new Map<number, bigint>();
  const hasActive = lo <= active && active <= hi;
  let xRest = X;
  let yRest = Y;
  let xOthers = X > 0n ? xBins : [];
  let xwOthers = xw;
  let yOthers = yBins;
  let ywOthers = yw;
  if (hasActive) {
    const sumX = xw.reduce((s, w) => s + w, 0n);
    const sumY = yw.reduce((s, w) => s + w, 0n);
    const xPinned = xBins.length === 1;
    const yPinned = yBins.length === 1;
    const nx = X === 0n ? 0n : xPinned ? X : (X * (xw[0] as bigint)) / sumX;
    const ny = Y === 0n ? 0n : yPinned ? Y : (Y * (yw[0] as bigint)) / sumY;
    const fit = fitToReserves(nx, ny, req.active_reserve_x, req.active_reserve_y);
    const ax = xPinned ? nx : fit.x;
    const ay = yPinned ? ny : fit.y;
    x.set(active, ax);
    y.set(active, ay);
    xRest = X - ax;
    yRest = Y - ay;
    xOthers = X > 0n ? xBins.slice(1) : [];
    xwOthers = xw.slice(1);
    yOthers = yBins.slice(1);
    ywOthers = yw.slice(1);
  }
  splitExact(xRest, xwOthers).forEach((a, i) => x.set(xOthers[i] as number, a));
  splitExact(yRest, ywOthers).forEach((a, i) => y.set(yOthers[i] as number, a));

  const bins: ShapeBin[] = [];
  const dropped: number[] = [];
  for (let b = lo; b <= hi; b++) {
    const xa = x.get(b) ?? 0n;
    const ya = y.get(b) ?? 0n;
    if (xa === 0n && ya === 0n) dropped.push(b);
    else bins.push({ bin_id: b, x_amount: xa, y_amount: ya });
  }
  return { ok: true, bins, dropped };
}
