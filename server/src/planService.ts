/**
 * The plain language service behind the LSP handlers (yaml-language-server's pattern): it knows plan
 * documents, runs the core analysis as soon as a document changes (offline, then live when data arrives),
 * holds each version's results, and its requests to the network, back for the debounce and hands the
 * results to a publisher. It never speaks LSP itself; I/O (settings, API clients, publishing, clock) is
 * passed in, so it runs the same over stdio, IPC or in a test.
 */
import { getEventListeners } from 'node:events';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { cancelledError, isCancelled } from '../../core/api/errors';
import type { DlmmApi } from '../../core/api/types';
import type { Finding } from '../../core/plan/diagnostics';
import { analyzeOffline, analyzePlan, type Analysis } from '../../core/check/analyze';
import { createLiveSession, type LiveSession } from '../../core/live/live';
import { parsePlan, type ParsedPlan } from '../../core/plan/parse';
import type { ExecResult } from '../../core/chain/router';
import type { BuiltTransaction } from '../../core/tx/types';
import { carriedLiveFindings, lastLive, type LastLive } from './carry';
import { uriFileName } from './documents';
import type { ServerSettings } from '../../protocol/messages';

/** What only an export reads of a built transaction (the export builds its own). */
type ExportOnly =
  'functionArgs' | 'argNames' | 'postConditions' | 'postConditionWords' | 'rows' | 'totals' | 'notes';
const EXPORT_ONLY: ReadonlySet<string> = new Set<ExportOnly>([
  'functionArgs',
  'argNames',
  'postConditions',
  'postConditionWords',
  'rows',
  'totals',
  'notes',
]);
/**
 * An executed transaction's outcome as the editor keeps it: a revert or an unknown as executed; a success
 * without the pools it left and its movements (the chain model's own objects: every bin and every holder's
 * shares of each pool it touched), since hover reads what it did from `effects`.
 */
type EditorExecution = { status: 'ok' } | Exclude<ExecResult, { status: 'ok' }>;
/** A transaction of the check's execution as the editor keeps it: what it is and what executing it did. */
export type ExecutedTransaction = Omit<BuiltTransaction, ExportOnly | 'execution'> & {
  execution?: EditorExecution;
};
/**
 * The analysis the editor keeps for an open document: all of it but the execution's arguments,
 * post-conditions and resulting pool states (two thirds of what 200 open plans held), and with `parsed`
 * read again from `text` when a request needs it (parseAgain) instead of kept: the parse tree of every
 * open plan was a third of the rest.
 */
export type EditorAnalysis = Omit<Analysis, 'execution'> & {
  execution?: { transactions: ExecutedTransaction[] };
};

/** `analysis` without what the editor does not read or reads again on demand (see EditorAnalysis). */
export function editorAnalysis(analysis: Analysis | EditorAnalysis): EditorAnalysis {
  const { parsed, execution, ...rest } = analysis;
  const kept: Omit<EditorAnalysis, 'parsed'> = rest;
  if (execution)
    kept.execution = {
      transactions: execution.transactions.map((tx) => {
        // Key by key, never reading the export-only ones: the builder computes some of them on first read.
        const identity: Record<string, unknown> = {};
        for (const key of Object.keys(tx))
          if (!EXPORT_ONLY.has(key) && key !== 'execution') identity[key] = tx[key as keyof typeof tx];
        const out = identity as ExecutedTransaction;
        const run = tx.execution;
        if (run) out.execution = run.status === 'ok' ? { status: 'ok' } : run;
        return out;
      }),
    };
  const format = parsed.format;
  const text = analysis.text;
  return Object.defineProperty(kept, 'parsed', {
    get: () => parseAgain(kept as EditorAnalysis, text, format),
    enumerable: true,
  }) as EditorAnalysis;
}

/**
 * Parse trees of the analyses requests read lately (hover, lenses, hints, symbols and completion ask for
 * the same document's over and over): parsePlan is deterministic, so the tree read again is the one the
 * analysis had.
 */
const reparsed = new Map<object, ParsedPlan>();
const REPARSED_KEPT = 4;

function parseAgain(owner: object, text: string, format: ParsedPlan['format']): ParsedPlan {
  let parsed = reparsed.get(owner);
  if (parsed) {
    reparsed.delete(owner);
  } else {
    parsed = parsePlan(text, { format });
    if (reparsed.size >= REPARSED_KEPT) reparsed.delete(reparsed.keys().next().value as object);
  }
  reparsed.set(owner, parsed);
  return parsed;
}

export interface AnalysisResult {
  version: number;
  analysis: EditorAnalysis;
  /** True when live data was read (the findings include the live rules). */
  live: boolean;
  settings: ServerSettings;
  api: DlmmApi | undefined;
  /** Which analysis of the document made it (1: the first since it was opened); absent for a request's own. */
  run?: number;
}

export interface PlanServiceDeps {
  settings(uri: string): Promise<ServerSettings>;
  api(settings: ServerSettings): DlmmApi | undefined;
  /**
   * Called with every result worth showing (offline first, then live; the offline one only when the live
   * one is not ready in the same event-loop turn, or at the debounce's end); never for a stale version.
   */
  publish(uri: string, result: AnalysisResult): void;
  /** Called when a live read takes a while (for a progress indicator), and when it ends. */
  slowRead?(uri: string, done: boolean): void;
  log(line: string): void;
  /**
   * How long after a change its version's results are held back (the analysis itself starts at once, and
   * reads what is in memory or on disk; its requests to the network wait for the end): nothing is published
   * for a version sooner; then the newest result, and every later one when it comes.
   */
  debounceMs: number;
  /** How long a live session takes new analyses (default SHARED_SESSION_MS). */
  sharedSessionMs?: number;
}

interface DocState {
  doc: TextDocument;
  /** The run of the current version, due at the end of this event-loop turn (changes in one turn: one run). */
  start?: ReturnType<typeof setImmediate>;
  /** Bumped per run; a run whose sequence is no longer current drops its result. */
  seq: number;
  /** The newest result of the document, published or not (requests read it). */
  latest?: AnalysisResult;
  /** The last result published (what the user sees). */
  shown?: AnalysisResult;
  /** While set, the current version's debounce runs: its results wait in `pending`, not published. */
  hold?: ReturnType<typeof setTimeout>;
  /** The newest result to publish when the debounce ends. */
  pending?: AnalysisResult;
  /**
   * The current version's gate while its debounce holds: its run reads what is in memory or on disk at
   * once, and sends nothing to the network until this opens (at the hold's end, or a request ending it).
   */
  gate?: { until: Promise<void>; open: () => void };
  /** The running (or finished) validation for the current version. */
  running?: { version: number; done: Promise<AnalysisResult | undefined> };
  /** Resolves a `running` that has not started yet (called when superseded). */
  release?: (r: AnalysisResult | undefined) => void;
  /** The last live analysis, whose findings stay shown for untouched operations until the next one. */
  lastLive?: LastLive;
  /** Aborts the latest run's live work (closed, or superseded once the next run has its own data). */
  controller?: AbortController;
  /**
   * The run the latest one superseded: its reads stay alive (the new run joins those it needs too) until
   * the latest run has its live data, or is superseded in turn; then it is aborted.
   */
  stale?: AbortController;
  /** Runs of this document under way. */
  active: number;
  /** A run of this document is in its live part (reading data, or waiting for the visible ones). */
  inLive: boolean;
}

/**
 * How long a background document's live analysis waits at most for the visible ones (a visible document
 * whose analysis never ends, or one the client named but never opened, must not hold the others for ever).
 */
const VISIBLE_FIRST_MAX_MS = 10_000;

const SLOW_READ_MS = 800;
/**
 * Live analyses close together in time (150 plans opened at once, a state change revalidating every open
 * document) share one live session per client: each status, readiness, pool, bin list and node read is
 * made and decoded once for all of them. A session serves the analyses that start within this many ms of
 * its first one while the engine's applied state height is the one it was started at (each analysis asks
 * the client for the status first: its own answer reused for 250 ms, else one request for all), whether or
 * not an earlier one is still running: opened one after the other, plans whose reads are all answered from
 * the client's cache finish one by one, and a session dropped whenever none was running made each of them
 * copy, validate and index every read again. A later analysis, or one at another height, starts afresh.
 */
const SHARED_SESSION_MS = 1000;
/** How long a request (hover, completion) waits for live data before answering with offline data. */
const LIVE_WAIT_MS = 1500;

interface SharedSession {
  session: LiveSession;
  born: number;
  /** The applied state height the session's analyses were started at (undefined: status unknown). */
  height: number | null | undefined;
  users: number;
}

/** The plan's file name (its format is read from the suffix); malformed escapes are kept as written. */
const fileNameOf = uriFileName;

export class PlanService {
  private readonly docs = new Map<string, DocState>();
  private readonly sessions = new Map<DlmmApi, SharedSession>();
  /** The plan documents the user looks at (the client's visible editors): their live analyses go first. */
  private visible = new Set<string>();
  /** Background analyses waiting for the visible ones; woken when one of those ends or the set changes. */
  private backgroundWaiters: Array<() => void> = [];
  private readonly debounceMs: number;
  private readonly sessionMs: number;

  constructor(private readonly deps: PlanServiceDeps) {
    this.debounceMs = deps.debounceMs;
    this.sessionMs = deps.sharedSessionMs ?? SHARED_SESSION_MS;
  }

  /**
   * The client's visible plan editors. Their live analyses run before any other's: a background document
   * reaching its live part waits while a visible one is about to be analysed, being analysed, or not
   * open yet (at most VISIBLE_FIRST_MAX_MS). Background analyses already reading live data when a visible
   * document becomes pending start again (their queued requests leave the limiters; a read a visible one
   * shares goes on for it) and wait their turn.
   */
  setVisible(uris: readonly string[]): void {
    this.visible = new Set(uris);
    if (this.visiblePending()) {
      for (const state of this.docs.values()) {
        if (this.visible.has(state.doc.uri) || !state.inLive) continue;
        cancel(state);
        this.update(state.doc, true);
      }
    }
    this.wakeBackground();
  }

  /** True while a visible document is not open yet, is about to be analysed, or is being analysed. */
  private visiblePending(): boolean {
    for (const uri of this.visible) {
      const state = this.docs.get(uri);
      if (!state || state.start !== undefined || state.active > 0) return true;
    }
    return false;
  }

  private wakeBackground(): void {
    for (const wake of this.backgroundWaiters.splice(0)) wake();
  }

  /** Resolves when no visible document is pending (or after VISIBLE_FIRST_MAX_MS, or when `signal` aborts). */
  private async visibleFirst(uri: string, signal: AbortSignal): Promise<void> {
    const until = Date.now() + VISIBLE_FIRST_MAX_MS;
    while (!this.visible.has(uri) && !signal.aborted && this.visiblePending()) {
      const left = until - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        signal.addEventListener('abort', done, { once: true });
        this.backgroundWaiters.push(done);
      });
    }
  }

  /**
   * A plan document was opened or changed: analyse it at once (at the end of this event-loop turn, so that
   * changes arriving together are analysed once: the last), and publish its results once the debounce has
   * passed since this change. Until then its live reads answered from memory or disk proceed, and what it
   * would ask the network waits (its gate, DlmmApi.withGate): a burst of keystrokes asks the network only
   * for the last one's. `immediate` (an open, a revalidation): analysed and published now.
   */
  update(doc: TextDocument, immediate = false): void {
    const state = this.docs.get(doc.uri) ?? { doc, seq: 0, active: 0, inLive: false };
    state.doc = doc;
    this.docs.set(doc.uri, state);
    if (state.start) clearImmediate(state.start);
    state.start = undefined;
    state.release?.(undefined);
    state.release = undefined;
    if (state.hold) clearTimeout(state.hold);
    state.hold = undefined;
    state.pending = undefined;
    // The version before's gate stays shut: its run, superseded, sends nothing more (its waits end through
    // its signal); a read this version shares with it is sent when this version's gate opens.
    state.gate = undefined;
    if (immediate || this.debounceMs === 0) {
      state.running = { version: doc.version, done: this.run(state) };
      return;
    }
    const version = doc.version;
    let release: (r: AnalysisResult | undefined) => void = () => {};
    const done = new Promise<AnalysisResult | undefined>((resolve) => (release = resolve));
    state.running = { version, done };
    state.release = release;
    let open: () => void = () => {};
    const until = new Promise<void>((resolve) => (open = resolve));
    state.gate = { until, open };
    state.hold = setTimeout(() => this.endHold(state), this.debounceMs);
    state.start = setImmediate(() => {
      state.start = undefined;
      state.release = undefined;
      this.run(state).then(release, () => release(undefined));
    });
  }

  /** The debounce of the current version is over (or a request flushed it): its newest result is shown. */
  private endHold(state: DocState): void {
    if (state.hold) clearTimeout(state.hold);
    state.hold = undefined;
    state.gate?.open();
    state.gate = undefined;
    const pending = state.pending;
    state.pending = undefined;
    if (pending && this.docs.get(state.doc.uri) === state) this.show(state, pending);
  }

  /** Publishes `result` of the current version, or keeps it for the end of the debounce. */
  private show(state: DocState, result: AnalysisResult): void {
    // A run of the version before, still current until the new version's run starts: its result is stale.
    if (result.version !== state.doc.version) return;
    if (state.hold) {
      state.pending = result;
      return;
    }
    state.shown = result;
    this.deps.publish(state.doc.uri, result);
  }

  /**
   * The document was closed: forget it, and cancel its live work (queued reads leave the limiters; a read
   * another document waits for goes on for that one).
   */
  close(uri: string): void {
    const state = this.docs.get(uri);
    if (state?.start) clearImmediate(state.start);
    if (state?.hold) clearTimeout(state.hold);
    state?.release?.(undefined);
    if (state) {
      state.pending = undefined;
      state.seq++;
      cancel(state);
    }
    this.docs.delete(uri);
    if (this.visible.has(uri)) this.wakeBackground();
  }

  /** Whether the document is open in the service. */
  isOpen(uri: string): boolean {
    return this.docs.has(uri);
  }

  /** Whether this very version of the document is already being (or was) analysed: nothing new to do. */
  tracks(doc: TextDocument): boolean {
    const state = this.docs.get(doc.uri);
    return state !== undefined && state.doc.version === doc.version && state.running?.version === doc.version;
  }

  /** URIs of the open plan documents. */
  openUris(): string[] {
    return [...this.docs.keys()];
  }

  /**
   * Whether the live analysis shown for an open document was made through `api` on another engine state
   * than `status` (a status read): another applied state height, readiness or tip lag, or a status it
   * could not read. A document whose live analysis is still to come is not counted: it reads the state then.
   * A live result computed but held back by the debounce is counted beside the one shown: it replaces
   * that one at the debounce's end.
   */
  analysedOnOtherState(
    api: DlmmApi,
    status: { ready?: boolean; stateHeight?: number | null; tipLag?: number | null },
  ): boolean {
    for (const state of this.docs.values()) {
      if (!state.latest?.live) continue;
      for (const result of [state.shown, state.latest]) {
        const live = result?.live && result.api === api ? result.analysis.live : undefined;
        if (!live) continue;
        if (live.statusError) return true;
        const read = live.status;
        if (
          read &&
          (read.state_height !== status.stateHeight ||
            read.tip_lag !== status.tipLag ||
            read.ready !== status.ready)
        )
          return true;
      }
    }
    return false;
  }

  /**
   * Waits, without ending the debounce, for the analysis of `version` under way: whether its newest result
   * is live, and whether any result of that version was published (the tests' `analysed` request,
   * test/integration/lsp/testHooks.ts).
   * An analysis that must ask the network for something ends only after the debounce (its gate).
   */
  async analysed(uri: string, version: number): Promise<{ live: boolean; published: boolean } | undefined> {
    const state = this.docs.get(uri);
    if (!state || state.running?.version !== version) return undefined;
    await state.running.done;
    if (this.docs.get(uri) !== state || state.latest?.version !== version) return undefined;
    return { live: state.latest.live, published: state.shown?.version === version };
  }

  /** Re-analyse every open document now (engine state or settings changed). */
  revalidateAll(): void {
    // Reads shared so far belong to the old state or settings: nobody waits for them any more.
    this.sessions.clear();
    for (const state of this.docs.values()) {
      cancel(state);
      this.update(state.doc, true);
    }
  }

  /**
   * Joins the live session of the analyses started against `api` at the same applied state height within
   * `sessionMs` (SHARED_SESSION_MS), or starts one.
   */
  private async joinSession(
    api: DlmmApi,
    signal: AbortSignal,
    gate: Promise<void> | undefined,
  ): Promise<{ session: LiveSession; leave: () => void }> {
    let height: number | null | undefined;
    try {
      const mine = api.withSignal?.(signal) ?? api;
      height = (await ((gate !== undefined ? mine.withGate?.(gate) : undefined) ?? mine).status())
        .state_height;
    } catch (e) {
      if (isCancelled(e)) throw e;
      // Unknown: the session's own status read reports it; sessions that did not know it either are joined.
      height = undefined;
    }
    const now = Date.now();
    let shared = this.sessions.get(api);
    if (!shared || now - shared.born > this.sessionMs || shared.height !== height) {
      const fresh: SharedSession = { session: createLiveSession(), born: now, height, users: 0 };
      this.sessions.set(api, fresh);
      // Its reads are let go once it can serve nobody new and nobody uses it.
      setTimeout(() => this.dropSession(api, fresh), this.sessionMs + 1).unref?.();
      shared = fresh;
    }
    const joined = shared;
    joined.users++;
    return {
      session: joined.session,
      leave: () => {
        joined.users--;
        this.dropSession(api, joined);
      },
    };
  }

  /** Forgets `shared` when it is too old to be joined and no analysis uses it any more. */
  private dropSession(api: DlmmApi, shared: SharedSession): void {
    if (shared.users === 0 && Date.now() - shared.born > this.sessionMs && this.sessions.get(api) === shared)
      this.sessions.delete(api);
  }

  /**
   * The analysis of the document's current version: its live result when there is one (published or still
   * held by the debounce); else waits for the running validation (ending its debounce: what it has is
   * published now, the rest when it comes), and for live data up to LIVE_WAIT_MS; falls back to the
   * offline analysis of this text.
   */
  async current(doc: TextDocument): Promise<AnalysisResult> {
    const state = this.docs.get(doc.uri);
    if (state && state.latest?.version === doc.version && state.latest.live) return state.latest;
    if (state && state.running?.version === doc.version) {
      if (state.hold) this.endHold(state);
      const running = this.docs.get(doc.uri)?.running;
      if (running) {
        const result = await Promise.race([running.done, delay(LIVE_WAIT_MS).then(() => undefined)]);
        if (result && result.version === doc.version) return result;
      }
      const latest = this.docs.get(doc.uri)?.latest;
      if (latest && latest.version === doc.version) return latest;
    }
    const settings = await this.deps.settings(doc.uri);
    const api = this.deps.api(settings);
    return {
      version: doc.version,
      analysis: this.offline(doc, settings, api),
      live: false,
      settings,
      api,
    };
  }

  /**
   * The offline analysis of the document. Without a service (no live analysis follows) it carries the
   * `live-unchecked` warning saying why: a plan the editor could not check live is never shown clean.
   */
  private offline(doc: TextDocument, settings: ServerSettings, api: DlmmApi | undefined): Analysis {
    return analyzeOffline(doc.getText(), {
      fileName: fileNameOf(doc.uri),
      ...(api ? {} : { liveSkipped: settings.noService ?? 'no service configured' }),
    });
  }

  private async run(state: DocState): Promise<AnalysisResult | undefined> {
    const seq = ++state.seq;
    // This run supersedes the previous one, which keeps its reads until this one has its data; any older
    // run is nobody's business any more.
    state.stale?.abort(cancelledError());
    state.stale = state.controller;
    const controller = new AbortController();
    state.controller = controller;
    const superseded = state.stale;
    const dropSuperseded = (): void => {
      if (superseded && state.stale === superseded) {
        // A run that has ended, with nothing listening on its signal, is let go without an abort (whose
        // reason, an error with its stack, was made on every keystroke for nobody).
        if (!ended.has(superseded) || getEventListeners(superseded.signal, 'abort').length > 0)
          superseded.abort(cancelledError());
        state.stale = undefined;
      }
    };
    state.active++;
    try {
      return await this.analyse(state, seq, controller.signal);
    } finally {
      ended.add(controller);
      state.active--;
      if (state.seq === seq) state.inLive = false;
      dropSuperseded();
      if (this.visible.has(state.doc.uri)) this.wakeBackground();
    }
  }

  private async analyse(
    state: DocState,
    seq: number,
    signal: AbortSignal,
  ): Promise<AnalysisResult | undefined> {
    const doc = state.doc;
    const uri = doc.uri;
    const version = doc.version;
    const current = () => this.docs.get(uri) === state && state.seq === seq;
    // Taken now: the gate of this very version (a later version has its own; this one's never opens).
    const gate = state.gate?.until;
    const settings = await this.deps.settings(uri);
    if (!current()) return undefined;
    const api = this.deps.api(settings);
    let analysis: Analysis;
    try {
      analysis = this.offline(doc, settings, api);
    } catch (e) {
      this.deps.log(`analysis failed for ${uri}: ${errorText(e)}`);
      return undefined;
    }
    const offline: AnalysisResult = {
      version,
      analysis: editorAnalysis(analysis),
      live: false,
      settings,
      api,
      run: seq,
    };
    state.latest = offline;
    if (!api) {
      state.lastLive = undefined;
      this.show(state, offline);
      return offline;
    }
    // Mid-edit, the live findings of untouched operations stay until this version's live analysis arrives.
    const carried = carriedLiveFindings(state.lastLive, analysis);
    const shown =
      carried.length === 0
        ? offline
        : {
            ...offline,
            analysis: editorAnalysis({
              ...analysis,
              findings: sortFindings([...analysis.findings, ...carried]),
            }),
          };
    // With nothing carried (an opened document, or no live findings yet), published at the end of this
    // event-loop turn unless the live result is published first: when every read is answered from memory
    // (the live session or the client's cache: most of 150 plans opened at once), the live analysis ends
    // in the same turn and its publish (every offline finding included) replaces this one before anyone
    // could see it: one publish instead of two, at the same moment. Carried live findings are published at
    // once (they are what keeps an edited document from flickering).
    let offlinePending: ReturnType<typeof setImmediate> | undefined;
    if (carried.length === 0)
      offlinePending = setImmediate(() => {
        offlinePending = undefined;
        if (current()) this.show(state, shown);
      });
    else this.show(state, shown);
    const liveFirst = (): void => {
      if (offlinePending) clearImmediate(offlinePending);
      offlinePending = undefined;
    };

    // The visible documents' live analyses first (setVisible).
    state.inLive = true;
    await this.visibleFirst(uri, signal);
    if (!current() || signal.aborted) return undefined;

    let slowShown = false;
    const slow = setTimeout(() => {
      slowShown = true;
      this.deps.slowRead?.(uri, false);
    }, SLOW_READ_MS);
    let shared: { session: LiveSession; leave: () => void } | undefined;
    try {
      shared = await this.joinSession(api, signal, gate);
      if (!current()) return undefined;
      const live = await analyzePlan(analysis.text, {
        api,
        session: shared.session,
        parsed: analysis.parsed,
        fileName: fileNameOf(uri),
        signal,
        ...(gate ? { gate } : {}),
        ...(settings.maxTipLag !== undefined && settings.maxTipLag !== null
          ? { maxTipLag: settings.maxTipLag }
          : {}),
      });
      if (!current()) return undefined;
      const result: AnalysisResult = {
        version,
        analysis: editorAnalysis(live),
        live: true,
        settings,
        api,
        run: seq,
      };
      state.latest = result;
      state.lastLive = lastLive(live, analysis);
      liveFirst();
      this.show(state, result);
      return result;
    } catch (e) {
      // Closed or superseded: the result is for nobody.
      if (isCancelled(e)) return undefined;
      // analyzePlan reports unreachable data as findings; a throw here is a defect, shown in the log.
      this.deps.log(`live analysis failed for ${uri}: ${errorText(e)}`);
      state.lastLive = undefined;
      liveFirst();
      if (current()) this.show(state, offline);
      return offline;
    } finally {
      shared?.leave();
      clearTimeout(slow);
      if (slowShown) this.deps.slowRead?.(uri, true);
    }
  }
}

/** Controllers of runs that have ended (analyzePlan waits for every read it made). */
const ended = new WeakSet<AbortController>();

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** The analysis order: by offset, then severity, then code. */
function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      a.offset - b.offset ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.code.localeCompare(b.code),
  );
}

/** Cancels every live run of the document. */
function cancel(state: DocState): void {
  state.controller?.abort(cancelledError());
  state.stale?.abort(cancelledError());
  state.controller = undefined;
  state.stale = undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
