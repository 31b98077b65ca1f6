/** The quote panel: tokens, a human amount, slippage; best route and all routes from the engine. */
import { DEFAULT_SLIPPAGE, SLIPPAGE_PLAUSIBLE, slippageToPpm } from '../../core/dlmm/bounds';
import { parseUnits } from '../../core/dlmm/bins';
import { amount, showError, h, panel, setChildren, table } from './dom';
import { human } from './format';
import { routeBinsText } from '../../core/quote/routeBins';
import type { QuoteParams, QuoteResult, RouteInfo, TokenInfo } from './protocol';
import type { HostClient } from './transport';

const SLIPPAGE_PLAUSIBLE_HIGH_PPM = slippageToPpm(SLIPPAGE_PLAUSIBLE.high)!;

export class QuotePanel {
  readonly element: HTMLElement;
  private readonly input: HTMLSelectElement;
  private readonly output: HTMLSelectElement;
  private readonly amount: HTMLInputElement;
  private readonly slippage: HTMLInputElement;
  private readonly result: HTMLElement;
  private readonly exportButton: HTMLButtonElement;
  private readonly walletButton: HTMLButtonElement;
  private tokens: TokenInfo[] = [];
  private lastParams: QuoteParams | undefined;
  /** The last quote fills the whole amount (a partial fill offers no export). */
  private lastComplete = false;
  private seq = 0;

  constructor(private readonly client: HostClient) {
    this.input = h('select', { id: 'quote-in', 'data-testid': 'quote-in' });
    this.output = h('select', { id: 'quote-out', 'data-testid': 'quote-out' });
    this.amount = h('input', {
      id: 'quote-amount',
      'data-testid': 'quote-amount',
      type: 'text',
      inputmode: 'decimal',
      placeholder: 'e.g. 0.001',
      autocomplete: 'off',
    });
    this.slippage = h('input', {
      id: 'quote-slippage',
      'data-testid': 'quote-slippage',
      type: 'number',
      min: '0',
      max: String(SLIPPAGE_PLAUSIBLE.high),
      step: '0.05',
      value: String(DEFAULT_SLIPPAGE),
    });
    this.result = h('div', {
      className: 'quote-result',
      'data-testid': 'quote-result',
      'aria-live': 'polite',
    });
    this.exportButton = h(
      'button',
      { type: 'button', 'data-testid': 'quote-export', hidden: true, onclick: () => this.exportSwap() },
      'Export swap…',
    );
    this.walletButton = h(
      'button',
      {
        type: 'button',
        'data-testid': 'quote-wallet',
        hidden: true,
        title: 'Write the swap plan, check it, and hand it to your own wallet through a one-time local page',
        onclick: () => this.exportSwap('wallet'),
      },
      'Send to wallet…',
    );
    const form = h(
      'form',
      { className: 'quote-form', 'data-testid': 'quote-form' },
      h('label', { for: 'quote-in' }, 'Sell'),
      this.input,
      h('label', { for: 'quote-out' }, 'Buy'),
      this.output,
      h('label', { for: 'quote-amount' }, 'Amount'),
      this.amount,
      h('label', { for: 'quote-slippage' }, 'Slippage %'),
      this.slippage,
      h(
        'div',
        { className: 'quote-actions' },
        h('button', { type: 'submit', 'data-testid': 'quote-submit' }, 'Quote'),
        this.exportButton,
        this.walletButton,
      ),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run();
    });
    this.element = panel('quote', 'Quote', form, this.result);
  }

  setExportAvailable(on: boolean): void {
    this.setActionsHidden(!on || !this.lastParams || !this.lastComplete);
    this.exportAllowed = on;
  }
  private exportAllowed = false;

  /** Fills the token lists; preselects the pool's X -> Y when the user has not chosen yet. */
  setTokens(tokens: TokenInfo[], defaultIn?: string, defaultOut?: string): void {
    const keep = [this.input.value, this.output.value];
    this.tokens = tokens;
    for (const [sel, def, prev] of [
      [this.input, defaultIn, keep[0]],
      [this.output, defaultOut, keep[1]],
    ] as const) {
      setChildren(
        sel,
        ...tokens.map((t) =>
          h('option', { value: t.contract }, `${t.symbol} (${t.contract.split('.')[1] ?? t.contract})`),
        ),
      );
      const want = prev && tokens.some((t) => t.contract === prev) ? prev : def;
      if (want) sel.value = want;
    }
  }

  /** Preselects the pair of the pool being shown. */
  selectPair(tokenIn: string, tokenOut: string): void {
    this.input.value = tokenIn;
    this.output.value = tokenOut;
  }

  private token(contract: string): TokenInfo | undefined {
    return this.tokens.find((t) => t.contract === contract);
  }

  /** Validates the form; returns params or shows what is wrong. */
  private params(): QuoteParams | undefined {
    const tin = this.token(this.input.value);
    const tout = this.token(this.output.value);
    const fail = (msg: string): undefined => {
      setChildren(this.result, h('p', { className: 'error', role: 'alert' }, msg));
      return undefined;
    };
    if (!tin || !tout) return fail('Pick both tokens.');
    if (tin.contract === tout.contract)
      return fail('Sell and buy tokens are the same: pick two different tokens.');
    const base = parseUnits(this.amount.value, tin.decimals);
    if (base === undefined || base === 0n)
      return fail(
        `Amount "${this.amount.value}" is not a positive decimal with at most ${tin.decimals} fraction digits (${tin.symbol} has ${tin.decimals} decimals).`,
      );
    // The panel takes the plausible band's top (core/dlmm/bounds.ts) as its ceiling.
    const slipPpm = slippageToPpm(this.slippage.value.trim());
    if (slipPpm === undefined || slipPpm > SLIPPAGE_PLAUSIBLE_HIGH_PPM)
      return fail(
        `Slippage "${this.slippage.value}" must be a percent between 0 and ${SLIPPAGE_PLAUSIBLE.high} with at most 4 decimals (1 means 1%).`,
      );
    const slip = Number(this.slippage.value);
    return {
      input_token: tin.contract,
      output_token: tout.contract,
      amount_in: base.toString(),
      slippage: slip,
    };
  }

  async run(): Promise<void> {
    const p = this.params();
    if (!p) return;
    const seq = ++this.seq;
    setChildren(this.result, h('p', { className: 'muted' }, 'Quoting…'));
    try {
      const q = await this.client.request('quote', p);
      if (seq !== this.seq) return;
      this.lastParams = p;
      this.lastComplete = q.best.complete;
      // A partial fill is never exported (the export refuses it too): no button for it.
      this.setActionsHidden(!this.exportAllowed || !q.best.complete);
      this.show(q, p);
    } catch (e) {
      if (seq !== this.seq) return;
      this.lastParams = undefined;
      this.setActionsHidden(true);
      showError(this.result, e, () => void this.run());
    }
  }

  private show(q: QuoteResult, p: QuoteParams): void {
    const tin = this.token(p.input_token);
    const tout = this.token(p.output_token);
    const sym = (c: string): string => this.token(c)?.symbol ?? c;
    const outDec = q.best.output_decimals;
    const inDec = tin?.decimals ?? 0;
    const inAmount = (v: string): HTMLElement => amount(human(v, inDec), tin?.symbol ?? '');
    const outAmount = (v: string, dec = outDec): HTMLElement => amount(human(v, dec), tout?.symbol ?? '');
    // One row: the label never wraps, the value sits right-aligned in the second column; a note (prose)
    // spans the row below it.
    const row = (
      k: string,
      v: string | HTMLElement,
      opts: { testid?: string; rowTestid?: string; note?: (string | HTMLElement)[] } = {},
    ): HTMLElement =>
      h(
        'div',
        { className: 'kv', 'data-testid': opts.rowTestid },
        h('span', { className: 'k' }, k),
        h('span', { className: 'v', 'data-testid': opts.testid }, v),
        opts.note ? h('span', { className: 'note' }, ...opts.note) : null,
      );
    const impact = (r: RouteInfo): string =>
      r.price_impact_bps === null ? 'unknown' : `${(r.price_impact_bps / 100).toFixed(2)}%`;
    const check = (r: RouteInfo): { value: string; note: (string | HTMLElement)[] } =>
      !r.verified
        ? {
            value: 'not recomputed',
            note: [`${r.unverified_reason ?? 'unknown reason'}: the engine's figures are shown`],
          }
        : r.engine_amount_out !== null
          ? {
              value: 'DIFFERS',
              note: [
                'the engine says ',
                outAmount(r.engine_amount_out, r.output_decimals),
                ', the bins read give ',
                outAmount(r.amount_out, r.output_decimals),
                ' (shown)',
              ],
            }
          : { value: 'agrees', note: ['with the engine, recomputed from the bins read'] };
    const path = (r: RouteInfo): string =>
      [sym(r.hops[0]?.input_token ?? p.input_token), ...r.hops.map((hp) => sym(hp.output_token))].join(' → ');
    const bestCheck = check(q.best);
    const bins = (r: RouteInfo): string =>
      routeBinsText(
        r.bins_used === null || r.bins_crossed === null
          ? undefined
          : { used: r.bins_used, crossed: r.bins_crossed },
      );
    setChildren(
      this.result,
      h(
        'div',
        {
          className: q.best.complete ? 'best' : 'best partial',
          'data-testid': 'quote-best',
          'data-amount-out': q.best.amount_out,
          'data-min-received': q.best.min_received,
          'data-amount-in-used': q.best.amount_in_used,
          'data-complete': String(q.best.complete),
        },
        row(q.best.complete ? 'You receive' : 'You receive (used part)', outAmount(q.best.amount_out), {
          testid: 'quote-amount-out',
        }),
        row('Minimum received', outAmount(q.best.min_received), {
          testid: 'quote-min',
          note: [`at ${q.best.slippage}% slippage: the export's bound`],
        }),
        row('Fill', q.best.complete ? 'complete' : 'PARTIAL', {
          rowTestid: 'quote-fill',
          note: q.best.complete
            ? ['the whole ', inAmount(q.best.amount_in), ' is used']
            : [
                'only ',
                inAmount(q.best.amount_in_used),
                ' of ',
                inAmount(q.best.amount_in),
                ' finds liquidity',
              ],
        }),
        row('Price impact', impact(q.best), { testid: 'quote-impact' }),
        row('Bins crossed', bins(q.best), { testid: 'quote-bins' }),
        row('Exact check', bestCheck.value, { testid: 'quote-check', note: bestCheck.note }),
        row('Route', path(q.best)),
        row('Sent', inAmount(p.amount_in), { note: [`raw ${p.amount_in} base units`] }),
      ),
      h('h3', {}, `All routes (${q.routes.length})`),
      h(
        'div',
        { className: 'routes-wrap' },
        table(
          { className: 'routes', 'data-testid': 'quote-routes' },
          [
            h('th', {}, 'Route'),
            h('th', {}, 'Fill'),
            h('th', { className: 'num' }, 'Out'),
            h('th', { className: 'num' }, 'Impact'),
            h('th', { className: 'num' }, 'Bins crossed'),
          ],
          q.routes.map((r) =>
            h(
              'tr',
              { 'data-amount-out': r.amount_out, 'data-complete': String(r.complete) },
              h('td', { className: 'path' }, path(r)),
              r.complete
                ? h('td', {}, 'complete')
                : h('td', {}, 'partial: ', inAmount(r.amount_in_used), ' used'),
              h('td', { className: 'num' }, outAmount(r.amount_out, r.output_decimals)),
              h('td', { className: 'num' }, impact(r)),
              h('td', { className: 'num' }, bins(r)),
            ),
          ),
        ),
      ),
      h('p', { className: 'muted' }, `Engine state height ${q.state_height ?? 'unknown'}.`),
    );
  }

  /** Export and Send to wallet share one condition: a complete quote and the command available. */
  private setActionsHidden(hidden: boolean): void {
    this.exportButton.hidden = hidden;
    this.walletButton.hidden = hidden;
  }

  private exportSwap(then: 'export' | 'wallet' = 'export'): void {
    if (this.lastParams)
      this.client.send({
        type: 'exportSwap',
        params: this.lastParams,
        ...(then === 'wallet' ? { then } : {}),
      });
  }
}
