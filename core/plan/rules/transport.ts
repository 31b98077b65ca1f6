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
  // One finding per distinct endpoint family, capped so a dead service gives a short list.
  return errors.slice(0, 5).map((e) => {
    const op = ctx.plan.operations.findIndex((o) => o.op !== 'swap' && e.endpoint.includes(o.pool));
    return op >= 0
      ? finding(ctx, code, { op, path: ['operations', op, 'pool'] }, describe(e.endpoint, e.message))
      : finding(ctx, code, { path: [] }, describe(e.endpoint, e.message));
  });
}
