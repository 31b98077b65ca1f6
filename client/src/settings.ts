/** Reads `dlmm.*` from the editor into the typed config (settingsSchema.ts); the only vscode-facing part. */
import * as vscode from 'vscode';
import { parseConfig, SETTING_KEYS, type DlmmConfig } from './settingsSchema';

/** The typed config for a resource (or the window); problems are logged by the caller once. */
export function readConfig(scope?: vscode.ConfigurationScope | null): {
  config: DlmmConfig;
  problems: string[];
} {
  const section = vscode.workspace.getConfiguration('dlmm', scope ?? null);
  const raw: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) raw[key] = section.get(key);
  return parseConfig(raw);
}
