import type { Finding } from '../../plan/diagnostics';
import { finding, preparedAt, type Rule } from './rule';

/**
 * A distribution that cannot be expanded: `from` > `to` (offline), or a token total with no bin on its side
 * of the active bin within the range (live). Range and bin problems are reported by bin-out-of-range,
 * bin-not-found and too-many-positions; zero totals by zero-amount.
 */
export const invalidDistribution: Rule = {
  code: 'invalid-distribution',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add' || !op.distribution) return;
      const d = op.distribution;
      if (d.from > d.to) {
        out.push(
          finding(
            ctx,
            'invalid-distribution',
            { op: i, path: ['operations', i, 'distribution', 'from'] },
            `distribution from ${d.from} is above to ${d.to}: the range is from..to inclusive, lowest first; swap them`,
          ),
        );
        return;
      }
      const prepared = preparedAt(ctx, i);
      if (prepared?.op !== 'add' || !prepared.distribution || prepared.distribution.ok) return;
      const problem = prepared.distribution.problem;
      const active = prepared.pool.active_bin_id;
      const { lo, hi } = prepared.distribution;
      const where = lo !== undefined && hi !== undefined ? `bins ${lo}..${hi}` : 'the range';
      if (problem.kind === 'no-x-side' || problem.kind === 'no-y-side') {
        const x = problem.kind === 'no-x-side';
        const field = x ? 'x_amount' : 'y_amount';
        const amount = x ? problem.x_total : problem.y_total;
        out.push(
          finding(
            ctx,
            'invalid-distribution',
            { op: i, path: ['operations', i, 'distribution', field] },
            `${field} ${amount} has no bin to go to: ${where} lie entirely ${x ? 'below' : 'above'} the active bin ${active}, where only token ${x ? 'Y' : 'X'} may be added; set ${field} to 0 or widen the range ${x ? 'up to' : 'down to'} the active bin`,
          ),
        );
      } else if (problem.kind === 'no-price') {
        out.push(
          finding(
            ctx,
            'invalid-distribution',
            { op: i, path: ['operations', i, 'distribution'], key: true },
            `bins ${problem.bins.join(', ')} have no price in the pool's bin list, so the X side cannot be weighted by value; narrow the range to bins with a price`,
          ),
        );
      }
    });
    return out;
  },
};
