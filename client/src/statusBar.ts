/** The engine status bar item: readiness and tip lag, warning colour when lagging or unknown. */
import * as vscode from 'vscode';
import { ClientCommands, type EngineStatusParams } from '../../server/src/protocol';
import { describeEngineStatus } from './statusText';

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
    const view = describeEngineStatus(this.last);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.warning
      ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
