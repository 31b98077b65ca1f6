/**
 * The analysis every face uses (editor, CLI, export, dashboard): parse -> offline rules -> live data ->
 * preparation -> live rules. Returns findings sorted by offset; never throws on bad input or a bad service.
 */
import type { DlmmApi } from '../api/types';
import type { Finding, Severity } from './diagnostics';
import { createLiveSession, readLive, type LiveData, type LiveSession } from './live';
import { parsePlan, type ParsedPlan } from './parse';
import { prepareOperations } from './prepare';
import type { PreparedOperation } from './prepared';
import { RULES, type Rule, type RuleContext } from './rules/index';
import type { Plan } from './schema';

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
}

export interface Analysis {
  text: string;
  parsed: ParsedPlan;
  plan: Plan | undefined;
  /** Sorted by offset, then severity. */
  findings: Finding[];
  prepared: PreparedOperation[];
  /** What was read (status, pools, bins, tokens, positions by pool); undefined offline. */
  live: LiveData | undefined;
  /** Rules that threw (a bug, never bad input): kept out of findings, visible to tests and logs. */
  internalErrors: string[];
}

/** Parse + offline rules, synchronously (keystroke speed). */
export function analyzeOffline(
  text: string,
  opts: Pick<AnalyzeOptions, 'fileName' | 'maxTipLag'> = {},
): Analysis {
  const parsed = safeParse(text, opts.fileName);
  const analysis = emptyAnalysis(text, parsed);
  if (!parsed.plan) return analysis;
  analysis.prepared = safePrepare(parsed.plan, undefined, parsed, analysis.internalErrors);
  runRules(analysis, parsed.plan, undefined, opts.maxTipLag);
  return finish(analysis);
}

/** The full analysis: offline rules, then live data through `opts.api` and the live rules. */
export async function analyzePlan(text: string, opts: AnalyzeOptions = {}): Promise<Analysis> {
  if (opts.offline || !opts.api) return analyzeOffline(text, opts);
  const parsed = opts.parsed ?? safeParse(text, opts.fileName);
  const analysis = emptyAnalysis(text, parsed);
  const plan = parsed.plan;
  if (!plan) return analysis;
  try {
    analysis.live = await readLive(plan, opts.api, { session: opts.session ?? createLiveSession() });
  } catch (e) {
    analysis.internalErrors.push(`live: ${e instanceof Error ? e.message : String(e)}`);
  }
  analysis.prepared = safePrepare(plan, analysis.live, parsed, analysis.internalErrors);
  runRules(analysis, plan, analysis.live, opts.maxTipLag);
  return finish(analysis);
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

function runRules(
  analysis: Analysis,
  plan: Plan,
  live: LiveData | undefined,
  maxTipLag: number | undefined,
): void {
  const ctx: RuleContext = {
    parsed: analysis.parsed,
    plan,
    live,
    prepared: analysis.prepared,
    maxTipLag: maxTipLag ?? plan.policy.max_tip_lag,
  };
  for (const rule of RULES) {
    if (rule.needsLive && !live) continue;
    analysis.findings.push(...runRule(rule, ctx, analysis.internalErrors));
  }
}

function runRule(rule: Rule, ctx: RuleContext, errors: string[]): Finding[] {
  try {
    return rule.run(ctx);
  } catch (e) {
    errors.push(`${rule.code}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function finish(analysis: Analysis): Analysis {
  const seen = new Set<string>();
  analysis.findings = analysis.findings
    .filter((f) => {
      const key = `${f.code}|${f.offset}|${f.length}|${f.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(
      (a, b) =>
        a.offset - b.offset ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        a.code.localeCompare(b.code),
    );
  return analysis;
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
