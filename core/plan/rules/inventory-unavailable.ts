import type { Finding } from '../diagnostics';
import { finding, type Rule } from './rule';

/** Inventory 503 TIP_LAG / RECONCILE_DIRTY / INCOMPLETE: never an empty book. */
export const inventoryUnavailable: Rule = {
  code: 'inventory-unavailable',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const seenPools = new Set<string>();
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') return;
      const e = ctx.live?.byPool.get(op.pool)?.inventoryError;
      if (!e || e.code !== 'inventory-unavailable') return;
      // Once per pool for adds; every withdraw/move (their amounts depend on it).
      if (op.op === 'add' && seenPools.has(op.pool)) return;
      seenPools.add(op.pool);
      out.push(
        finding(
          ctx,
          'inventory-unavailable',
          { op: i, path: ['operations', i, 'pool'] },
          `the inventory answered 503 ${e.fault ?? 'unavailable'} for '${op.pool}' (${e.message}); this is not an empty book — positions cannot be confirmed, retry later`,
        ),
      );
    });
    return out;
  },
};
