import { finding, type Rule } from './rule';

/** The quote engine's warmth gate (/quotes/v2/ready) or status `ready` says not ready. */
export const engineNotReady: Rule = {
  code: 'engine-not-ready',
  needsLive: true,
  run(ctx) {
    const live = ctx.live;
    if (!live) return [];
    const reasons: string[] = [];
    if (live.quoteReady && !live.quoteReady.ready)
      reasons.push(
        `/quotes/v2/ready says not ready${live.quoteReady.detail ? ` (${live.quoteReady.detail})` : ''}`,
      );
    if (live.quoteReadyError?.code === 'not-ready')
      reasons.push(`/quotes/v2/ready: ${live.quoteReadyError.message}`);
    if (live.status && !live.status.ready) reasons.push('/quotes/v2/status has ready: false');
    if (reasons.length === 0) return [];
    return [
      finding(
        ctx,
        'engine-not-ready',
        { path: [], key: true },
        `the quote engine is not ready: ${reasons.join('; ')}; its data cannot be trusted yet — retry when it is ready`,
      ),
    ];
  },
};
