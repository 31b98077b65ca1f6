import { finding, type Rule } from './rule';
import { tipFindingAt } from './tip';
import { tipVerdict } from '../freshness';

/** status tip_lag null, negative or not a whole number (freshness.ts): the tip is unknown, never caught up. */
export const tipUnknown: Rule = {
  code: 'tip-unknown',
  needsLive: true,
  run(ctx) {
    const s = ctx.live?.status;
    if (!s) return [];
    const v = tipVerdict(s.tip_lag, ctx.maxTipLag);
    if (v.kind !== 'unknown') return [];
    return [
      finding(
        ctx,
        'tip-unknown',
        tipFindingAt(ctx),
        `${v.why} (state ${s.state_height ?? '?'}, tip ${s.chain_tip ?? '?'}): unknown is never treated as caught up — retry when the engine reports a sound lag`,
      ),
    ];
  },
};
