/**
 * The sender's balances panel: the pool's two tokens and STX, exact (token decimals), as the host read them
 * with the same reads `check` makes. A balance that could not be read says why; it is never shown as 0.
 */
import { amount, h, setChildren } from './dom';
import { human } from './format';
import type { BalanceRow, Balances } from './protocol';
import type { HostClient } from './transport';

export class BalancesPanel {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private seq = 0;

  constructor(
    private readonly client: HostClient,
    private readonly renderError: (e: unknown, retry: () => void) => HTMLElement,
  ) {
    this.body = h('div', { 'data-testid': 'balances', 'aria-live': 'polite' });
    this.element = h(
      'section',
      { className: 'panel balances', 'aria-labelledby': 'balances-title' },
      h('h2', { id: 'balances-title' }, 'Sender balances'),
      this.body,
    );
  }

  /** Reads and shows the sender's balances for the tokens of `poolId`. */
  async load(poolId: string): Promise<void> {
    const seq = ++this.seq;
    setChildren(this.body, h('p', { className: 'muted' }, 'Reading balances…'));
    try {
      const b = await this.client.request('balances', { pool_id: poolId });
      if (seq === this.seq) this.show(b);
    } catch (e) {
      if (seq === this.seq)
        setChildren(
          this.body,
          this.renderError(e, () => void this.load(poolId)),
        );
    }
  }

  private show(b: Balances): void {
    if (b.state === 'none') {
      setChildren(this.body, h('p', { className: 'muted', 'data-testid': 'balances-none' }, b.reason));
      return;
    }
    setChildren(
      this.body,
      h(
        'p',
        { className: 'muted' },
        `Of ${b.sender} (from the ${b.source === 'plan' ? 'open plan' : '"dlmm.dashboard.sender" setting'}), read from the node:`,
      ),
      h('table', { className: 'routes balances-table' }, h('tbody', {}, ...b.rows.map((r) => this.row(r)))),
    );
  }

  private row(r: BalanceRow): HTMLElement {
    const value =
      r.amount === null
        ? h('span', { className: 'unread' }, `not read: ${r.unread ?? 'no reason given'}`)
        : r.decimals === null
          ? amount(r.amount, 'base units (decimals unknown)')
          : amount(human(r.amount, r.decimals), r.symbol);
    return h(
      'tr',
      {
        'data-testid': 'balance',
        'data-token': r.token,
        'data-amount': r.amount ?? '',
        'data-read': String(r.amount !== null),
      },
      h('td', { title: r.token }, r.symbol),
      h('td', { className: r.amount === null ? '' : 'num' }, value),
    );
  }
}
