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
import type { Finding } from './diagnostics';
import { planFindings, type ParsedPlan, type PlanPath } from './parse';
import {
  fieldSchema,
  OperationSchema,
  PlanSchema,
  PolicySchema,
  type Plan,
  type PlanOperation,
} from './schema';

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

/**
 * The checkable part of a plan whose whole-document schema failed; undefined when nothing can be checked
 * (syntax errors, no operations list, an unusable version / network / api, no valid operation).
 */
export function partialPlan(parsed: ParsedPlan): PartialPlan | undefined {
  if (parsed.plan || parsed.findings.some((f) => f.code === 'syntax')) return undefined;
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  // The top level but policy and operations (validated on their own), and a non-empty operations list.
  const version = fieldSchema(PlanSchema, 'version').safeParse(raw.version);
  const network = fieldSchema(PlanSchema, 'network').safeParse(raw.network);
  const api = fieldSchema(PlanSchema, 'api').safeParse(raw.api);
  const ops = raw.operations;
  if (!version.success || !network.success || !api.success || !Array.isArray(ops) || ops.length === 0)
    return undefined;
  const sender = fieldSchema(PlanSchema, 'sender').safeParse(raw.sender);
  const policy = fieldSchema(PlanSchema, 'policy').safeParse(raw.policy);
  const defaults = PolicySchema.parse({});

  const operations: PlanOperation[] = [];
  const sourceIndex: number[] = [];
  ops.forEach((op: unknown, i) => {
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
    version: version.data,
    network: network.data,
    api: api.data,
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
