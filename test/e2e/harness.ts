/**
 * The e2e harness: a real VS Code (code-server) with the packaged extension installed, driven in headless
 * Chromium. One harness serves a whole run; `stop()` ends every process it started, by pid.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeBrowser, launchBrowser, type LaunchedBrowser } from './lib/browser';
import {
  REPO_ROOT,
  codeServerEntry,
  createProfile,
  installExtension,
  listExtensions,
  startCodeServer,
  type Profile,
  type RunningCodeServer,
} from './lib/codeServer';
import { stopProcess } from './lib/processes';
import { Workbench } from './lib/workbench';

export const ARTIFACTS_DIR = process.env.DLMM_E2E_ARTIFACTS ?? join(REPO_ROOT, 'test', 'e2e', 'artifacts');
export const VSIX_PATH = process.env.DLMM_VSIX ?? join(REPO_ROOT, 'dist', 'dlmm-studio.vsix');
export const EXTENSION_ID = 'dlmm-studio.dlmm-studio';

/** Everything a suite needs: the workbench, the workspace copy on disk, and what was installed. */
export interface Harness {
  readonly workbench: Workbench;
  /** A copy of examples/ that the editor opens; suites may edit files there (never the repository's). */
  readonly workspace: string;
  readonly codeServerUrl: string;
  readonly installOutput: string;
  readonly installedExtensions: string[];
  stop(): Promise<void>;
}

/** Options of a harness run. */
export interface HarnessOptions {
  /** Extra user settings; `dlmm.environment` defaults to 'simulator'. */
  readonly settings?: Record<string, unknown>;
  /** Folder copied into the workspace (default: examples/). */
  readonly examples?: string;
}

/** Starts code-server with the VSIX installed, Chromium on the workbench, and waits for the workbench. */
export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'dlmm-e2e-'));
  const workspace = join(root, 'workspace');
  const examples = opts.examples ?? join(REPO_ROOT, 'examples');
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  if (existsSync(examples)) cpSync(examples, workspace, { recursive: true });
  else mkdirSync(workspace, { recursive: true });
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err) => console.error(`e2e cleanup: ${String(err)}`));
    cleanups.length = 0;
    if (!process.env.DLMM_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  };
  try {
    const entry = await codeServerEntry();
    const profile: Profile = createProfile(join(root, 'profile'), {
      'dlmm.environment': 'simulator',
      ...opts.settings,
    });
    const installOutput = await installExtension(entry, profile, VSIX_PATH);
    const installedExtensions = await listExtensions(entry, profile);
    const server: RunningCodeServer = await startCodeServer(
      entry,
      profile,
      workspace,
      join(ARTIFACTS_DIR, 'code-server.log'),
    );
    cleanups.push(() => stopProcess(server.process));
    const launched: LaunchedBrowser = await launchBrowser();
    cleanups.push(() => closeBrowser(launched));
    const context = await launched.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const workbench = new Workbench(page, ARTIFACTS_DIR);
    await workbench.open(server.url, workspace);
    return { workbench, workspace, codeServerUrl: server.url, installOutput, installedExtensions, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Plan files in the workspace copy (names relative to it). */
export function planFiles(workspace: string): string[] {
  return readdirSync(workspace, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.dlmm\.(ya?ml|json)$/.test(f))
    .sort();
}
