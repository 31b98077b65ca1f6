import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/**
 * Inventory 503 TIP_LAG / RECONCILE_DIRTY / INCOMPLETE, or app v2 current-bins with an errorCode or not clean,
 * complete and reservesComplete: never an empty book. A 200 from either whose own tip lag is null (unknown),
 * negative or above the policy is not believed either: the same finding, saying so.
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
      const pinned = lp?.positionsSource === 'inventory' || lp?.positionsSource === 'current-bins';
      const lagging = pinned ? laggingInventory(lp?.inventoryTipLag, ctx.maxTipLag) : undefined;
      const source = lp?.positionsSource === 'current-bins' ? 'app v2 current-bins' : 'the inventory';
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
            ? `${source} answered 200 for '${op.pool}' with ${lagging}; its positions are not believed — retry when it has caught up`
            : `the owned-bin inventory for '${op.pool}' is unavailable (${e?.fault ?? e?.status ?? 'unavailable'}: ${e?.message ?? ''}); this is not an empty book — positions cannot be confirmed, retry later`,
        ),
      );
    });
    return out;
  },
};

/** Why an inventory answer's tip_lag is not believed; undefined when it is within the policy. */
export function laggingInventory(lag: number | null | undefined, max: number): string | undefined {
  if (lag === undefined) return undefined;
  if (lag === null) return 'tip lag null (tip unknown, never caught up)';
  if (lag < 0) return `tip lag ${lag} (a negative distance to the tip)`;
  if (lag > max) return `tip lag ${lag}, above the policy's max_tip_lag ${max}`;
  return undefined;
}
