/**
 * The dashboard panel (one per window, webview-sample style): builds the HTML with a nonce, limits
 * localResourceRoots to dist/, and connects the webview's messages to the protocol host. A new panel and one
 * restored after a window reload go through the same constructor.
 */
import * as vscode from 'vscode';
import { WebviewStateSchema, type QuoteParams } from '../../../webview/src/protocol';
import type { ActivePlan } from './feed';
import { createDashboardHost, type DashboardHost } from './host';
import { buildDashboardHtml } from './html';
import { userSecrets } from '../userText';
import { routersForExport } from '../export/routers';
// The dashboard shows the swap export's button only when this command is registered.
import { EXPORT_SWAP_COMMAND } from '../export/deps';

export const DASHBOARD_VIEW_TYPE = 'dlmm.dashboard';
export const LAST_POOL_KEY = 'dlmm.dashboard.lastPool';

export interface PanelDeps {
  getApi: () => import('../../../core/api/types').DlmmApi | undefined;
  getActivePlan: () => Promise<ActivePlan | undefined>;
  log?: (line: string) => void;
  maxTipLag?: () => number | undefined;
}

/** The open dashboard panel and its protocol host. */
export class DashboardPanel implements vscode.Disposable {
  private static current: DashboardPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  readonly host: DashboardHost;

  /** Shows the panel, creating it if none is open. */
  static show(context: vscode.ExtensionContext, deps: PanelDeps): DashboardPanel {
    if (DashboardPanel.current) {
      DashboardPanel.current.panel.reveal(undefined, false);
      return DashboardPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      DASHBOARD_VIEW_TYPE,
      'DLMM Dashboard',
      vscode.ViewColumn.Beside,
      { ...webviewOptions(context), retainContextWhenHidden: false },
    );
    DashboardPanel.current = new DashboardPanel(panel, context, deps);
    return DashboardPanel.current;
  }

  /**
   * Adopts a panel VS Code restored after a window reload (the serializer's entry): same wiring as `show`.
   * `state` is what the page saved with setState; its pool is remembered first so the prefetch reads it.
   */
  static async restore(
    panel: vscode.WebviewPanel,
    state: unknown,
    context: vscode.ExtensionContext,
    deps: PanelDeps,
  ): Promise<void> {
    if (DashboardPanel.current) {
      // One dashboard per window: a second restored panel is closed, the open one stays.
      panel.dispose();
      return;
    }
    const saved = WebviewStateSchema.safeParse(state);
    if (saved.success && saved.data.pool_id) {
      await context.workspaceState.update(LAST_POOL_KEY, saved.data.pool_id);
    }
    DashboardPanel.current = new DashboardPanel(panel, context, deps);
  }

  /** The open panel, if any. */
  static get open(): DashboardPanel | undefined {
    return DashboardPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    deps: PanelDeps,
  ) {
    const webview = panel.webview;
    // A restored panel keeps only its view type and state: set the options again (scripts, roots).
    webview.options = webviewOptions(context);
    const dist = distUri(context);
    this.host = createDashboardHost({
      getApi: deps.getApi,
      getActivePlan: deps.getActivePlan,
      senderSetting: () =>
        vscode.workspace.getConfiguration('dlmm').get<string>('dashboard.sender') || undefined,
      routerOverrides: () => routersForExport(undefined, deps.log),
      maxTipLag: () => deps.maxTipLag?.(),
      post: (msg) => webview.postMessage(msg),
      // Opens the plan and selects [offset, offset + length).
      revealRange: async (uri, offset, length) => {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri, true));
        const range = new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + length));
        await vscode.window.showTextDocument(doc, { selection: range });
      },
      workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
      lastPool: {
        get: () => context.workspaceState.get<string>(LAST_POOL_KEY),
        set: (id) => context.workspaceState.update(LAST_POOL_KEY, id),
      },
      exportSwap: {
        available: async () => (await vscode.commands.getCommands(true)).includes(EXPORT_SWAP_COMMAND),
        run: async (params: QuoteParams, then?: 'export' | 'wallet') => {
          await vscode.commands.executeCommand(
            EXPORT_SWAP_COMMAND,
            {
              input_token: params.input_token,
              output_token: params.output_token,
              amount_in: params.amount_in,
              slippage_tolerance: params.slippage,
            },
            ...(then === 'wallet' ? [{ then: 'wallet' }] : []),
          );
        },
      },
      log: deps.log,
      secrets: () => userSecrets(),
    });
    // The engine reads the page asks for first start now, while VS Code loads the page.
    this.host.prefetch();
    webview.html = buildDashboardHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => void this.host.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  dispose(): void {
    if (DashboardPanel.current === this) DashboardPanel.current = undefined;
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}

function distUri(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.joinPath(context.extensionUri, 'dist');
}

/** Scripts on, and local resources only from dist/ (the bundles). */
function webviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [distUri(context)] };
}
