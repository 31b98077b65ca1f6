/** Shared by api-unreachable, rate-limited and unexpected-response: live errors as file-level findings. */
import type { ApiErrorCode } from '../../api/errors';
import type { DiagnosticCode, Finding } from '../../plan/diagnostics';
import { allLiveErrors, type LiveError } from '../../live/live';
import { finding, type RuleContext } from './rule';

export function transportFindings(
  ctx: RuleContext,
  code: DiagnosticCode,
  apiCode: ApiErrorCode | ((e: LiveError) => boolean),
  describe: (endpoint: string, message: string, error: LiveError) => string,
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
      describe(first.endpoint, first.message, first) +
      (more > 0 ? ` (${more} more read${more === 1 ? '' : 's'} failed the same way)` : '');
    return op >= 0
      ? finding(ctx, code, { op, path: ['operations', op, 'pool'] }, message)
      : finding(ctx, code, { path: [] }, message);
  });
}

/**
 * The quote engine's own verdict on a swap (no route, or a 4xx refusal of the request), as opposed to a
 * failure to get an answer: a 5xx, 401/403 (key) or a dead service is never reported as "no route".
 */
export function isQuoteVerdict(e: LiveError): boolean {
  if (e.code === 'no-route') return true;
  if (!e.endpoint.startsWith('POST /quotes/v2/quote') || e.code !== 'http-error') return false;
  const s = e.status ?? 0;
  return s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 429;
}

/** Codes the transport rules report (api-unreachable, rate-limited, unexpected-response). */
export const TRANSPORT_CODES: ReadonlySet<string> = new Set([
  'unreachable',
  'http-error',
  'rate-limited',
  'unexpected-response',
]);
