/**
 * Code lenses per operation: "Quote" on swaps, "Export unsigned transaction", "Send to wallet" and "Show in
 * dashboard" —
 * each only when the client said the command exists (a missing command gets no lens, never a dead one).
 */
import type { CodeLens } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ClientCommands, type OperationLensArgs, type QuoteLensArgs } from '../protocol';
import type { AnalysisResult } from '../planService';
import { rangeOf } from './diagnostics';

/** Lenses for every operation of the plan. */
export function codeLenses(
  doc: TextDocument,
  result: AnalysisResult,
  commands: ReadonlySet<string>,
): CodeLens[] {
  const a = result.analysis;
  const plan = a.plan;
  if (!plan) return [];
  const lenses: CodeLens[] = [];
  const hasErrors = a.findings.some((f) => f.severity === 'error');
  plan.operations.forEach((op, index) => {
    const r = a.parsed.rangeOf(['operations', index]);
    if (!r) return;
    const start = doc.positionAt(r.offset);
    const range = rangeOf(doc, r.offset, 0);
    range.end = start;
    const operation = a.parsed.operationId(index);
    if (op.op === 'swap' && commands.has(ClientCommands.getQuote)) {
      const args: QuoteLensArgs = {
        uri: doc.uri,
        operation,
        input_token: op.input_token,
        output_token: op.output_token,
        amount_in: op.amount_in.toString(),
        ...(op.slippage_tolerance !== undefined ? { slippage_tolerance: op.slippage_tolerance } : {}),
      };
      lenses.push({
        range,
        command: { title: 'Quote', command: ClientCommands.getQuote, arguments: [args] },
      });
    }
    if (commands.has(ClientCommands.exportTransaction)) {
      const args: OperationLensArgs = { uri: doc.uri, operation };
      const title = hasErrors
        ? 'Export unsigned transaction (fix errors first)'
        : 'Export unsigned transaction';
      lenses.push({
        range,
        command: { title, command: ClientCommands.exportTransaction, arguments: [args] },
      });
    }
    if (commands.has(ClientCommands.sendToWallet)) {
      const args: OperationLensArgs = { uri: doc.uri, operation };
      const title = hasErrors ? 'Send to wallet (fix errors first)' : 'Send to wallet';
      lenses.push({
        range,
        command: { title, command: ClientCommands.sendToWallet, arguments: [args] },
      });
    }
    if (commands.has(ClientCommands.showDashboard)) {
      const args: OperationLensArgs = { uri: doc.uri, operation };
      lenses.push({
        range,
        command: { title: 'Show in dashboard', command: ClientCommands.showDashboard, arguments: [args] },
      });
    }
  });
  return lenses;
}
