import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** Move/withdraw from a bin that is not in the user's positions or has user_liquidity 0. */
export const noUserLiquidity: Rule = {
  code: 'no-user-liquidity',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'move' && op.op !== 'withdraw') return;
      const lp = ctx.live?.byPool.get(op.pool);
      if (!lp?.positions) return;
      const held = lp.positions.filter((p) => p.user_liquidity > 0n).map((p) => p.bin_id);
      const heldText = held.length
        ? `the sender holds bins ${held.join(', ')}`
        : 'the sender holds no bins in this pool';
      const check = (bin: number, path: (string | number)[]): void => {
        const pos = lp.positionById.get(bin);
        if (pos && pos.user_liquidity > 0n) return;
        const why = pos ? 'user_liquidity is 0' : "it is not among the sender's position bins";
        out.push(
          finding(
            ctx,
            'no-user-liquidity',
            { op: i, path },
            `bin ${bin} has no liquidity of the sender to ${op.op} (${why}); ${heldText}`,
          ),
        );
      };
      if (op.op === 'move')
        op.moves.forEach((m, j) => check(m.from_bin_id, ['operations', i, 'moves', j, 'from_bin_id']));
      else op.bins?.forEach((b, j) => check(b, ['operations', i, 'bins', j]));
    });
    return out;
  },
};
