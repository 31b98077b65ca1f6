/**
 * Re-centring: a move operation (simple mode, one transaction) that takes the sender's positions outside
 * ±width of the active bin into a shape around it. Pure; the result is written as plan text and then checked
 * like every move (amount <= user liquidity, no dust, placement, no duplicate target).
 *
 * Side by side: a position above the active bin holds token X and moves to bins active+1..active+width, one
 * below holds token Y and moves to active-width..active-1 (the active bin itself is not a target: a one-token
 * move into it would pay the fee on the unbalanced part). Positions already within ±width, and the active bin,
 * stay where they are (their bins can still receive moved liquidity). A target bin takes exactly one source (a bin twice in
 * one operation is a duplicate): each source gets a contiguous group of target bins, sized by its token
 * amount (largest remainder, at least one each), and splits all its shares over the group by the shape's
 * weights (X side by value, as distributions do). So the whole position moves (nothing left behind), every
 * item moves something, and the shape holds within each group.
 */
import { shapeWeight, splitExact, X_WEIGHT_SCALE, type ShapeName } from '../dlmm/shapes';
import type { PositionRecord } from '../live/live';

interface RecentreInput {
  positions: readonly PositionRecord[];
  active: number;
  /** Prices of the pool's listed bins (targets must be listed). */
  priceOf(bin: number): bigint | undefined;
  shape: ShapeName;
  width: number;
}

export interface RecentreMove {
  from_bin_id: number;
  to_bin_id: number;
  active_bin_offset: number;
  amount: bigint;
  x_amount: bigint;
  y_amount: bigint;
}

type RecentreResult =
  | {
      ok: true;
      moves: RecentreMove[];
      /** Positions left where they are, with why. */
      kept: Array<{ bin_id: number; why: string }>;
    }
  | { ok: false; error: string };

function yieldOf(p: PositionRecord, shares: bigint): { x: bigint; y: bigint } {
  if (p.liquidity === null || p.liquidity <= 0n) return { x: 0n, y: 0n };
  return { x: (shares * p.reserve_x) / p.liquidity, y: (shares * p.reserve_y) / p.liquidity };
}

/** The moves re-centring `positions` around `active`. */
export function planRecentre(input: RecentreInput): RecentreResult {
  const { active, width, shape } = input;
  if (!Number.isInteger(width) || width < 1) return { ok: false, error: `width must be >= 1, got ${width}` };
  const kept: Array<{ bin_id: number; why: string }> = [];
  const xSources: Array<{ p: PositionRecord; amount: bigint }> = [];
  const ySources: Array<{ p: PositionRecord; amount: bigint }> = [];
  for (const p of input.positions) {
    if (p.user_liquidity <= 0n) continue;
    if (Math.abs(p.bin_id - active) <= width) {
      kept.push({
        bin_id: p.bin_id,
        why: p.bin_id === active ? 'the active bin' : 'already within the range',
      });
      continue;
    }
    const { x, y } = yieldOf(p, p.user_liquidity);
    if (x > 0n && y === 0n) xSources.push({ p, amount: x });
    else if (y > 0n && x === 0n) ySources.push({ p, amount: y });
    else
      kept.push({
        bin_id: p.bin_id,
        why:
          x + y === 0n
            ? 'its shares are worth nothing (or the bin shares are unknown)'
            : 'it holds both tokens',
      });
  }
  const moves: RecentreMove[] = [];
  for (const side of ['x', 'y'] as const) {
    const sources = side === 'x' ? xSources : ySources;
    if (sources.length === 0) continue;
    // Targets nearest the active bin first.
    const targets: number[] = [];
    for (let d = 1; d <= width; d++) {
      const b = side === 'x' ? active + d : active - d;
      if (input.priceOf(b) !== undefined) targets.push(b);
    }
    if (targets.length < sources.length)
      return {
        ok: false,
        error: `${sources.length} bins of token ${side.toUpperCase()} need at least as many listed bins ${side === 'x' ? 'above' : 'below'} the active bin ${active}, but width ${width} gives ${targets.length}; widen the range`,
      };
    // Sources nearest the active bin take the targets nearest it.
    sources.sort((a, b) => Math.abs(a.p.bin_id - active) - Math.abs(b.p.bin_id - active));
    const extra = splitExact(
      BigInt(targets.length - sources.length),
      sources.map((s) => s.amount),
    );
    const edge = width;
    let next = 0;
    sources.forEach((src, k) => {
      const size = 1 + Number(extra[k] ?? 0n);
      const group = targets.slice(next, next + size);
      next += size;
      const weights = group.map((b) => {
        const w = shapeWeight(shape, Math.abs(b - active), edge);
        return side === 'x' ? (w * X_WEIGHT_SCALE) / (input.priceOf(b) as bigint) || 1n : w;
      });
      // Drop the farthest bins until every item moves something (no dust items).
      for (let n = group.length; n >= 1; n--) {
        const parts = splitExact(src.p.user_liquidity, weights.slice(0, n));
        const ys = parts.map((sh) => yieldOf(src.p, sh));
        if (ys.every((v) => v.x + v.y > 0n) || n === 1) {
          parts.forEach((sh, j) => {
            const to = group[j] as number;
            const v = ys[j] as { x: bigint; y: bigint };
            moves.push({
              from_bin_id: src.p.bin_id,
              to_bin_id: to,
              active_bin_offset: to - active,
              amount: sh,
              x_amount: v.x,
              y_amount: v.y,
            });
          });
          break;
        }
      }
    });
  }
  moves.sort((a, b) => a.to_bin_id - b.to_bin_id);
  return { ok: true, moves, kept };
}

/** A move operation as block YAML list-item lines, indented by `pad` (the column of the operations' dash). */
export function recentreOpYaml(
  pool: string,
  moves: readonly RecentreMove[],
  pad: string,
  id = 'recentre',
): string {
  const lines = [
    `${pad}- id: ${id}`,
    `${pad}  op: move`,
    `${pad}  mode: simple`,
    `${pad}  pool: ${pool}`,
    `${pad}  moves:`,
    ...moves.map(
      (m) =>
        `${pad}    - { from_bin_id: ${m.from_bin_id}, active_bin_offset: ${m.active_bin_offset}, amount: ${m.amount} }`,
    ),
  ];
  return lines.join('\n');
}
