/** What every command receives, and the small helpers they share (progress, errors, engine check). */
import * as vscode from 'vscode';
import { isApiError } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { ClientCommands } from '../../../server/src/protocol';
import type { ClientEngine } from '../engine';
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

/** Runs a read with a progress notification (shown by the editor only when it takes a moment). */
export function withReadProgress<T>(title: string, f: () => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: false },
      () => f(),
    ),
  );
}

/** An error in words for a message (ApiError keeps its code and endpoint; never a key). */
export function describeError(e: unknown): string {
  if (isApiError(e)) return `${e.message} [${e.code}, ${e.context.endpoint}]`;
  return e instanceof Error ? e.message : String(e);
}
