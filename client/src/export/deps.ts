/**
 * What the export commands share: their ids and what they need from the extension host (apart from
 * index.ts, which loads the commands' code on first use, so the commands can name these without a circle).
 */
import type * as vscode from 'vscode';
import type { DlmmApi } from '../../../core/api/types';

/** Dashboard "Export swap": `({input_token, output_token, amount_in, slippage_tolerance})`, not in the palette. */
export const EXPORT_SWAP_COMMAND = 'dlmm.exportSwap';
/** Scheme of the read-only summary previews. */
export const EXPORT_PREVIEW_SCHEME = 'dlmm-export';

/** The plan an export acts on. */
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
  maxTipLag?(): number | undefined;
  log?(line: string): void;
}

/** The plan and operation a preview was exported from (for its "Send to Wallet" title button). */
export interface PreviewSource {
  uri: string;
  opId?: string;
}
