/**
 * `dlmm.exportSwap` (the dashboard's "Export swap"): writes the quoted swap as a one-operation plan into the
 * workspace (or an untitled document without one), opens it, and hands it to `dlmm.exportUnsigned` (or, with
 * a second argument `{then: 'wallet'}`, the quote panel's "Send to wallet", to `dlmm.sendToWallet`), so the
 * swap goes through the same live checks and refusals as any plan. Nothing is signed or sent here.
 */
import * as vscode from 'vscode';
import type { Token } from '../../../core/api/types';
import { readConfig } from '../settings';
import { ClientCommands } from '../../../protocol/messages';
import type { ExportDeps } from './deps';
import { parseExportSwapArgs, senderProblem, swapPlanFileName, swapPlanText, tokenLabel } from './swapPlan';
import { notify, reportingFailure } from '../notify';
import { exportFolderFor } from './folder';
import { firstFreeUri } from '../commands/common';

/** Names tried before giving up (the timestamp makes a clash rare; `-2`… never overwrite). */
const MAX_NAME_ATTEMPTS = 50;
/** How long the token list may take when it is only used for the file name. */
const TOKENS_TIMEOUT_MS = 5_000;

interface ExportSwapContext extends ExportDeps {
  now?(): Date;
}

/** Runs the command; every failure ends in a message, never a thrown error. */
export function exportSwap(ctx: ExportSwapContext, args: readonly unknown[]): Promise<void> {
  return reportingFailure(ctx, 'export swap', () => run(ctx, args));
}

async function run(ctx: ExportSwapContext, args: readonly unknown[]): Promise<void> {
  const parsed = parseExportSwapArgs(args);
  if (!parsed.ok) {
    ctx.log?.(`export swap: bad arguments: ${parsed.message}`);
    void notify.error(
      `DLMM: Export Swap needs {input_token, output_token, amount_in, slippage_tolerance} (use the dashboard's quote): ${parsed.message}`,
    );
    return;
  }
  const swap = parsed.value;
  const sender = await resolveSender();
  if (!sender) return;
  const api = await ctx.getApi();
  if (!api) return;

  const tokens = await withTimeout(api.tokens(), TOKENS_TIMEOUT_MS).catch((e: unknown) => {
    ctx.log?.(`export swap: token list unavailable, naming by contract: ${String(e)}`);
    return [] as Token[];
  });
  const label = (principal: string) =>
    tokenLabel(
      principal,
      tokens.find((t) => t.contract_address === principal),
    );
  const at = ctx.now?.() ?? new Date();
  const text = swapPlanText({ sender, swap, at });
  const name = (attempt: number) =>
    swapPlanFileName(label(swap.input_token), label(swap.output_token), at, attempt);

  // The export folder chosen once (dlmm.export.folder), else the workspace folder: there is no plan to sit beside.
  const folder = (await exportFolderFor(undefined)) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = folder ? await writeNewFile(folder, name, text) : await openUntitled(name(1), text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  ctx.log?.(
    `export swap: plan ${uri.toString()} (${swap.amount_in} of ${swap.input_token} -> ${swap.output_token})`,
  );
  if (!folder)
    void notify.info(
      `DLMM: no folder is open, so the swap plan is an untitled document: save it as *.dlmm.yaml to keep it.`,
    );
  const toWallet =
    typeof args[1] === 'object' && args[1] !== null && (args[1] as { then?: unknown }).then === 'wallet';
  await vscode.commands.executeCommand(
    toWallet ? ClientCommands.sendToWallet : ClientCommands.exportTransaction,
    uri.toString(),
  );
}

/** The `dlmm.dashboard.sender` setting, else the principal the user types (undefined = cancelled). */
async function resolveSender(): Promise<string | undefined> {
  const { config } = readConfig();
  const fromSetting = config.dashboard.sender;
  if (fromSetting) return fromSetting;
  const typed = await vscode.window.showInputBox({
    title: 'DLMM: Export Swap — sender',
    prompt: 'Standard principal that will sign the swap (set "dlmm.dashboard.sender" to skip this question).',
    placeHolder: 'SP…',
    ignoreFocusOut: true,
    validateInput: senderProblem,
  });
  return typed === undefined ? undefined : typed.trim();
}

/** Writes `text` to the first free name in `folder` (never over an existing or open file). */
async function writeNewFile(
  folder: vscode.Uri,
  name: (attempt: number) => string,
  text: string,
): Promise<vscode.Uri> {
  const free = await firstFreeUri(folder, name, MAX_NAME_ATTEMPTS);
  if (!free)
    throw new Error(
      `every name from ${name(1)} to ${name(MAX_NAME_ATTEMPTS)} is taken in ${folder.fsPath}; rename or remove some, then export again`,
    );
  await vscode.workspace.fs.writeFile(free, Buffer.from(text, 'utf8'));
  return free;
}

/** An untitled document named like a plan (so the language server checks it) holding `text`. */
async function openUntitled(name: string, text: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `/${name}` });
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not fill the untitled ${name}`);
  return uri;
}

/** `p`, or a rejection after `ms` (the timer is cleared either way). */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
