/**
 * Editor export of unsigned transactions ("DLMM: Export Unsigned Transactions", `dlmm.exportUnsigned`) and
 * of a dashboard quote as a swap plan (`dlmm.exportSwap`, which hands that plan to `dlmm.exportUnsigned`).
 * Registration only: the command's code (core/tx and the analyzer) is loaded on first use, so activation
 * stays small. The summary preview is a read-only plain-text virtual document (no "save changes?" prompt
 * on close), opened full width.
 */
import * as vscode from 'vscode';
import type { DlmmApi } from '../../../core/api/types';

/** Command id (contributed in package.json; lenses may pass `(uri: string, opId?: string)`). */
export const EXPORT_UNSIGNED_COMMAND = 'dlmm.exportUnsigned';
/** Dashboard "Export swap": `({input_token, output_token, amount_in, slippage_tolerance})`, not in the palette. */
export const EXPORT_SWAP_COMMAND = 'dlmm.exportSwap';
/** Scheme of the read-only summary previews. */
export const EXPORT_PREVIEW_SCHEME = 'dlmm-export';

/** The active plan as the host sees it (defaults to the active text editor). */
export interface ActivePlan {
  uri: vscode.Uri;
  /** Current text, unsaved edits included. */
  text: string;
  /** Cursor offset, when the plan is in the active editor. */
  cursorOffset?: number;
}

/** What the export needs from the extension host. */
export interface ExportDeps {
  /** The configured engine's client, or undefined after telling the user how to configure one. */
  getApi(): Promise<DlmmApi | undefined>;
  /** Overrides policy.max_tip_lag (the dlmm.maxTipLag setting), when set. */
  getMaxTipLag?(): number | undefined;
  /** Active plan; default: the active editor's document when it is a plan file. */
  getActivePlan?(): ActivePlan | undefined;
  log?(line: string): void;
}

/** The plan and operation a preview was exported from (for its "Send to Wallet" title button). */
export interface PreviewSource {
  uri: string;
  opId?: string;
}

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
    vscode.commands.registerCommand(EXPORT_UNSIGNED_COMMAND, async (...args: unknown[]) => {
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
