/**
 * Polls the engine status while plan files are open and reports when the applied state moved (height,
 * readiness or tip lag changed), or when an open document's live analysis was made on another state than
 * the one read, so diagnostics follow the engine without the user touching the file.
 */
import type { DlmmApi } from '../../core/api/types';
import { readEngineStatus } from '../../protocol/engineStatus';
import type { EngineStatusParams, ServerSettings } from '../../protocol/messages';

export interface EngineWatchDeps {
  intervalMs: number;
  /** The clients in use by open documents, with their settings. */
  targets(): Promise<{ api: DlmmApi; settings: ServerSettings }[]>;
  /** Every read's outcome (the status bar shows it). */
  onStatus(status: EngineStatusParams): void;
  /** The engine behind `api` is in a new state: caches are stale. */
  onStateChange(api: DlmmApi): void;
  /**
   * Whether a live analysis shown for an open document was made through `api` on another state than
   * `status` (this poll's read, which succeeded): its diagnostics are stale even when this watch saw no
   * change. A watch's first read is its baseline, and an analysis may have read the state before that read
   * (or read it before and ended after it) while the engine moved in between.
   */
  analysedOnOtherState?(api: DlmmApi, status: EngineStatusParams): boolean;
  now?: () => number;
}

function signature(s: EngineStatusParams): string {
  return [s.state, s.ready, s.stateHeight, s.tipLag, s.error ?? ''].join('|');
}

export class EngineWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly seen = new Map<DlmmApi, string>();
  private polling = false;
  /** stop() arrived during a poll: do not schedule the next one. */
  private stopped = false;

  private readonly intervalMs: number;

  constructor(private readonly deps: EngineWatchDeps) {
    this.intervalMs = deps.intervalMs;
  }

  /** Starts polling (idempotent). */
  start(): void {
    this.stopped = false;
    if (this.timer || this.polling) return;
    this.schedule();
  }

  /** Stops polling (no plan file open). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.polling) this.stopped = true;
  }

  get running(): boolean {
    return this.timer !== undefined || this.polling;
  }

  /** Forget what was seen (settings or key changed): the next read is a baseline, not a change. */
  reset(): void {
    this.seen.clear();
  }

  /** One poll of every target now. */
  async pollOnce(): Promise<void> {
    const targets = await this.deps.targets();
    const unique = new Map<DlmmApi, ServerSettings>();
    for (const t of targets) unique.set(t.api, t.settings);
    for (const [api, settings] of unique) {
      const status = await readEngineStatus(api, settings, this.deps.now);
      const sig = signature(status);
      const before = this.seen.get(api);
      this.seen.set(api, sig);
      const changed = before !== sig;
      if (changed) this.deps.onStatus(status);
      // A change from what this watch saw before; or, whatever it saw, documents whose live findings were
      // made on another state than this read (the first read, a baseline, may already be past theirs).
      if (
        (changed && before !== undefined) ||
        (status.state === 'ok' && this.deps.analysedOnOtherState?.(api, status) === true)
      )
        this.deps.onStateChange(api);
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = true;
      this.pollOnce()
        .catch(() => undefined)
        .finally(() => {
          this.polling = false;
          if (this.stopped) {
            this.stopped = false;
            return;
          }
          this.schedule();
        });
    }, this.intervalMs);
  }
}
