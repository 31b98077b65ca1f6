/**
 * Report formats of `dlmm check` (docs/cli.md): compiler-style text and the one-document JSON.
 * Offsets become zero-based line/character here, once, at the edge (LineIndex).
 */
import type { Analysis } from '../../core/check/analyze';
import { checkedLive, countBySeverity } from '../../core/check/analyze';
import type { Finding } from '../../core/plan/diagnostics';
import { LineIndex, type LineRange } from '../../core/plan/lineIndex';

/**
 * What a report keeps of one checked file: its findings, located, and whether every live rule ran. A batch
 * check reduces each analysis to this as soon as it is done (checkedFile) and drops the rest (the text, the
 * live data, the prepared operations, the execution), so its memory does not grow with the plans' analyses.
 */
export interface CheckedFile {
  /** As shown to the user (relative to the working directory, forward slashes). */
  path: string;
  /** Every live rule ran on data read from the service (core/check/analyze.ts checkedLive). */
  live: boolean;
  /** The analysis's findings in its order, each with its line range. */
  findings: LocatedFinding[];
}

export type LocatedFinding = Finding & { range: LineRange };

/** The report entry of an analysis (`live` absent: offline, or a file that could not be checked). */
export function checkedFile(
  path: string,
  analysis: Pick<Analysis, 'text' | 'findings'> & Partial<Pick<Analysis, 'live'>>,
): CheckedFile {
  return { path, live: checkedLive(analysis), findings: locate(analysis.text, analysis.findings) };
}

interface JsonDiagnostic {
  code: string;
  severity: string;
  message: string;
  range: LineRange;
  operation?: string;
}

export interface JsonReport {
  version: 1;
  /** `live`: every live rule ran on data read from the service (core/check/analyze.ts checkedLive). */
  files: Array<{ path: string; live: boolean; diagnostics: JsonDiagnostic[] }>;
  summary: { errors: number; warnings: number; infos: number };
}

/** Findings with their line ranges, computed once per file. */
export function locate(text: string, findings: readonly Finding[]): LocatedFinding[] {
  const index = new LineIndex(text);
  return findings.map((f) => ({ ...f, range: index.rangeOf(f.offset, f.length) }));
}

/** Every finding of the files, for the summary counts. */
const allFindings = (files: readonly CheckedFile[]): Finding[] => files.flatMap((f) => f.findings);

/** The JSON document of `dlmm check --format json`. */
export function toJsonReport(files: readonly CheckedFile[]): JsonReport {
  const out = files.map((file) => ({
    path: file.path,
    live: file.live,
    diagnostics: file.findings.map((f) => {
      const d: JsonDiagnostic = { code: f.code, severity: f.severity, message: f.message, range: f.range };
      if (f.operation !== undefined) d.operation = f.operation;
      return d;
    }),
  }));
  return { version: 1, files: out, summary: countBySeverity(allFindings(files)) };
}

/** Compiler-style lines `path:line:col severity code message` (1-based for people) and a summary line. */
export function toTextReport(files: readonly CheckedFile[]): string {
  const lines: string[] = [];
  for (const file of files) {
    for (const f of file.findings) {
      lines.push(
        `${file.path}:${f.range.start.line + 1}:${f.range.start.character + 1} ${f.severity} ${f.code} ${f.message}`,
      );
    }
  }
  const s = countBySeverity(allFindings(files));
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(files.length, 'file')} checked: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`,
  );
  return lines.join('\n') + '\n';
}
