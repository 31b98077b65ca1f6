import type { Finding } from '../../plan/diagnostics';
import { isAlias, mixingExplainsNotFound, offlineMixedOps, principalFix, principalFor } from './generation';
import { finding, type Rule } from './rule';

/**
 * Ids of the two generations must not be mixed: an alias where app v2 needs the principal (withdraw/move),
 * a principal in a v1 file, one pool written both ways, or the engine's 'Pool not found' with HTTP 200.
 */
export const mixedGeneration: Rule = {
  code: 'mixed-generation',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    const reported = new Set<number>();
    for (const i of offlineMixedOps(ctx.plan)) {
      const op = ctx.plan.operations[i];
      if (!op || op.op === 'swap') continue;
      reported.add(i);
      if (ctx.plan.api === 'v1') {
        out.push(
          finding(
            ctx,
            'mixed-generation',
            { op: i, path: ['operations', i, 'pool'] },
            `pool '${op.pool}' is a v2 contract principal in a file with api: v1; use the v1 adapter id, or set api: v2`,
          ),
        );
        continue;
      }
      const principal = principalFor(ctx.live, op.pool);
      out.push(
        finding(
          ctx,
          'mixed-generation',
          principalFix(ctx.parsed, i, principal),
          `pool '${op.pool}' is a short alias, but ${op.op} reads app v2 positions, which need the contract principal${principal ? ` (${principal})` : ' from /quotes/v2/pools'}`,
        ),
      );
    }
    if (!ctx.live) return out;
    // 'Pool not found' with HTTP 200 and empty bins: the id belongs to the other generation.
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap' || reported.has(i) || !mixingExplainsNotFound(ctx.plan, op.pool)) return;
      const lp = ctx.live?.byPool.get(op.pool);
      const e = [lp?.binsError, lp?.poolError].find((x) => x?.code === 'pool-not-found' && x.status === 200);
      if (!e) return;
      reported.add(i);
      out.push(
        finding(
          ctx,
          'mixed-generation',
          { op: i, path: ['operations', i, 'pool'] },
          `the engine answered 'Pool not found' with HTTP 200 and empty bins for '${op.pool}' (${e.endpoint}): the id is of the other generation than api: ${ctx.plan.api}; use the ${ctx.plan.api} id from the pools list`,
        ),
      );
    });
    // One pool written both ways.
    const forms = new Map<string, Set<string>>();
    ctx.plan.operations.forEach((op) => {
      if (op.op === 'swap') return;
      const principal = isAlias(op.pool) ? principalFor(ctx.live, op.pool) : op.pool;
      if (!principal) return;
      const set = forms.get(principal) ?? new Set<string>();
      set.add(op.pool);
      forms.set(principal, set);
    });
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap' || reported.has(i) || !isAlias(op.pool)) return;
      const principal = principalFor(ctx.live, op.pool);
      if (!principal || (forms.get(principal)?.size ?? 0) < 2) return;
      out.push(
        finding(
          ctx,
          'mixed-generation',
          principalFix(ctx.parsed, i, principal),
          `pool '${op.pool}' is written elsewhere in this file as its contract principal ${principal}; write one pool one way`,
        ),
      );
    });
    return out;
  },
};
