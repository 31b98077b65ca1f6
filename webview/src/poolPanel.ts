/**
 * A dashboard panel that shows one host answer about the selected pool (the sender's balances, the sender's
 * position): a reading line while the host reads, then the answer of the latest load only (an earlier pool's
 * late answer is dropped), or the error box with Retry. No sender: the host's reason (`TESTID-none`).
 */
import { showError, h, panel, setChildren } from './dom';
import type { RequestParams, RequestResult } from './protocol';
import type { HostClient } from './transport';

type PoolMethod = 'balances' | 'positions';

export interface PoolPanelSpec<M extends PoolMethod> {
  method: M;
  /** The section's class and the prefix of its heading id. */
  name: string;
  /** The body's data-testid. */
  testId: string;
  title: string;
  reading: string;
}

/** Whose figures a panel shows: the open plan's sender, else the `dlmm.dashboard.sender` setting's. */
export function ofSender(p: { sender: string; source: 'plan' | 'setting' }): string {
  return `Of ${p.sender} (from the ${p.source === 'plan' ? 'open plan' : '"dlmm.dashboard.sender" setting'})`;
}

export abstract class PoolPanel<M extends PoolMethod> {
  readonly element: HTMLElement;
  protected readonly body: HTMLElement;
  private seq = 0;

  protected constructor(
    private readonly client: HostClient,
    private readonly spec: PoolPanelSpec<M>,
  ) {
    this.body = h('div', { 'data-testid': spec.testId, 'aria-live': 'polite' });
    this.element = panel(spec.name, spec.title, this.body);
  }

  /** Reads and shows the answer for `poolId`. */
  async load(poolId: string): Promise<void> {
    const seq = ++this.seq;
    setChildren(this.body, h('p', { className: 'muted' }, this.spec.reading));
    try {
      const answer = await this.client.request(this.spec.method, { pool_id: poolId } as RequestParams<M>);
      if (seq !== this.seq) return;
      if (answer.state === 'none')
        setChildren(
          this.body,
          h('p', { className: 'muted', 'data-testid': `${this.spec.testId}-none` }, answer.reason),
        );
      else this.show(answer as Exclude<RequestResult<M>, { state: 'none' }>);
    } catch (e) {
      if (seq === this.seq) showError(this.body, e, () => void this.load(poolId));
    }
  }

  protected abstract show(answer: Exclude<RequestResult<M>, { state: 'none' }>): void;
}
