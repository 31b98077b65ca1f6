/**
 * `dlmm backtest PLAN [--history 7d|30d] [--recentre-after N] [--format text|json]`: for each add operation
 * of the plan (its bins: listed or a shape's expansion, as check prepares them) and for the sender's current
 * positions in the plan's pools, replays the pool's active bin over /app/v2/pools/{pool}/bin-price-history
 * (core/check/backtest.ts): the share of points the range held the active bin, the longest stretch out of
 * range, the re-centres a "re-centre after N points out of range" rule makes. A history that cannot be read
 * or is empty is refused with the reason (exit 2): never an empty backtest.
 */
import { resolve } from 'node:path';
import { isApiError } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { LIVE_UNAVAILABLE } from '../../../core/plan/diagnostics';
import {
  DEFAULT_HISTORY_WINDOW,
  DEFAULT_RECENTRE_AFTER,
  HISTORY_WINDOWS,
  historySeries,
  replayRange,
  sharePercent,
  type BacktestRange,
  type HistoryWindow,
  type RangeReplay,
} from '../../../core/check/backtest';
import type { LivePool } from '../../../core/live/live';
import {
  describeApiError,
  hasApiConfigured,
  jsonOutput,
  parseCommand,
  parseFormat,
  withApi,
} from '../common';
import { readTextFile, UsageError, type CliIO } from '../io';
import { notAPlanFile, PLAN_FILE } from './check';

export const OPTIONS = {
  history: { type: 'string' },
  'recentre-after': { type: 'string' },
} as const;

/** A range to replay, and where it came from. */
interface Subject extends BacktestRange {
  source: 'operation' | 'positions';
  /** The operation's id (operations only). */
  operation?: string;
  /** Bins the range holds liquidity in (an operation's items; the positions held). */
  bins: number;
}

interface PoolReport {
  pool: string;
  active_bin_now: number;
  history:
    | {
        served: number;
        points: number;
        first: number;
        last: number;
        span_seconds: number;
        window_seconds: number;
        notes: string[];
      }
    | { refused: string };
  subjects: Array<Subject & { replay?: RangeReplay }>;
  /** Why the sender's positions are not among the subjects, when they are not. */
  positions_note?: string;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values, positionals } = parseCommand(args, OPTIONS, { positionals: true });
  if (positionals.length !== 1) throw new UsageError('backtest takes exactly one PLAN file');
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  const window = parseWindow(values.history);
  const recentreAfter = parseRecentreAfter(values['recentre-after']);
  if (!hasApiConfigured(common, io))
    throw new UsageError(
      'backtest reads the pools and their price history: pass --api URL, set DLMM_API_URL, or use --sim',
    );
  const planArg = positionals[0]!;
  if (!PLAN_FILE.test(planArg)) throw new UsageError(notAPlanFile(planArg));
  const text = await readTextFile(planArg, io.cwd, 'plan file');
  return withApi(common, io, async (api) => {
    const analysis = await analyzePlan(text, { api, fileName: resolve(io.cwd, planArg) });
    if (!analysis.plan) {
      io.err(
        `dlmm backtest: ${planArg} does not pass its schema (${analysis.findings.filter((f) => f.severity === 'error').length} error(s)); run dlmm check ${planArg}\n`,
      );
      return 1;
    }
    const unread = analysis.findings.filter((f) => LIVE_UNAVAILABLE.has(f.code));
    const live = analysis.live;
    const pools = new Map<string, PoolReport>();
    const lpOf = new Map<string, LivePool>();
    for (const lp of live?.byPool.values() ?? []) lpOf.set(lp.principal ?? lp.written, lp);
    const report = (pool: string, active: number): PoolReport => {
      let r = pools.get(pool);
      if (!r) pools.set(pool, (r = { pool, active_bin_now: active, history: { refused: '' }, subjects: [] }));
      return r;
    };
    for (const op of analysis.prepared) {
      if (op.op !== 'add' || op.items.length === 0) continue;
      const ids = op.items.map((i) => i.bin_id);
      report(op.pool.pool_id, op.pool.active_bin_id).subjects.push({
        source: 'operation',
        operation: op.id,
        lo: Math.min(...ids),
        hi: Math.max(...ids),
        anchor: op.pool.active_bin_id,
        bins: new Set(ids).size,
      });
    }
    const sender = analysis.plan.sender;
    for (const [pool, lp] of lpOf) {
      if (lp.activeBinId === undefined) continue;
      const held = (lp.positions ?? []).filter((p) => p.user_liquidity > 0n).map((p) => p.bin_id);
      if (held.length > 0) {
        report(pool, lp.activeBinId).subjects.push({
          source: 'positions',
          lo: Math.min(...held),
          hi: Math.max(...held),
          anchor: lp.activeBinId,
          bins: held.length,
        });
      } else if (pools.has(pool)) {
        pools.get(pool)!.positions_note =
          sender === undefined
            ? 'the plan names no sender: no positions to replay'
            : lp.positionsError
              ? `the sender's positions could not be read: ${lp.positionsError.message}`
              : 'the sender holds no position in this pool';
      }
    }
    if (pools.size === 0) {
      const unreadPositions = [...lpOf.values()].filter((lp) => lp.positionsError);
      const why =
        unread.length > 0
          ? `the live data could not be read: ${unread.map((f) => f.message).join('; ')}`
          : unreadPositions.length > 0
            ? `the plan has no add operation with bins, and the sender's positions could not be read: ${unreadPositions.map((lp) => `${lp.written}: ${lp.positionsError!.message}`).join('; ')}`
            : 'the plan has no add operation with bins and the sender holds no position in its pools (run dlmm check for the findings)';
      io.err(`dlmm backtest: nothing to backtest: ${why}\n`);
      return unread.length > 0 || unreadPositions.length > 0 ? 2 : 1;
    }
    let refused = false;
    for (const r of pools.values()) {
      const lp = lpOf.get(r.pool);
      const history = await readHistory(api, r.pool, lp, HISTORY_WINDOWS[window]);
      r.history = history.ok
        ? {
            served: history.served,
            points: history.steps.length,
            first: history.steps[0]!.t,
            last: history.steps[history.steps.length - 1]!.t,
            span_seconds: history.spanSeconds,
            window_seconds: history.windowSeconds,
            notes: history.notes,
          }
        : { refused: history.why };
      if (!history.ok) {
        refused = true;
        continue;
      }
      for (const s of r.subjects) s.replay = replayRange(history.steps, s, recentreAfter);
    }
    io.out(
      format === 'json'
        ? renderJson([...pools.values()], window, recentreAfter)
        : renderText([...pools.values()], window, recentreAfter),
    );
    if (refused) io.err("dlmm backtest: a pool's price history could not be replayed (see above)\n");
    return refused ? 2 : 0;
  });
}

async function readHistory(
  api: DlmmApi,
  pool: string,
  lp: LivePool | undefined,
  windowSeconds: number,
): Promise<ReturnType<typeof historySeries>> {
  let points;
  try {
    points = await api.priceHistory(pool);
  } catch (e) {
    if (isApiError(e))
      return { ok: false, why: `its price history could not be read: ${describeApiError(e)}` };
    throw e;
  }
  const byPrice = new Map<bigint, number>();
  for (const [id, b] of lp?.binById ?? []) byPrice.set(b.price, id);
  return historySeries(points, (price) => byPrice.get(price), windowSeconds);
}

function parseWindow(v: string | boolean | undefined): HistoryWindow {
  if (v === undefined) return DEFAULT_HISTORY_WINDOW;
  if (typeof v === 'string' && Object.prototype.hasOwnProperty.call(HISTORY_WINDOWS, v))
    return v as HistoryWindow;
  throw new UsageError(`--history '${String(v)}': expected ${Object.keys(HISTORY_WINDOWS).join(' or ')}`);
}

function parseRecentreAfter(v: string | boolean | undefined): number {
  if (v === undefined) return DEFAULT_RECENTRE_AFTER;
  if (typeof v !== 'string' || !/^\d{1,6}$/.test(v.trim()) || Number(v) < 1)
    throw new UsageError(`--recentre-after '${String(v)}': expected a whole number of points, 1 or more`);
  return Number(v);
}

const iso = (t: number): string => new Date(t * 1000).toISOString().replace(/\.000Z$/, 'Z');

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : ''].join(' ').trim() || `${seconds}s`;
}

function subjectName(s: Subject): string {
  const bins = s.lo === s.hi ? `bin ${s.lo}` : `bins ${s.lo}..${s.hi}`;
  return s.source === 'operation'
    ? `operation ${s.operation} (${bins})`
    : `your positions (${bins}, ${s.bins} held)`;
}

function renderText(pools: PoolReport[], window: HistoryWindow, n: number): string {
  const lines: string[] = [];
  for (const r of pools) {
    lines.push(`pool ${r.pool} (active bin now ${r.active_bin_now})`);
    const h = r.history;
    if ('refused' in h) {
      lines.push(`  refused: ${h.refused}`);
      lines.push('');
      continue;
    }
    const short =
      h.span_seconds < h.window_seconds - 3600
        ? ` — covers ${duration(h.span_seconds)} of the ${window} asked`
        : '';
    lines.push(
      `  history: ${h.points} points, ${iso(h.first)} .. ${iso(h.last)} (${h.served} served)${short}${h.notes.length ? `; ${h.notes.join('; ')}` : ''}`,
    );
    for (const s of r.subjects) {
      const p = s.replay!;
      const out = p.longestOut
        ? `longest out of range ${p.longestOut.points} point(s), ${iso(p.longestOut.from)} .. ${iso(p.longestOut.to)}`
        : 'never out of range';
      lines.push(`  ${subjectName(s)}:`);
      lines.push(
        `    in range ${p.inRange}/${p.points} points (${sharePercent(p.inRange, p.points)}%); ${out}; re-centres after ${n} out: ${p.recentres.length}`,
      );
    }
    if (r.positions_note) lines.push(`  your positions: ${r.positions_note}`);
    lines.push('');
  }
  return lines.join('\n');
}

function renderJson(pools: PoolReport[], window: HistoryWindow, n: number): string {
  return jsonOutput({
    history_window: window,
    recentre_after: n,
    pools: pools.map((r) => ({
      pool: r.pool,
      active_bin_now: r.active_bin_now,
      history:
        'refused' in r.history
          ? { refused: r.history.refused }
          : { ...r.history, first: iso(r.history.first), last: iso(r.history.last) },
      ranges: r.subjects.map((s) => ({
        source: s.source,
        ...(s.operation !== undefined ? { operation: s.operation } : {}),
        from_bin: s.lo,
        to_bin: s.hi,
        bins: s.bins,
        ...(s.replay
          ? {
              points: s.replay.points,
              in_range: s.replay.inRange,
              share_percent: sharePercent(s.replay.inRange, s.replay.points),
              longest_out_of_range: s.replay.longestOut
                ? {
                    points: s.replay.longestOut.points,
                    from: iso(s.replay.longestOut.from),
                    to: iso(s.replay.longestOut.to),
                  }
                : null,
              recentres: s.replay.recentres.length,
              recentre_times: s.replay.recentres.map(iso),
            }
          : {}),
      })),
      ...(r.positions_note ? { positions_note: r.positions_note } : {}),
    })),
  });
}
