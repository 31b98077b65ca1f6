import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** No selected user bin has user_liquidity > 0: the withdraw would do nothing. */
export const withdrawNothing: Rule = {
  code: 'withdraw-nothing',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const p of ctx.prepared) {
      if (p.op !== 'withdraw' || p.items.length > 0) continue;
      const op = ctx.plan.operations[p.index];
      const filtered = op?.op === 'withdraw' && op.bins !== undefined;
      out.push(
        finding(
          ctx,
          'withdraw-nothing',
          { op: p.index, path: ['operations', p.index, filtered ? 'bins' : 'pool'] },
          filtered
            ? `none of the selected bins holds liquidity of the sender in '${p.pool.written_id}': this withdraw does nothing`
            : `the sender holds no liquidity in '${p.pool.written_id}': this withdraw does nothing`,
        ),
      );
    }
    return out;
  },
};
