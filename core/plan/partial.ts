/**
 * A plan that fails its schema is still checked where it can be: each operation is validated on its own, and
 * the operations that pass (with the top-level fields) form a partial plan that gets every offline and live
 * rule, exactly as the same plan without the broken operations would. The broken operations carry only their
 * schema findings (reported by parse.ts on the whole document).
 *
 * The partial plan is indexed 0..n-1 like any plan; `view` is the parsed document seen through that indexing
 * (paths under `operations` map to the source index), so the rules' ranges, operation ids and quick fixes land
 * on the right text without the rules knowing.
 */
import * as z from 'zod';
import type { Finding } from './diagnostics';
import { planFindings, type ParsedPlan, type PlanPath } from './parse';
import { OperationSchema, PlanSchema, type Plan, type PlanOperation } from './schema';

export interface PartialPlan {
  plan: Plan;
  /** The parsed document indexed like `plan`. */
  view: ParsedPlan;
  /** Source index (in the document's `operations`) of each operation of `plan`. */
  sourceIndex: number[];
  /** False when `policy` failed its schema: policy-level rules (tip lag, policy slippage) do not run. */
  policyValid: boolean;
  /** The plan-level schema findings of the valid operations (sender, mode addressing, unique ids). */
  findings: Finding[];
}

/** The top level without policy and operations, which are validated on their own. Unknown keys are ignored. */
const HeaderSchema = z.object({
  version: PlanSchema.shape.version,
  network: PlanSchema.shape.network,
  api: PlanSchema.shape.api,
  operations: z.array(z.unknown()).min(1),
});

/**
 * The checkable part of a plan whose whole-document schema failed; undefined when nothing can be checked
 * (syntax errors, no operations list, an unusable version / network / api, no valid operation).
 */
export function partialPlan(parsed: ParsedPlan): PartialPlan | undefined {
  if (parsed.plan || parsed.findings.some((f) => f.code === 'syntax')) return undefined;
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const header = HeaderSchema.safeParse(raw);
  if (!header.success) return undefined;
  const sender = PlanSchema.shape.sender.safeParse(raw.sender);
  const policy = PlanSchema.shape.policy.safeParse(raw.policy);
  const defaults = PlanSchema.shape.policy.parse(undefined);

  const operations: PlanOperation[] = [];
  const sourceIndex: number[] = [];
  header.data.operations.forEach((op, i) => {
    // Already found invalid (or left unvalidated past the finding cap) by the parse: not validated again.
    if (parsed.invalidOperations?.has(i)) return;
    const r = OperationSchema.safeParse(op);
    if (!r.success) return;
    // Withdraw and move read the sender's positions: with an invalid sender they cannot be checked.
    if (!sender.success && (r.data.op === 'withdraw' || r.data.op === 'move')) return;
    operations.push(r.data);
    sourceIndex.push(i);
  });
  if (operations.length === 0) return undefined;

  const plan: Plan = {
    version: header.data.version,
    network: header.data.network,
    api: header.data.api,
    ...(sender.success && sender.data !== undefined ? { sender: sender.data } : {}),
    policy: policy.success ? policy.data : defaults,
    operations,
  };
  const view = indexedView(parsed, sourceIndex);
  return { plan, view, sourceIndex, policyValid: policy.success, findings: planFindings(view, plan) };
}

/** `parsed` as seen by a plan holding only the operations at `sourceIndex`. */
function indexedView(parsed: ParsedPlan, sourceIndex: readonly number[]): ParsedPlan {
  const toSource = (path: PlanPath): PlanPath =>
    path[0] === 'operations' && typeof path[1] === 'number'
      ? ['operations', sourceIndex[path[1]] ?? -1, ...path.slice(2)]
      : path;
  const view: ParsedPlan = Object.create(parsed) as ParsedPlan;
  return Object.assign(view, {
    operationCount: sourceIndex.length,
    rangeOf: (path: PlanPath) => parsed.rangeOf(toSource(path)),
    keyRangeOf: (path: PlanPath) => parsed.keyRangeOf(toSource(path)),
    isFlowMap: (path: PlanPath) => parsed.isFlowMap(toSource(path)),
    operationId: (index: number) => parsed.operationId(sourceIndex[index] ?? -1),
    operationIndexAt: (offset: number) => {
      const source = parsed.operationIndexAt(offset);
      const i = source === undefined ? -1 : sourceIndex.indexOf(source);
      return i < 0 ? undefined : i;
    },
  });
}
