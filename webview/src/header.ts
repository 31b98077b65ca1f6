/**
 * The dashboard's top: the pool picker, the pool's facts, the engine's status line, the stale banner (a
 * tip lag that is unknown is never shown as caught up) and the host's notices.
 */
import { tipVerdict, tipVerdictWords } from '../../core/check/freshness';
import { h, setChildren } from './dom';
import { bpsLabel, priceHuman } from './format';
import type { EngineStatus, Overview, PoolView } from './protocol';

export class HeaderView {
  /** The header, the stale banner and the notice line, in page order. */
  readonly elements: HTMLElement[];
  private readonly picker: HTMLSelectElement;
  private readonly facts: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly notice: HTMLElement;

  constructor(onPick: (poolId: string) => void) {
    this.picker = h('select', {
      id: 'pool-picker',
      'data-testid': 'pool-picker',
      onchange: () => onPick(this.picker.value),
    });
    this.facts = h('div', { className: 'facts', 'data-testid': 'pool-header' });
    this.statusLine = h('div', { className: 'status', 'data-testid': 'engine-status' });
    this.banner = h('div', {
      className: 'banner',
      'data-testid': 'stale-banner',
      role: 'alert',
      hidden: true,
    });
    this.notice = h('div', { className: 'notice', role: 'status', hidden: true });
    this.elements = [
      h(
        'header',
        { className: 'top' },
        h('label', { for: 'pool-picker' }, 'Pool'),
        this.picker,
        this.facts,
        this.statusLine,
      ),
      this.banner,
      this.notice,
    ];
  }

  setPools(pools: Overview['pools']): void {
    setChildren(
      this.picker,
      ...pools.map((p) =>
        h(
          'option',
          { value: p.pool_id },
          `${p.symbol_x}/${p.symbol_y} · ${p.bin_step} bps${p.alias ? ` · ${p.alias}` : ''}${p.active ? '' : ' · inactive'}`,
        ),
      ),
    );
  }

  select(poolId: string): void {
    this.picker.value = poolId;
  }

  showNotice(level: string, message: string): void {
    this.notice.hidden = false;
    this.notice.className = `notice ${level}`;
    this.notice.textContent = message;
  }

  showStatus(s: EngineStatus): void {
    const tip = tipVerdict(s.tip_lag);
    const lag = tipVerdictWords(tip);
    setChildren(
      this.statusLine,
      h(
        'span',
        { className: s.ready ? 'ok' : 'bad', 'data-testid': 'engine-ready' },
        s.ready ? 'engine ready' : 'engine NOT ready',
      ),
      ' · ',
      h('span', { 'data-testid': 'tip-lag', className: tip.kind === 'caught-up' ? 'ok' : 'bad' }, lag),
      ` · state height ${s.state_height ?? 'unknown'}`,
      s.chain_tip !== null ? ` · tip ${s.chain_tip}` : '',
    );
    this.statusLine.dataset.stateHeight = String(s.state_height);
    const warnings: string[] = [];
    if (!s.ready)
      warnings.push(
        'The engine says it is not ready: quotes and bins may be incomplete. Wait, then the dashboard refreshes when its state moves.',
      );
    if (tip.kind === 'unknown')
      warnings.push(
        `Tip lag unknown (${tip.why}): the engine cannot say how far it is behind the chain. Treat these numbers as possibly stale; never as caught up.`,
      );
    else if (tip.kind === 'behind')
      warnings.push(
        `Stale: the engine's state is ${tip.lag} block(s) behind the chain tip. Strict operations prepared now may revert.`,
      );
    this.banner.hidden = warnings.length === 0;
    this.banner.textContent = warnings.join(' ');
  }

  showPool(v: PoolView): void {
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
      this.facts,
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
}
