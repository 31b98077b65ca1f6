import type { Finding } from '../../plan/diagnostics';
import { mixingExplainsNotFound, offlineMixedOps } from './generation';
import { finding, type Rule } from './rule';

/** The engine does not know the pool (404, or 'Pool not found'); generation mixing, when it explains it, wins. */
export const poolNotFound: Rule = {
  code: 'pool-not-found',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    if (ctx.live?.notTheService) return out; // the URL is not the service's: api-unreachable says so
    const mixed = new Set(offlineMixedOps(ctx.plan));
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap' || mixed.has(i)) return;
      const lp = ctx.live?.byPool.get(op.pool);
      const e = [lp?.binsError, lp?.poolError].find((x) => x?.code === 'pool-not-found');
      if (!e || (e.status === 200 && mixingExplainsNotFound(ctx.plan, op.pool))) return; // mixed-generation reports it
      const known = ctx.live?.pools?.map((p) => p.pool_alias ?? p.pool_id).slice(0, 6) ?? [];
      out.push(
        finding(
          ctx,
          'pool-not-found',
          { op: i, path: ['operations', i, 'pool'] },
          `the engine does not know pool '${op.pool}' (${e.endpoint}${e.status ? `, HTTP ${e.status}` : ''})${known.length ? `; known pools: ${known.join(', ')}` : ''}`,
        ),
      );
    });
    return out;
  },
};
