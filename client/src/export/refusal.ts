/**
 * The editor's refusal message when a plan cannot be exported: a short headline for the notification and a
 * detail with one line per error finding (1-based line:column, code, operation, message), in source order.
 * Built from core/tx's ExportError; no rule is re-derived here. Pure: no vscode.
 */
import { LineIndex } from '../../../core/plan/lineIndex';
import type { ExportError } from '../../../core/tx/types';

/** At most this many findings are listed; the rest are counted. */
export const MAX_LISTED_FINDINGS = 20;

interface Refusal {
  message: string;
  detail: string;
}

/** Headline + detail for an export refusal of the plan `text`. */
export function describeRefusal(error: ExportError, text: string, planName: string): Refusal {
  const findings = error.findings.filter((f) => f.severity === 'error');
  if (findings.length === 0)
    return { message: `DLMM: ${planName} is not exported: ${error.message}`, detail: '' };
  const index = new LineIndex(text);
  const lines = findings.slice(0, MAX_LISTED_FINDINGS).map((f) => {
    const p = index.positionAt(f.offset);
    const op = f.operation !== undefined ? ` (operation ${f.operation})` : '';
    return `line ${p.line + 1}:${p.character + 1} ${f.code}${op}: ${f.message}`;
  });
  const more = findings.length - lines.length;
  if (more > 0) lines.push(`… and ${more} more; see the Problems panel`);
  return {
    message: `DLMM: ${planName} has ${findings.length} error(s) and is not exported. Fix them and export again.`,
    detail: lines.join('\n'),
  };
}
