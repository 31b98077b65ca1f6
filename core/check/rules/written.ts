/** Walks the bin ids and targets as written in a plan (shared by the offline bin rules). */
import type { PlanPath } from '../../plan/parse';
import type { Plan } from '../../plan/schema';

export interface WrittenBinId {
  op: number;
  path: PlanPath;
  id: number;
  /** target: an add/move destination; from: a move source; filter: a withdraw selection. */
  role: 'target' | 'from' | 'filter';
}

/** Every absolute bin id written in the plan (those `keep` accepts), with its path. */
export function writtenBinIds(plan: Plan, keep: (id: number) => boolean = () => true): WrittenBinId[] {
  const out: WrittenBinId[] = [];
  // Paths are built only for kept ids: the rules keep few of 350 (allocation dominated otherwise).
  plan.operations.forEach((op, i) => {
    if (op.op === 'add') {
      op.bins.forEach((b, j) => {
        if (b.bin_id !== undefined && keep(b.bin_id))
          out.push({ op: i, path: ['operations', i, 'bins', j, 'bin_id'], id: b.bin_id, role: 'target' });
      });
    } else if (op.op === 'move') {
      op.moves.forEach((m, j) => {
        if (keep(m.from_bin_id))
          out.push({
            op: i,
            path: ['operations', i, 'moves', j, 'from_bin_id'],
            id: m.from_bin_id,
            role: 'from',
          });
        if (m.to_bin_id !== undefined && keep(m.to_bin_id))
          out.push({
            op: i,
            path: ['operations', i, 'moves', j, 'to_bin_id'],
            id: m.to_bin_id,
            role: 'target',
          });
      });
    } else if (op.op === 'withdraw') {
      op.bins?.forEach((id, j) => {
        if (keep(id)) out.push({ op: i, path: ['operations', i, 'bins', j], id, role: 'filter' });
      });
    }
  });
  return out;
}

export const inSigned = (id: number): boolean => id >= -500 && id <= 500;
export const looksUnsigned = (id: number): boolean => id >= 501 && id <= 1000;
