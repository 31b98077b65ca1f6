/** Walks the bin ids and targets as written in a plan (shared by the offline bin rules). */
import type { PlanPath } from '../../plan/parse';
import type { Plan } from '../../plan/schema';

export interface WrittenBinId {
  op: number;
  path: PlanPath;
  id: number;
}

/** Every absolute bin id written in the plan that `keep` accepts (targets, move sources, withdraw filters). */
export function writtenBinIds(plan: Plan, keep: (id: number) => boolean): WrittenBinId[] {
  const out: WrittenBinId[] = [];
  plan.operations.forEach((op, i) => {
    // Paths are built only for kept ids: the rules keep few of 350 (allocation dominated otherwise).
    const at = (id: number | undefined, list: string, j: number, field?: string): void => {
      if (id === undefined || !keep(id)) return;
      out.push({ op: i, path: field ? ['operations', i, list, j, field] : ['operations', i, list, j], id });
    };
    if (op.op === 'add') op.bins.forEach((b, j) => at(b.bin_id, 'bins', j, 'bin_id'));
    else if (op.op === 'move')
      op.moves.forEach((m, j) => {
        at(m.from_bin_id, 'moves', j, 'from_bin_id');
        at(m.to_bin_id, 'moves', j, 'to_bin_id');
      });
    else if (op.op === 'withdraw') op.bins?.forEach((id, j) => at(id, 'bins', j));
  });
  return out;
}

export const inSigned = (id: number): boolean => id >= -500 && id <= 500;
export const looksUnsigned = (id: number): boolean => id >= 501 && id <= 1000;
