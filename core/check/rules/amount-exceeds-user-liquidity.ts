import type { Finding } from '../../plan/diagnostics';
import { finding, replaceScalar, type Rule } from './rule';

/** A move amount above the from bin's user_liquidity; quick fix clamps it. */
export const amountExceedsUserLiquidity: Rule = {
  code: 'amount-exceeds-user-liquidity',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'move') return;
      const lp = ctx.live?.byPool.get(op.pool);
      op.moves.forEach((m, j) => {
        const pos = lp?.positionById.get(m.from_bin_id);
        if (!pos || pos.user_liquidity <= 0n || m.amount <= pos.user_liquidity) return;
        const path = ['operations', i, 'moves', j, 'amount'];
        const edit = replaceScalar(ctx.parsed, path, pos.user_liquidity);
        out.push(
          finding(
            ctx,
            'amount-exceeds-user-liquidity',
            {
              op: i,
              path,
              fixes: edit
                ? [
                    {
                      title: `Clamp to ${pos.user_liquidity} (all shares in bin ${m.from_bin_id})`,
                      edits: [edit],
                      preferred: true,
                    },
                  ]
                : [],
            },
            `amount ${m.amount} is above the sender's ${pos.user_liquidity} shares in bin ${m.from_bin_id}; at most ${pos.user_liquidity} can be moved`,
          ),
        );
      });
    });
    return out;
  },
};
