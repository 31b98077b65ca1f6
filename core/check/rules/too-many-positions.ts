import { MAX_POSITIONS_PER_CALL } from '../../dlmm/bins';
import type { Finding } from '../../plan/diagnostics';
import { finding, preparedAt, type Rule } from './rule';

/** The router takes lists of at most 350 positions per call. */
export const tooManyPositions: Rule = {
  code: 'too-many-positions',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      let count = 0;
      let list = 'bins';
      if (op.op === 'add') {
        count = op.bins.length;
        const p = preparedAt(ctx, i);
        if (p?.op === 'add' && p.distribution?.ok) {
          count += p.distribution.bins.length;
          list = 'distribution';
        }
      } else if (op.op === 'move') [count, list] = [op.moves.length, 'moves'];
      else if (op.op === 'withdraw') {
        const prepared = preparedAt(ctx, i);
        count = prepared && prepared.op === 'withdraw' ? prepared.items.length : 0;
      }
      if (count <= MAX_POSITIONS_PER_CALL) return;
      const path = op.op === 'withdraw' && !op.bins ? ['operations', i, 'op'] : ['operations', i, list];
      out.push(
        finding(
          ctx,
          'too-many-positions',
          { op: i, path, key: path.length === 3 && path[2] !== 'op' },
          `this ${op.op} has ${count} positions${list === 'distribution' ? ` (${count - (op.op === 'add' ? op.bins.length : 0)} from its distribution)` : ''}; the router accepts at most ${MAX_POSITIONS_PER_CALL} per call: split it into several operations`,
        ),
      );
    });
    return out;
  },
};
