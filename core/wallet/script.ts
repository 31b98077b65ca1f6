/**
 * The wallet page's browser script (dist/wallet-page.js, built by esbuild.mjs from
 * webview/src/wallet/page.ts). The bundled faces (dist/cli.js, dist/client.js) find it beside themselves;
 * from sources (tests under tsx) it is read from the repository's dist/.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const CANDIDATES = [join(__dirname, 'wallet-page.js'), join(__dirname, '..', '..', 'dist', 'wallet-page.js')];

/** The script's text; a clear error when the build did not produce it. */
export async function loadWalletPageScript(): Promise<string> {
  for (const file of CANDIDATES) {
    try {
      return await readFile(file, 'utf8');
    } catch {
      // try the next place
    }
  }
  throw new Error(
    `the wallet page script is missing (looked for ${CANDIDATES.join(', ')}); run npm run build`,
  );
}
