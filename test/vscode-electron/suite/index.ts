/** Entry point that VS Code's extension host loads (bundled by ../run.ts): runs the in-editor tests. */
import Mocha from 'mocha';
import { registerExtensionTests } from './extension.test';

/** Called by @vscode/test-electron inside the extension host. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000 });
  mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
  registerExtensionTests();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      console.log(`vscode-electron: ${mocha.suite.total() - failures} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
  });
}
