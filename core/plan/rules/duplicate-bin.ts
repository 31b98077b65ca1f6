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
      // Keys first; a label and a path are built only for an entry seen before (the rare case).
      const first = new Map<string, number>();
      const seen = (key: string, j: number): number | undefined => {
        const prev = first.get(key);
        if (prev === undefined) first.set(key, j);
        return prev;
      };
      // One message string per (label, first entry): a plan of 100,000 bins in one add repeats each of the
      // 1,001 bin ids about 100 times, and a message apiece was most of what its findings held.
      const messages = new Map<string, string>();
      const report = (label: string, path: PlanPath, prevPath: PlanPath): void => {
        const first = `${prevPath.slice(2, 4).join('[')}]`;
        const key = `${label}|${first}`;
        let message = messages.get(key);
        if (message === undefined) {
          message = `${label} appears twice in this operation (first at ${first}); merge the two entries into one`;
          messages.set(key, message);
        }
        out.push(finding(ctx, 'duplicate-bin', { op: i, path }, message));
      };
      if (op.op === 'add') {
        const p = ctx.prepared.find((x) => x.index === i);
        if (p?.op === 'add' && p.distribution?.ok) {
          const expanded = new Set(p.distribution.bins.map((b) => b.bin_id));
          for (const it of p.items) {
            if (it.from_distribution || !expanded.has(it.bin_id)) continue;
            const field = op.mode === 'strict' ? 'bin_id' : 'active_bin_offset';
            out.push(
              finding(
                ctx,
                'duplicate-bin',
                { op: i, path: ['operations', i, 'bins', it.index, field] },
                `bin ${it.bin_id} is also in this operation's distribution (${p.distribution.lo}..${p.distribution.hi}); the two adds to it are separate positions in one call: drop the item or narrow the distribution`,
              ),
            );
          }
        }
      }
      if (op.op === 'add')
        op.bins.forEach((b, j) => {
          if (b.bin_id !== undefined && op.mode === 'strict') {
            const prev = seen(`b${b.bin_id}`, j);
            if (prev !== undefined)
              report(
                `bin ${b.bin_id}`,
                ['operations', i, 'bins', j, 'bin_id'],
                ['operations', i, 'bins', prev],
              );
          } else if (b.active_bin_offset !== undefined) {
            const prev = seen(`o${b.active_bin_offset}`, j);
            if (prev !== undefined)
              report(
                `active_bin_offset ${b.active_bin_offset}`,
                ['operations', i, 'bins', j, 'active_bin_offset'],
                ['operations', i, 'bins', prev],
              );
          }
        });
      else if (op.op === 'move')
        op.moves.forEach((m, j) => {
          if (m.to_bin_id !== undefined && op.mode === 'strict') {
            const prev = seen(`b${m.to_bin_id}`, j);
            if (prev !== undefined)
              report(
                `to bin ${m.to_bin_id}`,
                ['operations', i, 'moves', j, 'to_bin_id'],
                ['operations', i, 'moves', prev],
              );
          } else if (m.active_bin_offset !== undefined) {
            const prev = seen(`o${m.active_bin_offset}`, j);
            if (prev !== undefined)
              report(
                `active_bin_offset ${m.active_bin_offset}`,
                ['operations', i, 'moves', j, 'active_bin_offset'],
                ['operations', i, 'moves', prev],
              );
          }
        });
      else if (op.op === 'withdraw')
        op.bins?.forEach((id, j) => {
          const prev = seen(`b${id}`, j);
          if (prev !== undefined)
            report(`bin ${id}`, ['operations', i, 'bins', j], ['operations', i, 'bins', prev]);
        });
    });
    return out;
  },
};
