/**
 * The language server's working part: the plan service, the API clients, the engine watch and every
 * feature handler. server.ts answers `initialize` without it and loads it once the client has the answer
 * (`initialized`): esbuild.mjs bundles it apart (dist/lazy-server-engine.js), so the handshake loads
 * neither zod, yaml nor the analyzer.
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';
import {
  CodeLensRefreshRequest,
  DiagnosticSeverity,
  type Diagnostic,
  type Range,
} from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeCacheDir } from '../../core/api/nodeStore';
import { keysFromEnv, safeDeep } from '../../core/text/safe';
import { ApiPool, type ApiFactory } from './apiPool';
import { readEngineStatus } from '../../protocol/engineStatus';
import { EngineWatch } from './engineWatch';
import { uriFileName, type PlanDocuments } from './documents';
import { codeActions } from './features/codeActions';
import { codeLenses } from './features/codeLens';
import { completion } from './features/completion';
import { toDiagnostics } from './features/diagnostics';
import { hover } from './features/hover';
import { inlayHints } from './features/inlayHints';
import { documentSymbols } from './features/symbols';
import { PlanService, type AnalysisResult } from './planService';
import {
  AnalysisNotification,
  EngineStatusNotification,
  EngineStatusRequest,
  isPlanFile,
  ProgressNotification,
  SetApiKeyNotification,
  VisibleDocumentsNotification,
} from '../../protocol/messages';
import { InitializationOptionsSchema, type InitializationOptions } from '../../protocol/schemas';
import { resolveSection, SettingsStore, settingsFromEnv } from './settings';

/** How the server is started (server.ts takes them and hands them to the engine). */
export interface ServerOptions {
  /**
   * Process environment: DLMM_API_URL, DLMM_INVENTORY_URL, DLMM_NODE_URL, DLMM_API_KEY; the core swap API
   * keys (BITFLOW_API_KEY, READONLY_CALL_API_KEY, KEEPER_API_KEY) are redacted from what it publishes.
   */
  env: Record<string, string | undefined>;
  /**
   * Starts a simulated engine on loopback for `environment: simulator` when the client runs none (`dlmm lsp`
   * passes core/sim's, loaded on first use). Absent (the extension's server, whose host runs the simulator
   * and names it in the settings): a client that asks for one without naming it gets no service, and why.
   */
  startSimulator?: () => Promise<OwnSimulatorRun>;
  /**
   * Handlers a host adds beside the product's (none in the shipped entries: the tests' own entry,
   * test/integration/lsp/testServer.ts, adds its requests here, so no shipped bundle holds them).
   */
  hooks?: ServerHooks;
}

/** Extra handlers: on the connection before it listens, and once the engine's parts exist. */
export interface ServerHooks {
  connection?(connection: Connection): void;
  engine?(parts: EngineParts): void;
}

/** The engine's parts, as a hook sees them. */
export interface EngineParts {
  connection: Connection;
  documents: PlanDocuments;
  service: PlanService;
}

/** A simulated engine the server started (core/sim/server.ts `RunningSimulator`). */
export interface OwnSimulatorRun {
  url: string;
  inventoryUrl: string;
  nodeUrl: string;
  close(): Promise<void>;
}

/** What the client said at `initialize`. */
export interface Handshake {
  /** `initializationOptions` as sent (validated here). */
  initializationOptions: unknown;
  hasConfiguration: boolean;
  canRefreshLenses: boolean;
  canRefreshInlays: boolean;
}

/**
 * The HTTP client (core/api/client.ts) is loaded when the first document needs live data, not at start (esbuild.mjs
 * bundles it apart).
 */
const loadApiClient: ApiFactory = (opts) =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../../core/api/client') as typeof import('../../core/api/client')).createApiClient(opts);

const DEFAULT_DEBOUNCE_MS = 150;
const DEFAULT_STATUS_POLL_MS = 5000;

/** Binds every handler but the handshake onto `connection` (after `initialize`) and analyses open plans. */
export function startEngine(
  connection: Connection,
  documents: PlanDocuments,
  options: ServerOptions,
  handshake: Handshake,
): void {
  const parsed = InitializationOptionsSchema.safeParse(handshake.initializationOptions ?? {});
  const init: InitializationOptions = parsed.success ? parsed.data : { commands: [] };
  // The server's log (the editor's output channel) is published text too: redacted and escaped.
  const log = (line: string) => connection.console.log(safe(line));

  const statusPollMs = init.statusPollMs ?? DEFAULT_STATUS_POLL_MS;
  // The applied state height is known from the engine watch's status read (one per poll, shared by every
  // document): analyses reuse it until shortly after the next poll is due, so a keystroke at an unchanged
  // height asks the engine nothing; a new height seen by the poll drops the cache and revalidates. (A
  // watch slowed beyond the default in tests still has the status read again after 6 s.)
  const statusTtlMs = Math.min(statusPollMs, DEFAULT_STATUS_POLL_MS) + 1000;
  const apis = new ApiPool(
    loadApiClient,
    options.env.DLMM_API_KEY,
    log,
    (nodeUrl) => nodeCacheDir(options.env, nodeUrl),
    statusTtlMs,
  );
  /**
   * What the server publishes for people: the configured keys redacted (the service key, from the client or
   * the environment, and the core swap API keys of the environment), control characters escaped.
   */
  const envKeys = keysFromEnv(options.env);
  const safe = <T>(value: T): T => safeDeep(value, [...apis.secrets(), ...envKeys]);
  const envSettings = settingsFromEnv(options.env, (m) => connection.console.warn(safe(m)));
  // `environment: simulator` without a simulator of the client's: the server runs one itself, on loopback.
  let ownSimulator: Promise<OwnSimulatorRun> | undefined;
  const start = options.startSimulator;
  const startOwnSimulator = (): Promise<OwnSimulatorRun> =>
    start === undefined
      ? Promise.reject(new Error('this server runs no simulator of its own; start one in the editor'))
      : (ownSimulator ??= start().then(
          (sim) => {
            log(`simulator listening on ${sim.url}`);
            return sim;
          },
          (e: unknown) => {
            ownSimulator = undefined; // tried again on the next settings change
            throw e;
          },
        ));
  const settings = new SettingsStore(
    handshake.hasConfiguration
      ? (uri) => connection.workspace.getConfiguration({ scopeUri: uri || undefined, section: 'dlmm' })
      : undefined,
    (section) => resolveSection(section, envSettings, startOwnSimulator),
    envSettings,
    (m) => connection.console.warn(safe(m)),
  );
  if (init.dlmm !== undefined) settings.push(init.dlmm, true);

  const service = new PlanService({
    settings: (uri) => settings.get(uri),
    api: (s) => apis.get(s),
    publish: (uri, result) => publish(uri, result),
    slowRead: (uri, done) => {
      void connection.sendNotification(ProgressNotification, {
        id: uri,
        title: safe(`DLMM: reading live data for ${shortName(uri)}`),
        done,
      });
    },
    log,
    debounceMs: init.debounceMs ?? DEFAULT_DEBOUNCE_MS,
  });

  const watch = new EngineWatch({
    intervalMs: statusPollMs,
    targets: async () => {
      const out = [];
      for (const uri of service.openUris()) {
        const s = await settings.get(uri);
        const api = apis.get(s);
        if (api) out.push({ api, settings: s });
      }
      return out;
    },
    onStatus: (status) => void connection.sendNotification(EngineStatusNotification, safe(status)),
    onStateChange: (api) => {
      // The engine moved: cached pools, bins and positions belong to the old state.
      api.clearCache();
      service.revalidateAll();
      refreshViews();
    },
    analysedOnOtherState: (api, status) => service.analysedOnOtherState(api, status),
  });

  function publish(uri: string, result: AnalysisResult): void {
    const doc = documents.get(uri);
    if (!doc || doc.version !== result.version) return;
    void connection.sendDiagnostics({
      uri,
      version: doc.version,
      // Only the words: a fix's edit text in `data` is inserted as written.
      diagnostics: toDiagnostics(doc, result.analysis.findings).map((d) => ({
        ...d,
        message: safe(d.message),
      })),
    });
    if (init.analysisEvents)
      void connection.sendNotification(AnalysisNotification, {
        uri,
        version: doc.version,
        live: result.live,
        run: result.run ?? 0,
      });
    if (result.live) refreshViews();
  }

  let refreshQueued = false;
  /** Lenses and inlay hints depend on live data: ask the client to pull them again (coalesced). */
  function refreshViews(): void {
    if (refreshQueued) return;
    refreshQueued = true;
    setTimeout(() => {
      refreshQueued = false;
      if (handshake.canRefreshLenses)
        void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
      if (handshake.canRefreshInlays) void connection.languages.inlayHint.refresh().catch(() => undefined);
    }, 50);
  }

  function followOpenDocuments(): void {
    if (service.openUris().length > 0) watch.start();
    else watch.stop();
  }

  connection.onDidChangeConfiguration((change) => {
    // Settings pushed (`{ dlmm: {...} }`: Neovim, Helix, Sublime, Emacs) or a call to ask again (VS Code).
    settings.push((change as { settings?: unknown } | null)?.settings);
    apis.reset();
    watch.reset();
    service.revalidateAll();
    refreshViews();
  });

  connection.onNotification(SetApiKeyNotification, (params: unknown) => {
    const apiKey = (params as { apiKey?: unknown } | null)?.apiKey;
    apis.setApiKey(typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : null);
    watch.reset();
    service.revalidateAll();
  });

  connection.onNotification(VisibleDocumentsNotification, (params: unknown) => {
    const uris = (params as { uris?: unknown } | null)?.uris;
    // Anything else than a list of URIs is ignored (the order of analyses is all it can change).
    if (!Array.isArray(uris)) return;
    service.setVisible(
      uris.filter((u): u is string => typeof u === 'string' && isPlanFile(u)).slice(0, 1000),
    );
  });

  connection.onRequest(EngineStatusRequest, async () => {
    const uri = service.openUris()[0] ?? '';
    const s = await settings.get(uri);
    const api = apis.get(s);
    api?.clearCache();
    return safe(await readEngineStatus(api, s));
  });

  /** Set by `shutdown`: from then on no document is analysed and every request is refused. */
  let shutDown = false;
  documents.log = log;
  documents.onDidOpen((e) => {
    if (shutDown || !isPlanFile(e.document.uri)) return;
    service.update(e.document, true);
    followOpenDocuments();
  });
  documents.onDidChangeContent((e) => {
    if (shutDown || !isPlanFile(e.document.uri)) return;
    // PlanDocuments fires this on open too, right after onDidOpen started the first analysis of the same
    // version: only a new version is analysed (at once; published after the debounce).
    if (service.isOpen(e.document.uri) && !service.tracks(e.document)) service.update(e.document);
  });
  documents.onDidClose((e) => {
    if (!isPlanFile(e.uri)) return;
    service.close(e.uri);
    settings.clear(e.uri);
    void connection.sendDiagnostics({ uri: e.uri, diagnostics: [] });
    followOpenDocuments();
  });
  documents.onDidLoseSync((e) => {
    if (!isPlanFile(e.uri)) return;
    // Whatever was analysed belongs to a text the editor may not have: withheld, and said so.
    service.close(e.uri);
    void connection.sendDiagnostics({
      uri: e.uri,
      ...(e.version !== undefined ? { version: e.version } : {}),
      diagnostics: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          code: OUT_OF_SYNC,
          source: 'dlmm',
          message: safe(
            `This file is not checked: the language server has no exact copy of it (${e.reason}). Close and reopen the file.`,
          ),
        },
      ],
    });
    followOpenDocuments();
  });

  /**
   * The plan document behind a request, and its current analysis (undefined for other files and for a
   * document out of sync). Params that name no document are refused (InvalidParams), as is every request
   * after `shutdown` (InvalidRequest, as the protocol asks).
   */
  async function resultFor(params: unknown) {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down');
    const uri = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument?.uri;
    if (typeof uri !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'textDocument.uri must be a string');
    const doc = documents.get(uri);
    if (!doc || !isPlanFile(uri)) return undefined;
    return { doc, result: await service.current(doc) };
  }

  connection.onHover(async (p) => {
    const r = await resultFor(p);
    return r ? safe(hover(r.doc, r.result, offsetOf(r.doc, p.position))) : null;
  });
  connection.onCompletion(async (p) => {
    const r = await resultFor(p);
    return r ? completion(r.doc, r.result, offsetOf(r.doc, p.position)) : null;
  });
  connection.onCodeAction(async (p) => {
    const r = await resultFor(p);
    if (!r) return null;
    const diagnostics: unknown = p.context?.diagnostics;
    if (!Array.isArray(diagnostics)) throw invalid('context.diagnostics must be a list');
    const only: unknown = p.context.only;
    // Entries without a range are no diagnostics: skipped (a fix is taken only from our own, checked).
    return codeActions(
      r.doc,
      diagnostics.filter((d: unknown): d is Diagnostic => isRange((d as { range?: unknown } | null)?.range)),
      r.result.analysis.findings,
      Array.isArray(only) ? only.filter((k: unknown): k is string => typeof k === 'string') : undefined,
      {
        analysis: r.result.analysis,
        range: rangeParam(p.range),
      },
    );
  });
  connection.onCodeLens(async (p) => {
    const r = await resultFor(p);
    return r
      ? codeLenses(r.doc, r.result, new Set(init.commands)).map((l) =>
          l.command ? { ...l, command: { ...l.command, title: safe(l.command.title) } } : l,
        )
      : null;
  });
  connection.onDocumentSymbol(async (p) => {
    const r = await resultFor(p);
    return r ? safe(documentSymbols(r.doc, r.result.analysis)) : null;
  });
  connection.languages.inlayHint.on(async (p) => {
    const r = await resultFor(p);
    return r
      ? inlayHints(r.doc, r.result, rangeParam(p.range)).map((h) => ({
          ...h,
          label: safe(h.label),
          ...(h.tooltip !== undefined ? { tooltip: safe(h.tooltip) } : {}),
        }))
      : null;
  });

  options.hooks?.engine?.({ connection, documents, service });

  // Documents opened before this part was loaded (TextDocuments kept them): analysed now.
  for (const doc of documents.all()) {
    if (!isPlanFile(doc.uri)) continue;
    service.update(doc, true);
  }
  followOpenDocuments();

  connection.onShutdown(async () => {
    shutDown = true;
    watch.stop();
    const sim = ownSimulator;
    ownSimulator = undefined;
    await sim?.then((x) => x.close()).catch(() => undefined);
    for (const uri of service.openUris()) service.close(uri);
  });
}

function shortName(uri: string): string {
  return uriFileName(uri);
}

/** The code of the one diagnostic of a document the server has no exact copy of (documents.ts). */
const OUT_OF_SYNC = 'document-out-of-sync';

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

function isUInteger(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** A request's `position` as an offset in `doc` (past the end of a line or the document: its end). */
function offsetOf(doc: TextDocument, position: unknown): number {
  const p = position as { line?: unknown; character?: unknown } | null | undefined;
  if (!isUInteger(p?.line) || !isUInteger(p.character))
    throw invalid('position must be {line, character} of non-negative integers');
  return doc.offsetAt({ line: p.line, character: p.character });
}

/** Whether `range` is {start, end} positions of non-negative integers. */
function isRange(range: unknown): range is Range {
  const r = range as { start?: unknown; end?: unknown } | null | undefined;
  const pos = (x: unknown) => {
    const p = x as { line?: unknown; character?: unknown } | null | undefined;
    return isUInteger(p?.line) && isUInteger(p.character);
  };
  return pos(r?.start) && pos(r?.end);
}

/** A request's `range`, checked to be one (InvalidParams otherwise). */
function rangeParam(range: unknown): Range {
  if (!isRange(range)) throw invalid('range must be {start, end} positions of non-negative integers');
  return range;
}
