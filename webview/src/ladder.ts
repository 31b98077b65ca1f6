/**
 * The bin ladder on a hand-tuned canvas. Why not DOM/SVG bars or a chart library: up to 1001 bins with
 * several layers each (reserves, plan overlay, positions, findings) would be thousands of nodes to lay
 * out on every update, and the webview may load nothing remote. Here a render is a few batched paths over
 * typed arrays prepared once per data change (model.ts), hit-testing is arithmetic (bin = x / bar width),
 * and a render of all 1001 bins stays far below a frame (see test/bench/webview.bench.ts).
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID } from '../../core/dlmm/bins';
import { cssVar, h, setChildren } from './dom';
import { human, humanSigned, priceHuman, shortDecimal } from './format';
import { SEVERITIES, type LadderModel } from './model';
import type { PoolHeader } from './protocol';

/** Half-widths of the zoom steps; 500 shows all 1001 bins. */
export const ZOOM_STEPS = [10, 25, 50, 100, 250, 500] as const;

export interface LadderSummary {
  active: number;
  from: number;
  to: number;
  /** Listed bins drawn, with raw reserves and the drawn height in CSS pixels. */
  bars: { bin: number; x: string; y: string; h: number }[];
  /** Bins the plan changes, with net raw deltas. */
  overlay: { bin: number; dx: string; dy: string; finding: number }[];
  positions: number[];
  drift: { k: number; landings: number[] };
  renderMs: number;
}

/** The ladder's colours: CSS custom properties `--ladder-<name>` (styles.css), with these fallbacks. */
const COLOR_FALLBACKS = {
  bg: '#1e1e1e',
  fg: '#cccccc',
  muted: '#8a8a8a',
  x: '#d18616',
  y: '#3794ff',
  active: '#ffd700',
  add: '#89d185',
  remove: '#f14c4c',
  position: '#b180d7',
  info: '#3794ff',
  warning: '#cca700',
  error: '#f14c4c',
  drift: '#c586c0',
};
type Colors = typeof COLOR_FALLBACKS;

const PAD_LEFT = 8;
const PAD_RIGHT = 8;
const PLOT_TOP = 16;
const AXIS_HEIGHT = 46;

/** Fills the closed polygon through `points` (each [x, y]) in the current fill style. */
function fillPolygon(ctx: CanvasRenderingContext2D, ...points: [number, number][]): void {
  ctx.beginPath();
  for (const [x, y] of points) ctx.lineTo(x, y);
  ctx.closePath();
  ctx.fill();
}

export class LadderView {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly tooltip: HTMLElement;
  private readonly live: HTMLElement;
  private model: LadderModel | undefined;
  private header: PoolHeader | undefined;
  private half = 25;
  private cursor: number | undefined;
  private driftK = 0;
  private landings: number[] = [];
  private colors: Colors | undefined;
  private width = 600;
  private height = 280;
  lastSummary: LadderSummary | undefined;
  private pendingSummary: (() => void) | undefined;
  private summaryTimer: ReturnType<typeof setTimeout> | undefined;

  /** `onZoom(-1)`: one zoom step in (+ key); `onZoom(1)`: one step out (- key). */
  constructor(private readonly onZoom: (dir: 1 | -1) => void) {
    this.canvas = h('canvas', {
      'data-testid': 'ladder',
      tabindex: 0,
      role: 'img',
      'aria-label':
        'Bin ladder. Left and right arrows move between bins, plus and minus zoom, Home returns to the active bin.',
    });
    this.tooltip = h('div', {
      className: 'tooltip',
      role: 'tooltip',
      'data-testid': 'ladder-tooltip',
      hidden: true,
    });
    this.live = h('div', { className: 'visually-hidden', 'aria-live': 'polite' });
    this.element = h('div', { className: 'ladder-wrap' }, this.canvas, this.tooltip, this.live);
    this.canvas.addEventListener('mousemove', (e) => this.hover(e.offsetX));
    this.canvas.addEventListener('mouseleave', () => this.hideTooltip());
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.canvas.addEventListener('blur', () => this.hideTooltip());
    new ResizeObserver(() => this.render()).observe(this.element);
    new MutationObserver(() => {
      this.colors = undefined;
      this.render();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  setData(model: LadderModel, header: PoolHeader): void {
    this.model = model;
    this.header = header;
    this.render();
  }

  setZoom(half: number): void {
    this.half = Math.max(10, Math.min(500, half));
    this.render();
  }

  get zoom(): number {
    return this.half;
  }

  setDrift(k: number, landings: number[]): void {
    this.driftK = k;
    this.landings = landings;
    this.render();
  }

  /** Visible bin window: ±half around the active bin, shifted to stay inside -500..500. */
  window(): { from: number; to: number } {
    const active = this.model?.active ?? 0;
    if (this.half >= 500) return { from: MIN_BIN_ID, to: MAX_BIN_ID };
    let from = active - this.half;
    let to = active + this.half;
    if (from < MIN_BIN_ID) [from, to] = [MIN_BIN_ID, MIN_BIN_ID + 2 * this.half];
    if (to > MAX_BIN_ID) [from, to] = [MAX_BIN_ID - 2 * this.half, MAX_BIN_ID];
    return { from, to };
  }

  private readColors(): Colors {
    return (this.colors ??= Object.fromEntries(
      Object.entries(COLOR_FALLBACKS).map(([name, fallback]) => [name, cssVar(`--ladder-${name}`, fallback)]),
    ) as Colors);
  }

  /** Draws the ladder; returns the time it took in ms. */
  render(): number {
    const t0 = performance.now();
    const m = this.model;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return 0;
    const cssW = Math.max(200, this.element.clientWidth || 600);
    const dpr = window.devicePixelRatio || 1;
    if (this.width !== cssW || this.canvas.width !== Math.round(cssW * dpr)) {
      this.width = cssW;
      this.canvas.width = Math.round(cssW * dpr);
      this.canvas.height = Math.round(this.height * dpr);
      this.canvas.style.width = `${cssW}px`;
      this.canvas.style.height = `${this.height}px`;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const c = this.readColors();
    ctx.fillStyle = c.bg;
    ctx.fillRect(0, 0, this.width, this.height);
    if (!m || !this.header) return 0;

    const { from, to } = this.window();
    const count = to - from + 1;
    const plotW = this.width - PAD_LEFT - PAD_RIGHT;
    const bw = plotW / count;
    const gap = bw >= 4 ? 1 : 0;
    const plotBottom = this.height - AXIS_HEIGHT;
    const plotH = plotBottom - PLOT_TOP;
    const base = from + BIN_ID_OFFSET;

    let maxV = 0;
    let maxUser = 0;
    for (let i = base; i < base + count; i++) {
      const before = m.valueX[i]! + m.valueY[i]!;
      const after = m.afterX[i]! + m.afterY[i]!;
      if (before > maxV) maxV = before;
      if (after > maxV) maxV = after;
      if (m.userValue[i]! > maxUser) maxUser = m.userValue[i]!;
    }
    const scale = maxV > 0 ? plotH / maxV : 0;
    const xAt = (i: number): number => PAD_LEFT + (i - base) * bw;

    // Active bin band, under the bars.
    const activeI = m.active + BIN_ID_OFFSET;
    if (activeI >= base && activeI < base + count) {
      ctx.globalAlpha = 0.18;
      ctx.fillStyle = c.active;
      ctx.fillRect(xAt(activeI), PLOT_TOP, Math.max(bw, 2), plotH);
      ctx.globalAlpha = 1;
    }

    // Reserves: Y (bid side) from the bottom, X (ask side) stacked above, both in Y value; one path each.
    const heights: number[] = new Array<number>(count);
    const pathY = new Path2D();
    const pathX = new Path2D();
    for (let i = base; i < base + count; i++) {
      const hy = m.valueY[i]! * scale;
      const hx = m.valueX[i]! * scale;
      heights[i - base] = hx + hy;
      if (hy + hx === 0) continue;
      const x = xAt(i);
      const w = Math.max(bw - gap, 0.75);
      if (hy > 0) pathY.rect(x, plotBottom - hy, w, hy);
      if (hx > 0) pathX.rect(x, plotBottom - hy - hx, w, hx);
    }
    ctx.fillStyle = c.y;
    ctx.fill(pathY);
    ctx.fillStyle = c.x;
    ctx.fill(pathX);

    // Plan overlay: added value (green), removed value (red), the after outline dashed.
    const addPath = new Path2D();
    const removePath = new Path2D();
    const outline = new Path2D();
    const markers: [number, number][] = [];
    for (let i = base; i < base + count; i++) {
      if (!m.hasEffect[i]) continue;
      const x = xAt(i);
      const w = Math.max(bw - gap, 1);
      const before = heights[i - base]!;
      const after = (m.afterX[i]! + m.afterY[i]!) * scale;
      if (after > before) addPath.rect(x, plotBottom - after, w, after - before);
      else if (after < before) removePath.rect(x, plotBottom - before, w, before - after);
      outline.rect(x + 0.5, plotBottom - after + 0.5, Math.max(w - 1, 0.5), Math.max(after - 1, 0));
      if (m.findingRank[i]) markers.push([i, m.findingRank[i]!]);
    }
    ctx.globalAlpha = 0.75;
    ctx.fillStyle = c.add;
    ctx.fill(addPath);
    ctx.fillStyle = c.remove;
    ctx.fill(removePath);
    ctx.globalAlpha = 1;
    ctx.setLineDash([3, 2]);
    ctx.strokeStyle = c.fg;
    ctx.lineWidth = 1;
    ctx.stroke(outline);
    ctx.setLineDash([]);
    for (const [i, rank] of markers) {
      ctx.fillStyle = c[SEVERITIES[rank - 1]!];
      const cx = xAt(i) + bw / 2;
      fillPolygon(ctx, [cx - 5, 2], [cx + 5, 2], [cx, PLOT_TOP - 3]);
    }

    // The user's positions: a strip under the axis, height by the user's share of the bin value.
    const posPath = new Path2D();
    const positions: number[] = [];
    for (let i = base; i < base + count; i++) {
      if (!m.hasPosition[i]) continue;
      positions.push(i - BIN_ID_OFFSET);
      const hp = maxUser > 0 ? Math.max(2, (m.userValue[i]! / maxUser) * 8) : 4;
      posPath.rect(xAt(i), plotBottom + 2 + (8 - hp), Math.max(bw - gap, 1.5), hp);
    }
    ctx.fillStyle = c.position;
    ctx.fill(posPath);

    // Axis line, active marker, drift marker and landings.
    ctx.fillStyle = c.muted;
    ctx.fillRect(PAD_LEFT, plotBottom, plotW, 1);
    if (activeI >= base && activeI < base + count) {
      const cx = xAt(activeI) + bw / 2;
      ctx.fillStyle = c.active;
      fillPolygon(ctx, [cx, plotBottom + 10], [cx - 5, plotBottom + 18], [cx + 5, plotBottom + 18]);
    }
    if (this.driftK !== 0) {
      const di = activeI + this.driftK;
      if (di >= base && di < base + count) {
        const cx = xAt(di) + bw / 2;
        ctx.strokeStyle = c.drift;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(cx, PLOT_TOP);
        ctx.lineTo(cx, plotBottom);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = c.drift;
      for (const b of this.landings) {
        const i = b + BIN_ID_OFFSET;
        if (i < base || i >= base + count) continue;
        const cx = xAt(i) + bw / 2;
        fillPolygon(
          ctx,
          [cx, plotBottom - 8],
          [cx + 4, plotBottom - 4],
          [cx, plotBottom],
          [cx - 4, plotBottom - 4],
        );
      }
    }

    this.drawAxis(ctx, c, from, to, bw, plotBottom);

    if (this.cursor !== undefined && this.cursor >= from && this.cursor <= to) {
      ctx.strokeStyle = c.fg;
      ctx.strokeRect(xAt(this.cursor + BIN_ID_OFFSET) + 0.5, PLOT_TOP, Math.max(bw - 1, 1), plotH);
    }
    if (maxV === 0) {
      ctx.fillStyle = c.muted;
      ctx.font = '12px sans-serif';
      ctx.fillText('No reserves in this range: zoom out to see more bins.', PAD_LEFT + 8, PLOT_TOP + 20);
    }

    const renderMs = performance.now() - t0;
    // The test summary is built after the frame, once per task however many renders ran.
    this.pendingSummary = () => this.publishSummary(m, from, to, heights, positions, renderMs);
    if (!this.summaryTimer) {
      this.summaryTimer = setTimeout(() => {
        this.summaryTimer = undefined;
        this.pendingSummary?.();
      }, 0);
    }
    return renderMs;
  }

  private drawAxis(
    ctx: CanvasRenderingContext2D,
    c: Colors,
    from: number,
    to: number,
    bw: number,
    plotBottom: number,
  ): void {
    const hd = this.header!;
    const m = this.model!;
    const minSpacing = 96;
    const stepBins = Math.max(1, Math.ceil(minSpacing / bw));
    const nice = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250];
    const step = nice.find((n) => n >= stepBins) ?? 500;
    ctx.font = '10px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const start = Math.ceil(from / step) * step;
    for (let b = start; b <= to; b += step) {
      const cx = PAD_LEFT + (b - from) * bw + bw / 2;
      ctx.fillStyle = c.muted;
      ctx.fillRect(cx, plotBottom, 1, 4);
      const price = m.price[b + BIN_ID_OFFSET];
      ctx.fillStyle = c.fg;
      ctx.fillText(
        price !== undefined ? shortDecimal(priceHuman(price, hd.token_x.decimals, hd.token_y.decimals)) : '—',
        cx,
        plotBottom + 20,
      );
      ctx.fillStyle = c.muted;
      ctx.fillText(`bin ${b}`, cx, plotBottom + 32);
    }
    ctx.textAlign = 'start';
  }

  private publishSummary(
    m: LadderModel,
    from: number,
    to: number,
    heights: number[],
    positions: number[],
    renderMs: number,
  ): void {
    const bars: LadderSummary['bars'] = [];
    const overlay: LadderSummary['overlay'] = [];
    for (let b = from; b <= to; b++) {
      const i = b + BIN_ID_OFFSET;
      if (m.listed[i])
        bars.push({
          bin: b,
          x: m.reserveX[i]!.toString(),
          y: m.reserveY[i]!.toString(),
          h: Math.round(heights[b - from]! * 10) / 10,
        });
      if (m.hasEffect[i])
        overlay.push({
          bin: b,
          dx: m.deltaX[i]!.toString(),
          dy: m.deltaY[i]!.toString(),
          finding: m.findingRank[i]!,
        });
    }
    this.lastSummary = {
      active: m.active,
      from,
      to,
      bars,
      overlay,
      positions,
      drift: { k: this.driftK, landings: this.landings },
      renderMs,
    };
    this.canvas.dataset.active = String(m.active);
    this.canvas.dataset.range = `${from}..${to}`;
    // The drawn bars as JSON on the element: what the Chromium tests assert against.
    this.canvas.dataset.summary = JSON.stringify(this.lastSummary);
  }

  private binAt(offsetX: number): number | undefined {
    const { from, to } = this.window();
    const bw = (this.width - PAD_LEFT - PAD_RIGHT) / (to - from + 1);
    const b = from + Math.floor((offsetX - PAD_LEFT) / bw);
    return b >= from && b <= to ? b : undefined;
  }

  private hover(offsetX: number): void {
    const b = this.binAt(offsetX);
    if (b === undefined) return this.hideTooltip();
    this.showTooltip(b, offsetX);
  }

  private key(e: KeyboardEvent): void {
    const m = this.model;
    if (!m) return;
    let handled = true;
    const cur = this.cursor ?? m.active;
    switch (e.key) {
      case 'ArrowLeft':
        this.cursor = Math.max(MIN_BIN_ID, cur - (e.shiftKey ? 10 : 1));
        break;
      case 'ArrowRight':
        this.cursor = Math.min(MAX_BIN_ID, cur + (e.shiftKey ? 10 : 1));
        break;
      case 'Home':
        this.cursor = m.active;
        break;
      case '+':
      case '=':
        this.onZoom(-1);
        break;
      case '-':
      case '_':
        this.onZoom(1);
        break;
      case 'Escape':
        this.cursor = undefined;
        this.hideTooltip();
        break;
      default:
        handled = false;
    }
    if (!handled) return;
    e.preventDefault();
    this.render();
    if (this.cursor !== undefined) {
      const w = this.window();
      if (this.cursor < w.from || this.cursor > w.to) return;
      const bw = (this.width - PAD_LEFT - PAD_RIGHT) / (w.to - w.from + 1);
      this.showTooltip(this.cursor, PAD_LEFT + (this.cursor - w.from) * bw + bw / 2);
    }
  }

  /** The tooltip text for a bin (raw and human values); also read out through the live region. */
  describeBin(b: number): string[] {
    const m = this.model;
    const hd = this.header;
    if (!m || !hd) return [];
    const i = b + BIN_ID_OFFSET;
    const dx = hd.token_x.decimals;
    const dy = hd.token_y.decimals;
    const sx = hd.token_x.symbol;
    const sy = hd.token_y.symbol;
    const lines = [
      `Bin ${b}${b === m.active ? ' (active)' : b < m.active ? ' (bid side: Y)' : ' (ask side: X)'}`,
    ];
    const price = m.price[i];
    if (price === undefined) {
      lines.push('Not listed by the engine (no reserves).');
    } else {
      lines.push(`Price ${priceHuman(price, dx, dy)} ${sy} per ${sx} (raw ${price})`);
      lines.push(`X ${human(m.reserveX[i]!, dx)} ${sx} (raw ${m.reserveX[i]})`);
      lines.push(`Y ${human(m.reserveY[i]!, dy)} ${sy} (raw ${m.reserveY[i]})`);
    }
    if (m.hasPosition[i]) lines.push(`Your shares: ${m.userShares[i]}`);
    if (m.hasEffect[i]) {
      lines.push(
        `Plan: X ${humanSigned(m.deltaX[i]!, dx)} ${sx}, Y ${humanSigned(m.deltaY[i]!, dy)} ${sy} (raw ${m.deltaX[i]} / ${m.deltaY[i]})`,
      );
      const rank = m.findingRank[i]!;
      if (rank) lines.push(`Findings: ${SEVERITIES[rank - 1]} on an item here`);
    }
    return lines;
  }

  private showTooltip(b: number, x: number): void {
    const lines = this.describeBin(b);
    setChildren(this.tooltip, ...lines.map((l, n) => h('div', { className: n === 0 ? 'tt-title' : '' }, l)));
    this.tooltip.hidden = false;
    const left = Math.min(Math.max(0, x + 12), Math.max(0, this.width - 300));
    this.tooltip.style.left = `${left}px`;
    this.tooltip.style.top = `${PLOT_TOP + 4}px`;
    this.live.textContent = lines.join('. ');
  }

  private hideTooltip(): void {
    this.tooltip.hidden = true;
  }
}
