/**
 * `dlmm.exportUnsigned`: the plan (whole, one operation from a lens argument, or the one under the cursor)
 * is checked live and built with core/tx — the same code as `dlmm export` — then written next to the plan,
 * with the summary shown beside and "Copy wallet request" on demand. Nothing is signed or sent. The only
 * thing remembered is the signer's public key, per sender.
 */
import { posix } from 'node:path';
import * as vscode from 'vscode';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { buildTransactions } from '../../../core/tx/build';
import type { ExportFormat, SigningParams } from '../../../core/tx/formats';
import type { RouterOverrides } from '../../../core/chain/deployments';
import type { ExportOutcome } from '../../../core/tx/types';
import { parseExportArgs, type ExportTarget } from './args';
import type { ActivePlan, ExportDeps, PreviewSource } from './deps';
import {
  normalizePublicKey,
  parseUnsignedInteger,
  publicKeySenderProblem,
  unsignedIntegerProblem,
} from './inputs';
import { recallPublicKey, rememberPublicKey, type KeyValueStore } from './keyMemory';
import { exportFileName, isPlanPath } from '../../../core/tx/naming';
import { renderExport } from './pipeline';
import { describeRefusal } from './refusal';
import { routersForExport } from './routers';
import { readConfig } from '../settings';
import { operationAtOffset } from './target';
import { exportFolderFor } from './folder';
import { withReadProgress } from '../commands/common';
import { notify, reportingFailure } from '../notify';
import { ClientCommands } from '../../../protocol/messages';

interface ExportCommandContext extends ExportDeps {
  /** globalState: holds only public keys, per sender. */
  store: KeyValueStore;
  showPreview(name: string, text: string, source?: PreviewSource): Promise<void>;
}

interface FormatItem extends vscode.QuickPickItem {
  format: ExportFormat;
}

const FORMAT_ITEMS: FormatItem[] = [
  {
    label: 'tx-hex',
    format: 'tx-hex',
    description: 'serialized unsigned transactions, one per line',
    detail: "For a wallet's stx_signTransaction. Asks for the signer's public key, the nonce and the fee.",
  },
  {
    label: 'wallet-request',
    format: 'wallet-request',
    description: 'SIP-030 stx_callContract requests (JSON)',
  },
  {
    label: 'summary',
    format: 'summary',
    description: 'for a person: positions, bounds, post-conditions in words, totals',
  },
  { label: 'json', format: 'json', description: 'everything, with the Clarity arguments in readable form' },
];

/** The export format the user picks for `what` (undefined: dismissed). */
export function pickExportFormat(what: string): Thenable<FormatItem | undefined> {
  return vscode.window.showQuickPick(FORMAT_ITEMS, {
    title: `DLMM: export ${what} (unsigned; nothing is sent)`,
    placeHolder: 'Export format',
    ignoreFocusOut: true,
  });
}

const baseName = (uri: vscode.Uri) => posix.basename(uri.path) || 'plan.dlmm.yaml';

/** Runs the export; every failure ends in a message, never a thrown error. */
export function exportUnsigned(ctx: ExportCommandContext, args: readonly unknown[]): Promise<void> {
  return reportingFailure(ctx, 'export', () => run(ctx, args));
}

/**
 * The plan a command acts on, its name, and the operation to act on: the target's, else (for the active
 * editor's plan) the one under the cursor when the user picks it. Undefined after telling the user to open
 * a plan, or when the user dismissed the pick.
 */
export async function planAndScope(
  target: ExportTarget,
  purpose: string,
): Promise<{ plan: ActivePlan; name: string; opId: string | undefined } | undefined> {
  const plan = await resolvePlan(target.uri);
  if (!plan) {
    void notify.warn(`DLMM: open a plan file (*.dlmm.yaml, *.dlmm.yml or *.dlmm.json) to ${purpose}.`);
    return undefined;
  }
  const name = baseName(plan.uri);
  const opId =
    target.opId !== undefined || target.uri !== undefined || plan.cursorOffset === undefined
      ? target.opId
      : await pickScope(plan.text, name, plan.cursorOffset);
  return opId === null ? undefined : { plan, name, opId };
}

/**
 * The live check and the build of an export or a wallet hand-off, under one progress notification whose
 * message says the step. One notification, not one per step: VS Code shows at most three new toasts in
 * 800 ms and drops the rest from view, so a burst of step notifications hid the next one the user needs
 * (Send to Wallet's "wait for your wallet", with its Cancel). Undefined when there is no engine, when the
 * user declined an unprotected build, or after showing why core/tx refused to build.
 */
export async function checkAndBuild(
  ctx: ExportDeps,
  plan: ActivePlan,
  name: string,
  opId: string | undefined,
): Promise<
  | {
      api: DlmmApi;
      analysis: Analysis;
      routers: RouterOverrides | undefined;
      outcome: Extract<ExportOutcome, { ok: true }>;
      allowUnprotected: boolean;
    }
  | undefined
> {
  const api = await ctx.getApi();
  if (!api) return undefined;
  // In the status bar: it ends exactly when the check and build end (a progress notification stays up
  // at least 800 ms, and was left over the export's result; client/src/commands/common.ts).
  const built = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `DLMM: ${name}` },
    async (p) => {
      p.report({ message: 'checking the plan against live data…' });
      // The live check runs on the same routers the transactions will call.
      const routers = routersForExport(plan.uri, ctx.log);
      const maxTipLag = ctx.maxTipLag?.();
      const analysis = await analyzePlan(plan.text, {
        api,
        fileName: name,
        ...(maxTipLag !== undefined ? { maxTipLag } : {}),
        ...(routers ? { routers } : {}),
      });
      p.report({ message: 'building unsigned transactions…' });
      const built = await buildConfirmingUnprotected(analysis, api, opId, routers, name);
      return built && { analysis, routers, ...built };
    },
  );
  if (!built) return undefined;
  const { outcome } = built;
  return accepted(outcome, plan.text, name) ? { api, ...built, outcome } : undefined;
}

async function run(ctx: ExportCommandContext, args: readonly unknown[]): Promise<void> {
  const found = await planAndScope(parseExportArgs(args), 'export its unsigned transactions');
  if (!found) return;
  const { plan, name, opId } = found;
  const pick = await pickExportFormat(opId === undefined ? name : `operation ${opId}`);
  if (!pick) return;
  const first = await checkAndBuild(ctx, plan, name, opId);
  if (!first) return;
  const { api, analysis, routers, allowUnprotected } = first;
  let outcome: ExportOutcome = first.outcome;

  let signing: SigningParams | undefined;
  if (pick.format === 'tx-hex') {
    signing = await askSigningFor(ctx.store, analysis.plan?.sender, analysis.plan?.network ?? 'mainnet');
    if (!signing) return;
    // Built again with the key so core/tx checks it against the sender and numbers the nonces.
    outcome = await withReadProgress('DLMM: building unsigned transactions…', () =>
      build(analysis, api, opId, routers, signing, allowUnprotected),
    );
    if (!accepted(outcome, plan.text, name)) return;
    if (analysis.plan?.sender) await rememberPublicKey(ctx.store, analysis.plan.sender, signing.publicKey);
  }
  const txs = outcome.transactions;
  for (const f of outcome.findings) ctx.log?.(`export ${name}: ${f.severity} ${f.code}: ${f.message}`);

  const fileName = exportFileName(name, opId, pick.format);
  const rendered = await renderExport(
    txs,
    pick.format,
    signing,
    `${name}${opId === undefined ? '' : ` — operation ${opId}`}: ${txs.length} unsigned transaction(s)`,
  );
  const written = await writeExport(plan.uri, fileName, rendered.body);
  // A read-only plain-text preview (.txt: no markdown word wrap splitting "74.92 USDCx"), in the editor's
  // own column rather than a narrow split.
  await ctx.showPreview(previewName(exportFileName(name, opId, 'summary')), rendered.summaryPreview, {
    uri: plan.uri.toString(),
    ...(opId !== undefined ? { opId } : {}),
  });
  if (!written) {
    // An untitled plan has no folder: show the result instead of writing it.
    await showUnsaved(rendered.body, pick.format);
  }
  const notes = outcome.findings.length > 0 ? ` (${outcome.findings.length} note(s) in the DLMM output)` : '';
  const actions = written
    ? ['Open File', 'Copy wallet request', 'Send to Wallet']
    : ['Copy wallet request', 'Send to Wallet'];
  const choice = await notify.info(
    `DLMM: ${txs.length} unsigned transaction(s) ${written ? `written to ${vscode.workspace.asRelativePath(written, false)}` : 'exported'}${notes}. Nothing was signed or sent.`,
    ...actions,
  );
  if (choice === 'Open File' && written) {
    await vscode.window.showTextDocument(written, { preview: false });
  } else if (choice === 'Send to Wallet') {
    // The same plan and scope, handed to the user's own wallet through a one-time page (client/src/wallet).
    await vscode.commands.executeCommand(
      ClientCommands.sendToWallet,
      plan.uri.toString(),
      ...(opId !== undefined ? [opId] : []),
    );
  } else if (choice === 'Copy wallet request') {
    await vscode.env.clipboard.writeText(rendered.walletRequest);
    void notify.info(`DLMM: copied ${txs.length} stx_callContract request(s) to the clipboard.`);
  }
}

/** The plan to export: the given URI (its open text wins over the disk), else the active plan. */
async function resolvePlan(uri: string | undefined): Promise<ActivePlan | undefined> {
  if (uri !== undefined) {
    let parsed: vscode.Uri;
    try {
      parsed = vscode.Uri.parse(uri, true);
    } catch {
      return undefined;
    }
    if (!isPlanPath(parsed.path)) return undefined;
    const doc = await vscode.workspace.openTextDocument(parsed);
    return { uri: parsed, text: doc.getText() };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isPlanPath(editor.document.uri.path)) return undefined;
  return {
    uri: editor.document.uri,
    text: editor.document.getText(),
    cursorOffset: editor.document.offsetAt(editor.selection.active),
  };
}

/** With the cursor in one of several operations: that operation or the whole plan (null = cancelled). */
async function pickScope(text: string, name: string, offset: number): Promise<string | undefined | null> {
  const op = operationAtOffset(text, name, offset);
  if (!op || op.count < 2) return undefined;
  const items: (vscode.QuickPickItem & { opId: string | undefined })[] = [
    { label: `Operation ${op.id}`, description: 'the operation under the cursor', opId: op.id },
    { label: 'Whole plan', description: `all ${op.count} operations, in order`, opId: undefined },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'DLMM: what to export',
    ignoreFocusOut: true,
  });
  return pick ? pick.opId : null;
}

/**
 * Builds; when a min-dlp bound cannot be computed (bounds-unknown), asks the user before building again
 * with min-dlp 1 for those bins: protection is never weakened silently. Undefined when the user declines.
 */
async function buildConfirmingUnprotected(
  analysis: Analysis,
  api: DlmmApi,
  opId: string | undefined,
  routers: RouterOverrides | undefined,
  name: string,
): Promise<{ outcome: ExportOutcome; allowUnprotected: boolean } | undefined> {
  const outcome = await build(analysis, api, opId, routers, undefined, false);
  if (outcome.ok || outcome.error.code !== 'bounds-unknown') return { outcome, allowUnprotected: false };
  const proceed = 'Export with min-dlp 1';
  const choice = await notify.warn(`DLMM: ${name}: ${outcome.error.message}`, { modal: true }, proceed);
  if (choice !== proceed) return undefined;
  return {
    outcome: await build(analysis, api, opId, routers, undefined, true),
    allowUnprotected: true,
  };
}

function build(
  analysis: Analysis,
  api: DlmmApi,
  opId: string | undefined,
  routers: RouterOverrides | undefined,
  signing?: SigningParams,
  allowUnprotected = false,
) {
  // dlmm.provider: attribution for swaps whose operation names no provider (no revenue sharing runs from it).
  const provider = readConfig(null).config.provider;
  return buildTransactions(analysis, {
    api,
    ...(provider ? { provider } : {}),
    ...(opId !== undefined ? { opId } : {}),
    ...(routers ? { routers } : {}),
    ...(signing ?? {}),
    ...(allowUnprotected ? { allowUnprotected } : {}),
  });
}

/** An export's text in a new unsaved document of the format's language. */
export async function showUnsaved(body: string, format: ExportFormat): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({
    content: body,
    language: format === 'summary' ? 'markdown' : format === 'tx-hex' ? 'plaintext' : 'json',
  });
  await vscode.window.showTextDocument(doc, { preview: false });
}

/** True when core/tx built the transactions; otherwise shows the refusal (findings listed) and is false. */
function accepted(
  outcome: ExportOutcome,
  text: string,
  name: string,
): outcome is Extract<ExportOutcome, { ok: true }> {
  if (outcome.ok) return true;
  const r = describeRefusal(outcome.error, text, name);
  void notify.error(r.message, { modal: r.detail !== '', detail: r.detail });
  return false;
}

/** The signer's public key (checked against `sender`), the nonce and the fee, asked one after the other. */
export async function askSigningFor(
  store: KeyValueStore,
  sender: string | undefined,
  network: 'mainnet' | 'testnet',
): Promise<SigningParams | undefined> {
  const remembered = recallPublicKey(store, sender);
  const publicKey = await vscode.window.showInputBox({
    title: 'DLMM export (1/3): signer public key',
    prompt: `Compressed public key (33 bytes, hex) of ${sender ?? "the plan's sender"}. No private key is ever asked for.`,
    ...(remembered ? { value: remembered } : {}),
    ignoreFocusOut: true,
    validateInput: (v) => publicKeySenderProblem(v, sender, network),
  });
  if (publicKey === undefined) return undefined;
  const nonce = await vscode.window.showInputBox({
    title: 'DLMM export (2/3): nonce of the first transaction',
    prompt: "The sender's next account nonce; later transactions take the following nonces.",
    ignoreFocusOut: true,
    validateInput: (v) => unsignedIntegerProblem(v, 'nonce'),
  });
  if (nonce === undefined) return undefined;
  const fee = await vscode.window.showInputBox({
    title: 'DLMM export (3/3): fee per transaction',
    prompt: 'In micro-STX (1 STX = 1000000).',
    ignoreFocusOut: true,
    validateInput: (v) => unsignedIntegerProblem(v, 'fee'),
  });
  if (fee === undefined) return undefined;
  return {
    publicKey: normalizePublicKey(publicKey),
    nonce: parseUnsignedInteger(nonce, 'nonce'),
    fee: parseUnsignedInteger(fee, 'fee'),
  };
}

/**
 * Writes the export in the folder chosen once (`dlmm.export.folder`), else beside the plan; undefined when
 * there is neither (an untitled plan and no folder set).
 */
async function writeExport(
  plan: vscode.Uri,
  fileName: string,
  body: string,
): Promise<vscode.Uri | undefined> {
  const folder = await exportFolderFor(plan);
  if (!folder) return undefined;
  const target = vscode.Uri.joinPath(folder, fileName);
  await vscode.workspace.fs.writeFile(target, Buffer.from(body, 'utf8'));
  return target;
}

/** The preview's name: the summary file's, as plain text ("plan.all.summary.txt"). */
function previewName(summaryFile: string): string {
  return summaryFile.replace(/\.md$/, '') + '.txt';
}
