import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** x and y of a move both floor to 0: the contract rejects it (x + y > 0). */
export const moveDust: Rule = {
  code: 'move-dust',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const p of ctx.prepared) {
      if (p.op !== 'move') continue;
      const lp = ctx.live?.byPool.get(p.pool.written_id);
      for (const item of p.items) {
        const from = lp?.positionById.get(item.from_bin_id);
        if (!from || from.liquidity === null || from.liquidity <= 0n) continue;
        if (item.amount > from.user_liquidity || item.x_amount > 0n || item.y_amount > 0n) continue;
        // Smallest amount that yields at least one base unit of x or y.
        const need = (r: bigint): bigint | undefined => (r > 0n ? (from.liquidity! + r - 1n) / r : undefined);
        const mins = [need(from.reserve_x), need(from.reserve_y)].filter((v): v is bigint => v !== undefined);
        const min = mins.length ? mins.reduce((a, b) => (a < b ? a : b)) : undefined;
        out.push(
          finding(
            ctx,
            'move-dust',
            { op: p.index, path: ['operations', p.index, 'moves', item.index, 'amount'] },
            `moving ${item.amount} shares from bin ${item.from_bin_id} yields 0 of token X and 0 of token Y (floor(amount * reserve / ${from.liquidity})); the contract rejects it${min !== undefined ? `: move at least ${min} shares` : ''}`,
          ),
        );
      }
    }
    return out;
  },
};
