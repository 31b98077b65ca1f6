import { finding, type Rule } from './rule';
import { tipFindingAt } from './tip';
import { tipVerdict } from '../freshness';

/** status tip_lag above the policy: the engine's state is behind the chain. */
export const tipLag: Rule = {
  code: 'tip-lag',
  needsLive: true,
  run(ctx) {
    const s = ctx.live?.status;
    if (!s) return [];
    const v = tipVerdict(s.tip_lag, ctx.maxTipLag);
    if (v.kind !== 'behind' || v.withinPolicy) return [];
    const lag = v.lag;
    return [
      finding(
        ctx,
        'tip-lag',
        tipFindingAt(ctx),
        `the engine's applied state is ${lag} block(s) behind the chain tip (state ${s?.state_height ?? '?'}, tip ${s?.chain_tip ?? '?'}); policy max_tip_lag is ${ctx.maxTipLag} — wait for it to catch up or raise the policy`,
      ),
    ];
  },
};
