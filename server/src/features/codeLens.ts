/**
 * Code lenses per operation: "Quote" on swaps, "Export unsigned transaction", "Send to wallet" and "Show in
 * dashboard" —
 * each only when the client said the command exists (a missing command gets no lens, never a dead one).
 */
import type { CodeLens } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ClientCommands, type OperationLensArgs, type QuoteLensArgs } from '../../../protocol/messages';
import type { AnalysisResult } from '../planService';
import { rangeOf } from './diagnostics';

/** The lenses on every operation, in order: the command, its title, and whether an error finding is named. */
const OPERATION_LENSES: ReadonlyArray<[command: string, title: string, namesErrors: boolean]> = [
  [ClientCommands.exportTransaction, 'Export unsigned transaction', true],
  [ClientCommands.sendToWallet, 'Send to wallet', true],
  [ClientCommands.showDashboard, 'Show in dashboard', false],
];

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
    const range = rangeOf(doc, r.offset, 0);
    const operation = a.parsed.operationId(index);
    if (op.op === 'swap' && commands.has(ClientCommands.getQuote)) {
      const quote: QuoteLensArgs = {
        uri: doc.uri,
        operation,
        input_token: op.input_token,
        output_token: op.output_token,
        amount_in: op.amount_in.toString(),
        ...(op.slippage_tolerance !== undefined ? { slippage_tolerance: op.slippage_tolerance } : {}),
      };
      lenses.push({
        range,
        command: { title: 'Quote', command: ClientCommands.getQuote, arguments: [quote] },
      });
    }
    const args: OperationLensArgs = { uri: doc.uri, operation };
    for (const [command, title, namesErrors] of OPERATION_LENSES) {
      if (!commands.has(command)) continue;
      const shown = namesErrors && hasErrors ? `${title} (fix errors first)` : title;
      lenses.push({ range, command: { title: shown, command, arguments: [args] } });
    }
  });
  return lenses;
}
