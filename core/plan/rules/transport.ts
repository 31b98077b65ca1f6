/** Shared by api-unreachable, rate-limited and unexpected-response: live errors as file-level findings. */
import type { ApiErrorCode } from '../../api/errors';
import type { DiagnosticCode, Finding } from '../diagnostics';
import { allLiveErrors, type LiveError } from '../live';
import { finding, type RuleContext } from './rule';

export function transportFindings(
  ctx: RuleContext,
  code: DiagnosticCode,
  apiCode: ApiErrorCode | ((e: LiveError) => boolean),
  describe: (endpoint: string, message: string) => string,
): Finding[] {
  if (!ctx.live) return [];
  const matches = typeof apiCode === 'function' ? apiCode : (e: LiveError) => e.code === apiCode;
  const errors = allLiveErrors(ctx.live).filter(matches);
  if (errors.length === 0) return [];
  // One finding per operation (or the file) and failure kind: a dead service gives one line, not one per read.
  const groups = new Map<string, { op: number; first: LiveError; more: number }>();
  for (const e of errors) {
    const op = ctx.plan.operations.findIndex((o) => o.op !== 'swap' && e.endpoint.includes(o.pool));
    const key = `${op}|${e.code}|${e.status ?? ''}`;
    const g = groups.get(key);
    if (g) g.more++;
    else groups.set(key, { op, first: e, more: 0 });
  }
  return [...groups.values()].map(({ op, first, more }) => {
    const message =
      describe(first.endpoint, first.message) +
      (more > 0 ? ` (${more} more read${more === 1 ? '' : 's'} failed the same way)` : '');
    return op >= 0
      ? finding(ctx, code, { op, path: ['operations', op, 'pool'] }, message)
      : finding(ctx, code, { path: [] }, message);
  });
}
