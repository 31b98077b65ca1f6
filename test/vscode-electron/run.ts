/**
 * The @vscode/test-electron runner, for contributors whose machine can download VS Code. It runs
 * test/vscode-electron/suite/ inside a real VS Code desktop with this folder as the extension under
 * development. Where VS Code cannot be downloaded (offline CI), it prints one 'skipped: …' line and exits 0
 * without hanging: test/e2e (code-server in Chromium) covers the same ground there.
 * Env: DLMM_VSCODE_EXECUTABLE=path (use an installed VS Code, no download), DLMM_VSCODE_VERSION (default 1.100.3).
 */
import { lookup } from 'node:dns/promises';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { request } from 'node:https';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');
const WORK = join(ROOT, '.e2e-work', 'vscode-electron');
const VERSION = process.env.DLMM_VSCODE_VERSION ?? '1.100.3';
const DOWNLOAD_HOST = 'update.code.visualstudio.com';
const PROBE_MS = 8_000;
const RUN_LIMIT_MS = 15 * 60_000;

/** Why VS Code cannot be downloaded here, or undefined when the download server answers. */
async function cannotDownload(): Promise<string | undefined> {
  const bounded = <T>(p: Promise<T>, what: string): Promise<T> =>
    Promise.race([
      p,
      new Promise<T>((_, reject) =>
        setTimeout(() => reject(new Error(`${what} timed out after ${PROBE_MS} ms`)), PROBE_MS).unref(),
      ),
    ]);
  try {
    await bounded(lookup(DOWNLOAD_HOST), `DNS lookup of ${DOWNLOAD_HOST}`);
  } catch (err) {
    return `cannot resolve ${DOWNLOAD_HOST} (${(err as Error).message})`;
  }
  try {
    const status = await bounded(
      new Promise<number>((res, rej) => {
        const req = request(
          { host: DOWNLOAD_HOST, path: '/api/releases/stable', method: 'HEAD', timeout: PROBE_MS },
          (r) => {
            r.resume();
            res(r.statusCode ?? 0);
          },
        );
        req.on('timeout', () => req.destroy(new Error('no answer')));
        req.on('error', rej);
        req.end();
      }),
      `HTTPS request to ${DOWNLOAD_HOST}`,
    );
    return status >= 200 && status < 400 ? undefined : `${DOWNLOAD_HOST} answered HTTP ${status}`;
  } catch (err) {
    return `cannot reach ${DOWNLOAD_HOST} (${(err as Error).message})`;
  }
}

async function main(): Promise<number> {
  const executable = process.env.DLMM_VSCODE_EXECUTABLE;
  if (!executable) {
    const reason = await cannotDownload();
    if (reason) {
      console.log(
        `vscode-electron: skipped: ${reason}; VS Code ${VERSION} cannot be downloaded on this machine. The e2e suite (npm run e2e: code-server in headless Chromium) runs the extension in a real VS Code instead.`,
      );
      return 0;
    }
  }
  // Imported only now: the package resolves download metadata as soon as it runs tests.
  const { runTests } = await import('@vscode/test-electron');
  console.log('vscode-electron: building the extension and the in-editor suite');
  execFileSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(WORK, { recursive: true });
  // The bundle sits inside the repository so `mocha` resolves from its node_modules; vscode is the host's.
  await esbuild.build({
    entryPoints: [join(__dirname, 'suite', 'index.ts')],
    outfile: join(WORK, 'suite.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  const workspace = join(WORK, 'workspace');
  cpSync(join(ROOT, 'examples'), workspace, { recursive: true });
  const code = await runTests({
    version: VERSION,
    vscodeExecutablePath: executable,
    cachePath: join(WORK, 'cache'),
    timeout: 60_000,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(WORK, 'suite.js'),
    extensionTestsEnv: { DLMM_REPO_ROOT: ROOT },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  });
  return code;
}

const limit = setTimeout(() => {
  console.error(`vscode-electron: stopped after ${RUN_LIMIT_MS / 60_000} minutes`);
  process.exit(1);
}, RUN_LIMIT_MS);
limit.unref();

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`vscode-electron: failed: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
