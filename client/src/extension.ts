/**
 * Extension entry: settings, secret API key, status bar, commands, the dashboard, the embedded simulator,
 * and the language client that runs dist/server.js over IPC. The server does the analysis; the client
 * maps settings and shows engine state.
 */
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  ClientCommands,
  EngineStatusNotification,
  EngineStatusRequest,
  isPlanFile,
  PLAN_FILE_GLOB,
  ProgressNotification,
  SetApiKeyNotification,
  VisibleDocumentsNotification,
  type EngineStatusParams,
  type InitializationOptions,
  type ServerSettings,
} from '../../protocol/messages';
import { setApiKey } from './commands/setApiKey';
import { showEngineStatus } from './commands/showStatus';
import { startSimulatorCommand } from './commands/startSimulator';
import { requireApi, type CommandDeps } from './commands/common';
import { registerExportCommands } from './export/index';
import { EXPORT_SWAP_COMMAND } from './export/deps';
import { registerWalletCommand } from './wallet/index';
import { registerDashboard } from './dashboard/index';
import { ClientEngine } from './apiClient';
import { readConfig } from './settings';
import { resolveServerSettings, sectionForServer, type DlmmConfig } from './settingsSchema';
import { SimulatorHost } from './simulator';
import { EngineStatusBar } from './statusBar';
import { PositionsStatusBar } from './positionsStatusBar';
import { notify } from './notify';
import { setStoredKeys, userText } from './userText';
import { SERVER_EXEC_ARGV } from './serverProcess';

/** What activate returns (tests and the e2e suite read it through the extension's exports). */
export interface DlmmExtensionApi {
  activationMs: number;
  /** The simulator URL when one runs in this window. */
  simulatorUrl(): string | undefined;
  registeredCommands: readonly string[];
}

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<DlmmExtensionApi> {
  const started = Date.now();
  const output = vscode.window.createOutputChannel('DLMM', { log: true });
  // Every line is redacted (keys of secret storage and the environment) and escaped: userText.ts.
  const log = (line: string) => output.info(userText(line));
  const sim = new SimulatorHost(log);
  const engine = new ClientEngine(context.secrets, log);
  setStoredKeys(() => [engine.key]);
  const statusBar = new EngineStatusBar();
  const heightChanged = new vscode.EventEmitter<number | null>();
  context.subscriptions.push(output, sim, engine, statusBar, heightChanged);
  /** policy.max_tip_lag from the settings (`dlmm.maxTipLag`); none: each reader's default. */
  const maxTipLag = () => effectiveSettings().maxTipLag ?? undefined;

  // The positions item: its sender is the setting, else the sender of the plan last active.
  let planSender: string | undefined;
  const positionsBar = new PositionsStatusBar({
    getApi: () => engine.get(),
    sender: async () => readConfig().config.dashboard.sender?.trim() || planSender,
    maxTipLag,
    log,
  });
  const notePlanSender = async (editor: vscode.TextEditor | undefined) => {
    const doc = editor?.document;
    if (!doc || !isPlanFile(doc.uri.path)) return;
    const { parsePlan } = await import('../../core/plan/parse');
    const value = parsePlan(doc.getText(), { fileName: doc.uri.path }).readValue() as { sender?: unknown };
    const sender = typeof value?.sender === 'string' ? value.sender.trim() : undefined;
    if (sender !== undefined && /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}$/.test(sender)) planSender = sender;
    await positionsBar.refresh();
  };
  context.subscriptions.push(
    positionsBar,
    heightChanged.event((h) => positionsBar.onHeight(h)),
    vscode.window.onDidChangeActiveTextEditor((e) => void notePlanSender(e)),
  );
  void notePlanSender(vscode.window.activeTextEditor);

  /** "Start Simulator" points the session at the simulator without touching settings. */
  let sessionUsesSimulator = false;
  const reported = new Set<string>();
  /** The settings as they apply in this window ("Start Simulator" switches the session to the simulator). */
  const effectiveConfig = (scope?: vscode.ConfigurationScope | null): DlmmConfig => {
    const { config, problems } = readConfig(scope);
    for (const p of problems) {
      if (reported.has(p)) continue;
      reported.add(p);
      log(`settings: ${p}`);
    }
    return sessionUsesSimulator ? { ...config, environment: 'simulator' as const } : config;
  };
  const effectiveSettings = (scope?: vscode.ConfigurationScope | null): ServerSettings =>
    resolveServerSettings(effectiveConfig(scope), sim.endpoints);

  await engine.loadKey();
  engine.configure(effectiveSettings());

  const deps: CommandDeps = { engine, log };
  const registered: string[] = [];
  const register = (id: string, f: (...args: unknown[]) => unknown) => {
    context.subscriptions.push(vscode.commands.registerCommand(id, f));
    registered.push(id);
  };

  const settingsChanged = () => {
    engine.configure(effectiveSettings());
    if (client?.isRunning())
      void client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  };
  const useSimulator = () => {
    if (!sessionUsesSimulator) {
      sessionUsesSimulator = true;
      settingsChanged();
    }
  };
  const ensureSimulator = () => startSimulatorCommand(sim, useSimulator, true);

  let lastHeight: number | null | undefined;
  const onStatus = (s: EngineStatusParams) => {
    statusBar.update(s);
    const h = s.state === 'ok' ? (s.stateHeight ?? null) : null;
    if (h !== lastHeight) {
      lastHeight = h;
      heightChanged.fire(h);
    }
  };
  const readStatus = async (): Promise<EngineStatusParams> => {
    if (client?.isRunning()) return client.sendRequest(EngineStatusRequest);
    const { readEngineStatus } = await import('../../protocol/engineStatus');
    return readEngineStatus(engine.get(), engine.currentSettings);
  };

  // Heavier commands load their code on first use (activation stays small).
  register(ClientCommands.getQuote, async (args) =>
    (await import('./commands/getQuote')).getQuote({ ...deps, store: context.globalState }, args),
  );
  register(ClientCommands.showStatus, () => showEngineStatus(readStatus, onStatus, output));
  register(ClientCommands.setApiKey, () =>
    setApiKey(engine, (apiKey) => void client?.sendNotification(SetApiKeyNotification, { apiKey })),
  );
  register(ClientCommands.startSimulator, () => startSimulatorCommand(sim, useSimulator));
  register(ClientCommands.recentreLiquidity, async () =>
    (await import('./commands/recentre')).recentreLiquidity(),
  );
  register(ClientCommands.newPlan, async () => (await import('./commands/newPlan')).newPlan(deps));
  register(ClientCommands.openExample, async () =>
    (await import('./commands/openExample')).openExamplePlan(context.extensionUri, ensureSimulator),
  );
  // One export command (client/src/export): whole plan, the operation under the cursor, or a lens's op.
  const exportDeps = { getApi: () => requireApi(deps), maxTipLag, log };
  const exportCommands = registerExportCommands(context, exportDeps);
  context.subscriptions.push(exportCommands);
  registered.push(ClientCommands.exportTransaction, EXPORT_SWAP_COMMAND);
  // Send to Wallet (client/src/wallet): the same check and build, then a one-time page for the user's wallet.
  context.subscriptions.push(
    registerWalletCommand({ ...exportDeps, previewSource: (uri) => exportCommands.previewSource(uri) }),
  );
  registered.push(ClientCommands.sendToWallet);

  context.subscriptions.push(
    registerDashboard(context, {
      getApi: () => engine.get(),
      maxTipLag,
      onDidChangeStateHeight: heightChanged.event,
      log,
    }),
  );
  registered.push(ClientCommands.showDashboard);

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('dlmm')) return;
      engine.configure(effectiveSettings());
      void positionsBar.refresh(true);
      // Switching the setting to `simulator` starts it (its start re-sends the settings to the server).
      if (readConfig().config.environment === 'simulator' && !sim.endpoints)
        void startSimulatorCommand(sim, () => undefined, true);
    }),
    sim.onDidChange(() => settingsChanged()),
    engine.onDidChange(() => {
      // A new client (endpoint or key) means a new status: read it once for the status bar.
      void readStatus().then(onStatus, () => undefined);
      void positionsBar.refresh(true);
    }),
  );

  // The simulator environment starts the engine in the background; its start re-sends the settings.
  if (readConfig().config.environment === 'simulator') {
    void sim.start().catch((e: unknown) => {
      log(`simulator did not start: ${e instanceof Error ? e.message : String(e)}`);
      void notify.error('DLMM: the embedded simulator did not start; see the DLMM output for details.');
    });
  }

  const server = (...flags: string[]) => ({
    module: context.asAbsolutePath('dist/server.js'),
    transport: TransportKind.ipc,
    options: { execArgv: [...SERVER_EXEC_ARGV, ...flags] },
  });
  const serverOptions: ServerOptions = { run: server(), debug: server('--nolazy', '--inspect=6011') };
  const initializationOptions: InitializationOptions = { commands: registered };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', pattern: PLAN_FILE_GLOB },
      { scheme: 'untitled', pattern: PLAN_FILE_GLOB },
    ],
    outputChannel: output,
    initializationOptions,
    middleware: {
      workspace: {
        // The server asks for section `dlmm`: the settings, and this window's simulator (the server resolves them).
        configuration: async (params, token, next) => {
          const answers: unknown[] = [];
          for (const item of params.items) {
            if (item.section === 'dlmm') {
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : null;
              answers.push(sectionForServer(effectiveConfig(scope), sim.endpoints));
            } else {
              const r = await next({ items: [item] }, token);
              answers.push(Array.isArray(r) ? r[0] : null);
            }
          }
          return answers;
        },
      },
    },
  };
  client = new LanguageClient('dlmm', 'DLMM Language Server', serverOptions, clientOptions);

  const progress = new Map<string, () => void>();
  context.subscriptions.push(
    client.onNotification(EngineStatusNotification, onStatus),
    client.onNotification(ProgressNotification, ({ id, title, done }) => {
      if (done) {
        progress.get(id)?.();
        progress.delete(id);
        return;
      }
      if (progress.has(id)) return;
      // A background read for diagnostics: the status bar's spinner, never a toast (toasts are for what the
      // user asked for; a burst of them hides the one a command needs, VS Code showing three per 800 ms).
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title },
        () => new Promise<void>((resolve) => progress.set(id, resolve)),
      );
    }),
    // A server that stops (crash, restart, shutdown) sends no `done`: its reads end with it.
    client.onDidChangeState(({ newState }) => {
      if (newState !== State.Stopped) return;
      for (const end of progress.values()) end();
      progress.clear();
    }),
  );
  // Activation does not wait for the server process: diagnostics arrive when it is up.
  const lc = client;
  // The plan files shown now: the server analyses them before the other open ones.
  const sendVisible = (): void => {
    if (!lc.isRunning()) return;
    const uris = [
      ...new Set(
        vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()).filter((u) => isPlanFile(u)),
      ),
    ];
    void lc.sendNotification(VisibleDocumentsNotification, { uris }).catch(() => undefined);
  };
  context.subscriptions.push(vscode.window.onDidChangeVisibleTextEditors(sendVisible));
  void lc.start().then(
    async () => {
      sendVisible();
      if (engine.key) await lc.sendNotification(SetApiKeyNotification, { apiKey: engine.key });
      // The simulator may have come up while the server started: make sure the server has its URL.
      if (sim.endpoints) settingsChanged();
      onStatus(await readStatus());
    },
    (e: unknown) => {
      log(`the language server did not start: ${e instanceof Error ? e.message : String(e)}`);
      void notify.error('DLMM: the language server did not start; see the DLMM output.');
    },
  );

  const activationMs = Date.now() - started;
  log(`activated in ${activationMs} ms`);
  return { activationMs, simulatorUrl: () => sim.endpoints?.url, registeredCommands: registered };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch(() => undefined);
}
