/**
 * One rule per file behind this interface (yaml-language-server's validators, rust-analyzer's diagnostics):
 * a code, its default severity, whether it needs live data, and `run(ctx)` returning findings.
 */
import type { DiagnosticCode, Finding, QuickFix, Severity, TextEdit } from '../../plan/diagnostics';
import { defaultSeverity } from '../../plan/diagnostics';
import type { ParsedPlan, PlanPath, SourceRange } from '../../plan/parse';
import type { PreparedOperation } from '../../prepare/prepared';
import type { Plan } from '../../plan/schema';
import type { LiveData, LivePool } from '../../live/live';

export interface RuleContext {
  parsed: ParsedPlan;
  plan: Plan;
  /** Undefined offline. */
  live: LiveData | undefined;
  prepared: PreparedOperation[];
  /** Effective tip-lag policy (CLI/settings override, else policy.max_tip_lag). */
  maxTipLag: number;
}

export interface Rule {
  code: DiagnosticCode;
  /** Offline rules run always; live rules only with live data. */
  needsLive: boolean;
  run(ctx: RuleContext): Finding[];
}

export interface FindingAt {
  /** Operation index (sets the finding's operation id and, with `strict`, its severity). */
  op?: number;
  path: PlanPath;
  /** Point at the key instead of the value (e.g. a list's name). */
  key?: boolean;
  /** Severity choice where docs/diagnostics.md lists two; default: strict. */
  strict?: boolean;
  severity?: Severity;
  fixes?: QuickFix[];
}

/** The index of item `j` of operation `op`'s `list` as written (a salvaged list may have left items out). */
export function itemIndex(ctx: RuleContext, op: number, list: string, j: number): number {
  const at = ctx.parsed.sourcePath(['operations', op, list, j])[3];
  return typeof at === 'number' ? at : j;
}

/** Builds a finding on the source range of `at.path` (falling back to the op, then the file's first key). */
export function finding(ctx: RuleContext, code: DiagnosticCode, at: FindingAt, message: string): Finding {
  const r =
    (at.path.length === 0 ? fileRange(ctx.parsed) : rangeFor(ctx.parsed, at.path, at.key)) ??
    (at.op !== undefined ? rangeFor(ctx.parsed, ['operations', at.op, 'op']) : undefined) ??
    fileRange(ctx.parsed);
  const f: Finding = {
    code,
    severity: at.severity ?? defaultSeverity(code, at.strict ?? true),
    message,
    offset: r.offset,
    length: r.length,
  };
  if (at.op !== undefined) f.operation = ctx.parsed.operationId(at.op);
  if (at.fixes && at.fixes.length > 0) f.fixes = at.fixes;
  return f;
}

function rangeFor(parsed: ParsedPlan, path: PlanPath, key?: boolean): SourceRange | undefined {
  return key ? parsed.keyRangeOf(path) : parsed.rangeOf(path);
}

/** Range for file-level findings: the first key of the document (`version` usually). */
export function fileRange(parsed: ParsedPlan): SourceRange {
  // By path, so a plan read by the fast reader never needs the composed yaml Document.
  const v = parsed.value;
  const firstKey = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v)[0] : undefined;
  if (firstKey !== undefined) {
    const r = parsed.keyRangeOf([firstKey]);
    if (r) return r;
  }
  return parsed.firstKeyRange() ?? { offset: 0, length: 0 };
}

/** Replaces the scalar at `path` with `value`, keeping its quoting style (JSON strings stay quoted). */
export function replaceScalar(
  parsed: ParsedPlan,
  path: PlanPath,
  value: string | number | bigint,
): TextEdit | undefined {
  const r = parsed.rangeOf(path);
  if (!r) return undefined;
  const old = parsed.text.slice(r.offset, r.offset + r.length);
  let newText = String(value);
  if (typeof value === 'string') {
    if (old.startsWith('"') || parsed.format === 'json') newText = JSON.stringify(value);
    else if (old.startsWith("'")) newText = `'${value.replace(/'/g, "''")}'`;
  }
  return { offset: r.offset, length: r.length, newText };
}

/** Renames the key at `path` (quoted in JSON). */
export function renameKey(parsed: ParsedPlan, path: PlanPath, newKey: string): TextEdit | undefined {
  const r = parsed.keyRangeOf(path);
  if (!r) return undefined;
  const old = parsed.text.slice(r.offset, r.offset + r.length);
  return {
    offset: r.offset,
    length: r.length,
    newText: old.startsWith('"') ? JSON.stringify(newKey) : newKey,
  };
}

/** Inserts `key: value` as a sibling right after the pair at `afterPath` (flow/JSON or block style). */
export function insertSibling(
  parsed: ParsedPlan,
  afterPath: PlanPath,
  key: string,
  value: string,
): TextEdit | undefined {
  const valueRange = parsed.rangeOf(afterPath);
  const keyRange = parsed.keyRangeOf(afterPath);
  if (!valueRange || !keyRange) return undefined;
  const end = valueRange.offset + valueRange.length;
  if (parsed.isFlowMap(afterPath)) {
    const text =
      parsed.format === 'json' ? `, ${JSON.stringify(key)}: ${JSON.stringify(value)}` : `, ${key}: ${value}`;
    return { offset: end, length: 0, newText: text };
  }
  const lineStart = parsed.text.lastIndexOf('\n', keyRange.offset - 1) + 1;
  const column = keyRange.offset - lineStart;
  const eol = parsed.text.indexOf('\n', end);
  const at = eol < 0 ? parsed.text.length : eol;
  // Keep any trailing comment on the line in place: insert at the end of the line.
  return { offset: at, length: 0, newText: `\n${' '.repeat(column)}${key}: ${value}` };
}

/** The live pool of a liquidity op, when live data was read. */
export function livePoolOf(ctx: RuleContext, opIndex: number): LivePool | undefined {
  const op = ctx.plan.operations[opIndex];
  if (!op || op.op === 'swap') return undefined;
  return ctx.live?.byPool.get(op.pool);
}

/** Prepared operations by plan index, built once per prepared list (rules look one up per operation). */
const preparedIndex = new WeakMap<readonly PreparedOperation[], Map<number, PreparedOperation>>();

/** The prepared operation of the plan's operation `i` (the first with that index), in constant time. */
export function preparedAt(ctx: Pick<RuleContext, 'prepared'>, i: number): PreparedOperation | undefined {
  let byIndex = preparedIndex.get(ctx.prepared);
  if (!byIndex) {
    byIndex = new Map();
    for (const p of ctx.prepared) if (!byIndex.has(p.index)) byIndex.set(p.index, p);
    preparedIndex.set(ctx.prepared, byIndex);
  }
  return byIndex.get(i);
}

/** The span of a bin list (count, lowest and highest id), computed once per list and only when asked. */
const binSpans = new WeakMap<ReadonlyMap<number, unknown>, string>();

/** `N bins, lo..hi` of a pool's bin list by id (`0 bins, none` when empty). */
export function binSpan(binById: ReadonlyMap<number, unknown>): string {
  let span = binSpans.get(binById);
  if (span === undefined) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of binById.keys()) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    span = `${binById.size} bins, ${binById.size ? `${lo}..${hi}` : 'none'}`;
    binSpans.set(binById, span);
  }
  return span;
}
