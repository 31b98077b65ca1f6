/**
 * "DLMM: Set API Key": the X-API-Key goes into the editor's SecretStorage only (never settings, logs or
 * argv) and reaches the language server in a custom notification.
 */
import * as vscode from 'vscode';
import type { ClientEngine } from '../apiClient';
import { notify } from '../notify';

/** Asks for the key (empty clears it); `toServer` passes it on to the server. */
export async function setApiKey(engine: ClientEngine, toServer: (key: string | null) => void): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: 'DLMM: Set API Key',
    prompt:
      "X-API-Key issued by the operator (raises the rate limit). Stored in the editor's secret storage. Leave empty to remove it.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (/\s/.test(v.trim()) ? 'An API key has no spaces' : undefined),
  });
  if (value === undefined) return;
  const key = value.trim();
  const set = await engine.setKey(key);
  toServer(set ? key : null);
  void notify.info(set ? 'DLMM: API key stored in secret storage.' : 'DLMM: API key removed.');
}
