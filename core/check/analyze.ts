/**
 * The analysis every face uses (editor, CLI, export, dashboard): parse -> offline rules -> live data ->
 * preparation -> live rules. Returns findings sorted by offset; never throws on bad input or a bad service.
 */
import { cancelledError } from '../api/errors';
import type { DlmmApi } from '../api/types';
import {
  DIAGNOSTIC_CODES,
  LIVE_UNAVAILABLE,
  MAX_FINDINGS_PER_FILE,
  MAX_MESSAGE_LENGTH,
  type DiagnosticCode,
  type Finding,
  type Severity,
} from '../plan/diagnostics';
import { fileRange } from './rules/rule';
import type { PlanExecution } from './execute';
import { createLiveSession, readLive, type LiveData, type LiveSession } from '../live/live';
import { routerConfigFor, type RouterOverrides } from '../chain/deployments';
import { parsePlan, type ParsedPlan } from '../plan/parse';
import { partialPlan, type PartialPlan } from '../plan/partial';
import { prepareOperations } from '../prepare/prepare';
import type { PreparedOperation } from '../prepare/prepared';
import { RULES, type Rule, type RuleContext } from './rules/index';
import type { Plan } from '../plan/schema';
import { uncheckedOperationFindings } from './unchecked';
import { liveUncheckedFinding } from './rules/live-unchecked';
import { withTokenPrincipals } from './tokenNames';

export interface AnalyzeOptions {
  api?: DlmmApi;
  /** Skip live data even when an api is given. */
  offline?: boolean;
  /** Overrides policy.max_tip_lag (CLI --max-tip-lag, editor setting). */
  maxTipLag?: number;
  /** Picks the format (`*.dlmm.json` is JSON) and names the file in messages. */
  fileName?: string;
  /** Shares reads across analyses (one `dlmm check` run, one editor refresh). */
  session?: LiveSession;
  /** The parse of this very text when the caller already has it (the editor's offline pass): not redone. */
  parsed?: ParsedPlan;
  /** Router contracts per network for executing the plan (the export's configuration). */
  routers?: RouterOverrides;
  /**
   * false: the plan's transactions are not executed again after a 1-bin shift of each strict pool's active
   * bin, so `strict-drift-risk` (an info) is not reported: for a caller that shows no infos (the export).
   */
  driftRisk?: boolean;
  /** Clock in ms (v-1-2 deadlines of the executed transactions). */
  now?: () => number;
  /**
   * The caller no longer wants this analysis (its document was closed or edited): the live reads it alone
   * waits for are abandoned and analyzePlan rejects with a 'cancelled' ApiError instead of finishing.
   */
  signal?: AbortSignal;
  /**
   * The live reads may not reach the network before this resolves (the language server's debounce): what
   * is answered from memory or disk is read at once (DlmmApi.withGate).
   */
  gate?: Promise<void>;
  /**
   * Why the live rules will not run for this analysis (checked offline by choice, no service configured),
   * in the caller's words: the analysis then carries one `live-unchecked` warning saying so, unless the
   * plan cannot be checked at all (it does not parse). Used when no live analysis follows: never for the
   * editor's offline pass before its live one.
   */
  liveSkipped?: string;
}

export interface Analysis {
  text: string;
  parsed: ParsedPlan;
  /**
   * The plan when it passed its schema. Undefined when it did not, even if its valid operations were checked
   * (core/plan/partial.ts): `prepared` then holds those operations, with their index in the document.
   */
  plan: Plan | undefined;
  /** Sorted by offset, then severity. */
  findings: Finding[];
  prepared: PreparedOperation[];
  /** What was read (status, pools, bins, tokens, positions by pool); undefined offline. */
  live: LiveData | undefined;
  /** Steps that threw (a bug, never bad input): each becomes a finding (internalErrorFindings). */
  internalErrors: string[];
  /** The plan's transactions executed on the state read (live analyses with a sender). */
  execution?: PlanExecution;
}

/** Parse + offline rules, synchronously (keystroke speed). */
export function analyzeOffline(
  text: string,
  opts: Pick<AnalyzeOptions, 'fileName' | 'maxTipLag' | 'liveSkipped'> = {},
): Analysis {
  const parsed = safeParse(text, opts.fileName);
  const analysis = emptyAnalysis(text, parsed);
  const target = checkable(analysis);
  if (!target) return withInternalErrors(analysis);
  analysis.prepared = safePrepare(target.plan, undefined, target.parsed, analysis.internalErrors);
  runRules(analysis, target, undefined, opts.maxTipLag);
  if (opts.liveSkipped !== undefined) analysis.findings.push(liveUncheckedFinding(parsed, opts.liveSkipped));
  return finish(analysis, target);
}

/**
 * The full analysis: offline rules, then live data through `opts.api` and the live rules. Rejects only
 * when `opts.signal` aborts (a 'cancelled' ApiError): a bad plan or a bad service is a finding.
 */
export async function analyzePlan(text: string, opts: AnalyzeOptions = {}): Promise<Analysis> {
  if (opts.offline || !opts.api) return analyzeOffline(text, opts);
  const parsed = opts.parsed ?? safeParse(text, opts.fileName);
  const analysis = emptyAnalysis(text, parsed);
  const target = checkable(analysis);
  if (!target) return withInternalErrors(analysis);
  const plan = target.plan;
  if (opts.signal?.aborted) throw cancelledError(opts.signal);
  try {
    const stxWrapper = routerConfigFor(plan.network, opts.routers)?.stxWrapper;
    analysis.live = await readLive(plan, opts.api, {
      session: opts.session ?? createLiveSession(),
      ...(stxWrapper !== undefined ? { stxWrapper } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.gate ? { gate: opts.gate } : {}),
    });
  } catch (e) {
    analysis.internalErrors.push(`live: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Reads that ended because the caller gave up are no data about the service: nothing is concluded.
  if (opts.signal?.aborted) throw cancelledError(opts.signal);
  // A swap token written as a symbol: its schema finding names the principal the tokens read list for it.
  analysis.findings = withTokenPrincipals(analysis.findings, parsed, analysis.live?.tokens, plan.network);
  analysis.prepared = safePrepare(plan, analysis.live, target.parsed, analysis.internalErrors);
  runRules(analysis, target, analysis.live, opts.maxTipLag);
  // The plan's transactions executed on the state read; a plan that failed its schema is red already and
  // its valid operations alone are not the plan, so it is not executed.
  if (analysis.live && !target.sourceIndex) {
    try {
      const ex = await loadExecute().executePlan(
        target.parsed,
        target.plan,
        analysis.live,
        analysis.prepared,
        analysis.findings,
        opts,
      );
      append(analysis.findings, ex.findings);
      if (ex.execution) analysis.execution = ex.execution;
    } catch (e) {
      analysis.internalErrors.push(`execute: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return finish(analysis, target);
}

/**
 * The execution (core/tx, core/chain, @stacks/transactions) is loaded on the first live analysis, so the
 * offline check (`dlmm check --offline`, the editor's keystroke pass) never loads it (esbuild.mjs bundles it
 * apart for the CLI and the language server).
 */
let executeModule: typeof import('./execute') | undefined;
// Kept once loaded: a require per analysis resolved the path again each time (0.2 ms under tsx).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadExecute = () => (executeModule ??= require('./execute') as typeof import('./execute'));

/** What the rules check: the plan, or the valid operations of a plan that failed its schema. */
interface Checkable {
  plan: Plan;
  /** The parsed document, indexed like `plan`. */
  parsed: ParsedPlan;
  /** Present for a partial plan: the source index of each of its operations. */
  sourceIndex?: number[];
  /** Present for a partial plan: the source index of the items kept in each salvaged list. */
  itemSource?: PartialPlan['itemSource'];
  policyValid: boolean;
}

function checkable(analysis: Analysis): Checkable | undefined {
  const parsed = analysis.parsed;
  if (parsed.plan) return { plan: parsed.plan, parsed, policyValid: true };
  const partial = safePartial(parsed, analysis.internalErrors);
  if (!partial) return undefined;
  append(analysis.findings, partial.findings);
  return {
    plan: partial.plan,
    parsed: partial.view,
    sourceIndex: partial.sourceIndex,
    itemSource: partial.itemSource,
    policyValid: partial.policyValid,
  };
}

function safePartial(parsed: ParsedPlan, errors: string[]): PartialPlan | undefined {
  try {
    return partialPlan(parsed);
  } catch (e) {
    errors.push(`partial: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

function safeParse(text: string, fileName: string | undefined): ParsedPlan {
  return parsePlan(
    typeof text === 'string' ? text : String(text),
    fileName === undefined ? {} : { fileName },
  );
}

function emptyAnalysis(text: string, parsed: ParsedPlan): Analysis {
  return {
    text,
    parsed,
    plan: parsed.plan,
    findings: [...parsed.findings],
    prepared: [],
    live: undefined,
    internalErrors: [],
  };
}

function safePrepare(
  plan: Plan,
  live: LiveData | undefined,
  parsed: ParsedPlan,
  errors: string[],
): PreparedOperation[] {
  try {
    return prepareOperations(plan, live, (i) => parsed.operationId(i));
  } catch (e) {
    errors.push(`prepare: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

/** Rules about the policy block: they wait for a valid policy (a partial plan's may have failed). */
const POLICY_RULES = new Set(['tip-lag', 'tip-unknown']);

function runRules(
  analysis: Analysis,
  target: Checkable,
  live: LiveData | undefined,
  maxTipLag: number | undefined,
): void {
  const plan = target.plan;
  const ctx: RuleContext = {
    parsed: target.parsed,
    plan,
    live,
    prepared: analysis.prepared,
    maxTipLag: maxTipLag ?? plan.policy.max_tip_lag,
  };
  for (const rule of RULES) {
    if (rule.needsLive && !live) continue;
    if (!target.policyValid && POLICY_RULES.has(rule.code) && maxTipLag === undefined) continue;
    append(analysis.findings, runRule(rule, ctx, analysis.internalErrors));
  }
  if (live) append(analysis.findings, uncheckedOperationFindings(ctx, analysis.findings));
}

function runRule(rule: Rule, ctx: RuleContext, errors: string[]): Finding[] {
  try {
    return rule.run(ctx);
  } catch (e) {
    errors.push(`${rule.code}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

/** A salvaged operation's prepared items with their index in the document's list (expansions keep theirs). */
function withSourceItems(p: PreparedOperation, source: readonly number[]): unknown {
  if (!('items' in p)) return undefined;
  return (p.items as { index?: number; from_distribution?: true }[]).map((item) =>
    typeof item.index === 'number' && !item.from_distribution
      ? { ...item, index: source[item.index] ?? item.index }
      : item,
  );
}

/**
 * Appends one by one: a rule may return a finding per bin (aliases let a 4 MB plan list hundreds of thousands of bins), and
 * spreading that many arguments overflows the call stack.
 */
function append(target: Finding[], items: readonly Finding[]): void {
  for (const f of items) target.push(f);
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * A check that could not run is never silence: each internal error becomes a finding that says what was not
 * checked. A rule that failed reports under its own code as an error (the plan is not known to pass it);
 * an execution that failed is `execution-unchecked` as an error (a bug, not missing data: the plan is not
 * known to execute); failing to read the live data or to prepare the
 * operations is `unexpected-response` (an error: nothing live was checked).
 */
export function internalErrorFindings(analysis: Pick<Analysis, 'parsed' | 'internalErrors'>): Finding[] {
  const at = fileRange(analysis.parsed);
  return analysis.internalErrors.map((entry) => {
    const colon = entry.indexOf(': ');
    const what = colon < 0 ? entry : entry.slice(0, colon);
    const why = colon < 0 ? '' : entry.slice(colon + 2);
    const base = { offset: at.offset, length: at.length };
    if (what === 'execute')
      return {
        ...base,
        code: 'execution-unchecked',
        severity: 'error',
        message: `the plan's transactions could not be executed on the state read (internal error: ${why}), so whether they revert is unknown; please report this`,
      };
    if (Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, what))
      return {
        ...base,
        code: what as DiagnosticCode,
        severity: 'error',
        message: `the ${what} check could not run (internal error: ${why}), so the plan is not known to pass it; please report this`,
      };
    return {
      ...base,
      code: 'unexpected-response',
      severity: 'error',
      message: `the ${what === 'live' ? 'live data could not be read' : what === 'prepare' ? 'operations could not be prepared' : `${what} step failed`} (internal error: ${why}), so the plan was not fully checked; please report this`,
    };
  });
}

/** A plan that cannot be checked further: its parse findings as they are, and any internal error of the parse. */
function withInternalErrors(analysis: Analysis): Analysis {
  append(analysis.findings, internalErrorFindings(analysis));
  return analysis;
}

function finish(analysis: Analysis, target?: Checkable): Analysis {
  append(analysis.findings, internalErrorFindings(analysis));
  // A partial plan's prepared operations go out with their index in the document, as faces expect.
  const sourceIndex = target?.sourceIndex;
  if (sourceIndex)
    analysis.prepared = analysis.prepared.map((p) => {
      const items = target?.itemSource?.get(p.index);
      const index = sourceIndex[p.index] ?? p.index;
      return items
        ? ({ ...p, index, items: withSourceItems(p, items.index) } as PreparedOperation)
        : { ...p, index };
    });
  const sorted = withoutRepeats(analysis.findings).sort(
    (a, b) =>
      a.offset - b.offset ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.code.localeCompare(b.code),
  );
  analysis.findings = capFindings(sorted).map(shortMessage);
  return analysis;
}

/**
 * The findings without repeats (same code, offset, length and message), the first of each kept. Compared
 * field by field among the few findings at one offset (a key string per finding cost 0.5 ms on a plan with
 * 300 findings); an offset holding many findings gets a set of keys, so the work stays linear.
 */
export function withoutRepeats(findings: readonly Finding[]): Finding[] {
  // The first finding at each offset; the offsets holding several get a list (and past 8 a set of keys).
  const first = new Map<number, Finding>();
  let more: Map<number, { list: Finding[]; keys?: Set<string> }> | undefined;
  const same = (f: Finding, g: Finding) =>
    g.code === f.code && g.length === f.length && g.message === f.message;
  const out: Finding[] = [];
  for (const f of findings) {
    const g = first.get(f.offset);
    if (g === undefined) first.set(f.offset, f);
    else if (same(f, g)) continue;
    else {
      more ??= new Map();
      let at = more.get(f.offset);
      if (!at) more.set(f.offset, (at = { list: [g] }));
      if (at.keys) {
        const key = `${f.code}|${f.length}|${f.message}`;
        if (at.keys.has(key)) continue;
        at.keys.add(key);
      } else {
        if (at.list.some((h) => same(f, h))) continue;
        at.list.push(f);
        if (at.list.length > 8) at.keys = new Set(at.list.map((h) => `${h.code}|${h.length}|${h.message}`));
      }
    }
    out.push(f);
  }
  return out;
}

/**
 * At most MAX_FINDINGS_PER_FILE findings, then one saying how many more (with the worst severity among
 * them, so exit codes and export refusals stay what they were).
 */
function capFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_PER_FILE + 1) return findings;
  const kept = findings.slice(0, MAX_FINDINGS_PER_FILE);
  const rest = findings.slice(MAX_FINDINGS_PER_FILE);
  const counts = countBySeverity(rest);
  const first = rest[0]!;
  const worst: Severity = counts.errors > 0 ? 'error' : counts.warnings > 0 ? 'warning' : 'info';
  kept.push({
    code: rest.find((f) => f.severity === worst)?.code ?? first.code,
    severity: worst,
    message: `and ${rest.length} more findings not listed (${counts.errors} errors, ${counts.warnings} warnings, ${counts.infos} infos); fix the ones above and check again`,
    offset: first.offset,
    length: first.length,
  });
  return kept;
}

function shortMessage(f: Finding): Finding {
  if (f.message.length <= MAX_MESSAGE_LENGTH) return f;
  return {
    ...f,
    message: `${f.message.slice(0, MAX_MESSAGE_LENGTH - 40)}… (${f.message.length} characters in all)`,
  };
}

/**
 * Whether every live rule ran on data read from the service: live data was read and no finding says part
 * of it was unavailable or not read (`LIVE_UNAVAILABLE`). `dlmm check --format json` reports it per file.
 */
export function checkedLive(analysis: Pick<Analysis, 'findings'> & Partial<Pick<Analysis, 'live'>>): boolean {
  return analysis.live !== undefined && !analysis.findings.some((f) => LIVE_UNAVAILABLE.has(f.code));
}

/** Counts per severity (CLI summary, status bar). */
export function countBySeverity(findings: readonly Finding[]): {
  errors: number;
  warnings: number;
  infos: number;
} {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}
