/**
 * Quick fixes: the fixes core attached to each finding, offered as code actions. Nothing is computed
 * here; the edits come from the diagnostic's `data` (or, when a client drops `data`, from the current
 * analysis's finding at the same range and code).
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { EditorAnalysis } from '../planService';
import type { Finding } from '../../../core/plan/diagnostics';
import { expandIntoBinsFix } from '../../../core/prepare/distributionEdits';
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

/** Refactors offered where the cursor is, whatever the diagnostics: "Expand into bins" on a distribution. */
function refactors(doc: TextDocument, analysis: EditorAnalysis, range: Range): CodeAction[] {
  const start = doc.offsetAt(range.start);
  const end = doc.offsetAt(range.end);
  const out: CodeAction[] = [];
  for (const p of analysis.prepared) {
    if (p.op !== 'add' || !p.distribution) continue;
    const key = analysis.parsed.keyRangeOf(['operations', p.index, 'distribution']);
    const value = analysis.parsed.rangeOf(['operations', p.index, 'distribution']);
    if (!key || !value) continue;
    if (end < key.offset || start > value.offset + value.length) continue;
    const fix = expandIntoBinsFix(analysis.parsed, p);
    if (!fix) continue;
    const data = fixToData(doc, fix);
    out.push({
      title: fix.title,
      kind: CodeActionKind.RefactorRewrite,
      edit: { changes: { [doc.uri]: data.edits } },
    });
  }
  return out;
}

const wants = (only: string[] | undefined, kind: string): boolean =>
  !only || only.some((k) => k === kind || kind.startsWith(k + '.') || k === '');

/** Code actions for the dlmm diagnostics in the request's context, and the refactors at its range. */
export function codeActions(
  doc: TextDocument,
  diagnostics: readonly Diagnostic[],
  findings: readonly Finding[],
  only: string[] | undefined,
  at: { analysis: EditorAnalysis; range: Range },
): CodeAction[] {
  const extra = wants(only, CodeActionKind.RefactorRewrite) ? refactors(doc, at.analysis, at.range) : [];
  if (!wants(only, CodeActionKind.QuickFix)) return extra;
  const actions: CodeAction[] = [...extra];
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
