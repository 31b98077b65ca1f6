import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule, type RuleContext } from './rule';
import { isQuoteVerdict, TRANSPORT_CODES, transportFindings } from './liveErrors';

/**
 * Live data could not be read (timeout, refused, DNS), or the service refused it with a status no other
 * rule explains (401 for a bad key, 403, 5xx): offline checks still ran, and nothing may pass silently.
 * A swap quote's own verdict (no route, a 4xx refusal) is swap-no-route's; a 5xx from the quote is not.
 * A withdraw/move whose positions were not read for any other reason (app v2 'Pool not found', a 404, v1
 * without inventory) gets its own finding: it was not checked, and it is never silently dropped.
 * When the engine's own status and ready answered 404 (live.notTheService), the URL is not the service's:
 * that one finding says so, and no other 404 is reported (each would only repeat it).
 */
export const apiUnreachable: Rule = {
  code: 'api-unreachable',
  needsLive: true,
  run: (ctx) => {
    const wrong = ctx.live?.notTheService;
    if (wrong)
      return [
        ...transportFindings(
          ctx,
          'api-unreachable',
          (e) => e === wrong,
          (_ep, msg) => `live data could not be read: ${msg} Only offline checks ran.`,
        ),
        ...transportFindings(
          ctx,
          'api-unreachable',
          (e) => e.code === 'unreachable' || (e.code === 'http-error' && e.status !== 404),
          (ep, msg) => `live data could not be read: ${ep} failed (${msg})`,
        ),
      ];
    return [
      ...transportFindings(
        ctx,
        'api-unreachable',
        (e) => e.code === 'unreachable' || (e.code === 'http-error' && !isQuoteVerdict(e)),
        (ep, msg) =>
          `live data could not be read: ${ep} failed (${msg}); only offline checks ran — check --api / DLMM_API_URL or run with --offline`,
      ),
      ...positionGapFindings(ctx),
    ];
  },
};

/** One finding per withdraw/move whose positions were not read (v1 without a usable inventory). */
function positionGapFindings(ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  ctx.plan.operations.forEach((op, i) => {
    if (op.op !== 'withdraw' && op.op !== 'move') return;
    const lp = ctx.live?.byPool.get(op.pool);
    const e = lp?.positionsError;
    // Transport failures have their own findings; the pool's own absence is pool-not-found's.
    const poolMissing = [lp?.binsError, lp?.poolError].some((x) => x?.code === 'pool-not-found');
    const gap =
      lp?.positionsGap ??
      (e && !TRANSPORT_CODES.has(e.code) && !poolMissing
        ? `${e.endpoint} answered ${e.status !== undefined ? `HTTP ${e.status} ` : ''}(${e.message}), so the sender's positions are unknown`
        : undefined);
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
