import type { Finding } from '../../plan/diagnostics';
import { isAlias, principalFix, principalFor } from './generation';
import { finding, type Rule } from './rule';

/** v2 prefers the contract principal from the pools list; aliases still work for quote reads (adds). */
export const preferContractId: Rule = {
  code: 'prefer-contract-id',
  needsLive: false,
  run(ctx) {
    if (ctx.plan.api !== 'v2') return [];
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add' || !isAlias(op.pool)) return;
      const lp = ctx.live?.byPool.get(op.pool);
      if (lp && (lp.poolError?.code === 'pool-not-found' || lp.binsError?.code === 'pool-not-found')) return;
      const principal = principalFor(ctx.live, op.pool);
      const known = principal ? ` (${principal})` : '';
      out.push(
        finding(
          ctx,
          'prefer-contract-id',
          principalFix(ctx.parsed, i, principal),
          `pool '${op.pool}' is a short alias; engine v2 prefers the contract principal from the pools list${known}`,
        ),
      );
    });
    return out;
  },
};
