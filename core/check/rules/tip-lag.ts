import { finding, type Rule } from './rule';
import { tipFindingAt } from './tip';

/** status tip_lag above the policy: the engine's state is behind the chain. */
export const tipLag: Rule = {
  code: 'tip-lag',
  needsLive: true,
  run(ctx) {
    const lag = ctx.live?.status?.tip_lag;
    if (lag === null || lag === undefined || lag <= ctx.maxTipLag) return [];
    const s = ctx.live?.status;
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
