import { finding, type Rule } from './rule';
import { tipFindingAt } from './tip';

/** status tip_lag null (or negative, which cannot be believed): the tip is unknown, never caught up. */
export const tipUnknown: Rule = {
  code: 'tip-unknown',
  needsLive: true,
  run(ctx) {
    const s = ctx.live?.status;
    if (!s || (s.tip_lag !== null && s.tip_lag >= 0)) return [];
    return [
      finding(
        ctx,
        'tip-unknown',
        tipFindingAt(ctx),
        s.tip_lag !== null
          ? `the engine reports tip_lag ${s.tip_lag} (state ${s.state_height ?? '?'}, tip ${s.chain_tip ?? '?'}): a negative distance to the tip is not believed, so the tip is unknown and never treated as caught up — retry when the engine reports a sound lag`
          : `the engine reports tip_lag null (chain tip unknown, state ${s.state_height ?? '?'}): unknown is never treated as caught up — retry when the tip is known`,
      ),
    ];
  },
};
