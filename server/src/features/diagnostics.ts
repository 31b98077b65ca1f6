/**
 * Findings -> LSP diagnostics. The only place severities and ranges are mapped; quick fixes travel in
 * `data`, already converted to ranges of the published version, so a code action needs no re-analysis.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import * as z from 'zod';
import type { Finding, QuickFix, Severity } from '../../../core/plan/diagnostics';

export const DIAGNOSTIC_SOURCE = 'dlmm';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const zRange = z.object({
  start: z.object({ line: z.number().int(), character: z.number().int() }),
  end: z.object({ line: z.number().int(), character: z.number().int() }),
});

/** The `data` a dlmm diagnostic carries (validated when a client sends it back). */
export const DiagnosticDataSchema = z.object({
  operation: z.string().optional(),
  fixes: z
    .array(
      z.object({
        title: z.string(),
        preferred: z.boolean().optional(),
        edits: z.array(z.object({ range: zRange, newText: z.string() })),
      }),
    )
    .optional(),
});
export type DiagnosticData = z.infer<typeof DiagnosticDataSchema>;

/** {offset, length} in `doc` -> an LSP range (UTF-16, as the analysis keeps them). */
export function rangeOf(doc: TextDocument, offset: number, length: number): Range {
  return { start: doc.positionAt(offset), end: doc.positionAt(offset + Math.max(0, length)) };
}

/** A core quick fix with its edits as ranges of `doc`. */
export function fixToData(doc: TextDocument, fix: QuickFix): NonNullable<DiagnosticData['fixes']>[number] {
  return {
    title: fix.title,
    ...(fix.preferred ? { preferred: true } : {}),
    edits: fix.edits.map((e) => ({ range: rangeOf(doc, e.offset, e.length), newText: e.newText })),
  };
}

/** One finding -> one diagnostic (code, source 'dlmm', fixes in data). */
function toDiagnostic(doc: TextDocument, f: Finding): Diagnostic {
  const data: DiagnosticData = {};
  if (f.operation !== undefined) data.operation = f.operation;
  if (f.fixes?.length) data.fixes = f.fixes.map((fix) => fixToData(doc, fix));
  return {
    range: rangeOf(doc, f.offset, f.length),
    severity: SEVERITY[f.severity],
    code: f.code,
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
    data,
  };
}

/** Every finding of an analysis as diagnostics, in source order. */
export function toDiagnostics(doc: TextDocument, findings: readonly Finding[]): Diagnostic[] {
  return [...findings].sort((a, b) => a.offset - b.offset).map((f) => toDiagnostic(doc, f));
}
