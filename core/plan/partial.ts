/**
 * A plan that fails its schema is still checked where it can be: each operation is validated on its own, and
 * the operations that pass (with the top-level fields) form a partial plan that gets every offline and live
 * rule, exactly as the same plan without the broken operations would. A broken operation is checked as far
 * as its valid parts allow (salvage): without its unknown keys, its invalid optional fields and its invalid
 * list items, when what is left is an operation of its own; it carries its schema findings besides (reported
 * by parse.ts on the whole document). With no operation left, the plan-level rules still run on the rest.
 *
 * The partial plan is indexed 0..n-1 like any plan; `view` is the parsed document seen through that indexing
 * (paths under `operations` map to the source index, and a salvaged list's items to their source index), so
 * the rules' ranges, operation ids and quick fixes land on the right text without the rules knowing.
 */
import { MAX_FINDINGS_PER_FILE, type Finding } from './diagnostics';
import { planFindings, type ParsedPlan, type PlanPath } from './parse';
import {
  fieldSchema,
  isRecord,
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
  /** Salvaged operations (by plan index) whose list lost invalid items: the source index of each kept item. */
  itemSource: Map<number, ListSource>;
}

/** The list of a salvaged operation and the source index of each item kept. */
export interface ListSource {
  key: string;
  index: number[];
}

/**
 * The checkable part of a plan whose whole-document schema failed; undefined when nothing can be checked
 * (syntax errors, no operations list, an unusable version / network / api, no valid operation).
 */
export function partialPlan(parsed: ParsedPlan): PartialPlan | undefined {
  // A plan read despite a syntax finding is one whose only fault is a repeated key (parse.ts): its value is
  // the one read, each key's last value; any other syntax finding leaves no value.
  if (parsed.plan || parsed.value === undefined) return undefined;
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  // The top level but policy and operations (validated on their own).
  const version = fieldSchema(PlanSchema, 'version').safeParse(raw.version);
  const network = fieldSchema(PlanSchema, 'network').safeParse(raw.network);
  const api = fieldSchema(PlanSchema, 'api').safeParse(raw.api);
  if (!version.success || !network.success || !api.success) return undefined;
  const ops: unknown[] = Array.isArray(raw.operations) ? raw.operations : [];
  const sender = fieldSchema(PlanSchema, 'sender').safeParse(raw.sender);
  const policy = fieldSchema(PlanSchema, 'policy').safeParse(raw.policy);
  const defaults = PolicySchema.parse({});

  const operations: PlanOperation[] = [];
  const sourceIndex: number[] = [];
  const itemSource = new Map<number, ListSource>();
  // An operation holding a repeated key is not checked: which of its values was meant is unknown.
  const repeated = new Set<number>();
  for (const f of parsed.findings) {
    const i = f.code === 'syntax' ? parsed.operationIndexAt(f.offset) : undefined;
    if (i !== undefined) repeated.add(i);
  }
  // Salvage reads each broken operation's issues again: bounded for the whole plan as the parse is.
  const budget = { issues: MAX_FINDINGS_PER_FILE };
  const salvaged = (op: unknown): Salvaged | undefined =>
    budget.issues > 0 ? salvage(op, budget) : undefined;
  ops.forEach((op: unknown, i) => {
    if (repeated.has(i)) return;
    let r: Salvaged | undefined;
    if (parsed.invalidOperations?.has(i)) r = salvaged(op);
    else {
      const whole = OperationSchema.safeParse(op);
      r = whole.success ? { op: whole.data } : salvaged(op);
    }
    if (!r) return;
    // Withdraw and move read the sender's positions: with an invalid sender they cannot be checked.
    if (!sender.success && (r.op.op === 'withdraw' || r.op.op === 'move')) return;
    if (r.items) itemSource.set(operations.length, r.items);
    operations.push(r.op);
    sourceIndex.push(i);
  });

  const plan: Plan = {
    version: version.data,
    network: network.data,
    api: api.data,
    ...(sender.success && sender.data !== undefined ? { sender: sender.data } : {}),
    policy: policy.success ? policy.data : defaults,
    operations,
  };
  const view = indexedView(parsed, sourceIndex, itemSource);
  return {
    plan,
    view,
    sourceIndex,
    policyValid: policy.success,
    findings: planFindings(view, plan),
    itemSource,
  };
}

interface Salvaged {
  op: PlanOperation;
  items?: ListSource;
}

/**
 * Most issues a broken operation is read for salvage: beyond, it is left to its schema findings. The plan's
 * salvages read at most MAX_FINDINGS_PER_FILE issues in all (a plan of thousands of broken operations).
 */
const SALVAGE_ISSUES = 200;

/**
 * Optional fields whose invalid value can be left out without changing what the rest of the operation
 * means to the rules: the operation is then checked as if the field were not written. (`mode`,
 * `withdrawal_percentage` and the withdraw's `bins` change what every other part means: never dropped.)
 */
const DROPPABLE: Record<string, ReadonlySet<string>> = {
  add: new Set(['id', 'distribution']),
  withdraw: new Set(['id']),
  move: new Set(['id']),
  swap: new Set(['id', 'amm_strategy', 'slippage_tolerance', 'provider', 'aggregator']),
};

/** The list whose invalid items a salvage may leave out (each item stands alone for the rules). */
const ITEM_LISTS: Record<string, string> = { add: 'bins', move: 'moves' };

/**
 * A broken operation as far as its valid parts allow: unknown keys removed, invalid droppable fields and
 * invalid list items left out, then validated again; undefined when what is left is not an operation (a
 * required field missing or wrong, an unknown `op`, a list emptied).
 */
function salvage(op: unknown, budget: { issues: number }): Salvaged | undefined {
  if (!isRecord(op) || typeof op.op !== 'string' || !Object.hasOwn(DROPPABLE, op.op)) return undefined;
  const r = OperationSchema.safeParse(op, SALVAGE_ISSUES);
  budget.issues -= r.success ? 1 : r.error.issues.length;
  if (r.success || r.error.issues.length >= SALVAGE_ISSUES) return undefined;
  const kind = op.op;
  const listKey = ITEM_LISTS[kind];
  const copy: Record<string, unknown> = { ...op };
  const list = listKey !== undefined && Array.isArray(op[listKey]) ? (op[listKey] as unknown[]) : undefined;
  const dropItems = new Set<number>();
  const fixedItems = new Map<number, Record<string, unknown>>();
  for (const issue of r.error.issues) {
    const [first, second] = issue.path;
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const key of issue.keys) delete copy[key];
      continue;
    }
    if (typeof first !== 'string') return undefined;
    if (first === listKey && list && typeof second === 'number') {
      // An item's unknown keys are left out of it; an item with a wrong value is left out.
      const item = list[second];
      if (issue.code === 'unrecognized_keys' && issue.path.length === 2 && isRecord(item)) {
        const kept = { ...(fixedItems.get(second) ?? item) };
        for (const key of issue.keys) delete kept[key];
        fixedItems.set(second, kept);
      } else dropItems.add(second);
      continue;
    }
    if (!DROPPABLE[kind]!.has(first) || op[first] === undefined) return undefined;
    delete copy[first];
  }
  let items: ListSource | undefined;
  if (listKey !== undefined && list && (dropItems.size > 0 || fixedItems.size > 0)) {
    const index = list.map((_, j) => j).filter((j) => !dropItems.has(j));
    if (index.length === 0) return undefined;
    copy[listKey] = index.map((j) => fixedItems.get(j) ?? list[j]);
    if (dropItems.size > 0) items = { key: listKey, index };
  }
  const again = OperationSchema.safeParse(copy);
  if (!again.success) return undefined;
  // An add left with neither bins nor a distribution adds nothing: not an operation the user wrote.
  if (again.data.op === 'add' && again.data.bins.length === 0 && !again.data.distribution) return undefined;
  return items ? { op: again.data, items } : { op: again.data };
}

/** `parsed` as seen by a plan holding only the operations at `sourceIndex`. */
function indexedView(
  parsed: ParsedPlan,
  sourceIndex: readonly number[],
  itemSource: ReadonlyMap<number, ListSource>,
): ParsedPlan {
  const toSource = (path: PlanPath): PlanPath => {
    if (path[0] !== 'operations' || typeof path[1] !== 'number') return path;
    const items = itemSource.get(path[1]);
    const op = sourceIndex[path[1]] ?? -1;
    if (items && path[2] === items.key && typeof path[3] === 'number')
      return ['operations', op, items.key, items.index[path[3]] ?? -1, ...path.slice(4)];
    return ['operations', op, ...path.slice(2)];
  };
  const view: ParsedPlan = Object.create(parsed) as ParsedPlan;
  return Object.assign(view, {
    operationCount: sourceIndex.length,
    sourcePath: toSource,
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
