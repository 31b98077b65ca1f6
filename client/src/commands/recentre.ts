/**
 * "DLMM: Re-centre Liquidity": in the open plan, takes an `out-of-range` finding and applies the language
 * server's own "Re-centre liquidity" fix for the shape the user picks (spot, curve, bid-ask). Nothing is
 * computed here: the move operation comes from core (core/prepare/recentre.ts) through the server's code actions,
 * so the command and the quick fix write the same text, checked like every move.
 */
import * as vscode from 'vscode';
import { notify } from '../notify';
import { isPlanFile } from '../../../protocol/messages';

const SHAPES = [
  { label: 'spot', detail: 'equal value in every bin of the range' },
  { label: 'curve', detail: 'most next to the active bin, falling linearly to the edge' },
  { label: 'bid-ask', detail: 'least next to the active bin, rising linearly to the edge' },
];

/** Runs the command on the active editor's plan. */
export async function recentreLiquidity(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const doc = editor?.document;
  if (!doc || !isPlanFile(doc.fileName)) {
    void notify.info('DLMM: open a plan file (*.dlmm.yaml) to re-centre its liquidity.');
    return;
  }
  const found = vscode.languages
    .getDiagnostics(doc.uri)
    .filter(
      (d) =>
        d.source === 'dlmm' && String(typeof d.code === 'object' ? d.code.value : d.code) === 'out-of-range',
    );
  if (found.length === 0) {
    void notify.info(
      "DLMM: no out-of-range finding in this plan: the sender's liquidity in its pools is within policy.range_alert_bins of the active bin (or the plan was not checked against live data yet).",
    );
    return;
  }
  let target = found[0] as vscode.Diagnostic;
  if (found.length > 1) {
    const pick = await vscode.window.showQuickPick(
      found.map((d) => ({ label: `line ${d.range.start.line + 1}`, detail: d.message, d })),
      { title: 'Re-centre liquidity: which pool?' },
    );
    if (!pick) return;
    target = pick.d;
  }
  const shape = await vscode.window.showQuickPick(SHAPES, { title: 'Re-centre liquidity: shape' });
  if (!shape) return;
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      target.range,
      vscode.CodeActionKind.QuickFix.value,
    )) ?? [];
  const action = actions.find((a) => a.title.startsWith(`Re-centre liquidity: move it as ${shape.label} `));
  if (!action?.edit) {
    void notify.warn(
      `DLMM: no ${shape.label} re-centring is possible here (the move could not be built from the positions read); see the finding's message.`,
    );
    return;
  }
  await vscode.workspace.applyEdit(action.edit);
}
