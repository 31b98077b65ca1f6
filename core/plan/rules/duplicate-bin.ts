import type { Finding } from '../diagnostics';
import type { PlanPath } from '../parse';
import { finding, type Rule } from './rule';

/** The same target bin twice in one operation (by absolute id or by offset, as written). */
export const duplicateBin: Rule = {
  code: 'duplicate-bin',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      const entries: Array<{ key: string; label: string; path: PlanPath }> = [];
      if (op.op === 'add')
        op.bins.forEach((b, j) => {
          if (b.bin_id !== undefined && op.mode === 'strict')
            entries.push({
              key: `b${b.bin_id}`,
              label: `bin ${b.bin_id}`,
              path: ['operations', i, 'bins', j, 'bin_id'],
            });
          else if (b.active_bin_offset !== undefined)
            entries.push({
              key: `o${b.active_bin_offset}`,
              label: `active_bin_offset ${b.active_bin_offset}`,
              path: ['operations', i, 'bins', j, 'active_bin_offset'],
            });
        });
      else if (op.op === 'move')
        op.moves.forEach((m, j) => {
          if (m.to_bin_id !== undefined && op.mode === 'strict')
            entries.push({
              key: `b${m.to_bin_id}`,
              label: `to bin ${m.to_bin_id}`,
              path: ['operations', i, 'moves', j, 'to_bin_id'],
            });
          else if (m.active_bin_offset !== undefined)
            entries.push({
              key: `o${m.active_bin_offset}`,
              label: `active_bin_offset ${m.active_bin_offset}`,
              path: ['operations', i, 'moves', j, 'active_bin_offset'],
            });
        });
      else if (op.op === 'withdraw')
        op.bins?.forEach((id, j) =>
          entries.push({ key: `b${id}`, label: `bin ${id}`, path: ['operations', i, 'bins', j] }),
        );
      const first = new Map<string, PlanPath>();
      for (const e of entries) {
        const prev = first.get(e.key);
        if (!prev) {
          first.set(e.key, e.path);
          continue;
        }
        out.push(
          finding(
            ctx,
            'duplicate-bin',
            { op: i, path: e.path },
            `${e.label} appears twice in this operation (first at ${prev.slice(2, 4).join('[')}]); merge the two entries into one`,
          ),
        );
      }
    });
    return out;
  },
};
