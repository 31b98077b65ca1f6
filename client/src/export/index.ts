/**
 * Editor export of unsigned transactions ("DLMM: Export Unsigned Transactions", `dlmm.exportUnsigned`) and
 * of a dashboard quote as a swap plan (`dlmm.exportSwap`, which hands that plan to `dlmm.exportUnsigned`).
 * Registration only: the command's code (core/tx and the analyzer) is loaded on first use, so activation
 * stays small. The summary preview is a read-only plain-text virtual document (no "save changes?" prompt
 * on close), opened full width.
 */
import * as vscode from 'vscode';

import { ClientCommands } from '../../../protocol/messages';
import { EXPORT_PREVIEW_SCHEME, EXPORT_SWAP_COMMAND, type ExportDeps, type PreviewSource } from './deps';

/** Registers `dlmm.exportUnsigned`, `dlmm.exportSwap` and the preview provider; dispose to unregister. */
export function registerExportCommands(
  context: vscode.ExtensionContext,
  deps: ExportDeps,
): vscode.Disposable & { previewSource(uri: vscode.Uri): PreviewSource | undefined } {
  const previews = new Map<string, string>();
  const sources = new Map<string, PreviewSource>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: (uri) => previews.get(uri.path) ?? '',
  };
  const showPreview = async (name: string, text: string, source?: PreviewSource): Promise<void> => {
    const uri = vscode.Uri.from({ scheme: EXPORT_PREVIEW_SCHEME, path: `/${name}` });
    previews.set(uri.path, text);
    if (source) sources.set(uri.path, source);
    else sources.delete(uri.path);
    changed.fire(uri);
    // A `.txt` path: plain text, which the editor does not word-wrap by default (markdown does, and split
    // amounts from their units); read-only: the provider owns the text. Opened in the active column, full
    // width, not a narrow split beside the plan.
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: true });
  };
  const disposable = vscode.Disposable.from(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(EXPORT_PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand(ClientCommands.exportTransaction, async (...args: unknown[]) => {
      const { exportUnsigned } = await import('./command');
      await exportUnsigned({ ...deps, store: context.globalState, showPreview }, args);
    }),
    vscode.commands.registerCommand(EXPORT_SWAP_COMMAND, async (...args: unknown[]) => {
      const { exportSwap } = await import('./swapCommand');
      await exportSwap(deps, args);
    }),
  );
  return Object.assign(disposable, {
    previewSource: (uri: vscode.Uri) =>
      uri.scheme === EXPORT_PREVIEW_SCHEME ? sources.get(uri.path) : undefined,
  });
}
