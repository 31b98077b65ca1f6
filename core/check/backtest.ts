/**
 * `dlmm backtest`: replays a pool's active bin over its price history (/app/v2/pools/{pool}/bin-price-history)
 * against ranges — each add operation's bins (a shape's expansion or its listed bins) and the sender's current
 * positions — and counts, per range: the points where the range held the active bin, the longest stretch of
 * consecutive points out of range, and the re-centres a "re-centre after N points out of range" rule makes.
 *
 * The history's shape is not in the service's interface description: the client reads a list of points, bare
 * or under `history` / `points`, each `{timestamp, bin_id?, price}` (core/api/schemas.ts PricePointSchema;
 * docs/service-shapes.md). Here a point's active bin is its `bin_id`, or else the listed bin whose price is
 * exactly the point's price; a history with no point, a point whose bin cannot be told, or two points at one
 * time with different bins is refused with the reason — a backtest is never run on an empty or guessed series.
 * Points are replayed oldest first, each time once: points sent out of order are sorted and points repeated
 * exactly are merged, and the notes say so.
 */
import type { PricePoint } from '../api/types';
import { isSignedBinId } from '../dlmm/bins';

/** One replayed point: unix seconds and the active bin then. */
export interface HistoryStep {
  t: number;
  bin: number;
}

/** Window lengths `--history` takes, in seconds. */
export const HISTORY_WINDOWS = { '7d': 7 * 86_400, '30d': 30 * 86_400 } as const;
export type HistoryWindow = keyof typeof HISTORY_WINDOWS;
export const DEFAULT_HISTORY_WINDOW: HistoryWindow = '7d';
/** Points out of range in a row after which the rule re-centres (hourly points: six hours). */
export const DEFAULT_RECENTRE_AFTER = 6;

/** Timestamps above this are milliseconds (1e12 s is the year 33658). */
const MS_THRESHOLD = 1e12;
/** The last second a date can name (8.64e15 ms, ECMAScript's time range): a later timestamp is no time. */
const MAX_TIMESTAMP_SECONDS = 8.64e12;

export type SeriesResult =
  | {
      ok: true;
      steps: HistoryStep[];
      /** Points the service sent, before the window was cut. */
      served: number;
      /** Seconds the kept points span (last - first). */
      spanSeconds: number;
      /** The window asked, in seconds. */
      windowSeconds: number;
      /** Facts worth saying about how the history was read (ms timestamps, reordering, bins from prices). */
      notes: string[];
    }
  | { ok: false; why: string };

/**
 * The replay series of a served history: each point's active bin (its bin_id, or the listed bin whose price
 * equals its price), oldest first, cut to the `windowSeconds` before the newest point.
 */
export function historySeries(
  points: readonly PricePoint[],
  binOfPrice: (price: bigint) => number | undefined,
  windowSeconds: number,
): SeriesResult {
  if (points.length === 0)
    return { ok: false, why: 'the service returned no history points: there is nothing to replay' };
  const notes: string[] = [];
  const steps: HistoryStep[] = [];
  let ms = 0;
  let fromPrice = 0;
  for (const [i, p] of points.entries()) {
    let bin = p.bin_id;
    if (bin === undefined) {
      bin = binOfPrice(p.price);
      if (bin === undefined)
        return {
          ok: false,
          why: `history point ${i} (timestamp ${p.timestamp}) has no bin_id and its price ${p.price} is the price of no listed bin of the pool, so its active bin cannot be told`,
        };
      fromPrice++;
    }
    if (!isSignedBinId(bin))
      return { ok: false, why: `history point ${i} has bin ${bin}, outside -500..500` };
    let t = p.timestamp;
    if (t < 0) return { ok: false, why: `history point ${i} has a negative timestamp ${t}` };
    if (t > MS_THRESHOLD) {
      t = Math.floor(t / 1000);
      ms++;
    }
    if (t > MAX_TIMESTAMP_SECONDS)
      return { ok: false, why: `history point ${i} has timestamp ${p.timestamp}, beyond any date` };
    steps.push({ t, bin });
  }
  if (ms > 0 && ms < points.length)
    return {
      ok: false,
      why: `the history mixes timestamps in seconds and in milliseconds (${ms} of ${points.length} in ms): its order cannot be trusted`,
    };
  if (ms > 0) notes.push('timestamps read as milliseconds');
  if (fromPrice > 0) notes.push(`${fromPrice} point(s) without bin_id placed by their exact price`);
  const sorted = steps.every((s, i) => i === 0 || steps[i - 1]!.t <= s.t);
  if (!sorted) {
    steps.sort((a, b) => a.t - b.t);
    notes.push('points sorted oldest first (the service sent them in another order)');
  }
  // Points at one time: the same bin twice is one point said twice (merged, and the note says so); two
  // bins cannot both have been active then, and which one was cannot be told: never "the last one wins".
  const unique: HistoryStep[] = [];
  for (const s of steps) {
    const last = unique[unique.length - 1];
    if (last === undefined || last.t !== s.t) unique.push(s);
    else if (last.bin !== s.bin)
      return {
        ok: false,
        why: `the history gives two active bins at timestamp ${s.t} (${last.bin} and ${s.bin}): which one held then cannot be told, so it is not replayed`,
      };
  }
  if (unique.length < steps.length)
    notes.push(
      `${steps.length - unique.length} duplicate point(s) (same timestamp, same bin) merged into one each`,
    );
  steps.splice(0, steps.length, ...unique);
  const newest = steps[steps.length - 1]!.t;
  const kept = steps.filter((s) => s.t > newest - windowSeconds);
  return {
    ok: true,
    steps: kept,
    served: points.length,
    spanSeconds: newest - kept[0]!.t,
    windowSeconds,
    notes,
  };
}

/** A range of bins (inclusive), with its offsets from the active bin it was laid around. */
export interface BacktestRange {
  lo: number;
  hi: number;
  /** The active bin the range's offsets are counted from (the pool's active bin when it was read). */
  anchor: number;
}

interface OutStretch {
  /** Points in a row out of range. */
  points: number;
  /** Unix seconds of its first and last point. */
  from: number;
  to: number;
}

export interface RangeReplay {
  points: number;
  inRange: number;
  /** The longest run of consecutive points out of the (fixed) range; null when every point was in range. */
  longestOut: OutStretch | null;
  /** Re-centres the rule would make, and the unix seconds of each. */
  recentres: number[];
}

/**
 * Replays `steps` against `range`. The share in range and the longest stretch out are for the range as laid
 * (fixed). The re-centre count follows the rule: after `recentreAfter` points in a row out of range, the
 * range is laid again with its own offsets around that point's active bin, and counting starts over.
 */
export function replayRange(
  steps: readonly HistoryStep[],
  range: BacktestRange,
  recentreAfter: number,
): RangeReplay {
  let inRange = 0;
  let run: OutStretch | null = null;
  let longest: OutStretch | null = null;
  for (const s of steps) {
    if (s.bin >= range.lo && s.bin <= range.hi) {
      inRange++;
      run = null;
      continue;
    }
    run = run ? { points: run.points + 1, from: run.from, to: s.t } : { points: 1, from: s.t, to: s.t };
    if (!longest || run.points > longest.points) longest = run;
  }
  const recentres: number[] = [];
  let lo = range.lo;
  let hi = range.hi;
  let out = 0;
  for (const s of steps) {
    if (s.bin >= lo && s.bin <= hi) {
      out = 0;
      continue;
    }
    if (++out >= recentreAfter) {
      lo = s.bin + (range.lo - range.anchor);
      hi = s.bin + (range.hi - range.anchor);
      recentres.push(s.t);
      out = 0;
    }
  }
  return { points: steps.length, inRange, longestOut: longest, recentres };
}

/** `in` of `points` as a percentage with one decimal, from integers ("71.4"). */
export function sharePercent(inRange: number, points: number): string {
  if (points === 0) return '0.0';
  // Tenths of a percent, rounded half up, in integers.
  const tenths = Math.floor((inRange * 2000 + points) / (2 * points));
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}
