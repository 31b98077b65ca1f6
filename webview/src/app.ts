/**
 * The dashboard app shell: lays out the views (header.ts, ladderPanel.ts, planPreview.ts, quote.ts,
 * balances.ts, positions.ts, history.ts), answers the host's notifications, and loads the selected pool
 * into them. Every load ends: in data, or in an error that says what to do with a Retry button (requests
 * are bounded by the client's timeout); only the latest load's answers are shown.
 */
import { showError, h, setChildren } from './dom';
import { HeaderView } from './header';
import { HistoryPanel, planBand } from './history';
import { LadderPanel, type Shown } from './ladderPanel';
import type { LadderView } from './ladder';
import { PlanPanel } from './planPreview';
import type { Overview, PlanPreview, PoolView, PriceHistory, WebviewState } from './protocol';
import { BalancesPanel } from './balances';
import { PositionsPanel } from './positions';
import { QuotePanel } from './quote';
import type { HostClient, Transport } from './transport';

export class DashboardApp {
  private readonly header: HeaderView;
  private readonly ladderPanel: LadderPanel;
  private readonly plan: PlanPanel;
  private readonly history = new HistoryPanel();
  private readonly quote: QuotePanel;
  private readonly balances: BalancesPanel;
  private readonly positions: PositionsPanel;

  private poolId: string | null = null;
  private readonly shown: Shown = {};
  private loadSeq = 0;
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

    this.header = new HeaderView((id) => this.selectPool(id));
    this.ladderPanel = new LadderPanel(client, this.shown, state.zoom, () => this.save());
    this.plan = new PlanPanel(client);
    this.quote = new QuotePanel(client);
    this.balances = new BalancesPanel(client);
    this.positions = new PositionsPanel(client);
    setChildren(
      mount,
      h(
        'main',
        { className: 'dashboard' },
        ...this.header.elements,
        this.ladderPanel.element,
        h(
          'div',
          { className: 'columns' },
          this.plan.element,
          this.quote.element,
          this.balances.element,
          this.positions.element,
          this.history.element,
        ),
      ),
    );

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
            this.header.select(m.pool_id);
            this.selectPool(m.pool_id);
          }
          break;
        case 'notice':
          this.header.showNotice(m.level, m.message);
          break;
      }
    });
  }

  /** The ladder (for tests and the bench). */
  get ladder(): LadderView {
    return this.ladderPanel.ladder;
  }

  private save(): void {
    this.transport.setState({ pool_id: this.poolId, zoom: this.ladder.zoom } satisfies WebviewState);
  }

  private async loadOverview(given?: Overview): Promise<void> {
    if (!this.loadingPool) setChildren(this.ladderPanel.status, 'Loading pools…');
    let ov: Overview;
    try {
      ov = given ?? (await this.client.request('overview', {}));
    } catch (e) {
      showError(this.ladderPanel.status, e, () => void this.loadOverview());
      return;
    }
    this.header.setPools(ov.pools);
    this.quote.setTokens(ov.tokens);
    this.header.showStatus(ov.status);
    if (ov.pools.length === 0) {
      setChildren(
        this.ladderPanel.status,
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
    this.header.select(chosen);
    this.poolId = chosen;
    this.save();
    this.client.send({ type: 'selectPool', pool_id: chosen });
    // Already loading when it is the pool `init` named (remembered, or the first listed).
    if (chosen !== this.loadingPool) await this.loadPool();
  }

  private async refreshStatus(): Promise<void> {
    try {
      this.header.showStatus((await this.client.request('overview', {})).status);
    } catch {
      // The pool reload that follows shows the error with its action.
    }
  }

  private selectPool(id: string): void {
    this.poolId = id;
    this.save();
    this.client.send({ type: 'selectPool', pool_id: id });
    this.ladderPanel.setDrift(0);
    void this.loadPool();
  }

  /** Loads the current pool: its view (unless `given`, read by the host with the handshake), preview, history. */
  private async loadPool(given?: PoolView): Promise<void> {
    const id = this.poolId;
    if (!id) return;
    const seq = ++this.loadSeq;
    this.loadingPool = id;
    setChildren(this.ladderPanel.status, 'Loading the pool…');
    setChildren(this.history.status, 'Loading the price history…');
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
      this.shown.view = view;
      this.header.showPool(view);
      this.header.showStatus(view.status);
      this.quote.selectPair(view.header.token_x.contract, view.header.token_y.contract);
      this.ladderPanel.showPositions(view);
      this.ladderPanel.redraw();
    } catch (e) {
      if (seq !== this.loadSeq) return;
      showError(this.ladderPanel.status, e, () => void this.loadPool());
    }
    await Promise.all([this.applyPreview(previewP, seq), this.applyHistory(historyP, seq)]);
  }

  private async loadPreview(): Promise<void> {
    if (!this.poolId) return;
    await this.applyPreview(this.client.request('planPreview', { pool_id: this.poolId }), this.loadSeq);
  }

  private async applyPreview(p: Promise<PlanPreview>, seq: number): Promise<void> {
    try {
      const preview = await p;
      if (seq !== this.loadSeq) return;
      this.shown.preview = preview;
      this.plan.show(preview, this.shown.view?.header);
      this.ladderPanel.redraw();
      this.history.chart.setBand(planBand(preview, this.shown.view?.bins ?? []));
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.shown.preview = undefined;
      this.history.chart.setBand(undefined);
      showError(this.plan.list, e, () => void this.loadPreview());
    }
  }

  private async applyHistory(p: Promise<PriceHistory>, seq: number): Promise<void> {
    try {
      const hist = await p;
      const view = this.shown.view;
      if (seq !== this.loadSeq || !view) return;
      this.history.show(hist, planBand(this.shown.preview, view.bins), view.header);
    } catch (e) {
      if (seq !== this.loadSeq) return;
      showError(this.history.status, e, () => void this.loadPool());
    }
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
