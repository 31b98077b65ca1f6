/**
 * The ladder's data model, pure (no DOM): per-bin values normalized to token Y so X and Y bars compare,
 * the user's positions, the plan's before/after effects, and the drift what-if. Built once per data change
 * into typed arrays indexed by unsigned id, so a render only reads numbers.
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID, NUM_BINS, PRICE_SCALE } from '../../core/dlmm/bins';
import type { PlanPreview, PoolView, PreviewItem, PreviewOp } from './protocol';

export const SEVERITY_RANK = { info: 1, warning: 2, error: 3 } as const;

export interface LadderModel {
  active: number;
  /** Bins the engine listed (1 = listed). */
  listed: Uint8Array;
  price: (bigint | undefined)[];
  reserveX: bigint[];
  reserveY: bigint[];
  /**
   * Pixel magnitudes only: value of the bin's X in Y base units (reserve_x * price / 1e8, exact in bigint)
   * and its Y, turned into floats for drawing. Amounts themselves stay bigint/strings.
   */
  valueX: Float64Array;
  valueY: Float64Array;
  /** The user's share of the bin's value (0 when no position); hasPosition marks bins with shares. */
  userValue: Float64Array;
  hasPosition: Uint8Array;
  userShares: (string | undefined)[];
  /** After the plan: the bin's values once every previewed item applied. hasEffect marks touched bins. */
  afterX: Float64Array;
  afterY: Float64Array;
  hasEffect: Uint8Array;
  deltaX: bigint[];
  deltaY: bigint[];
  /** Worst finding severity of items touching the bin (0 none, 1 info, 2 warning, 3 error). */
  findingRank: Uint8Array;
}

const idx = (binId: number): number => binId + BIN_ID_OFFSET;

function big(s: string): bigint {
  return BigInt(s);
}

/** Y-normalized value of an X amount at a bin price (floor, exact). */
export function xValueInY(x: bigint, price: bigint): bigint {
  return (x * price) / PRICE_SCALE;
}

/** Builds the model from the pool view and (optionally) the plan preview on the same pool. */
export function buildLadderModel(view: PoolView, preview?: PlanPreview): LadderModel {
  const m: LadderModel = {
    active: view.header.active_bin,
    listed: new Uint8Array(NUM_BINS),
    price: new Array<bigint | undefined>(NUM_BINS).fill(undefined),
    reserveX: new Array<bigint>(NUM_BINS).fill(0n),
    reserveY: new Array<bigint>(NUM_BINS).fill(0n),
    valueX: new Float64Array(NUM_BINS),
    valueY: new Float64Array(NUM_BINS),
    userValue: new Float64Array(NUM_BINS),
    hasPosition: new Uint8Array(NUM_BINS),
    userShares: new Array<string | undefined>(NUM_BINS).fill(undefined),
    afterX: new Float64Array(NUM_BINS),
    afterY: new Float64Array(NUM_BINS),
    hasEffect: new Uint8Array(NUM_BINS),
    deltaX: new Array<bigint>(NUM_BINS).fill(0n),
    deltaY: new Array<bigint>(NUM_BINS).fill(0n),
    findingRank: new Uint8Array(NUM_BINS),
  };
  for (const b of view.bins) {
    const i = idx(b.bin_id);
    const price = big(b.price);
    m.listed[i] = 1;
    m.price[i] = price;
    m.reserveX[i] = big(b.reserve_x);
    m.reserveY[i] = big(b.reserve_y);
    m.valueX[i] = Number(xValueInY(m.reserveX[i]!, price));
    m.valueY[i] = Number(m.reserveY[i]!);
  }
  if (view.positions.state === 'ok') {
    for (const p of view.positions.bins) {
      const i = idx(p.bin_id);
      const shares = big(p.user_liquidity);
      if (shares === 0n) continue;
      m.hasPosition[i] = 1;
      m.userShares[i] = p.user_liquidity;
      const total = p.liquidity === null ? 0n : big(p.liquidity);
      const price = m.price[i];
      if (total > 0n && price !== undefined) {
        const value = xValueInY(big(p.reserve_x), price) + big(p.reserve_y);
        m.userValue[i] = Number((value * shares) / total);
      }
    }
  }
  m.afterX.set(m.valueX);
  m.afterY.set(m.valueY);
  if (preview?.state === 'ok') {
    for (const op of preview.ops) {
      for (const item of op.items) applyItem(m, op, item);
    }
    for (let i = 0; i < NUM_BINS; i++) {
      if (!m.hasEffect[i]) continue;
      const price = m.price[i] ?? 0n;
      const ax = m.reserveX[i]! + m.deltaX[i]!;
      const ay = m.reserveY[i]! + m.deltaY[i]!;
      m.afterX[i] = Number(xValueInY(ax < 0n ? 0n : ax, price));
      m.afterY[i] = Number(ay < 0n ? 0n : ay);
    }
  }
  return m;
}

function applyItem(m: LadderModel, _op: PreviewOp, item: PreviewItem): void {
  const rank = item.findings.reduce((r, f) => Math.max(r, SEVERITY_RANK[f.severity]), 0);
  for (const e of item.effects) {
    const i = idx(e.bin_id);
    m.hasEffect[i] = 1;
    m.deltaX[i] = m.deltaX[i]! + big(e.dx);
    m.deltaY[i] = m.deltaY[i]! + big(e.dy);
    if (rank > m.findingRank[i]!) m.findingRank[i] = rank;
  }
}

// ---- drift what-if --------------------------------------------------------------------------------

export type DriftStatus = 'ok' | 'at-risk' | 'reverts';

export interface DriftOutcome {
  op_id: string;
  mode: 'strict' | 'simple';
  kind: PreviewItem['kind'];
  label: string;
  /** Where the item acts after the shift (strict: unchanged; simple: offset from the shifted active bin). */
  landing_bin: number | null;
  status: DriftStatus;
  reason: string;
  range: PreviewItem['range'];
}

function inDomain(b: number): boolean {
  return b >= MIN_BIN_ID && b <= MAX_BIN_ID;
}

/** Placement rule at active bin `a`: the violation in words, or undefined when the amounts fit. */
export function placementViolation(bin: number, a: number, x: bigint, y: bigint): string | undefined {
  if (bin < a && x > 0n) return `bin ${bin} is below the active bin ${a} but the item carries X`;
  if (bin > a && y > 0n) return `bin ${bin} is above the active bin ${a} but the item carries Y`;
  if (bin === a && x === 0n && y === 0n) return `bin ${bin} is the active bin and both amounts are 0`;
  return undefined;
}

/**
 * What a shift of the active bin by `k` does to each previewed item: strict items whose placement rule
 * flips revert (deny mode), and those crossed by the shift are at risk; simple items follow the active bin
 * (offset from the shifted active bin), reverting when the shift exceeds the add's tolerance or leaves the
 * domain, or when a withdraw lands on a bin without the user's shares.
 */
export function driftWhatIf(
  ops: readonly PreviewOp[],
  k: number,
  tolerance: number,
  positionBins: ReadonlySet<number>,
  listedBins: ReadonlySet<number>,
): DriftOutcome[] {
  const out: DriftOutcome[] = [];
  for (const op of ops) {
    const a = op.active_bin_id;
    const shifted = a + k;
    for (const item of op.items) {
      const base = {
        op_id: op.id,
        mode: op.mode,
        kind: item.kind,
        label: item.label,
        range: item.range ?? op.range,
      };
      const x = BigInt(item.x_amount);
      const y = BigInt(item.y_amount);
      if (op.mode === 'strict') {
        const bin = item.bin_id;
        if (item.kind === 'withdraw') {
          const lo = Math.min(a, shifted);
          const hi = Math.max(a, shifted);
          const crossed = k !== 0 && bin >= lo && bin <= hi;
          out.push({
            ...base,
            landing_bin: bin,
            status: crossed ? 'at-risk' : 'ok',
            reason: crossed
              ? `the shift swaps through bin ${bin}: its X/Y mix changes and the minimum amounts may revert`
              : 'unaffected',
          });
          continue;
        }
        const violation = k === 0 ? undefined : placementViolation(bin, shifted, x, y);
        if (violation)
          out.push({ ...base, landing_bin: bin, status: 'reverts', reason: `placement flips: ${violation}` });
        else if (k !== 0 && bin === shifted)
          out.push({
            ...base,
            landing_bin: bin,
            status: 'at-risk',
            reason: `bin ${bin} becomes the active bin: a liquidity fee applies and the fee bound may revert`,
          });
        else if (k === 0 && Math.abs(bin - a) <= 1)
          out.push({
            ...base,
            landing_bin: bin,
            status: 'at-risk',
            reason: `targets the active bin or its neighbour: a 1-bin shift can revert it`,
          });
        else
          out.push({
            ...base,
            landing_bin: bin,
            status: 'ok',
            reason: k === 0 ? 'as prepared' : 'placement still holds',
          });
        continue;
      }
      const offset = item.active_bin_offset ?? item.bin_id - a;
      const landing = shifted + offset;
      if (!inDomain(landing)) {
        out.push({
          ...base,
          landing_bin: null,
          status: 'reverts',
          reason: `lands at bin ${landing}, outside -500..500`,
        });
      } else if (item.kind === 'add' && Math.abs(k) > tolerance) {
        out.push({
          ...base,
          landing_bin: landing,
          status: 'reverts',
          reason: `the active bin moved ${Math.abs(k)} bins, beyond active_bin_tolerance ${tolerance}`,
        });
      } else if (item.kind === 'move' && item.from_bin_id === landing) {
        out.push({
          ...base,
          landing_bin: landing,
          status: 'reverts',
          reason: `lands on its own from bin ${landing}`,
        });
      } else if (item.kind === 'withdraw' && !positionBins.has(landing)) {
        out.push({
          ...base,
          landing_bin: landing,
          status: 'reverts',
          reason: `lands at bin ${landing}, where the user has no shares`,
        });
      } else if (item.kind !== 'withdraw' && !listedBins.has(landing)) {
        out.push({
          ...base,
          landing_bin: landing,
          status: 'at-risk',
          reason: `lands at bin ${landing}, which the ladder does not list`,
        });
      } else {
        out.push({
          ...base,
          landing_bin: landing,
          status: 'ok',
          reason: `lands at bin ${landing} (offset ${offset >= 0 ? '+' : ''}${offset})`,
        });
      }
    }
  }
  return out;
}
