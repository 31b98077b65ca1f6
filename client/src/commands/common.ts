/** What every command receives, and the small helpers they share (progress, errors, engine check). */
import * as vscode from 'vscode';
import { isApiError } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { ClientCommands } from '../../../protocol/messages';
import type { ClientEngine } from '../apiClient';
import { notify } from '../notify';

export interface CommandDeps {
  engine: ClientEngine;
  log(line: string): void;
}

/** The engine's API client, or undefined after telling the user how to configure one. */
export async function requireApi(deps: CommandDeps): Promise<DlmmApi | undefined> {
  const api = deps.engine.get();
  if (api) return api;
  const pick = await notify.warn(
    'DLMM: no engine is configured (dlmm.environment is "custom" without dlmm.apiUrl, or "simulator" before it started).',
    'Start Simulator',
    'Open Settings',
  );
  if (pick === 'Start Simulator') {
    await vscode.commands.executeCommand(ClientCommands.startSimulator);
    return deps.engine.get();
  }
  if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'dlmm.');
  return undefined;
}

/**
 * Runs work with its progress in the status bar, which ends exactly when the work ends, success or failure.
 * Not a notification: VS Code keeps a progress notification up at least 800 ms after it starts, so a fast
 * read or build left "reading…" over the result it had already shown.
 */
export function withReadProgress<T>(title: string, f: () => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, () => f()),
  );
}

/**
 * A quick pick shown at once and busy (VS Code's progress bar inside the picker) while `load` reads what it
 * lists, instead of a notification that could outlive the read: the picked item, or undefined when the
 * user dismisses it. A failed read closes the picker and rejects with the read's error.
 */
export function pickWhileLoading<T extends vscode.QuickPickItem>(
  opts: { title: string; loadingPlaceholder: string; placeholder: string; matchOnDescription?: boolean },
  load: () => Promise<{ items: T[]; title?: string }>,
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const qp = vscode.window.createQuickPick<T>();
    qp.title = opts.title;
    qp.placeholder = opts.loadingPlaceholder;
    qp.matchOnDescription = opts.matchOnDescription ?? false;
    qp.ignoreFocusOut = true;
    qp.busy = true;
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      f();
      qp.dispose();
    };
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0];
      if (picked) settle(() => resolve(picked));
    });
    qp.onDidHide(() => settle(() => resolve(undefined)));
    qp.show();
    load().then(
      ({ items, title }) => {
        if (settled) return;
        qp.items = items;
        if (title) qp.title = title;
        qp.placeholder = opts.placeholder;
        qp.busy = false;
      },
      (e: unknown) => settle(() => reject(e)),
    );
  });
}

/**
 * The first of the names `name(1)`, `name(2)`, … (at most `attempts`) in `folder` (none: the root of an
 * untitled path) that is neither a file nor an open document, so nothing is ever overwritten; undefined
 * when every one is taken.
 */
export async function firstFreeUri(
  folder: vscode.Uri | undefined,
  name: (attempt: number) => string,
  attempts: number,
): Promise<vscode.Uri | undefined> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const candidate = folder
      ? vscode.Uri.joinPath(folder, name(attempt))
      : vscode.Uri.file(`/${name(attempt)}`);
    const exists = await vscode.workspace.fs.stat(candidate).then(
      () => true,
      () => false,
    );
    if (!exists && !vscode.workspace.textDocuments.some((d) => d.uri.path === candidate.path))
      return candidate;
  }
  return undefined;
}

/** An error in words for a message (ApiError keeps its code and endpoint; never a key). */
export function describeError(e: unknown): string {
  if (isApiError(e)) return `${e.message} [${e.code}, ${e.context.endpoint}]`;
  return e instanceof Error ? e.message : String(e);
}
