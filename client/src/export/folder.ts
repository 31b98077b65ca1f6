/**
 * Where editor exports are written: the folder the user chose once (`dlmm.export.folder`, relative to the
 * plan's workspace folder), else beside the plan. The folder is created when missing.
 */
import * as vscode from 'vscode';
import { posix } from 'node:path';
import { readConfig } from '../settings';

/**
 * The folder an export of `plan` goes to: `dlmm.export.folder` inside the plan's workspace folder when set
 * (created if missing), else the plan's own folder; undefined for an untitled plan with no folder set.
 */
export async function exportFolderFor(plan: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  const chosen = readConfig(plan ?? null).config.export.folder;
  const workspace =
    (plan && vscode.workspace.getWorkspaceFolder(plan)?.uri) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  if (chosen && workspace) {
    const folder = vscode.Uri.joinPath(workspace, chosen);
    await vscode.workspace.fs.createDirectory(folder);
    return folder;
  }
  if (!plan || plan.scheme === 'untitled') return undefined;
  return plan.with({ path: posix.dirname(plan.path), query: '', fragment: '' });
}
