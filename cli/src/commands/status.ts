/**
 * `dlmm status [--format text|json]`: readiness of quote v2 and app v2, and the status snapshot.
 * Exit 0 when both are ready and tip_lag is 0; 1 when not ready, lagging or the tip is unknown (null is
 * never caught up); 2 when the service cannot be read (or a usage error).
 */
import type { Readiness, Status } from '../../../core/api/types';
import { tipVerdict } from '../../../core/check/freshness';
import { jsonOutput, parseCommand, parseFormat, withApi } from '../common';
import type { CliIO } from '../io';

export interface StatusReport {
  quote: Readiness;
  app: Readiness;
  status: Status;
  ok: boolean;
  /** Why the engine is not usable, in words (empty when ok). */
  problems: string[];
}

/** `dlmm status` has only the shared options. */
export const OPTIONS = {} as const;

/** Runs `dlmm status`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  return withApi(common, io, async (api) => {
    const [quote, app, status] = await Promise.all([api.quoteReady(), api.appReady(), api.status()]);
    const report = assess(quote, app, status);
    io.out(format === 'json' ? renderJson(report) : renderText(report));
    return report.ok ? 0 : 1;
  });
}

/** Decides whether the engine can be used: both gates open, status ready, and tip_lag exactly 0. */
export function assess(quote: Readiness, app: Readiness, status: Status): StatusReport {
  const problems: string[] = [];
  if (!quote.ready) problems.push(`quote engine not ready${quote.detail ? ` (${quote.detail})` : ''}`);
  if (!status.ready) problems.push('status snapshot says ready: false');
  if (!app.ready) problems.push(`app v2 not ready${app.detail ? ` (${app.detail})` : ''}: positions may lag`);
  const tip = tipVerdict(status.tip_lag);
  if (tip.kind === 'unknown') problems.push(`tip lag unknown: ${tip.why}; never counted as caught up`);
  else if (tip.kind === 'behind') problems.push(`applied state lags the chain tip by ${tip.lag} block(s)`);
  return { quote, app, status, ok: problems.length === 0, problems };
}

function readinessText(r: Readiness): string {
  return r.ready ? 'ready' : `not ready${r.detail ? ` (${r.detail})` : ''}`;
}

function renderText(r: StatusReport): string {
  const s = r.status;
  const rows: Array<[string, string]> = [
    ['quote engine v2', readinessText({ ready: r.quote.ready && s.ready, detail: r.quote.detail })],
    ['app v2', readinessText(r.app)],
    ['state height', s.state_height === null ? 'unknown' : String(s.state_height)],
    ['chain tip', s.chain_tip === null ? 'unknown' : String(s.chain_tip)],
    ['tip lag', s.tip_lag === null ? 'unknown — not caught up' : String(s.tip_lag)],
    ['pools', String(s.pool_count)],
  ];
  const lines = rows.map(([k, v]) => `${k.padEnd(18)}${v}`);
  lines.push(r.ok ? 'status: ok' : `status: not usable: ${r.problems.join('; ')}`);
  return lines.join('\n') + '\n';
}

function renderJson(r: StatusReport): string {
  const s = r.status;
  const doc = {
    ok: r.ok,
    quote_ready: r.quote.ready && s.ready,
    quote_detail: r.quote.detail ?? null,
    app_ready: r.app.ready,
    app_detail: r.app.detail ?? null,
    state_height: s.state_height,
    chain_tip: s.chain_tip,
    tip_lag: s.tip_lag,
    pool_count: s.pool_count,
    problems: r.problems,
  };
  return jsonOutput(doc);
}
