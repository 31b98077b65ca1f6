/**
 * "DLMM: Send to Wallet" (`dlmm.sendToWallet`): registration only; the command's code (the analyzer,
 * core/tx and the wallet session server in core/wallet) loads on first use. Sessions still open when the
 * extension deactivates are closed (their links stop working).
 */
import * as vscode from 'vscode';
import { ClientCommands } from '../../../protocol/messages';
import type { WalletDeps } from './command';

/** Registers the command; disposing closes every session it started. */
export function registerWalletCommand(deps: WalletDeps): vscode.Disposable {
  const open = new Set<{ close(): Promise<unknown> }>();
  let output: vscode.OutputChannel | undefined;
  const channel = () => (output ??= vscode.window.createOutputChannel('DLMM Wallet'));
  return vscode.Disposable.from(
    vscode.commands.registerCommand(ClientCommands.sendToWallet, async (...args: unknown[]) => {
      const { sendToWallet } = await import('./command');
      await sendToWallet({ ...deps, output: channel(), sessions: open }, args);
    }),
    {
      dispose: () => {
        for (const s of open) void s.close();
        open.clear();
        output?.dispose();
      },
    },
  );
}
