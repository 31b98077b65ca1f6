/** Price history (/app/v2/pools/{id}/bin-price-history) as a line chart on a canvas. */
import { cssVar, h } from './dom';
import { priceHuman, shortDecimal } from './format';
import type { PriceHistory } from './protocol';

export class PriceChart {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private data: { points: PriceHistory['points']; decX: number; decY: number; unit: string } | undefined;

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
    let lo = Math.min(...ys);
    let hi = Math.max(...ys);
    if (hi === lo) [lo, hi] = [lo * 0.999, hi * 1.001 || 1];
    const left = 64;
    const right = w - 8;
    const top = 10;
    const bottom = hgt - 22;
    const px = (t: number): number =>
      t1 === t0 ? (left + right) / 2 : left + ((t - t0) / (t1 - t0)) * (right - left);
    const py = (v: number): number => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
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
    });
  }
}

/** Timestamps may be seconds or milliseconds; both become a short UTC label. */
function timeLabel(t: number): string {
  const ms = t < 1e12 ? t * 1000 : t;
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
