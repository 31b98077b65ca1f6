/**
 * The plan schema applied with bounded work. zod builds every issue of a document before the finding cap
 * applies (60,000 bad bins cost seconds, hundreds of MB, and 240,000 issues overflowed zod's own stack), so
 * operations are validated one by one, and the long lists inside them (an add's bins, a withdraw's bins, a
 * move's moves) item by item, until MAX_FINDINGS_PER_FILE issues were found; what follows is not validated
 * and only counted. The verdicts and messages are zod's (the same schemas, applied to the parts); a valid
 * plan is still validated whole, so its typed value is exactly PlanSchema's.
 */
import type * as z from 'zod';
import { MAX_FINDINGS_PER_FILE } from './diagnostics';
import { AddItemSchema, MoveItemSchema, OperationSchema, PlanSchema, zPlanBinId, type Plan } from './schema';

type Issue = z.core.$ZodIssue;

export interface BoundedResult {
  plan?: Plan;
  /** zod's issues with full paths, in document order, at most about MAX_FINDINGS_PER_FILE of them. */
  issues: Issue[];
  /** List entries and operations left unvalidated once the budget was spent. */
  notChecked: number;
  /** Indexes of operations that failed their schema or were not fully validated. */
  invalidOperations: Set<number>;
}

/** The list of each operation kind validated item by item, and the schema of its items. */
const LISTS: Record<string, { key: string; item: z.ZodType }> = {
  add: { key: 'bins', item: AddItemSchema },
  withdraw: { key: 'bins', item: zPlanBinId },
  move: { key: 'moves', item: MoveItemSchema },
};

/**
 * Up to this many operations and list entries in all, the plan is first validated whole, in one pass: a
 * few issues per entry at most, so even a failed pass is cheap, and a valid plan (the usual case) is done
 * (the bounded path below validates each list three times: item by item, per operation, then whole).
 * When that pass fails, the bounded path gives the issues, exactly as without it.
 */
const WHOLE_FIRST_MAX_ENTRIES = 2000;

/** PlanSchema.safeParse with the work bounded by the finding cap (see the file comment). */
export function validatePlan(
  value: unknown,
  budget = MAX_FINDINGS_PER_FILE,
  wholeFirstMax = WHOLE_FIRST_MAX_ENTRIES,
): BoundedResult {
  const ops = isRecord(value) ? value.operations : undefined;
  if (!isRecord(value) || !Array.isArray(ops)) return whole(value);
  if (entryCount(ops, wholeFirstMax) <= wholeFirstMax) {
    const r = PlanSchema.safeParse(value);
    if (r.success) return { plan: r.data, issues: [], notChecked: 0, invalidOperations: new Set() };
  } else if (ops.length <= wholeFirstMax) {
    const plan = validLongLists(value, ops);
    if (plan) return { plan, issues: [], notChecked: 0, invalidOperations: new Set() };
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
 * A valid plan whose lists are long (a 1 MiB plan holds some 20,000 bins), validated in one pass over the
 * items: each list item by item, stopping at the first invalid one, then the plan with each list cut to its
 * first item (the lists' schemas check nothing across items but their length, at least 1), and the typed
 * items put back. The typed plan is PlanSchema's own (item outputs are the item schema's, in the same
 * places), without zod holding a result per item of a whole-plan pass (about 90 MB at 100,000 bins).
 * Undefined when anything is invalid: the bounded path then gives the issues, exactly as without this.
 */
function validLongLists(value: Record<string, unknown>, ops: readonly unknown[]): Plan | undefined {
  // The header first (each list cut to its first item): a plan whose header fails is not valid, whatever
  // its items, so they are not validated here (the bounded path gives the issues).
  const r = PlanSchema.safeParse({ ...value, operations: ops.map(cutList) });
  if (!r.success) return undefined;
  const typedLists: Array<unknown[] | undefined> = new Array(ops.length);
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const list = listOf(op);
    const items = list && isRecord(op) ? op[list.key] : undefined;
    if (!list || !Array.isArray(items) || items.length < 2) continue;
    const typed: unknown[] = new Array(items.length);
    for (let j = 0; j < items.length; j++) {
      const item = list.item.safeParse(items[j]);
      if (!item.success) return undefined;
      typed[j] = item.data;
    }
    typedLists[i] = typed;
  }
  r.data.operations.forEach((op, i) => {
    const typed = typedLists[i];
    const list = listOf(op);
    if (typed && list) (op as unknown as Record<string, unknown>)[list.key] = typed;
  });
  return r.data;
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

/** Operations plus the entries of their validated lists (stops counting past the whole-first bound). */
function entryCount(ops: readonly unknown[], max: number): number {
  let n = ops.length;
  for (let i = 0; i < ops.length && n <= max; i++) {
    const op = ops[i];
    const list = listOf(op);
    const items = list && isRecord(op) ? op[list.key] : undefined;
    if (Array.isArray(items)) n += items.length;
  }
  return n;
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

function issuesOf(schema: z.ZodType, value: unknown): Issue[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues;
}

function prefixed(issue: Issue, prefix: PropertyKey[]): Issue {
  return { ...issue, path: [...prefix, ...issue.path] } as Issue;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
