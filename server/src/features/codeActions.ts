/**
 * Quick fixes: the fixes core attached to each finding, offered as code actions. Nothing is computed
 * here; the edits come from the diagnostic's `data` (or, when a client drops `data`, from the current
 * analysis's finding at the same range and code).
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding } from '../../../core/plan/diagnostics';
import {
  DIAGNOSTIC_SOURCE,
  DiagnosticDataSchema,
  fixToData,
  rangeOf,
  type DiagnosticData,
} from './diagnostics';

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

function fixesFor(doc: TextDocument, d: Diagnostic, findings: readonly Finding[]): DiagnosticData['fixes'] {
  const data = DiagnosticDataSchema.safeParse(d.data);
  if (data.success && data.data.fixes) return data.data.fixes;
  const f = findings.find((x) => x.code === d.code && sameRange(rangeOf(doc, x.offset, x.length), d.range));
  return f?.fixes?.map((fix) => fixToData(doc, fix));
}

/** Code actions for the dlmm diagnostics in the request's context. */
export function codeActions(
  doc: TextDocument,
  diagnostics: readonly Diagnostic[],
  findings: readonly Finding[],
  only?: string[],
): CodeAction[] {
  if (
    only &&
    !only.some(
      (k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '',
    )
  )
    return [];
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== DIAGNOSTIC_SOURCE) continue;
    for (const fix of fixesFor(doc, d, findings) ?? []) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [doc.uri]: fix.edits } },
      });
    }
  }
  return actions;
}
