import type { Finding } from '../diagnostics';
import { finding, type Rule } from './rule';

/**
 * Inventory 503 TIP_LAG / RECONCILE_DIRTY / INCOMPLETE: never an empty book. A 200 whose own tip_lag is null
 * (unknown), negative or above the policy is not believed either: the same finding, saying so.
 */
export const inventoryUnavailable: Rule = {
  code: 'inventory-unavailable',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const seenPools = new Set<string>();
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') return;
      const lp = ctx.live?.byPool.get(op.pool);
      const e = lp?.inventoryError;
      const lagging =
        lp?.positionsSource === 'inventory' ? laggingInventory(lp.inventoryTipLag, ctx.maxTipLag) : undefined;
      if ((!e || e.code !== 'inventory-unavailable') && lagging === undefined) return;
      // Once per pool for adds; every withdraw/move (their amounts depend on it).
      if (op.op === 'add' && seenPools.has(op.pool)) return;
      seenPools.add(op.pool);
      out.push(
        finding(
          ctx,
          'inventory-unavailable',
          { op: i, path: ['operations', i, 'pool'] },
          lagging !== undefined
            ? `the inventory answered 200 for '${op.pool}' with ${lagging}; its positions are not believed — retry when it has caught up`
            : `the inventory answered 503 ${e?.fault ?? 'unavailable'} for '${op.pool}' (${e?.message ?? ''}); this is not an empty book — positions cannot be confirmed, retry later`,
        ),
      );
    });
    return out;
  },
};

/** Why an inventory answer's tip_lag is not believed; undefined when it is within the policy. */
function laggingInventory(lag: number | null | undefined, max: number): string | undefined {
  if (lag === undefined) return undefined;
  if (lag === null) return 'tip_lag null (tip unknown, never caught up)';
  if (lag < 0) return `tip_lag ${lag} (a negative distance to the tip)`;
  if (lag > max) return `tip_lag ${lag}, above the policy's max_tip_lag ${max}`;
  return undefined;
}
