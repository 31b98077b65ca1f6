/**
 * The engine status as both sides read it: the language server's engine watch polls it while plan files
 * are open, and the extension client reads it itself when its server is not running (the status bar,
 * "Show Engine Status"). One reading, one description.
 */
import type { DlmmApi } from '../core/api/types';
import type { EngineStatusParams, ServerSettings } from './messages';

/** Reads one status snapshot and describes it for the client (never throws). */
export async function readEngineStatus(
  api: DlmmApi | undefined,
  settings: ServerSettings,
  now: () => number = Date.now,
): Promise<EngineStatusParams> {
  const base = { apiUrl: settings.apiUrl, environment: settings.environment, at: now() };
  if (!api)
    return {
      ...base,
      state: 'offline',
      error: `${settings.noService ?? 'no API URL configured'}: only offline checks run`,
    };
  try {
    // A fresh read, which every analysis then reuses (the client's status TTL is the poll's interval).
    const s = await (api.refreshStatus?.() ?? api.status());
    return {
      ...base,
      state: 'ok',
      ready: s.ready,
      stateHeight: s.state_height,
      chainTip: s.chain_tip,
      tipLag: s.tip_lag,
      poolCount: s.pool_count,
    };
  } catch (e) {
    return { ...base, state: 'error', error: e instanceof Error ? e.message : String(e) };
  }
}
