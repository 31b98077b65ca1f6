import type { Finding } from '../diagnostics';
import { finding, type Rule } from './rule';

/** Pool flag `active` false: the pool takes no liquidity operations. */
export const poolInactive: Rule = {
  code: 'pool-inactive',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') return;
      const pool = ctx.live?.byPool.get(op.pool)?.pool;
      if (!pool || pool.active) return;
      out.push(
        finding(
          ctx,
          'pool-inactive',
          { op: i, path: ['operations', i, 'pool'] },
          `pool '${op.pool}' is not active (flag active: false); operations on it would fail — choose an active pool`,
        ),
      );
    });
    return out;
  },
};
