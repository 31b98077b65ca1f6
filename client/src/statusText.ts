/** What the status bar says about the engine (pure, so it is unit-tested without an editor). */
import type { EngineStatusParams } from '../../protocol/messages';
import { displayUrl } from '../../core/text/safe';
import { tipVerdict, tipVerdictWords } from '../../core/check/freshness';

/** What a status bar item shows. */
export interface StatusView {
  text: string;
  tooltip: string;
  /** Warning colour: not ready, lagging, lag unknown, unreachable; a position out of range or unknown. */
  warning: boolean;
}

/** Status bar text, tooltip and colour for the last engine status (undefined: not read yet). */
export function describeEngineStatus(s: EngineStatusParams | undefined): StatusView {
  if (!s)
    return {
      text: '$(circle-outline) DLMM',
      tooltip: 'DLMM: engine status not read yet. Click for details.',
      warning: false,
    };
  const where = s.apiUrl
    ? `${s.environment ?? 'custom'} · ${displayUrl(s.apiUrl)}`
    : (s.environment ?? 'no engine');
  if (s.state === 'offline')
    return {
      text: '$(debug-disconnect) DLMM offline',
      tooltip: `DLMM: no engine configured (${where}); only offline checks run. Set dlmm.environment, or run "DLMM: Start Simulator".`,
      warning: true,
    };
  if (s.state === 'error')
    return {
      text: '$(error) DLMM unreachable',
      tooltip: `DLMM: ${s.error ?? 'the engine could not be read'} (${where}). Click for details.`,
      warning: true,
    };
  const tip = tipVerdict(s.tipLag);
  const lag = tip.kind === 'caught-up' ? 'lag 0' : tipVerdictWords(tip).replace(/^tip /, '');
  const lagging = tip.kind !== 'caught-up';
  const ready = s.ready === true;
  const text = `${ready && !lagging ? '$(check)' : '$(warning)'} DLMM ${ready ? 'ready' : 'not ready'} · ${lag}`;
  const tooltip =
    `DLMM engine (${where})\n` +
    `ready: ${ready}\nstate height: ${s.stateHeight ?? 'unknown'}\nchain tip: ${s.chainTip ?? 'unknown'}\n` +
    `tip lag: ${tip.kind === 'unknown' ? `unknown (never counted as caught up): ${tip.why}` : tip.lag}\npools: ${s.poolCount ?? '?'}\nClick for details.`;
  return { text, tooltip, warning: !ready || lagging };
}
