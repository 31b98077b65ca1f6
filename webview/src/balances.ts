/**
 * The sender's balances panel: the pool's two tokens and STX, exact (token decimals), as the host read them
 * with the same reads `check` makes. A balance that could not be read says why; it is never shown as 0.
 */
import { amount, h, setChildren, table } from './dom';
import { human } from './format';
import type { BalanceRow, Balances } from './protocol';
import { ofSender, PoolPanel } from './poolPanel';
import type { HostClient } from './transport';

export class BalancesPanel extends PoolPanel<'balances'> {
  constructor(client: HostClient) {
    super(client, {
      method: 'balances',
      name: 'balances',
      testId: 'balances',
      title: 'Sender balances',
      reading: 'Reading balances…',
    });
  }

  protected show(b: Extract<Balances, { state: 'ok' }>): void {
    setChildren(
      this.body,
      h('p', { className: 'muted' }, `${ofSender(b)}, read from the node:`),
      table(
        { className: 'routes balances-table' },
        null,
        b.rows.map((r) => this.row(r)),
      ),
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
