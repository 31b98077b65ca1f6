/** Shared by tip-lag and tip-unknown: where a file-level tip finding goes and how strict it is. */
import type { FindingAt, RuleContext } from './rule';

/** On policy.max_tip_lag when written, else the file's first key; error when any op is strict or a swap. */
export function tipFindingAt(ctx: RuleContext): FindingAt {
  const strict = ctx.plan.operations.some((op) => op.op === 'swap' || op.mode === 'strict');
  const written = ctx.parsed.rangeOf(['policy', 'max_tip_lag']) !== undefined;
  return written ? { path: ['policy', 'max_tip_lag'], strict } : { path: [], strict };
}
