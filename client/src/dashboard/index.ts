/**
 * Entry of the dashboard for the extension (client/src/extension.ts calls `registerDashboard` once).
 * Registers the `dlmm.openDashboard` command and the panel serializer (restore after a window reload), and
 * forwards engine and plan changes to the open panel.
 */
import * as vscode from 'vscode';
import type { DlmmApi } from '../../../core/api/types';
import { ClientCommands, isPlanFile } from '../../../protocol/messages';
import type { ActivePlan } from './feed';
import * as z from 'zod';
import { DASHBOARD_VIEW_TYPE, DashboardPanel, LAST_POOL_KEY, type PanelDeps } from './panel';

interface DashboardDeps {
  getApi(): DlmmApi | undefined;
  /** Fires when the engine's applied state height changes (null when unknown). */
  onDidChangeStateHeight: vscode.Event<number | null>;
  /** policy.max_tip_lag for the Positions panel's read (the status bar's setting); none: DEFAULT_MAX_TIP_LAG (core/check/freshness.ts). */
  maxTipLag?(): number | undefined;
  log?(line: string): void;
}

/** Registers the dashboard command and its event wiring; dispose to unregister. */
export function registerDashboard(context: vscode.ExtensionContext, deps: DashboardDeps): vscode.Disposable {
  let lastPlanUri: vscode.Uri | undefined = planEditorUri(vscode.window.activeTextEditor);

  /** The plan in the active editor, analysed live when an engine is configured (offline otherwise). */
  const getActivePlan = async (): Promise<ActivePlan | undefined> => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !isPlanFile(doc.uri.path)) return undefined;
    const api = deps.getApi();
    const { analyzeOffline, analyzePlan } = await import('../../../core/check/analyze');
    const fileName = doc.uri.path.split('/').pop() ?? 'plan.dlmm.yaml';
    const analysis = api
      ? await analyzePlan(doc.getText(), { api, fileName })
      : analyzeOffline(doc.getText(), { fileName });
    return { uri: doc.uri.toString(), fileName, analysis };
  };

  let planTimer: ReturnType<typeof setTimeout> | undefined;
  const planChanged = (): void => {
    // Debounced: typing in the plan should not reread the engine on every keystroke.
    if (planTimer) clearTimeout(planTimer);
    planTimer = setTimeout(() => DashboardPanel.open?.host.planChanged(), 400);
  };

  const panelDeps: PanelDeps = { ...deps, getActivePlan };

  const subscriptions: vscode.Disposable[] = [
    // After a window reload VS Code hands back the dashboard it had open (activation: onWebviewPanel).
    vscode.window.registerWebviewPanelSerializer(DASHBOARD_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => DashboardPanel.restore(panel, state, context, panelDeps),
    }),
    vscode.commands.registerCommand(ClientCommands.showDashboard, async (args?: unknown) => {
      // From an operation's "Show in dashboard" lens: remember its pool first, so a new panel opens on it.
      const poolId = await poolOfOperation(args, getActivePlan).catch(() => undefined);
      if (poolId) await context.workspaceState.update(LAST_POOL_KEY, poolId);
      const existed = DashboardPanel.open !== undefined;
      const panel = DashboardPanel.show(context, panelDeps);
      if (poolId && existed) panel.host.showPool(poolId);
    }),
    deps.onDidChangeStateHeight((h) => DashboardPanel.open?.host.stateChanged(h)),
    vscode.window.onDidChangeActiveTextEditor((e) => {
      const uri = planEditorUri(e);
      if (uri && uri.toString() !== lastPlanUri?.toString()) {
        lastPlanUri = uri;
        planChanged();
      }
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (isPlanFile(e.document.uri.path)) planChanged();
    }),
  ];

  return new vscode.Disposable(() => {
    if (planTimer) clearTimeout(planTimer);
    DashboardPanel.open?.dispose();
    for (const s of subscriptions) s.dispose();
  });
}

const LensArgsSchema = z.object({ operation: z.union([z.string(), z.number()]) }).loose();

/** The pool (contract principal) of the operation a code lens names, from the active plan's analysis. */
async function poolOfOperation(
  args: unknown,
  getActivePlan: () => Promise<ActivePlan | undefined>,
): Promise<string | undefined> {
  const parsed = LensArgsSchema.safeParse(args);
  if (!parsed.success) return undefined;
  const plan = await getActivePlan();
  const want = String(parsed.data.operation);
  const op = plan?.analysis.prepared.find((o) => o.id === want || String(o.index) === want);
  return op && op.op !== 'swap' ? op.pool.pool_id : undefined;
}

function planEditorUri(e: vscode.TextEditor | undefined): vscode.Uri | undefined {
  return e && isPlanFile(e.document.uri.path) ? e.document.uri : undefined;
}
