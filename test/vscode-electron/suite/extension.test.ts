/** In a real VS Code desktop: the extension activates, its commands exist, and a plan gets the CLI's findings. */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'dlmm-studio.dlmm-studio';
const ISSUE_COMMANDS = [
  'dlmm.getQuote',
  'dlmm.showEngineStatus',
  'dlmm.setApiKey',
  'dlmm.startSimulator',
  'dlmm.newPlan',
  'dlmm.openDashboard',
];

/** Waits for `event` to make `done` true, bounded by `timeoutMs`. */
function until<T>(event: vscode.Event<T>, done: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (done()) return resolve();
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const sub = event(() => {
      if (!done()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** Registers the suite with the mocha globals set up by index.ts. */
export function registerExtensionTests(): void {
  describe('dlmm-studio in VS Code desktop', () => {
    before(async () => {
      await vscode.workspace
        .getConfiguration('dlmm')
        .update('environment', 'simulator', vscode.ConfigurationTarget.Global);
    });

    it('activates and registers the commands of the issue', async () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is not loaded`);
      await ext.activate();
      const commands = await vscode.commands.getCommands(true);
      assert.deepEqual(
        ISSUE_COMMANDS.filter((c) => !commands.includes(c)),
        [],
      );
    });

    it('reports the same findings as `dlmm check` for a plan with mistakes', async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'no workspace folder');
      const file = vscode.Uri.joinPath(folder.uri, 'mistakes', 'wrong-side.dlmm.yaml');
      const root = process.env.DLMM_REPO_ROOT ?? '';
      const out = execFileSync(
        process.execPath,
        [join(root, 'bin', 'dlmm.js'), 'check', '--sim', '--format', 'json', file.fsPath],
        {
          encoding: 'utf8',
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        },
      ).toString();
      const want = (
        JSON.parse(out) as {
          files: Array<{ diagnostics: Array<{ code: string; range: { start: { line: number } } }> }>;
        }
      ).files
        .flatMap((f) => f.diagnostics)
        .map((d) => `${d.code}@${d.range.start.line}`)
        .sort();
      await vscode.window.showTextDocument(file);
      const got = (): string[] =>
        vscode.languages
          .getDiagnostics(file)
          .map(
            (d) =>
              `${typeof d.code === 'object' ? String(d.code.value) : String(d.code)}@${d.range.start.line}`,
          )
          .sort();
      await until(
        vscode.languages.onDidChangeDiagnostics,
        () => JSON.stringify(got()) === JSON.stringify(want),
        60_000,
      ).catch(() => undefined);
      assert.deepEqual(got(), want);
    });
  });
}
