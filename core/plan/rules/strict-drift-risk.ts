import type { Finding, QuickFix, TextEdit } from '../diagnostics';
import type { AddOp, MoveOp } from '../schema';
import { finding, insertSibling, renameKey, replaceScalar, type RuleContext, type Rule } from './rule';

/** Strict add/move on the active bin or its neighbour: a 1-bin shift reverts it. Fix: convert to simple. */
export const strictDriftRisk: Rule = {
  code: 'strict-drift-risk',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if ((op.op !== 'add' && op.op !== 'move') || op.mode !== 'strict') return;
      const active = ctx.live?.byPool.get(op.pool)?.activeBinId;
      if (active === undefined) return;
      const d = op.op === 'add' ? op.distribution : undefined;
      if (d && d.from <= active + 1 && d.to >= active - 1 && d.from <= d.to)
        out.push(
          finding(
            ctx,
            'strict-drift-risk',
            { op: i, path: ['operations', i, 'distribution'], key: true },
            `the distribution's bins ${d.from}..${d.to} reach the active bin ${active} or its neighbours: in strict mode a 1-bin shift before execution puts a token on the wrong side and reverts the whole transaction; mode: simple (from/to as offsets) would still apply`,
          ),
        );
      let fix: QuickFix | undefined | null = null;
      const list = op.op === 'add' ? 'bins' : 'moves';
      const field = op.op === 'add' ? 'bin_id' : 'to_bin_id';
      const items: Array<{ bin_id?: number; to_bin_id?: number }> = op.op === 'add' ? op.bins : op.moves;
      items.forEach((item, j) => {
        const target = op.op === 'add' ? item.bin_id : item.to_bin_id;
        if (target === undefined || Math.abs(target - active) > 1) return;
        if (fix === null) fix = toSimpleFix(ctx, op, i, active);
        const where = target === active ? 'is the active bin' : `is next to the active bin ${active}`;
        out.push(
          finding(
            ctx,
            'strict-drift-risk',
            { op: i, path: ['operations', i, list, j, field], fixes: fix ? [fix] : [] },
            `bin ${target} ${where}: in strict mode a 1-bin shift before execution reverts the whole transaction; simple mode (offsets from the active bin) would still apply`,
          ),
        );
      });
    });
    return out;
  },
};

/** Edits converting one strict op to simple: mode, and every absolute target to an offset from `active`. */
function toSimpleFix(ctx: RuleContext, op: AddOp | MoveOp, i: number, active: number): QuickFix | undefined {
  const edits: TextEdit[] = [];
  const modePath = ['operations', i, 'mode'];
  if (ctx.parsed.rangeOf(modePath)) {
    const e = replaceScalar(ctx.parsed, modePath, 'simple');
    if (!e) return undefined;
    edits.push(e);
  } else {
    const e = insertSibling(ctx.parsed, ['operations', i, 'op'], 'mode', 'simple');
    if (!e) return undefined;
    edits.push(e);
  }
  const list = op.op === 'add' ? 'bins' : 'moves';
  const field = op.op === 'add' ? 'bin_id' : 'to_bin_id';
  const items: Array<{ bin_id?: number; to_bin_id?: number }> = op.op === 'add' ? op.bins : op.moves;
  for (const [j, item] of items.entries()) {
    const target = op.op === 'add' ? item.bin_id : item.to_bin_id;
    if (target === undefined) continue;
    const path = ['operations', i, list, j, field];
    const k = renameKey(ctx.parsed, path, 'active_bin_offset');
    const v = replaceScalar(ctx.parsed, path, target - active);
    if (!k || !v) return undefined;
    edits.push(k, v);
  }
  return { title: `Convert this ${op.op} to simple mode (offsets from the active bin ${active})`, edits };
}
