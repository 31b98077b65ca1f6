/**
 * DLMM_ROUTERS: the path of a JSON file `{ "testnet": {...}, "mainnet": {...} }` with router contract ids
 * and versions (core/chain/routerSettings.ts); partial entries merge over the mainnet defaults. An environment
 * variable rather than a flag keeps the documented flag list (docs/cli.md) as it is.
 */
import { parseRouterSettings, type RouterSettings } from '../../core/chain/routerSettings';
import type { RouterOverrides } from '../../core/chain/deployments';
import { readTextFile, UsageError, type CliIO } from './io';

export const ROUTERS_ENV = 'DLMM_ROUTERS';

/** The overrides from DLMM_ROUTERS, undefined when unset; a bad file is a UsageError naming file and field. */
export async function loadRouterOverrides(io: CliIO): Promise<RouterOverrides | undefined> {
  return (await loadRouterSettings(io))?.overrides;
}

/** DLMM_ROUTERS validated: the settings as written (snake_case) and as overrides; undefined when unset. */
export async function loadRouterSettings(
  io: CliIO,
): Promise<{ settings: RouterSettings; overrides: RouterOverrides } | undefined> {
  const file = io.env[ROUTERS_ENV]?.trim();
  if (!file) return undefined;
  const text = await readTextFile(file, io.cwd, `router configuration file (${ROUTERS_ENV})`);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(
      `${ROUTERS_ENV}=${file}: not JSON (${e instanceof Error ? e.message : String(e)}); expected { "testnet": { "liquidity_router": …, "swap_router": …, "version": "v-1-2", "stx_wrapper": … } }`,
    );
  }
  const parsed = parseRouterSettings(value, `${ROUTERS_ENV}=${file}`);
  if (!parsed.ok) throw new UsageError(parsed.message);
  return { settings: parsed.settings, overrides: parsed.overrides };
}
