import type { Finding } from '../../plan/diagnostics';
import type { PlanPath } from '../../plan/parse';
import { finding, preparedAt, type Rule } from './rule';

/** The same target bin twice in one operation (by absolute id or by offset, as written). */
export const duplicateBin: Rule = {
  code: 'duplicate-bin',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      // Keys first (absolute ids and offsets apart, by number: no string per entry); a label and a path are
      // built only for an entry seen before (the rare case).
      const first = { b: new Map<number, number>(), o: new Map<number, number>() };
      const seen = (kind: 'b' | 'o', key: number, j: number): number | undefined => {
        const prev = first[kind].get(key);
        if (prev === undefined) first[kind].set(key, j);
        return prev;
      };
      // One message string per key (the key gives the label and the first entry): a plan of 100,000 bins in
      // one add repeats each of the 1,001 bin ids about 100 times, and a message apiece was most of what its
      // findings held.
      const messages = { b: new Map<number, string>(), o: new Map<number, string>() };
      const report = (
        kind: 'b' | 'o',
        key: number,
        label: string,
        path: PlanPath,
        prevPath: PlanPath,
      ): void => {
        let message = messages[kind].get(key);
        if (message === undefined) {
          message = `${label} appears twice in this operation (first at ${prevPath.slice(2, 4).join('[')}]); merge the two entries into one`;
          messages[kind].set(key, message);
        }
        out.push(finding(ctx, 'duplicate-bin', { op: i, path }, message));
      };
      if (op.op === 'add') {
        const p = preparedAt(ctx, i);
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
            const prev = seen('b', b.bin_id, j);
            if (prev !== undefined)
              report(
                'b',
                b.bin_id,
                `bin ${b.bin_id}`,
                ['operations', i, 'bins', j, 'bin_id'],
                ['operations', i, 'bins', prev],
              );
          } else if (b.active_bin_offset !== undefined) {
            const prev = seen('o', b.active_bin_offset, j);
            if (prev !== undefined)
              report(
                'o',
                b.active_bin_offset,
                `active_bin_offset ${b.active_bin_offset}`,
                ['operations', i, 'bins', j, 'active_bin_offset'],
                ['operations', i, 'bins', prev],
              );
          }
        });
      else if (op.op === 'move')
        op.moves.forEach((m, j) => {
          if (m.to_bin_id !== undefined && op.mode === 'strict') {
            const prev = seen('b', m.to_bin_id, j);
            if (prev !== undefined)
              report(
                'b',
                m.to_bin_id,
                `to bin ${m.to_bin_id}`,
                ['operations', i, 'moves', j, 'to_bin_id'],
                ['operations', i, 'moves', prev],
              );
          } else if (m.active_bin_offset !== undefined) {
            const prev = seen('o', m.active_bin_offset, j);
            if (prev !== undefined)
              report(
                'o',
                m.active_bin_offset,
                `active_bin_offset ${m.active_bin_offset}`,
                ['operations', i, 'moves', j, 'active_bin_offset'],
                ['operations', i, 'moves', prev],
              );
          }
        });
      else if (op.op === 'withdraw')
        op.bins?.forEach((id, j) => {
          const prev = seen('b', id, j);
          if (prev !== undefined)
            report('b', id, `bin ${id}`, ['operations', i, 'bins', j], ['operations', i, 'bins', prev]);
        });
    });
    return out;
  },
};
