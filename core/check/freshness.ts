/**
 * The engine's distance to the chain tip: one verdict, worded once, for every face (the rules tip-lag and
 * tip-unknown, `dlmm status`, the status bar, the dashboard header). A lag that is absent, null, negative or
 * not a whole number is unknown, and unknown is never caught up.
 */

import { DEFAULT_MAX_TIP_LAG } from '../plan/policy';

/** The policy's default `max_tip_lag` (blocks) where a reader has none (core/plan/policy.ts). */
export { DEFAULT_MAX_TIP_LAG };

export type TipVerdict =
  | { kind: 'caught-up'; lag: 0 }
  | { kind: 'behind'; lag: number; max: number; withinPolicy: boolean }
  | { kind: 'unknown'; lag: number | null; why: string };

/** The verdict on `lag` (the status answer's `tip_lag`) against `maxTipLag`. */
export function tipVerdict(lag: number | null | undefined, maxTipLag = DEFAULT_MAX_TIP_LAG): TipVerdict {
  if (lag === null || lag === undefined)
    return { kind: 'unknown', lag: null, why: 'the engine reports tip_lag null: the chain tip is unknown' };
  if (!Number.isSafeInteger(lag) || lag < 0)
    return {
      kind: 'unknown',
      lag,
      why: `the engine reports tip_lag ${lag}, which is not a count of blocks, so it is not believed`,
    };
  if (lag === 0) return { kind: 'caught-up', lag: 0 };
  return { kind: 'behind', lag, max: maxTipLag, withinPolicy: lag <= maxTipLag };
}

/** A few words for a status line: "caught up (tip lag 0)", "tip lag 3 blocks", "tip lag unknown". */
export function tipVerdictWords(v: TipVerdict): string {
  if (v.kind === 'caught-up') return 'caught up (tip lag 0)';
  if (v.kind === 'behind') return `tip lag ${v.lag} block${v.lag === 1 ? '' : 's'}`;
  return v.lag === null ? 'tip lag unknown' : `tip lag ${v.lag} (not believed: unknown)`;
}
