/**
 * Walkthrough step "Open an example plan": starts the simulator and opens a copy of a shipped example plan
 * (examples/*.dlmm.yaml) as an untitled plan document, so it is checked against the simulated engine
 * and the user's edits never touch the installed extension.
 */
import * as vscode from 'vscode';
import { pickExample } from './templates';
import { notify } from '../notify';

/** Opens the example next to the workspace (untitled), after `ensureSimulator`. */
export async function openExamplePlan(
  extensionUri: vscode.Uri,
  ensureSimulator: () => Promise<boolean>,
): Promise<void> {
  await ensureSimulator();
  const dir = vscode.Uri.joinPath(extensionUri, 'examples');
  const entries = await vscode.workspace.fs.readDirectory(dir).then(
    (e) => e.map(([n]) => n),
    () => [] as string[],
  );
  const name = pickExample(entries);
  if (!name) {
    void notify.error('DLMM: no example plan ships with this build (examples/*.dlmm.yaml is missing).');
    return;
  }
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, name)));
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = (folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(`/${name}`)).with({
    scheme: 'untitled',
  });
  const doc = await vscode.workspace.openTextDocument(target);
  const editor = await vscode.window.showTextDocument(doc);
  if (doc.getText().length === 0) await editor.edit((e) => e.insert(new vscode.Position(0, 0), text));
}
