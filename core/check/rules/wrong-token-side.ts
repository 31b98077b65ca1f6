import type { Finding } from '../../plan/diagnostics';
import { addTarget } from '../../prepare/prepare';
import { finding, preparedAt, replaceScalar, type Rule } from './rule';

/** Placement: below the active bin token Y only (x = 0), above it token X only (y = 0). */
export const wrongTokenSide: Rule = {
  code: 'wrong-token-side',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add' && op.op !== 'move') return;
      const lp = ctx.live?.byPool.get(op.pool);
      const active = lp?.activeBinId;
      if (active === undefined) return;
      if (op.op === 'add') {
        op.bins.forEach((item, j) => {
          const target = addTarget(op, item, active);
          if (target === undefined) return;
          const side = target < active ? 'x_amount' : target > active ? 'y_amount' : undefined;
          if (!side || item[side] === 0n) return;
          const path = ['operations', i, 'bins', j, side];
          const edit = replaceScalar(ctx.parsed, path, 0);
          const where = target < active ? 'below' : 'above';
          const allowed =
            target < active ? 'token Y only (x_amount must be 0)' : 'token X only (y_amount must be 0)';
          out.push(
            finding(
              ctx,
              'wrong-token-side',
              {
                op: i,
                path,
                fixes: edit ? [{ title: `Set ${side} to 0`, edits: [edit], preferred: true }] : [],
              },
              `bin ${target} is ${where} the active bin ${active}: it takes ${allowed}, but ${side} is ${item[side]}`,
            ),
          );
        });
        return;
      }
      const prepared = preparedAt(ctx, i);
      if (!prepared || prepared.op !== 'move') return;
      for (const item of prepared.items) {
        const bad =
          (item.to_bin_id < active && item.x_amount > 0n) || (item.to_bin_id > active && item.y_amount > 0n);
        if (!bad) continue;
        const field = op.mode === 'strict' ? 'to_bin_id' : 'active_bin_offset';
        const where = item.to_bin_id < active ? 'below' : 'above';
        out.push(
          finding(
            ctx,
            'wrong-token-side',
            { op: i, path: ['operations', i, 'moves', item.index, field] },
            `moving from bin ${item.from_bin_id} yields x ${item.x_amount} and y ${item.y_amount}, but bin ${item.to_bin_id} is ${where} the active bin ${active} and takes ${where === 'below' ? 'token Y only' : 'token X only'}; move to a bin on the ${item.x_amount > 0n && item.y_amount === 0n ? 'upper' : item.y_amount > 0n && item.x_amount === 0n ? 'lower' : 'active'} side`,
          ),
        );
      }
    });
    return out;
  },
};
