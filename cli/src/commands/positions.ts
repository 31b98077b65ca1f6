/**
 * `dlmm positions --sender P [--pool POOL …] [--what-if A..B] [--max-tip-lag N] [--format text|json]`: what
 * the sender holds in each pool, valued on the chain model at the state read (core/check/positions.ts,
 * docs/positions.md). Exit 0 when every position was valued, 1 when some is unknown (each says why), 2 on a
 * usage error or when the pools list cannot be read.
 */
import { DEFAULT_MAX_TIP_LAG } from '../../../core/check/freshness';
import type { Token } from '../../../core/api/types';
import { formatUnits } from '../../../core/dlmm/bins';
import { readPositionsLive } from '../../../core/live/live';
import {
  ilPercent,
  MAX_WHAT_IF_SHIFTS,
  positionsOf,
  positionsSummary,
  type PositionsReport,
  type PositionView,
} from '../../../core/check/positions';
import { jsonOutput, parseCommand, parseFormat, parseNonNegativeInt, withApi } from '../common';
import { checkSenderOption } from '../sender';
import { UsageError, type CliIO } from '../io';

export const OPTIONS = {
  sender: { type: 'string' },
  pool: { type: 'string', multiple: true },
  'what-if': { type: 'string' },
  'max-tip-lag': { type: 'string' },
} as const;

const POOL = /^(dlmm_\d+|S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127})$/;

/** `A..B` (signed bin shifts, A <= B, at most MAX_WHAT_IF_SHIFTS of them). */
export function parseWhatIf(text: string): { from: number; to: number } {
  const m = /^\s*(-?\d{1,4})\s*\.\.\s*(-?\d{1,4})\s*$/.exec(text);
  if (!m)
    throw new UsageError(
      `--what-if '${text.slice(0, 40)}' is not a range of bin shifts; write A..B, e.g. --what-if -10..10`,
    );
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (from > to) throw new UsageError(`--what-if ${from}..${to}: the first shift must not exceed the last`);
  if (from < -1000 || to > 1000)
    throw new UsageError(`--what-if ${from}..${to}: shifts are bins and lie within -1000..1000`);
  if (to - from + 1 > MAX_WHAT_IF_SHIFTS)
    throw new UsageError(
      `--what-if ${from}..${to} asks for ${to - from + 1} shifts; at most ${MAX_WHAT_IF_SHIFTS} (e.g. -100..100)`,
    );
  return { from, to };
}

/** Runs `dlmm positions`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  const sender = values.sender;
  if (typeof sender !== 'string' || sender === '')
    throw new UsageError('positions needs --sender PRINCIPAL (the address whose positions to show)');
  checkSenderOption(sender);
  const pools = (values.pool as unknown as string[] | undefined)?.map((p) => p.trim());
  for (const p of pools ?? [])
    if (!POOL.test(p))
      throw new UsageError(
        `--pool ${p.slice(0, 80)} is not a pool (expected a contract principal ADDR.dlmm-pool-… or an alias dlmm_<n>)`,
      );
  const whatIfText = values['what-if'];
  const whatIf = typeof whatIfText === 'string' ? parseWhatIf(whatIfText) : undefined;
  const lagText = values['max-tip-lag'];
  const maxTipLag =
    typeof lagText === 'string' ? Number(parseNonNegativeInt(lagText, '--max-tip-lag')) : DEFAULT_MAX_TIP_LAG;
  return withApi(common, io, async (api) => {
    const live = await readPositionsLive(api, sender, pools);
    if (pools === undefined && live.poolsError) {
      io.err(
        `dlmm: the pools list could not be read (${live.poolsError.message}); name the pools with --pool\n`,
      );
      return 2;
    }
    const report = positionsOf(live, sender, { maxTipLag, ...(whatIf ? { whatIf } : {}) });
    io.out(format === 'json' ? renderJson(report) : renderText(report));
    return report.positions.every((p) => p.unknown === undefined) ? 0 : 1;
  });
}

/** The issue's JSON: amounts as decimal strings of base units; unknown positions carry `unknown`. */
export function renderJson(report: PositionsReport): string {
  const s = (v: bigint | undefined): string | null => (v === undefined ? null : v.toString());
  return jsonOutput({
    sender: report.sender,
    positions: report.positions.map((p) => ({
      pool: p.pool,
      ...(p.alias !== undefined ? { alias: p.alias } : {}),
      source: p.source ?? null,
      ...(p.mayLag !== undefined ? { may_lag: p.mayLag } : {}),
      ...(p.unknown !== undefined ? { unknown: p.unknown } : {}),
      active_bin_id: p.active_bin_id ?? null,
      in_range: p.in_range ?? null,
      distance: p.distance ?? null,
      bins: p.bins.map((b) => ({
        bin_id: b.bin_id,
        shares: b.shares.toString(),
        x_amount: b.x_amount.toString(),
        y_amount: b.y_amount.toString(),
      })),
      x_total: s(p.x_total),
      y_total: s(p.y_total),
      value_in_y: s(p.value_in_y),
      ...(p.what_if
        ? {
            what_if: p.what_if.map((w) => ({
              shift: w.shift,
              value_in_y: s(w.value_in_y),
              hold_value_in_y: s(w.hold_value_in_y),
              active_bin_id: w.active_bin_id,
              ...(w.reached ? {} : { unknown: w.detail }),
            })),
          }
        : {}),
    })),
    pools_without_shares: report.withoutShares,
  });
}

function amount(v: bigint, token: Token | undefined): string {
  return token === undefined
    ? `${v} base units`
    : `${formatUnits(v, token.decimals)} ${token.symbol}`.trimEnd();
}

function renderPosition(p: PositionView): string[] {
  const name = p.alias !== undefined && p.alias !== p.pool ? `${p.pool} (${p.alias})` : p.pool;
  const lines = [name];
  if (p.unknown !== undefined) {
    lines.push(`  unknown: ${p.unknown}`);
    return lines;
  }
  if (p.mayLag !== undefined) lines.push(`  may lag: ${p.mayLag}`);
  const range =
    p.in_range === true
      ? 'in range'
      : `out of range: the active bin is ${p.distance} bin${p.distance === 1 ? '' : 's'} ${p.side} the position`;
  lines.push(`  active bin ${p.active_bin_id}, ${range} (source: ${p.source ?? 'unknown'})`);
  for (const b of p.bins)
    lines.push(`  bin ${String(b.bin_id).padStart(4)}  ${b.shares} shares  x ${b.x_amount}  y ${b.y_amount}`);
  lines.push(
    `  total: ${amount(p.x_total ?? 0n, p.tokenX)} + ${amount(p.y_total ?? 0n, p.tokenY)} (x ${p.x_total}, y ${p.y_total})`,
  );
  lines.push(
    `  value: ${amount(p.value_in_y ?? 0n, p.tokenY)} (${p.value_in_y} in y at the active bin's price)`,
  );
  if (p.what_if) {
    lines.push('  what-if (shift: value / hold in y, IL):');
    for (const w of p.what_if) {
      if (!w.reached || w.value_in_y === undefined || w.hold_value_in_y === undefined) {
        lines.push(`    ${String(w.shift).padStart(4)}: not valued (${w.detail})`);
        continue;
      }
      const il = ilPercent(w.value_in_y, w.hold_value_in_y);
      lines.push(
        `    ${String(w.shift).padStart(4)}: ${w.value_in_y} / ${w.hold_value_in_y}  IL ${il === undefined ? 'n/a (hold is 0)' : `${il}%`}  (active bin ${w.active_bin_id})`,
      );
    }
  }
  return lines;
}

export function renderText(report: PositionsReport): string {
  const lines = [`positions of ${report.sender}: ${positionsSummary(report)}`];
  for (const p of report.positions) lines.push(...renderPosition(p));
  if (report.withoutShares.length > 0) lines.push(`no shares in: ${report.withoutShares.join(', ')}`);
  return lines.join('\n') + '\n';
}
