/**
 * The positions status bar item: "2 positions · 1 out of range" for the configured sender
 * (`dlmm.dashboard.sender`, else the sender of the plan last active), read through the client's API as the
 * dashboard reads live data and valued by core (core/check/positions.ts). It reads again only when the
 * applied state height changes (the engine status the language server reports), when the sender changes or
 * the endpoint does: never on a timer of its own. When a position leaves its range, one notification offers
 * the re-centre command.
 */
import { DEFAULT_MAX_TIP_LAG } from '../../core/check/freshness';
import * as vscode from 'vscode';
import type { DlmmApi } from '../../core/api/types';
import type { PositionsReport } from '../../core/check/positions';
import { ClientCommands } from '../../protocol/messages';
import { notify } from './notify';
import { showView } from './statusBar';
import { describePositions, leftRangeMessage, RangeTracker } from './positionsStatus';

interface PositionsStatusDeps {
  getApi(): DlmmApi | undefined;
  /** The sender whose positions to show (undefined: none configured). */
  sender(): Promise<string | undefined>;
  maxTipLag(): number | undefined;
  log(line: string): void;
}

const RECENTRE = 'Re-centre…';

export class PositionsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dlmm.positions',
    vscode.StatusBarAlignment.Left,
    9,
  );
  private readonly tracker = new RangeTracker();
  /** The read in flight; a newer refresh aborts it. */
  private current: AbortController | undefined;
  /** What the last read was for (sender and height): the same again is not read twice. */
  private lastKey: string | undefined;
  private height: number | null = null;

  constructor(private readonly deps: PositionsStatusDeps) {
    this.item.name = 'DLMM Positions';
    this.item.command = ClientCommands.showDashboard;
    this.item.hide();
  }

  /** The applied state height changed (or the engine answered for the first time). */
  onHeight(height: number | null): void {
    this.height = height;
    void this.refresh();
  }

  /** Reads again for the current sender at the current height; does nothing when both are unchanged. */
  async refresh(force = false): Promise<void> {
    const sender = await this.deps.sender();
    const api = this.deps.getApi();
    if (sender === undefined || !api) {
      // No sender configured, or no engine (offline): nothing to show.
      this.current?.abort();
      this.lastKey = undefined;
      this.item.hide();
      return;
    }
    const key = `${sender}@${this.height}`;
    if (!force && key === this.lastKey) return;
    this.lastKey = key;
    this.current?.abort();
    const ctl = new AbortController();
    this.current = ctl;
    try {
      const { readPositionsLive } = await import('../../core/live/live');
      const { positionsOf } = await import('../../core/check/positions');
      const live = await readPositionsLive(api, sender, undefined, { signal: ctl.signal });
      if (ctl.signal.aborted) return;
      if (live.poolsError) {
        this.show(undefined, live.poolsError.message);
        return;
      }
      const report = positionsOf(live, sender, { maxTipLag: this.deps.maxTipLag() ?? DEFAULT_MAX_TIP_LAG });
      this.show(report);
      const left = this.tracker.left(report);
      if (left.length > 0) void this.offer(leftRangeMessage(left));
    } catch (e) {
      if (ctl.signal.aborted) return;
      const why = e instanceof Error ? e.message : String(e);
      this.deps.log(`positions: ${why}`);
      this.show(undefined, why);
    } finally {
      if (this.current === ctl) this.current = undefined;
    }
  }

  private async offer(message: string): Promise<void> {
    const pick = await notify.warn(message, RECENTRE);
    if (pick === RECENTRE) await vscode.commands.executeCommand(ClientCommands.recentreLiquidity);
  }

  private show(report: PositionsReport | undefined, error?: string): void {
    const view = describePositions(report, error);
    showView(this.item, { ...view, text: `$(layers) ${view.text}` });
    this.item.show();
  }

  dispose(): void {
    this.current?.abort();
    this.item.dispose();
  }
}
