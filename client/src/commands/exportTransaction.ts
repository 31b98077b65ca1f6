/**
 * "DLMM: Export Unsigned Transaction": checks the plan live, builds the unsigned transactions with core/tx
 * (the same code as `dlmm export`) and opens the chosen format in a new editor. Nothing is signed or sent.
 */
import * as vscode from 'vscode';
import { z } from 'zod';
import { analyzePlan } from '../../../core/plan/analyze';
import { buildTransactions } from '../../../core/tx/build';
import {
  formatJson,
  formatSummary,
  formatTxHex,
  formatWalletRequest,
  type ExportFormat,
} from '../../../core/tx/formats';
import { isPlanFile } from '../../../server/src/protocol';
import { describeError, requireApi, withReadProgress, type CommandDeps } from './common';

const ArgsSchema = z.object({ uri: z.string(), operation: z.string().optional() });

const FORMATS: { label: string; format: ExportFormat; detail: string }[] = [
  { label: 'Wallet request', format: 'wallet-request', detail: 'SIP-030 stx_callContract requests (JSON)' },
  {
    label: 'Summary',
    format: 'summary',
    detail: 'for a person: positions, post-conditions in words, totals',
  },
  { label: 'JSON', format: 'json', detail: 'everything, with Clarity arguments in readable form' },
  {
    label: 'Transaction hex',
    format: 'tx-hex',
    detail: 'serialized unsigned transactions (needs public key, nonce, fee)',
  },
];

/** Exports the plan (or one operation of it, from a lens) in a format the user picks. */
export async function exportTransaction(deps: CommandDeps, args?: unknown): Promise<void> {
  const parsed = ArgsSchema.safeParse(args);
  const uri = parsed.success
    ? vscode.Uri.parse(parsed.data.uri)
    : vscode.window.activeTextEditor?.document.uri;
  if (!uri || !isPlanFile(uri.path)) {
    void vscode.window.showWarningMessage(
      'DLMM: open a plan file (*.dlmm.yaml, *.dlmm.yml or *.dlmm.json) to export it.',
    );
    return;
  }
  const api = await requireApi(deps);
  if (!api) return;
  const pick = await vscode.window.showQuickPick(FORMATS, {
    title: 'DLMM: export format (unsigned, nothing is sent)',
    ignoreFocusOut: true,
  });
  if (!pick) return;
  let signing: { publicKey: string; nonce: bigint; fee: bigint } | undefined;
  if (pick.format === 'tx-hex') {
    signing = await askSigning();
    if (!signing) return;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  try {
    const out = await withReadProgress('DLMM: checking the plan and building transactions…', async () => {
      const analysis = await analyzePlan(doc.getText(), {
        api,
        fileName: uri.path.split('/').pop() ?? 'plan.dlmm.yaml',
      });
      const opId = parsed.success ? parsed.data.operation : undefined;
      const built = await buildTransactions(analysis, {
        api,
        ...(opId !== undefined ? { opId } : {}),
        ...(signing ?? {}),
      });
      if (!built.ok) return { error: built.error.message };
      const txs = built.transactions;
      switch (pick.format) {
        case 'wallet-request':
          return { text: formatWalletRequest(txs), language: 'json' };
        case 'summary':
          return { text: formatSummary(txs), language: 'markdown' };
        case 'json':
          return { text: await formatJson(txs, signing), language: 'json' };
        case 'tx-hex':
          return {
            text: await formatTxHex(txs, signing as NonNullable<typeof signing>),
            language: 'plaintext',
          };
      }
    });
    if ('error' in out) {
      void vscode.window.showErrorMessage(`DLMM: not exported: ${out.error}`);
      return;
    }
    const result = await vscode.workspace.openTextDocument({ content: out.text, language: out.language });
    await vscode.window.showTextDocument(result, { preview: false });
  } catch (e) {
    void vscode.window.showErrorMessage(`DLMM: export failed: ${describeError(e)}`);
  }
}

async function askSigning(): Promise<{ publicKey: string; nonce: bigint; fee: bigint } | undefined> {
  const publicKey = await vscode.window.showInputBox({
    title: 'Signer public key (hex)',
    prompt: "Compressed public key of the plan's sender (66 hex digits); no private key is ever asked for.",
    ignoreFocusOut: true,
    validateInput: (v) =>
      /^(0x)?[0-9a-fA-F]{66}$/.test(v.trim())
        ? undefined
        : 'Expected 66 hex digits (a compressed public key)',
  });
  if (!publicKey) return undefined;
  const nonce = await vscode.window.showInputBox({
    title: 'Nonce of the first transaction',
    ignoreFocusOut: true,
    validateInput: digits,
  });
  if (!nonce) return undefined;
  const fee = await vscode.window.showInputBox({
    title: 'Fee per transaction (micro-STX)',
    ignoreFocusOut: true,
    validateInput: digits,
  });
  if (!fee) return undefined;
  return {
    publicKey: publicKey.trim().replace(/^0x/, ''),
    nonce: BigInt(nonce.trim()),
    fee: BigInt(fee.trim()),
  };
}

function digits(v: string): string | undefined {
  return /^\d+$/.test(v.trim()) ? undefined : 'Expected a non-negative integer';
}
