import type { Finding } from '../diagnostics';
import { finding, type Rule, type RuleContext } from './rule';
import { transportFindings } from './transport';

/**
 * Live data could not be read (timeout, refused, DNS), or the service refused it with a status no other
 * rule explains (401 for a bad key, 403, 5xx): offline checks still ran, and nothing may pass silently.
 * A swap quote's own error answer is swap-no-route's.
 */
export const apiUnreachable: Rule = {
  code: 'api-unreachable',
  needsLive: true,
  run: (ctx) => [
    ...transportFindings(
      ctx,
      'api-unreachable',
      (e) =>
        e.code === 'unreachable' ||
        (e.code === 'http-error' && !e.endpoint.startsWith('POST /quotes/v2/quote')),
      (ep, msg) =>
        `live data could not be read: ${ep} failed (${msg}); only offline checks ran — check --api / DLMM_API_URL or run with --offline`,
    ),
    ...positionGapFindings(ctx),
  ],
};

/** One finding per withdraw/move whose positions were not read (v1 without a usable inventory). */
function positionGapFindings(ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  ctx.plan.operations.forEach((op, i) => {
    if (op.op !== 'withdraw' && op.op !== 'move') return;
    const gap = ctx.live?.byPool.get(op.pool)?.positionsGap;
    if (gap === undefined) return;
    out.push(
      finding(
        ctx,
        'api-unreachable',
        { op: i, path: ['operations', i, 'pool'] },
        `this ${op.op} was not checked against the sender's liquidity: ${gap}`,
      ),
    );
  });
  return out;
}
