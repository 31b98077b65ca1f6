import type { Finding } from '../../plan/diagnostics';
import { listBins } from '../../prepare/distribution';
import { addTarget, moveTarget } from '../../prepare/prepare';
import { binSpan, finding, preparedAt, type Rule } from './rule';
import { inSigned } from './written';

/**
 * Rule 1 of add/move preparation: the target bin must be in the pool's bin list. Linear in the plan: the
 * prepared operation is looked up by index, and the bin list's span (count, lowest..highest) is computed
 * once per list, only when a finding needs it.
 */
export const binNotFound: Rule = {
  code: 'bin-not-found',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add' && op.op !== 'move') return;
      const lp = ctx.live?.byPool.get(op.pool);
      if (!lp?.bins || lp.activeBinId === undefined) return;
      const active = lp.activeBinId;
      const listed = () => `(${binSpan(lp.binById)}, active ${active})`;
      if (op.op === 'add') {
        const p = preparedAt(ctx, i);
        const dist = p?.op === 'add' ? p.distribution : undefined;
        if (dist && !dist.ok && dist.problem.kind === 'no-bins')
          out.push(
            finding(
              ctx,
              'bin-not-found',
              { op: i, path: ['operations', i, 'distribution'], key: true },
              `the distribution covers bins ${dist.lo}..${dist.hi}, but bins ${listBins(dist.problem.bins)} are not in the pool's bin list ${listed()}; narrow the range to listed bins`,
            ),
          );
      }
      const items = op.op === 'add' ? op.bins : op.moves;
      items.forEach((item, j) => {
        const target =
          op.op === 'add' ? addTarget(op, item as never, active) : moveTarget(op, item as never, active);
        if (target === undefined || !inSigned(target) || lp.binById.has(target)) return;
        const field = op.mode === 'simple' ? 'active_bin_offset' : op.op === 'add' ? 'bin_id' : 'to_bin_id';
        const list = op.op === 'add' ? 'bins' : 'moves';
        const how = op.mode === 'simple' ? ` (active bin ${active} + offset ${item.active_bin_offset})` : '';
        out.push(
          finding(
            ctx,
            'bin-not-found',
            { op: i, path: ['operations', i, list, j, field] },
            `bin ${target}${how} is not in the pool's bin list ${listed()}; target a listed bin`,
          ),
        );
      });
    });
    return out;
  },
};
