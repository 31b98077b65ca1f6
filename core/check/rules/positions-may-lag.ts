import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** withdraw/move checked against app v2 positions (display data, may lag) with no inventory source. */
export const positionsMayLag: Rule = {
  code: 'positions-may-lag',
  needsLive: true,
  run(ctx) {
    if (!ctx.live || ctx.live.hasInventory) return [];
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'withdraw' && op.op !== 'move') return;
      const lp = ctx.live?.byPool.get(op.pool);
      if (lp?.positionsSource !== 'app') return;
      out.push(
        finding(
          ctx,
          'positions-may-lag',
          { op: i, path: ['operations', i, 'op'] },
          `this ${op.op} was checked against app v2 position bins, which are display data and may lag the chain; configure an inventory source (DLMM_INVENTORY_URL) for tip-pinned shares`,
        ),
      );
    });
    return out;
  },
};
