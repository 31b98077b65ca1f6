/**
 * The dashboard app: pool picker and header, the ladder with positions, plan overlay and drift what-if,
 * the plan item list, the quote panel and the price history. Every load ends: in data, or in an error
 * that says what to do with a Retry button (requests are bounded by the client's timeout).
 */
import { h, setChildren } from './dom';
import { bpsLabel, human, priceHuman } from './format';
import { PriceChart, planBand } from './history';
import { LadderView, ZOOM_STEPS } from './ladder';
import { buildLadderModel } from './model';
import type {
  DriftOutcome,
  EngineStatus,
  FindingInfo,
  Overview,
  PlanPreview,
  PoolView,
  WebviewState,
} from './protocol';
import { BalancesPanel } from './balances';
import { PositionsPanel } from './positions';
import { QuotePanel } from './quote';
import { errorInfoOf, type HostClient, type Transport } from './transport';

const DRIFT_LIMIT = 10;

export class DashboardApp {
  private readonly root: HTMLElement;
  private readonly picker: HTMLSelectElement;
  private readonly headerFacts: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly ladderStatus: HTMLElement;
  private readonly zoomSelect: HTMLSelectElement;
  private readonly driftInput: HTMLInputElement;
  private readonly driftValue: HTMLOutputElement;
  private readonly driftResults: HTMLElement;
  private readonly planList: HTMLElement;
  private readonly historyStatus: HTMLElement;
  private readonly notice: HTMLElement;
  readonly ladder: LadderView;
  private readonly chart = new PriceChart();
  private readonly quote: QuotePanel;
  private readonly balances: BalancesPanel;
  private readonly positions: PositionsPanel;

  private overview: Overview | undefined;
  private poolId: string | null = null;
  private view: PoolView | undefined;
  private preview: PlanPreview | undefined;
  private drift = 0;
  private loadSeq = 0;
  private firstPaint = false;
  /** The pool of the latest loadPool (so the pool list does not load it a second time). */
  private loadingPool: string | null = null;

  constructor(
    mount: HTMLElement,
    private readonly client: HostClient,
    private readonly transport: Transport,
  ) {
    const state = savedState(transport.getState());
    this.poolId = state.pool_id;
    // The handshake goes first, so the host's answer travels while the page builds itself (the answer is
    // delivered as a later task, after this constructor has registered its listener below).
    this.client.send({ type: 'ready', last_pool_id: this.poolId });

    this.picker = h('select', {
      id: 'pool-picker',
      'data-testid': 'pool-picker',
      onchange: () => this.selectPool(this.picker.value),
    });
    this.headerFacts = h('div', { className: 'facts', 'data-testid': 'pool-header' });
    this.statusLine = h('div', { className: 'status', 'data-testid': 'engine-status' });
    this.banner = h('div', {
      className: 'banner',
      'data-testid': 'stale-banner',
      role: 'alert',
      hidden: true,
    });
    this.notice = h('div', { className: 'notice', role: 'status', hidden: true });
    this.ladder = new LadderView((half) => this.setZoom(half));
    this.ladder.setZoom(state.zoom);
    this.ladderStatus = h(
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
    this.planList = h('div', { className: 'plan-list', 'data-testid': 'plan-list' });
    this.historyStatus = h('div', { className: 'section-status' });
    this.quote = new QuotePanel(client, (e, retry) => this.errorBox(e, retry));
    this.balances = new BalancesPanel(client, (e, retry) => this.errorBox(e, retry));
    this.positions = new PositionsPanel(client, (e, retry) => this.errorBox(e, retry));

    const zoomBy = (dir: 1 | -1): void => {
      const i = ZOOM_STEPS.findIndex((z) => z >= this.ladder.zoom);
      this.setZoom(ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, i + dir))]!);
    };
    this.root = h(
      'main',
      { className: 'dashboard' },
      h(
        'header',
        { className: 'top' },
        h('label', { for: 'pool-picker' }, 'Pool'),
        this.picker,
        this.headerFacts,
        this.statusLine,
      ),
      this.banner,
      this.notice,
      h(
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
        this.ladderStatus,
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
      ),
      h(
        'div',
        { className: 'columns' },
        h(
          'section',
          { className: 'panel plan', 'aria-labelledby': 'plan-title' },
          h('h2', { id: 'plan-title' }, 'Plan preview'),
          this.planList,
        ),
        this.quote.element,
        this.balances.element,
        this.positions.element,
        h(
          'section',
          { className: 'panel history', 'aria-labelledby': 'history-title' },
          h('h2', { id: 'history-title' }, 'Price history'),
          this.historyStatus,
          this.chart.element,
        ),
      ),
    );
    setChildren(mount, this.root);

    client.onNotification((m) => {
      switch (m.type) {
        case 'init':
          this.quote.setExportAvailable(m.export_available);
          this.poolId = this.poolId ?? m.pool_id;
          // The handshake's answer carries the pool list and the pool's view: the ladder is drawn from it
          // (one round trip to the first paint); what it lacks is asked for.
          if (this.poolId) void this.loadPool(m.pool_id === this.poolId ? m.view : undefined);
          void this.loadOverview(m.overview);
          break;
        case 'stateChanged':
          void this.refreshStatus();
          void this.loadPool();
          break;
        case 'planChanged':
          void this.loadPreview();
          // The sender may be the plan's: its balances and position follow the open plan.
          if (this.poolId) {
            void this.balances.load(this.poolId);
            void this.positions.load(this.poolId);
          }
          break;
        case 'showPool':
          if (m.pool_id !== this.poolId) {
            this.picker.value = m.pool_id;
            this.selectPool(m.pool_id);
          }
          break;
        case 'notice':
          this.notice.hidden = false;
          this.notice.className = `notice ${m.level}`;
          this.notice.textContent = m.message;
          break;
      }
    });
  }

  private save(): void {
    this.transport.setState({ pool_id: this.poolId, zoom: this.ladder.zoom } satisfies WebviewState);
  }

  /** An error with what to do and a Retry button (the end of every failed load). */
  errorBox(e: unknown, retry: () => void): HTMLElement {
    const info = errorInfoOf(e);
    return h(
      'div',
      { className: 'error-box', role: 'alert', 'data-testid': 'error', 'data-code': info.code },
      h('p', { className: 'error' }, info.message),
      h('p', {}, info.action),
      h('button', { type: 'button', onclick: retry }, 'Retry'),
    );
  }

  private async loadOverview(given?: Overview): Promise<void> {
    if (!this.loadingPool) setChildren(this.ladderStatus, 'Loading pools…');
    try {
      this.overview = given ?? (await this.client.request('overview', {}));
    } catch (e) {
      setChildren(
        this.ladderStatus,
        this.errorBox(e, () => void this.loadOverview()),
      );
      return;
    }
    const ov = this.overview;
    setChildren(
      this.picker,
      ...ov.pools.map((p) =>
        h(
          'option',
          { value: p.pool_id },
          `${p.symbol_x}/${p.symbol_y} · ${p.bin_step} bps${p.alias ? ` · ${p.alias}` : ''}${p.active ? '' : ' · inactive'}`,
        ),
      ),
    );
    this.quote.setTokens(ov.tokens);
    this.showStatus(ov.status);
    if (ov.pools.length === 0) {
      setChildren(
        this.ladderStatus,
        h(
          'p',
          { className: 'error' },
          'The engine lists no pools. Check that "dlmm.apiUrl" points to the right engine.',
        ),
      );
      return;
    }
    const known = ov.pools.find((p) => p.pool_id === this.poolId || p.alias === this.poolId);
    const chosen = (known ?? ov.pools[0]!).pool_id;
    this.picker.value = chosen;
    this.poolId = chosen;
    this.save();
    this.client.send({ type: 'selectPool', pool_id: chosen });
    // Already loading when it is the pool `init` named (remembered, or the first listed).
    if (chosen !== this.loadingPool) await this.loadPool();
  }

  private async refreshStatus(): Promise<void> {
    try {
      const ov = await this.client.request('overview', {});
      this.overview = ov;
      this.showStatus(ov.status);
    } catch {
      // The pool reload that follows shows the error with its action.
    }
  }

  private selectPool(id: string): void {
    this.poolId = id;
    this.save();
    this.client.send({ type: 'selectPool', pool_id: id });
    this.setDrift(0);
    void this.loadPool();
  }

  private setZoom(half: number): void {
    this.ladder.setZoom(half);
    this.zoomSelect.value = String(this.ladder.zoom);
    this.save();
  }

  private showStatus(s: EngineStatus): void {
    const lag =
      s.tip_lag === null
        ? 'tip lag unknown'
        : s.tip_lag === 0
          ? 'caught up (tip lag 0)'
          : `tip lag ${s.tip_lag} blocks`;
    setChildren(
      this.statusLine,
      h(
        'span',
        { className: s.ready ? 'ok' : 'bad', 'data-testid': 'engine-ready' },
        s.ready ? 'engine ready' : 'engine NOT ready',
      ),
      ' · ',
      h('span', { 'data-testid': 'tip-lag', className: s.tip_lag === 0 ? 'ok' : 'bad' }, lag),
      ` · state height ${s.state_height ?? 'unknown'}`,
      s.chain_tip !== null ? ` · tip ${s.chain_tip}` : '',
    );
    this.statusLine.dataset.stateHeight = String(s.state_height);
    const warnings: string[] = [];
    if (!s.ready)
      warnings.push(
        'The engine says it is not ready: quotes and bins may be incomplete. Wait, then the dashboard refreshes when its state moves.',
      );
    if (s.tip_lag === null)
      warnings.push(
        'Tip lag unknown: the engine cannot say how far it is behind the chain. Treat these numbers as possibly stale; never as caught up.',
      );
    else if (s.tip_lag > 0)
      warnings.push(
        `Stale: the engine's state is ${s.tip_lag} block(s) behind the chain tip. Strict operations prepared now may revert.`,
      );
    this.banner.hidden = warnings.length === 0;
    this.banner.textContent = warnings.join(' ');
  }

  /** Loads the current pool: its view (unless `given`, read by the host with the handshake), preview, history. */
  private async loadPool(given?: PoolView): Promise<void> {
    const id = this.poolId;
    if (!id) return;
    const seq = ++this.loadSeq;
    this.loadingPool = id;
    setChildren(this.ladderStatus, 'Loading the pool…');
    setChildren(this.historyStatus, 'Loading the price history…');
    const viewP = given ? Promise.resolve(given) : this.client.request('poolView', { pool_id: id });
    const previewP = this.client.request('planPreview', { pool_id: id });
    void this.balances.load(id);
    void this.positions.load(id);
    // The history is asked for once the ladder's data is in: it should not delay the first paint.
    const historyP = viewP.then(
      () => this.client.request('priceHistory', { pool_id: id }),
      () => this.client.request('priceHistory', { pool_id: id }),
    );
    try {
      const view = await viewP;
      if (seq !== this.loadSeq) return;
      this.view = view;
      this.showHeader(view);
      this.showStatus(view.status);
      this.quote.selectPair(view.header.token_x.contract, view.header.token_y.contract);
      setChildren(this.ladderStatus, this.positionsLine(view));
      this.redrawLadder();
    } catch (e) {
      if (seq !== this.loadSeq) return;
      setChildren(
        this.ladderStatus,
        this.errorBox(e, () => void this.loadPool()),
      );
    }
    await Promise.all([this.applyPreview(previewP, seq), this.applyHistory(historyP, seq)]);
  }

  private positionsLine(view: PoolView): HTMLElement {
    const p = view.positions;
    if (p.state === 'none')
      return h('p', { className: 'muted', 'data-testid': 'positions-status' }, p.reason);
    if (p.state === 'error')
      return h(
        'div',
        { 'data-testid': 'positions-status' },
        h('p', { className: 'error' }, `${p.error.message} ${p.error.action}`),
      );
    return h(
      'p',
      { className: 'muted', 'data-testid': 'positions-status' },
      `Positions of ${p.sender} (from the ${p.source}): ${p.bins.length} bin(s). App data may lag the tip.`,
    );
  }

  private async loadPreview(): Promise<void> {
    if (!this.poolId) return;
    await this.applyPreview(this.client.request('planPreview', { pool_id: this.poolId }), this.loadSeq);
  }

  private async applyPreview(p: Promise<PlanPreview>, seq: number): Promise<void> {
    try {
      const preview = await p;
      if (seq !== this.loadSeq) return;
      this.preview = preview;
      this.showPlan(preview);
      this.redrawLadder();
      this.chart.setBand(planBand(preview, this.view?.bins ?? []));
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.preview = undefined;
      this.chart.setBand(undefined);
      setChildren(
        this.planList,
        this.errorBox(e, () => void this.loadPreview()),
      );
    }
  }

  private async applyHistory(p: Promise<import('./protocol').PriceHistory>, seq: number): Promise<void> {
    try {
      const hist = await p;
      if (seq !== this.loadSeq || !this.view) return;
      const hd = this.view.header;
      setChildren(this.historyStatus, hist.points.length ? `${hist.points.length} points` : '');
      this.chart.setBand(planBand(this.preview, this.view.bins));
      this.chart.setData(
        hist.points,
        hd.token_x.decimals,
        hd.token_y.decimals,
        `${hd.token_y.symbol} per ${hd.token_x.symbol}`,
      );
    } catch (e) {
      if (seq !== this.loadSeq) return;
      setChildren(
        this.historyStatus,
        this.errorBox(e, () => void this.loadPool()),
      );
    }
  }

  private showHeader(v: PoolView): void {
    const hd = v.header;
    const f = hd.fees;
    const price =
      hd.active_price === null
        ? 'price unknown (active bin not listed)'
        : `${priceHuman(hd.active_price, hd.token_x.decimals, hd.token_y.decimals)} ${hd.token_y.symbol} per ${hd.token_x.symbol}`;
    const flags = [
      hd.active ? 'active' : 'INACTIVE',
      hd.quotable ? 'quotable' : 'NOT quotable',
      ...(hd.pool_status ? [`status ${hd.pool_status}`] : []),
    ];
    setChildren(
      this.headerFacts,
      h('strong', { 'data-testid': 'pair' }, `${hd.token_x.symbol}/${hd.token_y.symbol}`),
      h('span', {}, `bin step ${hd.bin_step} bps`),
      h(
        'span',
        {
          title: `X: protocol ${f.x_protocol}, provider ${f.x_provider}, variable ${f.x_variable} bps; Y: protocol ${f.y_protocol}, provider ${f.y_provider}, variable ${f.y_variable} bps`,
        },
        `fees X ${bpsLabel(f.x_protocol + f.x_provider + f.x_variable)} / Y ${bpsLabel(f.y_protocol + f.y_provider + f.y_variable)}`,
      ),
      h('span', { className: hd.active && hd.quotable ? '' : 'bad' }, flags.join(', ')),
      h(
        'span',
        { 'data-testid': 'active-bin', 'data-bin': hd.active_bin },
        `active bin ${hd.active_bin} @ ${price}`,
      ),
    );
  }

  private redrawLadder(): void {
    const v = this.view;
    if (!v) return;
    const previewHere = this.preview;
    this.ladder.setData(buildLadderModel(v, previewHere), v.header);
    this.updateDrift();
    if (!this.firstPaint) {
      this.firstPaint = true;
      performance.mark('dlmm:ladder-first-paint');
      document.body.dataset.firstPaint = String(performance.now());
    }
  }

  private setDrift(k: number): void {
    this.drift = Math.max(-DRIFT_LIMIT, Math.min(DRIFT_LIMIT, Math.trunc(k)));
    this.driftInput.value = String(this.drift);
    this.driftValue.value = `${this.drift >= 0 ? '+' : ''}${this.drift}`;
    this.updateDrift();
  }

  private updateDrift(): void {
    const v = this.view;
    const p = this.preview;
    if (!v || p?.state !== 'ok' || p.ops.length === 0) {
      this.ladder.setDrift(this.drift, []);
      setChildren(
        this.driftResults,
        h(
          'p',
          { className: 'muted' },
          'Open a plan with add, withdraw or move operations on this pool to see what a shift does to them.',
        ),
      );
      return;
    }
    if (!p.drift.available) {
      this.ladder.setDrift(this.drift, []);
      setChildren(
        this.driftResults,
        h('p', { className: 'muted', 'data-testid': 'drift-summary' }, p.drift.reason),
      );
      return;
    }
    // Executed on the host: the plan's transactions run after a trade moved the active bin (core/check/drift.ts).
    const step = p.drift.steps.find((s) => s.k === this.drift);
    if (!step) {
      this.ladder.setDrift(this.drift, []);
      setChildren(
        this.driftResults,
        h(
          'p',
          { className: 'muted', 'data-testid': 'drift-summary' },
          `No what-if for a shift of ${this.drift}.`,
        ),
      );
      return;
    }
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
    return h(
      'li',
      { className: `drift-${o.status}`, 'data-status': o.status },
      o.range
        ? h(
            'button',
            { type: 'button', className: 'link', onclick: () => this.reveal(uri, o.range!) },
            this.statusIcon(o.status),
            text,
          )
        : text,
    );
  }

  private statusIcon(s: DriftOutcome['status']): string {
    return s === 'reverts' ? '✗ ' : s === 'unknown' ? '? ' : '✓ ';
  }

  private reveal(uri: string, r: { offset: number; length: number }): void {
    this.client.send({ type: 'revealRange', uri, offset: r.offset, length: r.length });
  }

  private findingButton(f: FindingInfo, uri: string): HTMLElement {
    return h(
      'li',
      { className: `finding ${f.severity}`, 'data-code': f.code },
      h(
        'button',
        { type: 'button', className: 'link', onclick: () => this.reveal(uri, f) },
        `${f.severity === 'error' ? '✗' : f.severity === 'warning' ? '!' : 'i'} ${f.code}: ${f.message}`,
      ),
    );
  }

  private showPlan(p: PlanPreview): void {
    if (p.state === 'none') {
      setChildren(this.planList, h('p', { className: 'muted', 'data-testid': 'plan-none' }, p.reason));
      return;
    }
    const hd = this.view?.header;
    const amt = (x: string, y: string): string =>
      hd
        ? `X ${human(x, hd.token_x.decimals)} ${hd.token_x.symbol}, Y ${human(y, hd.token_y.decimals)} ${hd.token_y.symbol}`
        : `X ${x}, Y ${y}`;
    const blocks: HTMLElement[] = [];
    blocks.push(
      h(
        'p',
        { className: 'muted' },
        `${p.file_name}${p.sender ? ` · sender ${p.sender}` : ''}${p.other_pool_ops ? ` · ${p.other_pool_ops} operation(s) on other pools` : ''}`,
      ),
    );
    if (p.file_findings.length)
      blocks.push(
        h('ul', { className: 'findings' }, ...p.file_findings.map((f) => this.findingButton(f, p.uri))),
      );
    if (p.ops.length === 0)
      blocks.push(h('p', { className: 'muted' }, 'The plan has no add, withdraw or move on this pool.'));
    for (const op of p.ops) {
      blocks.push(
        h(
          'div',
          { className: 'op', 'data-testid': 'plan-op', 'data-op': op.id },
          h(
            'button',
            {
              type: 'button',
              className: 'link op-title',
              onclick: () => op.range && this.reveal(p.uri, op.range),
              disabled: !op.range,
            },
            `${op.id} · ${op.op} · ${op.mode} (active bin ${op.active_bin_id} when prepared)`,
          ),
          op.findings.length
            ? h('ul', { className: 'findings' }, ...op.findings.map((f) => this.findingButton(f, p.uri)))
            : null,
          h(
            'ul',
            { className: 'items' },
            ...op.items.map((it) => {
              const worst = it.findings.some((f) => f.severity === 'error')
                ? 'error'
                : it.findings.some((f) => f.severity === 'warning')
                  ? 'warning'
                  : it.findings.length
                    ? 'info'
                    : '';
              const range = it.range ?? op.range;
              return h(
                'li',
                {
                  className: `item ${worst}`,
                  'data-testid': 'plan-item',
                  'data-bin': it.bin_id,
                  'data-findings': it.findings.length,
                },
                h(
                  'button',
                  {
                    type: 'button',
                    className: 'link',
                    onclick: () => range && this.reveal(p.uri, range),
                    disabled: !range,
                  },
                  `${it.label}: ${amt(it.x_amount, it.y_amount)}`,
                ),
                it.findings.length
                  ? h(
                      'ul',
                      { className: 'findings' },
                      ...it.findings.map((f) => this.findingButton(f, p.uri)),
                    )
                  : null,
              );
            }),
          ),
        ),
      );
    }
    setChildren(this.planList, ...blocks);
  }
}

/**
 * The state VS Code restored (what `save` wrote with setState): read field by field, anything else gives
 * the defaults (the page's own data, so no validator is loaded for it).
 */
function savedState(raw: unknown): WebviewState {
  const s = (typeof raw === 'object' && raw !== null ? raw : {}) as { pool_id?: unknown; zoom?: unknown };
  const poolOk = s.pool_id === null || typeof s.pool_id === 'string';
  const zoomOk = typeof s.zoom === 'number' && Number.isInteger(s.zoom) && s.zoom >= 10 && s.zoom <= 1001;
  return poolOk && zoomOk
    ? { pool_id: s.pool_id as string | null, zoom: s.zoom as number }
    : { pool_id: null, zoom: 25 };
}
