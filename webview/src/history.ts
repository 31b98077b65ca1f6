/** The price history panel: /app/v2/pools/{id}/bin-price-history as a line chart on a canvas. */
import { cssVar, h, panel, setChildren } from './dom';
import { priceHuman, shortDecimal } from './format';
import type { LadderBin, PlanPreview, PoolHeader, PriceHistory } from './protocol';

/** The plan's range on this pool as prices: its lowest and highest listed bins' prices (raw, exact). */
export interface PriceBand {
  /** Bins of the range (lowest and highest bin of the plan's adds on this pool). */
  fromBin: number;
  toBin: number;
  /** Raw bin prices (decimal strings) of the lowest and highest listed bin within the range. */
  lo: string;
  hi: string;
}

/**
 * The band of the plan's add operations on the pool shown: from their lowest to their highest target bin,
 * priced by the listed bins within it (a bin not listed has no price we know). Undefined without adds, or
 * when no bin of the range is listed.
 */
export function planBand(
  preview: PlanPreview | undefined,
  bins: readonly LadderBin[],
): PriceBand | undefined {
  if (!preview || preview.state !== 'ok') return undefined;
  const ids = preview.ops.filter((o) => o.op === 'add').flatMap((o) => o.items.map((i) => i.bin_id));
  if (ids.length === 0) return undefined;
  const fromBin = Math.min(...ids);
  const toBin = Math.max(...ids);
  const inside = bins.filter((b) => b.bin_id >= fromBin && b.bin_id <= toBin);
  if (inside.length === 0) return undefined;
  const prices = inside.map((b) => BigInt(b.price));
  const lo = prices.reduce((a, b) => (b < a ? b : a));
  const hi = prices.reduce((a, b) => (b > a ? b : a));
  return { fromBin, toBin, lo: lo.toString(), hi: hi.toString() };
}

class PriceChart {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private data: { points: PriceHistory['points']; decX: number; decY: number; unit: string } | undefined;
  private band: PriceBand | undefined;

  constructor() {
    this.canvas = h('canvas', {
      'data-testid': 'price-history',
      role: 'img',
      'aria-label': 'Price history line chart',
    });
    this.element = h('div', { className: 'chart-wrap' }, this.canvas);
    new ResizeObserver(() => this.render()).observe(this.element);
  }

  setData(points: PriceHistory['points'], decX: number, decY: number, unit: string): void {
    this.data = { points, decX, decY, unit };
    this.render();
  }

  /** The plan's range drawn as a band behind the line (undefined: none). */
  setBand(band: PriceBand | undefined): void {
    this.band = band;
    this.render();
  }

  render(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const w = Math.max(200, this.element.clientWidth || 300);
    const hgt = 140;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(hgt * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${hgt}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = cssVar('--ladder-bg', '#1e1e1e');
    ctx.fillRect(0, 0, w, hgt);
    const d = this.data;
    const fg = cssVar('--ladder-fg', '#cccccc');
    const muted = cssVar('--ladder-muted', '#8a8a8a');
    ctx.font = '10px sans-serif';
    if (!d || d.points.length === 0) {
      ctx.fillStyle = muted;
      if (d) ctx.fillText('The engine has no price history for this pool yet.', 8, 20);
      this.canvas.dataset.summary = JSON.stringify({ points: 0 });
      return;
    }
    // Human prices as numbers for the y axis only (display); labels use the exact decimal strings.
    const labels = d.points.map((p) => priceHuman(p.price, d.decX, d.decY));
    const ys = labels.map(Number);
    const t0 = d.points[0]!.timestamp;
    const t1 = d.points[d.points.length - 1]!.timestamp;
    // The band's prices count in the y range, so a range away from the history still shows.
    const band = this.band
      ? [Number(priceHuman(this.band.lo, d.decX, d.decY)), Number(priceHuman(this.band.hi, d.decX, d.decY))]
      : undefined;
    let lo = Math.min(...ys, ...(band ?? []));
    let hi = Math.max(...ys, ...(band ?? []));
    if (hi === lo) [lo, hi] = [lo * 0.999, hi * 1.001 || 1];
    const left = 64;
    const right = w - 8;
    const top = 10;
    const bottom = hgt - 22;
    const px = (t: number): number =>
      t1 === t0 ? (left + right) / 2 : left + ((t - t0) / (t1 - t0)) * (right - left);
    const py = (v: number): number => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    if (band) {
      const [b0, b1] = band as [number, number];
      ctx.fillStyle = cssVar('--ladder-band', 'rgba(55, 148, 255, 0.18)');
      ctx.fillRect(left, py(b1), right - left, Math.max(1, py(b0) - py(b1)));
    }
    ctx.strokeStyle = cssVar('--ladder-y', '#3794ff');
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    d.points.forEach((p, i) =>
      i === 0 ? ctx.moveTo(px(p.timestamp), py(ys[i]!)) : ctx.lineTo(px(p.timestamp), py(ys[i]!)),
    );
    ctx.stroke();
    ctx.fillStyle = fg;
    ctx.textAlign = 'right';
    ctx.fillText(shortDecimal(String(hi)), left - 4, top + 8);
    ctx.fillText(shortDecimal(String(lo)), left - 4, bottom);
    ctx.fillStyle = muted;
    ctx.textAlign = 'left';
    ctx.fillText(timeLabel(t0), left, hgt - 6);
    ctx.textAlign = 'right';
    ctx.fillText(timeLabel(t1), right, hgt - 6);
    ctx.textAlign = 'start';
    ctx.fillText(d.unit, left + 4, top + 8);
    this.canvas.dataset.summary = JSON.stringify({
      points: d.points.length,
      first: labels[0],
      last: labels[labels.length - 1],
      ...(this.band
        ? {
            band: {
              from_bin: this.band.fromBin,
              to_bin: this.band.toBin,
              lo: priceHuman(this.band.lo, d.decX, d.decY),
              hi: priceHuman(this.band.hi, d.decX, d.decY),
            },
          }
        : {}),
    });
  }
}

/** Timestamps may be seconds or milliseconds; both become a short UTC label. */
function timeLabel(t: number): string {
  const ms = t < 1e12 ? t * 1000 : t;
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** The panel: a status line (loading, the number of points, or the error box) over the chart. */
export class HistoryPanel {
  readonly chart = new PriceChart();
  readonly status = h('div', { className: 'section-status' });
  readonly element = panel('history', 'Price history', this.status, this.chart.element);

  show(hist: PriceHistory, band: PriceBand | undefined, hd: PoolHeader): void {
    setChildren(this.status, hist.points.length ? `${hist.points.length} points` : '');
    this.chart.setBand(band);
    this.chart.setData(
      hist.points,
      hd.token_x.decimals,
      hd.token_y.decimals,
      `${hd.token_y.symbol} per ${hd.token_x.symbol}`,
    );
  }
}
