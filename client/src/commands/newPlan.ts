/**
 * "DLMM: New Plan": an untitled `*.dlmm.yaml` (so the server checks it at once) filled with a snippet whose
 * pool choices are the engine's current pools (contract principals, v2's preferred form) and whose sender is
 * the configured one (`dlmm.dashboard.sender`) when set.
 */
import * as vscode from 'vscode';
import type { Pool } from '../../../core/api/types';
import { planSnippet } from './templates';
import { firstFreeUri, type CommandDeps } from './common';

/** Opens a new plan document with the snippet. */
export async function newPlan(deps: CommandDeps): Promise<void> {
  const api = deps.engine.get();
  const pools = api ? await api.pools().catch(() => [] as Pool[]) : [];
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const free = await firstFreeUri(
    folder,
    (n) => (n === 1 ? 'new-plan.dlmm.yaml' : `new-plan-${n}.dlmm.yaml`),
    99,
  );
  if (!free) return;
  const uri = free.with({ scheme: 'untitled' });
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);
  const sender =
    vscode.workspace.getConfiguration('dlmm').get<string>('dashboard.sender')?.trim() || undefined;
  await editor.insertSnippet(new vscode.SnippetString(planSnippet(pools, sender)), new vscode.Position(0, 0));
}
