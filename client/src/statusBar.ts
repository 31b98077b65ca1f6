/** The engine status bar item: readiness and tip lag, warning colour when lagging or unknown. */
import * as vscode from 'vscode';
import { ClientCommands, type EngineStatusParams } from '../../protocol/messages';
import { describeEngineStatus, type StatusView } from './statusText';

/** Puts a status view on an item: its text, tooltip, and the warning background when it warns. */
export function showView(item: vscode.StatusBarItem, view: StatusView): void {
  item.text = view.text;
  item.tooltip = view.tooltip;
  item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
}

export class EngineStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dlmm.engine',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private last: EngineStatusParams | undefined;

  constructor() {
    this.item.name = 'DLMM Engine';
    this.item.command = ClientCommands.showStatus;
    this.render();
    this.item.show();
  }

  update(status: EngineStatusParams): void {
    this.last = status;
    this.render();
  }

  private render(): void {
    showView(this.item, describeEngineStatus(this.last));
  }

  dispose(): void {
    this.item.dispose();
  }
}
