import { distributionRange } from '../../plan/schema';
import { addTarget, moveTarget } from '../../prepare/prepare';
import { finding, livePoolOf, type Rule } from './rule';
import { inSigned, looksUnsigned, writtenBinIds } from './written';

/** Signed bin ids are -500..500: written ids (offline) and resolved simple-mode targets (live). */
export const binOutOfRange: Rule = {
  code: 'bin-out-of-range',
  needsLive: false,
  run(ctx) {
    const out = writtenBinIds(ctx.plan, (id) => !inSigned(id) && !looksUnsigned(id)).map((b) =>
      finding(
        ctx,
        'bin-out-of-range',
        { op: b.op, path: b.path },
        `bin id ${b.id} is outside the signed range -500..500`,
      ),
    );
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add' || !op.distribution || op.distribution.from > op.distribution.to) return;
      const d = op.distribution;
      const active = livePoolOf(ctx, i)?.activeBinId;
      const range = distributionRange(op.mode, d, active);
      if (!range || (inSigned(range.lo) && inSigned(range.hi))) return;
      const field = !inSigned(range.lo) ? 'from' : 'to';
      const how =
        op.mode === 'simple'
          ? `offsets ${d.from}..${d.to} from the active bin ${active} resolve to bins ${range.lo}..${range.hi}`
          : `bins ${range.lo}..${range.hi}`;
      const ok =
        op.mode === 'simple' && active !== undefined
          ? `; accepted offsets here are ${-500 - active}..${500 - active}`
          : '';
      out.push(
        finding(
          ctx,
          'bin-out-of-range',
          { op: i, path: ['operations', i, 'distribution', field] },
          `the distribution's ${how}, crossing the signed range -500..500${ok}`,
        ),
      );
    });
    if (!ctx.live) return out;
    ctx.plan.operations.forEach((op, i) => {
      if ((op.op !== 'add' && op.op !== 'move') || op.mode !== 'simple') return;
      const active = livePoolOf(ctx, i)?.activeBinId;
      if (active === undefined) return;
      const list = op.op === 'add' ? op.bins : op.moves;
      list.forEach((item, j) => {
        const target =
          op.op === 'add' ? addTarget(op, item as never, active) : moveTarget(op, item as never, active);
        if (target === undefined || inSigned(target)) return;
        out.push(
          finding(
            ctx,
            'bin-out-of-range',
            { op: i, path: ['operations', i, op.op === 'add' ? 'bins' : 'moves', j, 'active_bin_offset'] },
            `active_bin_offset ${item.active_bin_offset} from the active bin ${active} resolves to bin ${target}, outside -500..500; accepted offsets here are ${-500 - active}..${500 - active}`,
          ),
        );
      });
    });
    return out;
  },
};
