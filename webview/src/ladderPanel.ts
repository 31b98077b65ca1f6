/**
 * The bin ladder panel: zoom, the ladder with positions and the plan overlay, the positions line, and the
 * drift what-if (the plan's transactions executed on the host after a trade moved the active bin).
 */
import { h, setChildren } from './dom';
import { LadderView, ZOOM_STEPS } from './ladder';
import { buildLadderModel } from './model';
import type { DriftOutcome, PlanPreview, PoolView } from './protocol';
import type { HostClient } from './transport';

const DRIFT_LIMIT = 10;

/** What the dashboard shows for the selected pool (the app shell sets it; the panel only reads it). */
export interface Shown {
  view?: PoolView | undefined;
  preview?: PlanPreview | undefined;
}

export class LadderPanel {
  readonly element: HTMLElement;
  readonly ladder: LadderView;
  /** Loading, errors and the positions line above the ladder. */
  readonly status: HTMLElement;
  private readonly zoomSelect: HTMLSelectElement;
  private readonly driftInput: HTMLInputElement;
  private readonly driftValue: HTMLOutputElement;
  private readonly driftResults: HTMLElement;
  private drift = 0;
  private firstPaint = false;

  constructor(
    private readonly client: HostClient,
    private readonly shown: Shown,
    zoom: number,
    private readonly onZoom: () => void,
  ) {
    // One zoom step in (-1) or out (1): the buttons and the ladder's + and - keys.
    const zoomBy = (dir: 1 | -1): void => {
      const i = ZOOM_STEPS.findIndex((z) => z >= this.ladder.zoom);
      this.setZoom(ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, i + dir))]!);
    };
    this.ladder = new LadderView(zoomBy);
    this.ladder.setZoom(zoom);
    this.status = h(
      'div',
      { className: 'section-status', 'data-testid': 'ladder-status' },
      'Loading the pool…',
    );
    this.zoomSelect = h(
      'select',
      { id: 'zoom', 'data-testid': 'zoom', onchange: () => this.setZoom(Number(this.zoomSelect.value)) },
      ...ZOOM_STEPS.map((z) => h('option', { value: z }, z === 500 ? 'all 1001 bins' : `±${z} bins`)),
    );
    this.zoomSelect.value = String(this.ladder.zoom);
    this.driftInput = h('input', {
      id: 'drift',
      'data-testid': 'drift',
      type: 'range',
      min: -DRIFT_LIMIT,
      max: DRIFT_LIMIT,
      step: 1,
      value: 0,
      oninput: () => this.setDrift(Number(this.driftInput.value)),
    });
    this.driftValue = h('output', { for: 'drift', 'data-testid': 'drift-value' }, '0');
    this.driftResults = h('div', {
      className: 'drift-results',
      'data-testid': 'drift-results',
      'aria-live': 'polite',
    });
    this.element = h(
      'section',
      { className: 'panel ladder-panel', 'aria-labelledby': 'ladder-title' },
      h(
        'div',
        { className: 'toolbar' },
        h('h2', { id: 'ladder-title' }, 'Bin ladder'),
        h(
          'button',
          { type: 'button', 'aria-label': 'Zoom in', 'data-testid': 'zoom-in', onclick: () => zoomBy(-1) },
          '+',
        ),
        h('label', { for: 'zoom', className: 'visually-hidden' }, 'Zoom'),
        this.zoomSelect,
        h(
          'button',
          { type: 'button', 'aria-label': 'Zoom out', 'data-testid': 'zoom-out', onclick: () => zoomBy(1) },
          '−',
        ),
        h(
          'span',
          { className: 'legend' },
          h('i', { className: 'sw sw-y' }),
          'Y (bids) ',
          h('i', { className: 'sw sw-x' }),
          'X (asks, in Y value) ',
          h('i', { className: 'sw sw-pos' }),
          'your shares ',
          h('i', { className: 'sw sw-add' }),
          'plan adds ',
          h('i', { className: 'sw sw-rem' }),
          'plan removes',
        ),
      ),
      this.status,
      this.ladder.element,
      h(
        'div',
        { className: 'drift' },
        h('label', { for: 'drift' }, 'Drift what-if: shift the active bin by'),
        h(
          'button',
          {
            type: 'button',
            'aria-label': 'Shift down one bin',
            onclick: () => this.setDrift(this.drift - 1),
          },
          '−1',
        ),
        this.driftInput,
        h(
          'button',
          {
            type: 'button',
            'aria-label': 'Shift up one bin',
            onclick: () => this.setDrift(this.drift + 1),
          },
          '+1',
        ),
        this.driftValue,
      ),
      this.driftResults,
    );
  }

  setZoom(half: number): void {
    this.ladder.setZoom(half);
    this.zoomSelect.value = String(this.ladder.zoom);
    this.onZoom();
  }

  setDrift(k: number): void {
    this.drift = Math.max(-DRIFT_LIMIT, Math.min(DRIFT_LIMIT, Math.trunc(k)));
    this.driftInput.value = String(this.drift);
    this.driftValue.value = `${this.drift >= 0 ? '+' : ''}${this.drift}`;
    this.updateDrift();
  }

  /** The sender's positions line above the ladder, from the pool view. */
  showPositions(view: PoolView): void {
    const p = view.positions;
    setChildren(
      this.status,
      p.state === 'none'
        ? h('p', { className: 'muted', 'data-testid': 'positions-status' }, p.reason)
        : p.state === 'error'
          ? h(
              'div',
              { 'data-testid': 'positions-status' },
              h('p', { className: 'error' }, `${p.error.message} ${p.error.action}`),
            )
          : h(
              'p',
              { className: 'muted', 'data-testid': 'positions-status' },
              `Positions of ${p.sender} (from the ${p.source}): ${p.bins.length} bin(s). App data may lag the tip.`,
            ),
    );
  }

  /** Draws the shown view with the shown preview's overlay and drift. */
  redraw(): void {
    const v = this.shown.view;
    if (!v) return;
    this.ladder.setData(buildLadderModel(v, this.shown.preview), v.header);
    this.updateDrift();
    if (!this.firstPaint) {
      this.firstPaint = true;
      performance.mark('dlmm:ladder-first-paint');
      document.body.dataset.firstPaint = String(performance.now());
    }
  }

  private updateDrift(): void {
    const v = this.shown.view;
    const p = this.shown.preview;
    // Nothing executed to show: no landings, one line saying why.
    const none = (why: string, testid?: string): void => {
      this.ladder.setDrift(this.drift, []);
      setChildren(this.driftResults, h('p', { className: 'muted', 'data-testid': testid }, why));
    };
    if (!v || p?.state !== 'ok' || p.ops.length === 0)
      return none(
        'Open a plan with add, withdraw or move operations on this pool to see what a shift does to them.',
      );
    if (!p.drift.available) return none(p.drift.reason, 'drift-summary');
    // Executed on the host: the plan's transactions run after a trade moved the active bin (core/check/drift.ts).
    const step = p.drift.steps.find((s) => s.k === this.drift);
    if (!step) return none(`No what-if for a shift of ${this.drift}.`, 'drift-summary');
    const outcomes = step.outcomes;
    const landings = outcomes
      .filter((o) => o.mode === 'simple' && o.landing_bin !== null)
      .map((o) => o.landing_bin!);
    this.ladder.setDrift(this.drift, this.drift === 0 ? [] : landings);
    const reverts = outcomes.filter((o) => o.status === 'reverts').length;
    const unknown = outcomes.filter((o) => o.status === 'unknown').length;
    const fine = outcomes.length - reverts - unknown;
    const counts = `${reverts} item(s) revert, ${fine} execute${unknown > 0 ? `, ${unknown} could not be executed` : ''}`;
    setChildren(
      this.driftResults,
      h(
        'p',
        { 'data-testid': 'drift-summary' },
        this.drift === 0
          ? `No shift (the state read): ${counts}.`
          : step.reached
            ? `Active bin ${step.from} → ${step.to} (${step.detail}), then the plan's transactions executed: ${counts}.`
            : `A shift of ${this.drift} cannot be made: ${step.detail}.`,
      ),
      h('ul', {}, ...outcomes.map((o) => this.driftRow(o, p.uri))),
    );
  }

  private driftRow(o: DriftOutcome, uri: string): HTMLElement {
    const text = `${o.op_id} · ${o.mode} · ${o.label}: ${o.reason}`;
    const icon = o.status === 'reverts' ? '✗ ' : o.status === 'unknown' ? '? ' : '✓ ';
    const r = o.range;
    return h(
      'li',
      { className: `drift-${o.status}`, 'data-status': o.status },
      r
        ? h(
            'button',
            {
              type: 'button',
              className: 'link',
              onclick: () =>
                this.client.send({ type: 'revealRange', uri, offset: r.offset, length: r.length }),
            },
            icon,
            text,
          )
        : text,
    );
  }
}
