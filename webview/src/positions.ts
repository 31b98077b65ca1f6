/**
 * The sender's Positions panel for the selected pool: valued by the host exactly as `dlmm positions` values
 * it (core/check/positions.ts): per-bin withdraw amounts, totals and value (exact, token decimals), an
 * in-range badge, and the value-vs-hold curve over the what-if shifts as a plot. The plot uses floats only
 * for pixel positions; every figure shown is the host's decimal string. An unknown position shows why and
 * no figures; a source that may lag says so. (The ladder draws the sender's shares from the pool view.)
 */
import { amount, h, setChildren, table } from './dom';
import { human } from './format';
import type { PositionReport, WhatIfRow } from './protocol';
import { ofSender, PoolPanel } from './poolPanel';
import type { HostClient } from './transport';

type Ok = Extract<PositionReport, { state: 'ok' }>;
type Unit = Ok['token_x'];

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function fmt(v: string, unit: Unit): HTMLElement {
  return unit.decimals === null
    ? amount(v, `base units of ${unit.symbol}`)
    : amount(human(v, unit.decimals), unit.symbol);
}

export class PositionsPanel extends PoolPanel<'positions'> {
  constructor(client: HostClient) {
    super(client, {
      method: 'positions',
      name: 'positions',
      testId: 'position',
      title: 'Positions',
      reading: 'Reading the position…',
    });
  }

  protected show(p: Exclude<PositionReport, { state: 'none' }>): void {
    const of = ofSender(p);
    if (p.state === 'empty') {
      setChildren(
        this.body,
        h('p', { className: 'muted', 'data-testid': 'position-empty' }, `${of}: no shares in this pool.`),
      );
      return;
    }
    if (p.state === 'unknown') {
      setChildren(
        this.body,
        h('p', { className: 'muted' }, `${of}:`),
        h('p', { className: 'error', 'data-testid': 'position-unknown' }, `unknown: ${p.reason}`),
      );
      return;
    }
    const badge = h(
      'span',
      {
        className: `badge ${p.in_range ? 'in-range' : 'out-of-range'}`,
        'data-testid': 'position-range',
        'data-in-range': String(p.in_range),
      },
      p.in_range
        ? 'in range'
        : `out of range: the active bin is ${p.distance} bin${p.distance === 1 ? '' : 's'} ${p.side ?? 'outside'} the position`,
    );
    // A total: its label cell, then the amount (`data-amount`: the exact base units).
    const total = (testid: string, label: HTMLElement, v: string, unit: Unit): HTMLElement =>
      h(
        'tr',
        { 'data-testid': testid, 'data-amount': v },
        label,
        h('td', { className: 'num' }, fmt(v, unit)),
      );
    setChildren(
      this.body,
      h('p', { className: 'muted' }, `${of}, read from ${p.read_from}:`),
      p.may_lag !== null
        ? h('p', { className: 'warning', 'data-testid': 'position-lag' }, `May lag: ${p.may_lag}`)
        : null,
      h('p', {}, badge, ` active bin ${p.active_bin_id}`),
      table({ className: 'routes position-totals' }, null, [
        total('position-x', h('td', {}, p.token_x.symbol), p.x_total, p.token_x),
        total('position-y', h('td', {}, p.token_y.symbol), p.y_total, p.token_y),
        total(
          'position-value',
          h('td', { title: "x at the active bin's price, plus y" }, 'Value'),
          p.value_in_y,
          p.token_y,
        ),
      ]),
      this.binsTable(p),
      this.plot(p),
    );
  }

  private binsTable(p: Ok): HTMLElement {
    return h(
      'details',
      {},
      h(
        'summary',
        {},
        `${p.bins.length} bin${p.bins.length === 1 ? '' : 's'} (what withdrawing each returns)`,
      ),
      table(
        { className: 'routes position-bins' },
        [
          h('th', {}, 'Bin'),
          h('th', {}, 'Shares'),
          h('th', {}, p.token_x.symbol),
          h('th', {}, p.token_y.symbol),
        ],
        p.bins.map((b) =>
          h(
            'tr',
            {
              'data-testid': 'position-bin',
              'data-bin': b.bin_id,
              'data-x': b.x_amount,
              'data-y': b.y_amount,
            },
            h('td', { className: 'num' }, String(b.bin_id)),
            h('td', { className: 'num' }, b.shares),
            h('td', { className: 'num' }, fmt(b.x_amount, p.token_x)),
            h('td', { className: 'num' }, fmt(b.y_amount, p.token_y)),
          ),
        ),
      ),
    );
  }

  /** Value (position) and hold value against the shift: floats for pixel positions only. */
  private plot(p: Ok): HTMLElement {
    const pts = p.what_if.filter(
      (w): w is WhatIfRow & { value_in_y: string; hold_value_in_y: string } =>
        w.value_in_y !== null && w.hold_value_in_y !== null,
    );
    const missed = p.what_if.filter((w) => w.value_in_y === null || w.hold_value_in_y === null);
    if (pts.length === 0)
      return h('p', { className: 'muted', 'data-testid': 'whatif-none' }, 'No what-if shift could be made.');
    const W = 320;
    const H = 140;
    const pad = 8;
    const shifts = pts.map((w) => w.shift);
    const lo = Math.min(...shifts);
    const hi = Math.max(...shifts);
    let vmin = BigInt(pts[0]!.value_in_y);
    let vmax = vmin;
    for (const w of pts)
      for (const v of [BigInt(w.value_in_y), BigInt(w.hold_value_in_y)]) {
        if (v < vmin) vmin = v;
        if (v > vmax) vmax = v;
      }
    const span = vmax - vmin;
    const px = (k: number): number => pad + ((k - lo) / Math.max(1, hi - lo)) * (W - 2 * pad);
    // Pixel y: the exact difference scaled to 1e6 parts, then to pixels (a float only here).
    const py = (v: string): number =>
      span === 0n
        ? H / 2
        : H - pad - (Number(((BigInt(v) - vmin) * 1_000_000n) / span) / 1_000_000) * (H - 2 * pad);
    const line = (key: 'value_in_y' | 'hold_value_in_y', cls: string): SVGElement =>
      svg('polyline', {
        class: cls,
        fill: 'none',
        points: pts.map((w) => `${px(w.shift).toFixed(1)},${py(w[key]).toFixed(1)}`).join(' '),
      });
    const dots = pts.map((w) =>
      svg(
        'circle',
        {
          class: 'whatif-dot',
          'data-testid': 'whatif-point',
          'data-shift': w.shift,
          'data-value': w.value_in_y,
          'data-hold': w.hold_value_in_y,
          cx: px(w.shift).toFixed(1),
          cy: py(w.value_in_y).toFixed(1),
          r: 2.5,
        },
        svg(
          'title',
          {},
          document.createTextNode(
            `shift ${w.shift}: value ${this.text(w.value_in_y, p.token_y)}, hold ${this.text(w.hold_value_in_y, p.token_y)}`,
          ),
        ),
      ),
    );
    const zeroX =
      lo <= 0 && hi >= 0 ? [svg('line', { class: 'whatif-zero', x1: px(0), x2: px(0), y1: 0, y2: H })] : [];
    const chart = svg(
      'svg',
      {
        class: 'whatif-plot',
        'data-testid': 'whatif-plot',
        viewBox: `0 0 ${W} ${H}`,
        width: W,
        height: H,
        role: 'img',
        'aria-label': `Position value and hold value (in ${p.token_y.symbol}) over active-bin shifts ${lo} to ${hi}`,
      },
      ...zeroX,
      line('hold_value_in_y', 'whatif-hold'),
      line('value_in_y', 'whatif-value'),
      ...dots,
    );
    return h(
      'figure',
      { className: 'whatif' },
      chart as unknown as HTMLElement,
      h(
        'figcaption',
        { className: 'muted' },
        `What-if: the price moved ${lo}..${hi} bins by executing the smallest trade; `,
        h('span', { className: 'whatif-value-key' }, 'position value'),
        ' vs ',
        h('span', { className: 'whatif-hold-key' }, 'holding today\u2019s amounts'),
        ` (in ${p.token_y.symbol}).`,
        missed.length > 0
          ? ` ${missed.length} shift(s) not made: ${missed[0]!.unknown ?? 'no reason given'}.`
          : '',
      ),
    );
  }

  private text(v: string, unit: Unit): string {
    return unit.decimals === null ? `${v} base units` : `${human(v, unit.decimals)} ${unit.symbol}`;
  }
}
