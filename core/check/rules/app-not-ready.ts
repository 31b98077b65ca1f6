import { finding, type Rule } from './rule';

/** /app/v2/ready says not ready while positions were read: they may lag. */
export const appNotReady: Rule = {
  code: 'app-not-ready',
  needsLive: true,
  run(ctx) {
    const live = ctx.live;
    if (!live?.positionsRead) return [];
    const notReady = (live.appReady && !live.appReady.ready) || live.appReadyError?.code === 'not-ready';
    if (!notReady) return [];
    const detail = live.appReady?.detail ?? live.appReadyError?.message;
    return [
      finding(
        ctx,
        'app-not-ready',
        { path: [], key: true },
        `app v2 is not ready (/app/v2/ready${detail ? `: ${detail}` : ''}): user positions may lag the chain`,
      ),
    ];
  },
};
