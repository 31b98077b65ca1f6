import type { Finding, QuickFix } from '../../plan/diagnostics';
import type { LivePool } from '../../live/live';
import { SHAPES } from '../../dlmm/shapes';
import { planRecentre, recentreOpYaml } from '../../prepare/recentre';
import { finding, type Rule, type RuleContext } from './rule';

/**
 * The sender's liquidity in a pool of the plan sits farther than policy.range_alert_bins from the active bin
 * (after the plan's own adds, moves and withdraws on that pool): it earns no fees there. Fix: re-centre it.
 */
export const outOfRange: Rule = {
  code: 'out-of-range',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const alert = ctx.plan.policy.range_alert_bins;
    const seen = new Set<string>();
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap' || seen.has(op.pool)) return;
      seen.add(op.pool);
      const lp = ctx.live?.byPool.get(op.pool);
      const active = lp?.activeBinId;
      if (!lp?.positions || active === undefined) return;
      // What the sender holds once this plan's operations on the pool ran (none left: nothing to warn about).
      const held = afterPlan(ctx, op.pool, lp);
      if (held.length === 0) return;
      const near = (b: number): boolean => Math.abs(b - active) <= alert;
      if (held.some(near)) return;
      const lo = Math.min(...held);
      const hi = Math.max(...held);
      const nearest = held.reduce((m, b) => (Math.abs(b - active) < Math.abs(m - active) ? b : m));
      const dist = Math.abs(nearest - active);
      const moved =
        active > hi
          ? `the active bin ${active} has moved ${active - hi} bins above your highest bin`
          : active < lo
            ? `the active bin ${active} has moved ${lo - active} bins below your lowest bin`
            : `the active bin ${active} sits in a gap of your range, ${dist} bins from your nearest bin ${nearest}`;
      out.push(
        finding(
          ctx,
          'out-of-range',
          {
            op: i,
            path: ['operations', i, 'pool'],
            fixes: recentreFixes(ctx, op.pool, lp, active, held.length),
          },
          `your liquidity in this pool sits in bins ${lo}..${hi} (${held.length} bin${held.length === 1 ? '' : 's'}); ${moved}, beyond policy.range_alert_bins (${alert}), so it earns no fees; re-centre it around the active bin (a move) or raise range_alert_bins`,
        ),
      );
    });
    return out;
  },
};

/** Bins holding the sender's liquidity after the plan's prepared operations on `pool`. */
function afterPlan(ctx: RuleContext, pool: string, lp: LivePool): number[] {
  const held = new Map<number, bigint>();
  for (const p of lp.positions ?? []) if (p.user_liquidity > 0n) held.set(p.bin_id, p.user_liquidity);
  for (const p of ctx.prepared) {
    if (p.op === 'swap' || p.pool.written_id !== pool) continue;
    if (p.op === 'add')
      for (const it of p.items)
        if (it.x_amount + it.y_amount > 0n) held.set(it.bin_id, (held.get(it.bin_id) ?? 0n) + 1n);
    if (p.op === 'withdraw')
      for (const it of p.items) held.set(it.bin_id, (held.get(it.bin_id) ?? 0n) - it.amount);
    if (p.op === 'move')
      for (const it of p.items) {
        held.set(it.from_bin_id, (held.get(it.from_bin_id) ?? 0n) - it.amount);
        if (it.x_amount + it.y_amount > 0n) held.set(it.to_bin_id, (held.get(it.to_bin_id) ?? 0n) + 1n);
      }
  }
  return [...held]
    .filter(([, v]) => v > 0n)
    .map(([b]) => b)
    .sort((a, b) => a - b);
}

/** One "Re-centre liquidity" fix per shape: a move operation appended to the plan (block YAML files). */
function recentreFixes(
  ctx: RuleContext,
  pool: string,
  lp: LivePool,
  active: number,
  count: number,
): QuickFix[] {
  const parsed = ctx.parsed;
  const n = ctx.plan.operations.length;
  const last = parsed.rangeOf(['operations', n - 1]);
  if (parsed.format === 'json' || !last || parsed.isFlowMap(['operations'])) return [];
  const text = parsed.text;
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const dash = /^(\s*)-\s*/.exec(text.slice(lineStart, last.offset));
  if (!dash) return [];
  const pad = dash[1] ?? '';
  const end = last.offset + last.length;
  const eol = text.indexOf('\n', end);
  const at = eol < 0 ? text.length : eol;
  const width = Math.max(ctx.plan.policy.range_alert_bins, count, 1);
  const ids = new Set(ctx.plan.operations.map((_, k) => parsed.operationId(k)));
  let id = 'recentre';
  for (let k = 2; ids.has(id); k++) id = `recentre-${k}`;
  // The move runs after the plan's own operations: it moves what they leave of each position.
  const spent = new Map<number, bigint>();
  for (const p of ctx.prepared) {
    if (p.op === 'withdraw' && p.pool.written_id === pool)
      for (const it of p.items) spent.set(it.bin_id, (spent.get(it.bin_id) ?? 0n) + it.amount);
    if (p.op === 'move' && p.pool.written_id === pool)
      for (const it of p.items) spent.set(it.from_bin_id, (spent.get(it.from_bin_id) ?? 0n) + it.amount);
  }
  const remaining = (lp.positions ?? []).map((p) => {
    const left = p.user_liquidity - (spent.get(p.bin_id) ?? 0n);
    return { ...p, user_liquidity: left > 0n ? left : 0n };
  });
  const fixes: QuickFix[] = [];
  for (const shape of SHAPES) {
    const r = planRecentre({
      positions: remaining,
      active,
      priceOf: (b) => lp.binById.get(b)?.price,
      shape,
      width,
    });
    if (!r.ok || r.moves.length === 0) continue;
    fixes.push({
      title: `Re-centre liquidity: move it as ${shape} over ±${width} bins around the active bin ${active}`,
      edits: [{ offset: at, length: 0, newText: `\n${recentreOpYaml(pool, r.moves, pad, id)}` }],
      ...(shape === 'spot' ? { preferred: true } : {}),
    });
  }
  return fixes;
}
