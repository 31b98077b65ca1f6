import type { Finding } from '../../plan/diagnostics';
import type { LiveData, LivePool } from '../../live/live';
import { finding, type Rule } from './rule';

/** The pool a route hop goes through, as read: a route pool, or a pool the plan's liquidity ops name. */
function routePool(live: LiveData, id: string): LivePool | undefined {
  const direct = live.routePools.get(id);
  if (direct) return direct;
  for (const lp of live.byPool.values())
    if (lp.written === id || lp.principal === id || lp.alias === id) return lp;
  return undefined;
}

/**
 * Why a quoted swap's route was not recomputed and executed on a state that can be believed, one reason
 * per fault: the exact recomputation did not run (bins unreadable or refused, pool not in the pools list);
 * a route pool's record or bins read failed ('Pool not found' included); the pool is not quotable or not
 * active; the pool record's active bin disagrees with its bin list's; the bin list is empty while the record
 * holds reserves. Empty: nothing stands in the way.
 */
function swapUncheckedReasons(live: LiveData, index: number): string[] {
  const q = live.swaps.get(index);
  if (!q?.route || q.route.hops.length === 0) return [];
  const reasons: string[] = [];
  if (q.check && !q.check.verified)
    reasons.push(`the route was not recomputed (${q.check.unverified_reason})`);
  for (const id of [...new Set(q.route.hops.map((h) => h.pool_id))]) {
    const lp = routePool(live, id);
    if (!lp) {
      reasons.push(`route pool ${id} was not read`);
      continue;
    }
    if (lp.poolError)
      reasons.push(
        `the record of route pool ${id} could not be read (${lp.poolError.endpoint}: ${lp.poolError.message})`,
      );
    if (lp.binsError)
      reasons.push(
        `the bins of route pool ${id} could not be read (${lp.binsError.endpoint}: ${lp.binsError.message})`,
      );
    const pool = lp.pool;
    if (pool && pool.quotable === false)
      reasons.push(`route pool ${id} is not quotable (flag quotable: false)`);
    if (pool && pool.active === false) reasons.push(`route pool ${id} is not active (flag active: false)`);
    // A bin list that answers with no bin while the record holds reserves is not a state: the walk on it
    // finds nothing to swap, which is the read's fault, not the pool's.
    const held = (pool?.reserve_x ?? 0n) + (pool?.reserve_y ?? 0n);
    if (!lp.binsError && lp.bins && lp.bins.bins.length === 0 && held > 0n)
      reasons.push(
        `the bin list of route pool ${id} is empty while its record holds reserves (${pool?.reserve_x ?? 0n} x, ${pool?.reserve_y ?? 0n} y), so the state read is not consistent`,
      );
    const listActive = lp.bins?.active_bin_id;
    if (
      !lp.poolError &&
      pool &&
      listActive !== undefined &&
      listActive !== null &&
      pool.active_bin !== listActive
    )
      reasons.push(
        `route pool ${id}: its record says active bin ${pool.active_bin} but its bin list says ${listActive}, so the state read is not consistent`,
      );
  }
  return reasons;
}

/**
 * A swap is clean only when its route was recomputed and executed on the state read: otherwise an error
 * naming each reason. `dlmm export` refuses it unless --allow-unchecked-swap is given (the summary then says so).
 */
export const swapUnchecked: Rule = {
  code: 'swap-unchecked',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const live = ctx.live;
    if (!live) return out;
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'swap') return;
      const reasons = swapUncheckedReasons(live, i);
      if (reasons.length === 0) return;
      out.push(
        finding(
          ctx,
          'swap-unchecked',
          { op: i, path: ['operations', i, 'amount_in'] },
          `this swap was not checked on the state read: ${reasons.join('; ')}. ` +
            'Its bounds would rest on figures nobody verified; retry when the reads succeed (export refuses it unless --allow-unchecked-swap is given)',
        ),
      );
    });
    return out;
  },
};
