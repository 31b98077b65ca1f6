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
          message = `${label} appears twice in this operation (first at ${ctx.parsed.sourcePath(prevPath).slice(2, 4).join('[')}]); merge the two entries into one`;
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
      if (op.op === 'add' || op.op === 'move') {
        const list = op.op === 'add' ? 'bins' : 'moves';
        const absolute = op.op === 'add' ? 'bin_id' : 'to_bin_id';
        const items: ReadonlyArray<{ active_bin_offset?: number; bin_id?: number; to_bin_id?: number }> =
          op.op === 'add' ? op.bins : op.moves;
        items.forEach((item, j) => {
          const abs = item[absolute];
          const byId = abs !== undefined && op.mode === 'strict';
          const kind = byId ? 'b' : 'o';
          const key = byId ? abs : item.active_bin_offset;
          if (key === undefined) return;
          const prev = seen(kind, key, j);
          if (prev !== undefined)
            report(
              kind,
              key,
              byId ? `${op.op === 'add' ? 'bin' : 'to bin'} ${key}` : `active_bin_offset ${key}`,
              ['operations', i, list, j, byId ? absolute : 'active_bin_offset'],
              ['operations', i, list, prev],
            );
        });
      } else if (op.op === 'withdraw')
        op.bins?.forEach((id, j) => {
          const prev = seen('b', id, j);
          if (prev !== undefined)
            report('b', id, `bin ${id}`, ['operations', i, 'bins', j], ['operations', i, 'bins', prev]);
        });
    });
    return out;
  },
};
