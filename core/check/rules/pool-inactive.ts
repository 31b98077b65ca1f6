import type { Finding } from '../../plan/diagnostics';
import { poolFlagsOf } from '../../live/live';
import { finding, type Rule } from './rule';

/** Pool flag `active` false: the pool takes no liquidity operations. */
export const poolInactive: Rule = {
  code: 'pool-inactive',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') return;
      // v1 records may not carry the flag: only an explicit `active: false` is reported.
      if (poolFlagsOf(ctx.live?.byPool.get(op.pool)).active !== false) return;
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
