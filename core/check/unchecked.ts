/**
 * The last line against a false "clean": after every rule ran, an operation that was not prepared from live
 * data (or a swap without a route) and that no error or warning explains gets a finding saying it was not
 * checked. Export refuses such an operation anyway (core/tx/build.ts); this makes `check` say so too.
 */
import { LIVE_UNAVAILABLE, type Finding } from '../plan/diagnostics';
import { finding, preparedAt, type RuleContext } from './rules/rule';

/** Findings for operations the live analysis could not check and no other finding explains. */
export function uncheckedOperationFindings(ctx: RuleContext, findings: readonly Finding[]): Finding[] {
  if (!ctx.live) return [];
  // A file-level error or unavailable-data warning (service unreachable, ...) already says it for every op.
  const saidForAll = (f: Finding): boolean =>
    f.operation === undefined && (f.severity === 'error' || LIVE_UNAVAILABLE.has(f.code));
  if (findings.some(saidForAll)) return [];
  const explained = new Set(findings.filter((f) => f.severity !== 'info').map((f) => f.operation));
  // A read failure of a pool is reported once, on the first operation of that pool: it explains them all.
  const poolOf = (i: number): string | undefined => {
    const op = ctx.plan.operations[i];
    return op && op.op !== 'swap' ? op.pool : undefined;
  };
  // The operations an error names, once (a scan of the findings per operation was quadratic).
  const erred = new Set(findings.filter((f) => f.severity === 'error').map((f) => f.operation));
  const failedPools = new Set<string>();
  ctx.plan.operations.forEach((_op, i) => {
    const pool = poolOf(i);
    if (pool !== undefined && erred.has(ctx.parsed.operationId(i))) failedPools.add(pool);
  });
  const out: Finding[] = [];
  ctx.plan.operations.forEach((op, i) => {
    const id = ctx.parsed.operationId(i);
    if (explained.has(id)) return;
    const pool = poolOf(i);
    if (pool !== undefined && failedPools.has(pool)) return;
    const prepared = preparedAt(ctx, i);
    const checked = prepared !== undefined && (prepared.op !== 'swap' || prepared.swap.route !== undefined);
    if (checked) return;
    out.push(
      finding(
        ctx,
        'api-unreachable',
        { op: i, path: ['operations', i, 'op'] },
        op.op === 'swap'
          ? `this swap was not checked: no route was read from POST /quotes/v2/quote and the service gave no reason; it will not be exported — retry when the service answers`
          : `this ${op.op} was not checked: the live data it needs (the pool's bins${op.op === 'add' ? '' : " and the sender's positions"}) was not read; it will not be exported — retry when the service answers`,
      ),
    );
  });
  return out;
}
