import type { Finding } from '../../plan/diagnostics';
import { moveTarget } from '../../prepare/prepare';
import { finding, itemIndex, livePoolOf, type Rule } from './rule';

/** A move's from and (resolved) to bins must differ. */
export const moveSameBin: Rule = {
  code: 'move-same-bin',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'move') return;
      const active = livePoolOf(ctx, i)?.activeBinId;
      op.moves.forEach((m, j) => {
        const to =
          op.mode === 'strict' ? m.to_bin_id : active === undefined ? undefined : moveTarget(op, m, active);
        if (to === undefined || to !== m.from_bin_id) return;
        const field = op.mode === 'strict' ? 'to_bin_id' : 'active_bin_offset';
        const how = op.mode === 'strict' ? '' : ` (active bin ${active} + offset ${m.active_bin_offset})`;
        out.push(
          finding(
            ctx,
            'move-same-bin',
            { op: i, path: ['operations', i, 'moves', j, field] },
            `moves[${itemIndex(ctx, i, 'moves', j)}] moves from bin ${m.from_bin_id} to the same bin ${to}${how}; choose a different destination`,
          ),
        );
      });
    });
    return out;
  },
};
