/**
 * The plan preview panel: the open plan's operations and items on the selected pool with their findings;
 * each links to its place in the plan file.
 */
import { h, panel, setChildren } from './dom';
import { human } from './format';
import { SEVERITIES, worstRank } from './model';
import type { FindingInfo, PlanPreview, PoolHeader } from './protocol';
import type { HostClient } from './transport';

type Range = { offset: number; length: number };

export class PlanPanel {
  readonly element: HTMLElement;
  /** The plan's blocks, or the error box of a failed load. */
  readonly list: HTMLElement;

  constructor(private readonly client: HostClient) {
    this.list = h('div', { className: 'plan-list', 'data-testid': 'plan-list' });
    this.element = panel('plan', 'Plan preview', this.list);
  }

  /** Shows the preview, its amounts in the pool's tokens when the pool's header is known. */
  show(p: PlanPreview, hd: PoolHeader | undefined): void {
    if (p.state === 'none') {
      setChildren(this.list, h('p', { className: 'muted', 'data-testid': 'plan-none' }, p.reason));
      return;
    }
    const amt = (x: string, y: string): string =>
      hd
        ? `X ${human(x, hd.token_x.decimals)} ${hd.token_x.symbol}, Y ${human(y, hd.token_y.decimals)} ${hd.token_y.symbol}`
        : `X ${x}, Y ${y}`;
    const reveal = (r: Range | null | undefined) => () =>
      r && this.client.send({ type: 'revealRange', uri: p.uri, offset: r.offset, length: r.length });
    const findings = (fs: FindingInfo[]) =>
      h(
        'ul',
        { className: 'findings' },
        ...fs.map((f) =>
          h(
            'li',
            { className: `finding ${f.severity}`, 'data-code': f.code },
            h(
              'button',
              { type: 'button', className: 'link', onclick: reveal(f) },
              `${f.severity === 'error' ? '✗' : f.severity === 'warning' ? '!' : 'i'} ${f.code}: ${f.message}`,
            ),
          ),
        ),
      );
    const blocks: HTMLElement[] = [];
    blocks.push(
      h(
        'p',
        { className: 'muted' },
        `${p.file_name}${p.sender ? ` · sender ${p.sender}` : ''}${p.other_pool_ops ? ` · ${p.other_pool_ops} operation(s) on other pools` : ''}`,
      ),
    );
    if (p.file_findings.length) blocks.push(findings(p.file_findings));
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
              onclick: reveal(op.range),
              disabled: !op.range,
            },
            `${op.id} · ${op.op} · ${op.mode} (active bin ${op.active_bin_id} when prepared)`,
          ),
          op.findings.length ? findings(op.findings) : null,
          ...op.costs.map((c) => h('p', { className: 'muted', 'data-testid': 'plan-cost' }, c)),
          h(
            'ul',
            { className: 'items' },
            ...op.items.map((it) => {
              const worst = SEVERITIES[worstRank(it.findings) - 1] ?? '';
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
                  { type: 'button', className: 'link', onclick: reveal(range), disabled: !range },
                  `${it.label}: ${amt(it.x_amount, it.y_amount)}`,
                ),
                it.findings.length ? findings(it.findings) : null,
              );
            }),
          ),
        ),
      );
    }
    setChildren(this.list, ...blocks);
  }
}
