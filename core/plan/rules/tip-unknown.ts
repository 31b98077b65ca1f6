import { finding, type Rule } from './rule';
import { tipFindingAt } from './tip';

/** status tip_lag null: the tip is unknown, which is never caught up. */
export const tipUnknown: Rule = {
  code: 'tip-unknown',
  needsLive: true,
  run(ctx) {
    const s = ctx.live?.status;
    if (!s || s.tip_lag !== null) return [];
    return [
      finding(
        ctx,
        'tip-unknown',
        tipFindingAt(ctx),
        `the engine reports tip_lag null (chain tip unknown, state ${s.state_height ?? '?'}): unknown is never treated as caught up — retry when the tip is known`,
      ),
    ];
  },
};
