/** "DLMM: Show Engine Status": a fresh status read, shown in words, with the next step when unhealthy. */
import * as vscode from 'vscode';
import { ClientCommands, type EngineStatusParams } from '../../../protocol/messages';
import { withReadProgress } from './common';
import { notify } from '../notify';

/** Reads the status (through the language server when it runs) and shows it. */
export async function showEngineStatus(
  read: () => Promise<EngineStatusParams>,
  update: (s: EngineStatusParams) => void,
  output: vscode.OutputChannel,
): Promise<void> {
  const s = await withReadProgress('DLMM: reading engine status…', read);
  update(s);
  const where = s.apiUrl ? `${s.environment ?? 'custom'} engine at ${s.apiUrl}` : 'no engine';
  if (s.state !== 'ok') {
    const pick = await notify.warn(
      `DLMM: ${where}: ${s.error ?? s.state}.`,
      'Start Simulator',
      'Open Settings',
      'Show Log',
    );
    if (pick === 'Start Simulator') void vscode.commands.executeCommand(ClientCommands.startSimulator);
    else if (pick === 'Open Settings')
      void vscode.commands.executeCommand('workbench.action.openSettings', 'dlmm.');
    else if (pick === 'Show Log') output.show(true);
    return;
  }
  const lag =
    s.tipLag === null || s.tipLag === undefined ? 'unknown (never treated as caught up)' : String(s.tipLag);
  const text =
    `DLMM: ${where} — ready: ${s.ready ? 'yes' : 'no'}, state height ${s.stateHeight ?? 'unknown'}, ` +
    `chain tip ${s.chainTip ?? 'unknown'}, tip lag ${lag}, ${s.poolCount ?? '?'} pools.`;
  const healthy = s.ready === true && s.tipLag === 0;
  const pick = await (healthy ? notify.info(text, 'Show Log') : notify.warn(text, 'Show Log'));
  if (pick === 'Show Log') output.show(true);
}
