/**
 * `dlmm.routers` for editor exports: the validated overrides, or none when the setting is bad. A bad
 * setting is logged and shown once per distinct problem (never a crash); the export then uses the
 * defaults, and core/tx says `router-config-missing` when the plan's network has none.
 */
import * as vscode from 'vscode';
import { toRouterOverrides } from '../../../core/chain/routerSettings';
import type { RouterOverrides } from '../../../core/chain/deployments';
import { readConfig } from '../settings';
import { notify } from '../notify';

const warned = new Set<string>();

/** The router overrides for an export of the plan at `scope`. */
export function routersForExport(
  scope: vscode.Uri | undefined,
  log?: (line: string) => void,
): RouterOverrides | undefined {
  const { config, problems } = readConfig(scope ?? null);
  for (const p of problems.filter((x) => x.startsWith('dlmm.routers'))) {
    if (warned.has(p)) continue;
    warned.add(p);
    log?.(`settings: ${p}`);
    void notify.warn(`DLMM: the dlmm.routers setting is ignored: ${p}`);
  }
  const overrides = toRouterOverrides(config.routers);
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
