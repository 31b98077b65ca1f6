/**
 * The ladder's data model, pure (no DOM): per-bin values normalized to token Y so X and Y bars compare,
 * the user's positions and the plan's before/after effects (the drift what-if is executed on the host:
 * PlanPreview.drift). Built once per data change
 * into typed arrays indexed by unsigned id, so a render only reads numbers.
 */
import { BIN_ID_OFFSET, NUM_BINS, PRICE_SCALE } from '../../core/dlmm/bins';
import type { FindingInfo, PlanPreview, PoolView, PreviewItem } from './protocol';

/** Finding severities, least first: a rank is 1 + the index of the worst severity here (0: no finding). */
export const SEVERITIES = ['info', 'warning', 'error'] as const;

/** The rank of the worst of `findings` (0 for none, 1 info, 2 warning, 3 error). */
export function worstRank(findings: readonly FindingInfo[]): number {
  return findings.reduce((r, f) => Math.max(r, SEVERITIES.indexOf(f.severity) + 1), 0);
}

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
    const price = BigInt(b.price);
    m.listed[i] = 1;
    m.price[i] = price;
    m.reserveX[i] = BigInt(b.reserve_x);
    m.reserveY[i] = BigInt(b.reserve_y);
    m.valueX[i] = Number(xValueInY(m.reserveX[i]!, price));
    m.valueY[i] = Number(m.reserveY[i]!);
  }
  if (view.positions.state === 'ok') {
    for (const p of view.positions.bins) {
      const i = idx(p.bin_id);
      const shares = BigInt(p.user_liquidity);
      if (shares === 0n) continue;
      m.hasPosition[i] = 1;
      m.userShares[i] = p.user_liquidity;
      const total = p.liquidity === null ? 0n : BigInt(p.liquidity);
      const price = m.price[i];
      if (total > 0n && price !== undefined) {
        const value = xValueInY(BigInt(p.reserve_x), price) + BigInt(p.reserve_y);
        m.userValue[i] = Number((value * shares) / total);
      }
    }
  }
  m.afterX.set(m.valueX);
  m.afterY.set(m.valueY);
  if (preview?.state === 'ok') {
    for (const op of preview.ops) {
      for (const item of op.items) applyItem(m, item);
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

function applyItem(m: LadderModel, item: PreviewItem): void {
  const rank = worstRank(item.findings);
  for (const e of item.effects) {
    const i = idx(e.bin_id);
    m.hasEffect[i] = 1;
    m.deltaX[i] = m.deltaX[i]! + BigInt(e.dx);
    m.deltaY[i] = m.deltaY[i]! + BigInt(e.dy);
    if (rank > m.findingRank[i]!) m.findingRank[i] = rank;
  }
}
