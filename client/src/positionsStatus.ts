/**
 * What the positions status bar item says, and which positions just left their range (one notification per
 * leave: a position is announced again only after it came back in range). Pure (no `vscode`): the figures
 * come from core (core/check/positions.ts), once per applied state height.
 */
import type { PositionsReport, PositionView } from '../../core/check/positions';
import { positionsSummary } from '../../core/check/positions';
import type { StatusView } from './statusText';

/** The item for a report (undefined: no sender configured); its text: "2 positions · 1 out of range". */
export function describePositions(report: PositionsReport | undefined, error?: string): StatusView {
  if (error !== undefined)
    return {
      text: 'positions: not read',
      tooltip: `DLMM positions could not be read: ${error}`,
      warning: true,
    };
  if (!report)
    return {
      text: 'positions: no sender',
      tooltip:
        'DLMM positions: set dlmm.dashboard.sender, or open a plan that names a sender, to see its positions',
      warning: false,
    };
  const lines = [`DLMM positions of ${report.sender}`];
  for (const p of report.positions) lines.push(`${poolName(p)}: ${state(p)}`);
  if (report.positions.length === 0) lines.push('no shares in any pool read');
  return {
    text: positionsSummary(report),
    tooltip: lines.join('\n'),
    warning: report.positions.some((p) => p.unknown !== undefined || p.in_range === false),
  };
}

function poolName(p: PositionView): string {
  return p.alias ?? p.pool;
}

function state(p: PositionView): string {
  if (p.unknown !== undefined) return `unknown (${p.unknown})`;
  const lag = p.mayLag !== undefined ? ' (may lag)' : '';
  if (p.in_range) return `in range at bin ${p.active_bin_id}, value ${p.value_in_y} in y${lag}`;
  return `out of range: the active bin ${p.active_bin_id} is ${p.distance} bins ${p.side} it${lag}`;
}

/** Remembers which positions were in range, per sender and pool, to tell when one leaves its range. */
export class RangeTracker {
  /** `${sender} ${pool}` -> in range at the last report that valued it. */
  private readonly inRange = new Map<string, boolean>();

  /**
   * The positions of `report` that were in range at the previous report and are out of range now. An
   * unknown position changes nothing (it is neither in nor out); a position first seen out of range is not
   * a leave (it left before we looked).
   */
  left(report: PositionsReport): PositionView[] {
    const out: PositionView[] = [];
    for (const p of report.positions) {
      if (p.unknown !== undefined || p.in_range === undefined) continue;
      const key = `${report.sender} ${p.pool}`;
      const before = this.inRange.get(key);
      this.inRange.set(key, p.in_range);
      if (before === true && !p.in_range) out.push(p);
    }
    return out;
  }
}

/** The notification's words for positions that just left their range. */
export function leftRangeMessage(left: readonly PositionView[]): string {
  const names = left.map((p) => `${poolName(p)} (the active bin is ${p.distance} bins ${p.side} it)`);
  return `DLMM: your position in ${names.join(', ')} left its range and earns no fees. Write a re-centre move for it?`;
}
