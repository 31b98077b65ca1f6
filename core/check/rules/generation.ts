/** Pool id generations (interface document, "Pool identifiers" and "Versioning" 2). Shared by rules. */
import type { ParsedPlan } from '../../plan/parse';
import { POOL_ALIAS, type Plan } from '../../plan/schema';
import type { LiveData } from '../../live/live';
import { replaceScalar, type FindingAt } from './rule';

export const isAlias = (ref: string): boolean => POOL_ALIAS.test(ref);

/** The contract principal for a written alias, from the live pool record or the pools list. */
export function principalFor(live: LiveData | undefined, ref: string): string | undefined {
  const lp = live?.byPool.get(ref);
  if (lp?.principal) return lp.principal;
  const listed = live?.pools?.find((p) => p.pool_alias === ref);
  return listed && !isAlias(listed.pool_id) ? listed.pool_id : undefined;
}

/** Ops whose pool id is of the other generation than the file's `api` (offline knowledge only). */
export function offlineMixedOps(plan: Plan): number[] {
  const out: number[] = [];
  plan.operations.forEach((op, i) => {
    if (op.op === 'swap') return;
    if (
      plan.api === 'v1' ? !isAlias(op.pool) : isAlias(op.pool) && (op.op === 'withdraw' || op.op === 'move')
    )
      out.push(i);
  });
  return out;
}

/** Where a pool written as an alias is reported, with the quick fix writing its contract principal (when known). */
export function principalFix(parsed: ParsedPlan, op: number, principal: string | undefined): FindingAt {
  const path = ['operations', op, 'pool'];
  const edit = principal ? replaceScalar(parsed, path, principal) : undefined;
  return {
    op,
    path,
    fixes: edit ? [{ title: `Use the contract principal ${principal}`, edits: [edit], preferred: true }] : [],
  };
}

/**
 * Whether generation mixing explains an HTTP 200 'Pool not found' for `ref`: only when the id has the other
 * generation's form (an alias that the v2 app reads reject, or a principal in a v1 file). A v2 principal that
 * the v2 engine does not know is simply not found.
 */
export function mixingExplainsNotFound(plan: Plan, ref: string): boolean {
  return plan.api === 'v1' ? !isAlias(ref) : isAlias(ref);
}
