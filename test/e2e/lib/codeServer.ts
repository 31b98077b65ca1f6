/** code-server for the e2e suite: a fresh profile, the VSIX installed offline, served on a free loopback port. */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startProcess, type Started } from './processes';

const run = promisify(execFile);
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/** The code-server entry point: $CODE_SERVER_ENTRY, else the cached install (installed by the script if absent). */
export async function codeServerEntry(): Promise<string> {
  const fromEnv = process.env.CODE_SERVER_ENTRY;
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`CODE_SERVER_ENTRY=${fromEnv} does not exist; run scripts/install-e2e-deps.sh`);
    return fromEnv;
  }
  const script = join(REPO_ROOT, 'scripts', 'install-code-server.sh');
  const { stdout } = await run('bash', [script], { timeout: 15 * 60_000, maxBuffer: 16 << 20 });
  const entry = stdout.trim().split('\n').pop() ?? '';
  if (!existsSync(entry)) throw new Error(`install-code-server.sh printed no entry point (got '${entry}')`);
  return entry;
}

/** Folders of one code-server profile. */
export interface Profile {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly configFile: string;
}

/** Creates a fresh profile under `root` with settings that keep dialogs and walkthroughs off the workbench. */
export function createProfile(root: string, settings: Record<string, unknown>): Profile {
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const base = {
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.commandCenter.enabled': false,
    'editor.hover.delay': 100,
    'files.autoSave': 'off',
  };
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...base, ...settings }, null, 2),
  );
  const configFile = join(root, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  return { userDataDir, extensionsDir, configFile };
}

/** Installs a VSIX into the profile with code-server's own CLI (offline); returns what it printed. */
export async function installExtension(entry: string, profile: Profile, vsix: string): Promise<string> {
  if (!existsSync(vsix)) throw new Error(`VSIX not found at ${vsix}: run 'npm run package' first`);
  const { stdout, stderr } = await run(
    process.execPath,
    [entry, ...profileArgs(profile), '--install-extension', vsix],
    {
      timeout: 120_000,
      maxBuffer: 16 << 20,
    },
  );
  const text = `${stdout}${stderr}`;
  if (!/successfully installed/i.test(text)) throw new Error(`code-server did not install ${vsix}:\n${text}`);
  return text;
}

/** Extension ids (publisher.name@version) installed in the profile, as code-server lists them. */
export async function listExtensions(entry: string, profile: Profile): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [entry, ...profileArgs(profile), '--list-extensions', '--show-versions'],
    {
      timeout: 60_000,
    },
  );
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
}

/** A running code-server and its URL. */
export interface RunningCodeServer {
  readonly process: Started;
  readonly url: string;
}

/** Starts code-server on 127.0.0.1 with port 0 (the OS picks a free one) and waits until it listens. */
export async function startCodeServer(
  entry: string,
  profile: Profile,
  folder: string,
  logFile: string,
): Promise<RunningCodeServer> {
  const args = [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--config',
    profile.configFile,
    ...profileArgs(profile),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    folder,
  ];
  const env = { ...process.env, CODE_SERVER_PARENT_PID: undefined, VSCODE_IPC_HOOK_CLI: undefined };
  const started = startProcess(process.execPath, args, logFile, { env, cwd: folder });
  const m = await started.waitForOutput(/HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
  return { process: started, url: m[1] ?? '' };
}

function profileArgs(profile: Profile): string[] {
  return ['--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];
}
