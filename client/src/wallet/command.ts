/**
 * `dlmm.sendToWallet`: the plan (whole, a lens's operation, or the one under the cursor) is checked live and
 * built exactly as the export does (a plan with errors is refused), then a one-time page is served on
 * 127.0.0.1 by core/wallet and opened in the system browser through `asExternalUri` + `openExternal`, so
 * remote and code-server setups reach it through their forwarding. The page hands each transaction to the
 * user's own SIP-030 wallet; every answer is printed in the "DLMM Wallet" output as it arrives, and at the
 * end the answers are written beside the plan and opened. Nothing is signed or sent by the extension.
 */
import { basename, dirname, posix } from 'node:path';
import * as vscode from 'vscode';
import { answersFileName, writeAnswersFile } from '../../../core/wallet/answersFile';
import type { BuiltTransaction } from '../../../core/tx/types';
import { allAnswered, answerLine, answersDocument } from '../../../core/wallet/answers';
import { loadWalletPageScript } from '../../../core/wallet/script';
import { startWalletSession, type WalletSession } from '../../../core/wallet/session';
import { parseExportArgs, type ExportTarget } from '../export/args';
import { checkAndBuild, planAndScope } from '../export/command';
import type { ExportDeps } from '../export/deps';
import { notify, reportingFailure } from '../notify';
import { userText } from '../userText';

export interface WalletDeps extends ExportDeps {
  /** The plan and operation an export preview document was made from (its editor title button). */
  previewSource?(uri: vscode.Uri): { uri: string; opId?: string } | undefined;
}

interface WalletCommandContext extends WalletDeps {
  output: vscode.OutputChannel;
  sessions: Set<{ close(): Promise<unknown> }>;
}

/** Runs the command; every failure ends in a message, never a thrown error. */
export function sendToWallet(ctx: WalletCommandContext, args: readonly unknown[]): Promise<void> {
  return reportingFailure(ctx, 'send to wallet', () => run(ctx, args));
}

/** The target: a lens/command argument, an export preview's source, or the active plan. */
function targetOf(ctx: WalletCommandContext, args: readonly unknown[]): ExportTarget {
  const first = args[0];
  if (first instanceof vscode.Uri && ctx.previewSource) {
    const src = ctx.previewSource(first);
    if (src) return src;
  }
  return parseExportArgs(args);
}

async function run(ctx: WalletCommandContext, args: readonly unknown[]): Promise<void> {
  const prepared = preparedOf(args[0]);
  if (prepared) {
    await handOver(ctx, prepared.transactions, prepared.sender, prepared.name, undefined, undefined);
    return;
  }
  const found = await planAndScope(targetOf(ctx, args), 'send its transactions to your wallet');
  if (!found) return;
  const { plan, name, opId } = found;
  const built = await checkAndBuild(ctx, plan, name, opId);
  if (!built) return;
  const { analysis, outcome } = built;
  const sender = analysis.plan?.sender;
  if (!sender) {
    void notify.error(
      "DLMM: the plan names no sender; add `sender:` (the wallet's account is checked against it).",
    );
    return;
  }
  const txs = outcome.transactions;
  for (const f of outcome.findings)
    ctx.log?.(`send to wallet ${name}: ${f.severity} ${f.code}: ${f.message}`);
  await handOver(ctx, txs, sender, name, opId, plan.uri);
}

/**
 * Transactions already checked and built elsewhere (Get Quote's core swap API route: core/tx/coreSwapExport.ts),
 * passed in-process as the command's argument.
 */
function preparedOf(
  arg: unknown,
): { transactions: BuiltTransaction[]; sender: string; name: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as { transactions?: unknown; sender?: unknown; name?: unknown };
  if (!Array.isArray(a.transactions) || a.transactions.length === 0) return undefined;
  if (typeof a.sender !== 'string' || typeof a.name !== 'string') return undefined;
  if (!a.transactions.every((t) => typeof t === 'object' && t !== null && 'functionArgs' in t))
    return undefined;
  return { transactions: a.transactions as BuiltTransaction[], sender: a.sender, name: a.name };
}

/** The one-time page for `txs`; answers to the "DLMM Wallet" output and beside `besideOf` (or untitled). */
async function handOver(
  ctx: WalletCommandContext,
  txs: BuiltTransaction[],
  sender: string,
  name: string,
  opId: string | undefined,
  besideOf: vscode.Uri | undefined,
): Promise<void> {
  const out = ctx.output;
  const s: WalletSession = await startWalletSession({
    transactions: txs,
    sender,
    plan: name,
    script: await loadWalletPageScript(),
    onAnswer: (a, labels) => out.appendLine(userText(answerLine(a, labels))),
  });
  ctx.sessions.add(s);
  try {
    const external = await externalUrl(s.url);
    // The page answers only at its own address: also the one the browser is given, when the editor maps it
    // (code-server's /proxy/PORT/ keeps the browser's Host and Origin; a remote's forwarded port).
    s.allowExternal(external.toString(true));
    out.appendLine(
      userText(
        `${name}${opId === undefined ? '' : ` operation ${opId}`}: ${txs.length} transaction(s) for ${sender}; open ${external.toString(true)}`,
      ),
    );
    const opened = await vscode.env.openExternal(external);
    if (!opened) {
      out.show(true);
      void notify.warn(
        'DLMM: no browser was opened; open the address shown in the "DLMM Wallet" output in the browser where your wallet is.',
      );
    }
    const ended = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `DLMM: ${txs.length} transaction(s) wait for your wallet in the browser page; approve or reject them there`,
        cancellable: true,
      },
      (_p, token) => {
        token.onCancellationRequested(() => void s.close());
        return s.done;
      },
    );
    const answers = ended.answers;
    if (answers.length === 0) {
      void notify.info(
        `DLMM: the wallet page ${ended.end === 'timeout' ? 'timed out' : 'was closed'} without an answer; nothing was signed.`,
      );
      return;
    }
    const doc = answersDocument({
      plan: name,
      sender,
      network: txs[0]!.network,
      labels: s.labels,
      answers,
      ended: ended.end,
    });
    const body = JSON.stringify(doc, null, 2) + '\n';
    let fileName = answersFileName(name, opId);
    let shown: vscode.TextDocument | undefined;
    let notWritten: string | undefined;
    // Written beside a plan on disk; an unsaved plan, one on a file system this process cannot write as
    // files, or a failed write: shown, not written.
    if (besideOf?.scheme === 'file') {
      // The one rule of core/wallet/answersFile.ts (as `dlmm wallet`): earlier sessions kept, never through a
      // link, written atomically.
      try {
        const file = writeAnswersFile(dirname(besideOf.fsPath), basename(besideOf.fsPath), opId, doc);
        fileName = basename(file);
        shown = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      } catch (e) {
        notWritten = e instanceof Error ? e.message : String(e);
      }
    }
    shown ??= await vscode.workspace.openTextDocument({ content: body, language: 'json' });
    await vscode.window.showTextDocument(shown, { preview: false });
    const last = answerLine(answers[answers.length - 1]!, s.labels);
    const complete = allAnswered(answers, txs.length);
    const where =
      notWritten !== undefined
        ? `the answers file was not written (${notWritten}); the answers are in the editor`
        : `answers in ${fileName}`;
    const message = complete
      ? `DLMM: the wallet answered all ${txs.length} transaction(s); ${where}. Last: ${last}`
      : `DLMM: not every transaction was signed; ${where}. Last: ${last}`;
    if (complete) void notify.info(message);
    else void notify.warn(message);
  } finally {
    ctx.sessions.delete(s);
    await s.close();
  }
}

/**
 * The page's address as the user's browser reaches it. `asExternalUri` maps the loopback origin (in
 * code-server to its `/proxy/PORT/` forwarding, which does not keep the path), so the origin is mapped and
 * the token path appended to whatever base it gives.
 */
async function externalUrl(url: string): Promise<vscode.Uri> {
  const local = vscode.Uri.parse(url, true);
  const base = await vscode.env.asExternalUri(local.with({ path: '/', query: '', fragment: '' }));
  return base.with({ path: posix.join(base.path || '/', local.path) });
}
