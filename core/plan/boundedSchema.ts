/**
 * The plan schema applied with bounded work: a broken plan's issues stop at the finding cap (60,000 bad bins
 * must not build 240,000 issues), so operations are validated one by one, and the long lists inside them (an
 * add's bins, a withdraw's bins, a move's moves) item by item, until MAX_FINDINGS_PER_FILE issues were found;
 * what follows is not validated and only counted. The verdicts and messages are the schema's (applied to the
 * parts); a valid plan is validated whole, so its typed value is exactly PlanSchema's.
 */
import { MAX_FINDINGS_PER_FILE } from './diagnostics';
import {
  AddItemSchema,
  isRecord,
  MoveItemSchema,
  OperationSchema,
  PlanSchema,
  zPlanBinId,
  type Plan,
  type Schema,
  type SchemaIssue as Issue,
} from './schema';

export interface BoundedResult {
  plan?: Plan;
  /** The schema's issues with full paths, in document order, at most about MAX_FINDINGS_PER_FILE of them. */
  issues: Issue[];
  /** List entries and operations left unvalidated once the budget was spent. */
  notChecked: number;
  /** Indexes of operations that failed their schema or were not fully validated. */
  invalidOperations: Set<number>;
}

/** The list of each operation kind validated item by item, and the schema of its items. */
const LISTS: Record<string, { key: string; item: Schema<unknown> }> = {
  add: { key: 'bins', item: AddItemSchema },
  withdraw: { key: 'bins', item: zPlanBinId },
  move: { key: 'moves', item: MoveItemSchema },
};

/** PlanSchema.safeParse with the work bounded by the finding cap (see the file comment). */
export function validatePlan(
  value: unknown,
  budget = MAX_FINDINGS_PER_FILE,
  wholeFirst = true,
): BoundedResult {
  const ops = isRecord(value) ? value.operations : undefined;
  if (!isRecord(value) || !Array.isArray(ops)) return whole(value);
  // A valid plan (the usual case) in one pass, which stops at the first issue: then the bounded path below
  // gives the issues, exactly as without this pass.
  if (wholeFirst) {
    const r = PlanSchema.safeParse(value, 1);
    if (r.success) return { plan: r.data, issues: [], notChecked: 0, invalidOperations: new Set() };
  }

  const opIssues: Issue[] = [];
  const invalid = new Set<number>();
  const kept: unknown[] = [];
  const keptIndex: number[] = [];
  let notChecked = 0;
  for (let i = 0; i < ops.length; i++) {
    if (budget <= 0) {
      notChecked += ops.length - i;
      for (let k = i; k < ops.length; k++) invalid.add(k);
      break;
    }
    const r = validateOperation(ops[i], budget);
    notChecked += r.notChecked;
    if (r.issues.length > 0 || r.notChecked > 0) {
      invalid.add(i);
      budget -= r.issues.length;
      for (const issue of r.issues) opIssues.push(prefixed(issue, ['operations', i]));
    } else {
      kept.push(ops[i]);
      keptIndex.push(i);
    }
  }
  if (invalid.size === 0) {
    // Every operation is valid on its own: the plan's issues, if any, are its header's (a plan field or the
    // operations list). Checked first with each list cut to its first item (the issues are the same: the
    // lists check nothing across items but their length), so a plan with a bad header and long lists is
    // not validated whole again; a valid one is, for PlanSchema's own typed value.
    const header = PlanSchema.safeParse({ ...value, operations: ops.map(cutList) });
    if (!header.success)
      return {
        issues: header.error.issues,
        notChecked: 0,
        invalidOperations: operationsOf(header.error.issues),
      };
    return whole(value);
  }

  // The rest of the document, with the valid operations only (renumbered back to their source index).
  const rest = PlanSchema.safeParse({ ...value, operations: kept });
  const header: Issue[] = [];
  if (!rest.success) {
    for (const issue of rest.error.issues) {
      const [first, index] = issue.path;
      if (first === 'operations' && issue.path.length === 1 && issue.code === 'too_small') continue;
      if (first === 'operations' && typeof index === 'number')
        header.push({ ...issue, path: ['operations', keptIndex[index] ?? index, ...issue.path.slice(2)] });
      else header.push(issue);
    }
  }
  return { issues: [...header, ...opIssues], notChecked, invalidOperations: invalid };
}

/**
 * The operation with its validated list cut to its first item (as it is when the list is shorter than 2
 * or not a list). With every item valid on its own, its schema gives the same issues as the whole
 * operation: the lists check nothing across items but their length (at least 1).
 */
function cutList(op: unknown): unknown {
  const list = listOf(op);
  const items = list && isRecord(op) ? op[list.key] : undefined;
  return list && isRecord(op) && Array.isArray(items) && items.length >= 2
    ? { ...op, [list.key]: [items[0]] }
    : op;
}

/** The list an operation kind has validated item by item (own keys only: `op` may be any string). */
function listOf(op: unknown): (typeof LISTS)[string] | undefined {
  return isRecord(op) && typeof op.op === 'string' && Object.hasOwn(LISTS, op.op) ? LISTS[op.op] : undefined;
}

/** One operation: its list item by item (within the budget), then the operation with that list's valid items. */
function validateOperation(op: unknown, budget: number): { issues: Issue[]; notChecked: number } {
  const list = listOf(op);
  const items = list && isRecord(op) ? op[list.key] : undefined;
  if (!list || !Array.isArray(items) || !isRecord(op))
    return { issues: issuesOf(OperationSchema, op), notChecked: 0 };

  const itemIssues: Issue[] = [];
  const valid: unknown[] = [];
  let notChecked = 0;
  for (let j = 0; j < items.length; j++) {
    if (budget - itemIssues.length <= 0) {
      notChecked = items.length - j;
      break;
    }
    const r = list.item.safeParse(items[j]);
    if (r.success) valid.push(items[j]);
    else for (const issue of r.error.issues) itemIssues.push(prefixed(issue, [list.key, j]));
  }
  // Every item valid: the operation's own fields, its list cut to one item (cutList), not each item again.
  if (itemIssues.length === 0 && notChecked === 0)
    return { issues: issuesOf(OperationSchema, cutList(op)), notChecked: 0 };
  const trimmed = valid.length < items.length;
  const others = issuesOf(OperationSchema, { ...op, [list.key]: valid }).filter(
    // An emptied list is not the user's empty list.
    (issue) =>
      !(trimmed && issue.code === 'too_small' && issue.path.length === 1 && issue.path[0] === list.key),
  );
  // Document order: the operation's own fields, then its list.
  return { issues: [...others, ...itemIssues], notChecked };
}

function whole(value: unknown): BoundedResult {
  const r = PlanSchema.safeParse(value);
  return r.success
    ? { plan: r.data, issues: [], notChecked: 0, invalidOperations: new Set() }
    : { issues: r.error.issues, notChecked: 0, invalidOperations: operationsOf(r.error.issues) };
}

function operationsOf(issues: readonly Issue[]): Set<number> {
  const out = new Set<number>();
  for (const issue of issues)
    if (issue.path[0] === 'operations' && typeof issue.path[1] === 'number') out.add(issue.path[1]);
  return out;
}

function issuesOf(schema: Schema<unknown>, value: unknown): Issue[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues;
}

function prefixed(issue: Issue, prefix: PropertyKey[]): Issue {
  return { ...issue, path: [...prefix, ...issue.path] } as Issue;
}
