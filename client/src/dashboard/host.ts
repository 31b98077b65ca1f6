/**
 * The host side of the dashboard protocol: validates what the webview sends, answers requests through the
 * data feed, and pushes notifications. No vscode import: panel.ts gives it vscode-backed functions, the
 * Chromium tests give it the simulated engine, so both run this same code.
 */
import type { DlmmApi } from '../../../core/api/types';
import type { RouterOverrides } from '../../../core/chain/deployments';
import {
  REQUESTS,
  WebviewMessageSchema,
  describeZodError,
  type ErrorInfo,
  type HostMessage,
  type Overview,
  type PoolView,
  type QuoteParams,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
} from '../../../webview/src/protocol';
import { redactDeep, safeText } from '../../../core/text/safe';
import { isPlanFile } from '../../../protocol/messages';
import { noEngineError, toErrorInfo } from './errorInfo';
import { Prefetch } from './prefetch';
import {
  buildPlanPreview,
  readOverview,
  readPoolView,
  readPriceHistory,
  readQuote,
  readSenderBalances,
  readSenderPosition,
  type ActivePlan,
  type Sender,
} from './feed';

interface DashboardHostDeps {
  getApi(): DlmmApi | undefined;
  getActivePlan(): Promise<ActivePlan | undefined>;
  /** The `dlmm.dashboard.sender` setting, used when the open plan names no sender. */
  senderSetting(): string | undefined;
  /** The `dlmm.routers` overrides (the STX wrapper the balances read STX through); none: the defaults. */
  routerOverrides?(): RouterOverrides | undefined;
  /** policy.max_tip_lag for the positions read (`dlmm.maxTipLag`); none: DEFAULT_MAX_TIP_LAG (core/check/freshness.ts), as `dlmm positions`. */
  maxTipLag?(): number | undefined;
  post(msg: HostMessage): unknown;
  revealRange(uri: string, offset: number, length: number): Promise<void>;
  /**
   * URIs of the workspace folders (as `Uri.toString()` writes them): `revealRange` opens only plan files
   * inside one of them, whatever URI the page sends.
   */
  workspaceFolders(): readonly string[];
  /** Last pool shown (the host's memento). */
  lastPool: { get(): string | undefined; set(poolId: string): unknown };
  /** The swap export; `then: 'wallet'` hands the swap plan to Send to Wallet instead. */
  exportSwap: {
    available(): Promise<boolean>;
    run(params: QuoteParams, then?: 'export' | 'wallet'): Promise<void>;
  };
  log?(line: string): void;
  /**
   * The configured keys (secret storage and the environment: client/src/userText.ts): redacted from every
   * message the page receives and every log line, wherever the text came from (an engine echoing a key).
   */
  secrets?(): readonly (string | undefined)[];
  /** Clock for the prefetch freshness (tests). */
  now?(): number;
}

export interface DashboardHost {
  /**
   * Starts the reads a newly opened webview asks for first (the pool list, the view and plan preview of the
   * pool it will open, whether export exists), so they overlap the page load. Call before setting the HTML.
   */
  prefetch(): void;
  /** Handles one raw message from the webview (validated here). Resolves when it has been answered. */
  receive(raw: unknown): Promise<void>;
  /** The engine's applied state height changed. */
  stateChanged(stateHeight: number | null): void;
  /** The plan open in the editor changed. */
  planChanged(): void;
  /** Asks the webview to show a pool (it also becomes the remembered one). */
  showPool(poolId: string): void;
}

/**
 * Whether `uri` names a plan file (*.dlmm.yaml|yml|json) inside one of the workspace `folders` (same
 * scheme and authority, a path below the folder's, no dot segments even percent-encoded, no query or
 * fragment). What the webview asks to open is checked with it: a page is never trusted to name a file.
 */
export function isWorkspacePlanUri(uri: string, folders: readonly string[]): boolean {
  const target = parseUri(uri);
  if (!target || target.search !== '' || target.hash !== '') return false;
  const path = decodedPath(target);
  if (path === undefined || !isPlanFile(path)) return false;
  return folders.some((folder) => {
    const base = parseUri(folder);
    if (!base || base.protocol !== target.protocol || base.host !== target.host) return false;
    const root = decodedPath(base)?.replace(/\/+$/, '');
    return root !== undefined && path.startsWith(root + '/');
  });
}

function parseUri(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The URL's path decoded; undefined when it cannot be, or holds a dot segment, a backslash or a NUL. */
function decodedPath(url: URL): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (/[\\\0]/.test(path)) return undefined;
  if (path.split('/').some((seg) => seg === '.' || seg === '..')) return undefined;
  return path;
}

/** Builds the host side of one dashboard panel. */
export function createDashboardHost(deps: DashboardHostDeps): DashboardHost {
  const secrets = () => deps.secrets?.() ?? [];
  const post = (msg: HostMessage): unknown => deps.post(redactDeep(msg, secrets()));
  const log = (line: string): void => deps.log?.(safeText(line, secrets()));
  /** A command of the page that could not be carried out. */
  const notice = (message: string): unknown => post({ type: 'notice', level: 'error', message });
  const api = (): DlmmApi => {
    const a = deps.getApi();
    if (!a) throw new NoEngine();
    return a;
  };

  async function sender(): Promise<Sender | undefined> {
    const plan = await deps.getActivePlan().catch(() => undefined);
    const fromPlan = plan?.analysis.plan?.sender;
    if (fromPlan) return { address: fromPlan, source: 'plan' };
    const fromSetting = deps.senderSetting()?.trim();
    return fromSetting ? { address: fromSetting, source: 'setting' } : undefined;
  }

  /** Each request's read, given its parameters as the protocol validates them. */
  const readers: { [M in RequestMethod]: (p: RequestParams<M>) => Promise<RequestResult<M>> } = {
    overview: () => readOverview(api()),
    poolView: (p) => readPoolView(api(), p.pool_id, sender),
    planPreview: async (p) => {
      const pool = await api().pool(p.pool_id);
      const ids = new Set([p.pool_id, pool.pool_id, ...(pool.pool_alias ? [pool.pool_alias] : [])]);
      return buildPlanPreview(await deps.getActivePlan(), ids);
    },
    quote: (p) => readQuote(api(), p),
    priceHistory: (p) => readPriceHistory(api(), p.pool_id),
    balances: async (p) => readSenderBalances(api(), p.pool_id, await sender(), deps.routerOverrides?.()),
    positions: async (p) => readSenderPosition(api(), p.pool_id, await sender(), deps.maxTipLag?.()),
  };

  async function read(method: RequestMethod, params: unknown): Promise<unknown> {
    const reader = readers[method] as (p: unknown) => Promise<unknown>;
    return reader(REQUESTS[method].params.parse(params));
  }

  const prefetched = new Prefetch(deps.now);

  /** The prefetch key of a request; undefined for requests never prefetched (or with bad params). */
  function keyOf(method: RequestMethod, params: unknown): string | undefined {
    if (method === 'overview') return 'overview';
    if (method !== 'poolView' && method !== 'planPreview') return undefined;
    const p = REQUESTS[method].params.safeParse(params);
    return p.success ? `${method} ${p.data.pool_id}` : undefined;
  }

  /** Starts a read the webview is about to ask for (nothing without an engine: it would only fail). */
  function prefetch(method: RequestMethod, params: unknown): Promise<unknown> | undefined {
    const key = keyOf(method, params);
    if (key === undefined || !deps.getApi()) return undefined;
    return prefetched.start(key, () => read(method, params));
  }

  function prefetchPool(poolId: string): void {
    prefetch('poolView', { pool_id: poolId });
    prefetch('planPreview', { pool_id: poolId });
  }

  /** With no pool to reopen, the webview opens the first listed one: read it while the list travels. */
  function prefetchFirstPool(): void {
    void prefetch('overview', {})
      ?.then((ov) => {
        const first = (ov as Overview).pools[0];
        if (first) prefetchPool(first.pool_id);
      })
      .catch(() => undefined);
  }

  function answer(method: RequestMethod, params: unknown): Promise<unknown> {
    const key = keyOf(method, params);
    return (key !== undefined ? prefetched.take(key) : undefined) ?? read(method, params);
  }

  const what: Record<RequestMethod, string> = {
    overview: 'list the pools',
    poolView: 'read the pool',
    planPreview: 'preview the plan',
    quote: 'get a quote',
    priceHistory: 'read the price history',
    balances: "read the sender's balances",
    positions: "read the sender's position",
  };

  function errorOf(e: unknown, method: RequestMethod): ErrorInfo {
    if (e instanceof NoEngine) return noEngineError();
    if (e && typeof e === 'object' && 'issues' in e && Array.isArray((e as { issues: unknown }).issues)) {
      return {
        code: 'bad-request',
        message: `The dashboard sent ${method} with bad parameters: ${describeZodError(e as never)}.`,
        action: 'Reopen the dashboard; if it persists, report it.',
      };
    }
    return toErrorInfo(e, what[method]);
  }

  return {
    prefetch() {
      prefetched.start('exportAvailable', () => deps.exportSwap.available());
      // A new panel has no restored webview state (no serializer), so it opens the memento's pool, or
      // else the first listed one; it always reads the pool list.
      prefetch('overview', {});
      const pool = deps.lastPool.get();
      if (pool) prefetchPool(pool);
      else prefetchFirstPool();
    },
    async receive(raw) {
      const parsed = WebviewMessageSchema.safeParse(raw);
      if (!parsed.success) {
        log(`dashboard: ignored a malformed message (${describeZodError(parsed.error)})`);
        return;
      }
      const msg = parsed.data;
      switch (msg.type) {
        case 'ready': {
          // One round trip to the first paint: `init` carries the pool list and the view of the pool the
          // page opens (the remembered one, else the first listed), from the reads started at creation.
          const remembered = msg.last_pool_id ?? deps.lastPool.get() ?? null;
          if (remembered) prefetchPool(remembered);
          const exportAvailableP = (
            (prefetched.take('exportAvailable') as Promise<boolean> | undefined) ??
            deps.exportSwap.available()
          ).catch(() => false);
          const engine = deps.getApi() !== undefined;
          const overview = engine
            ? await (answer('overview', {}) as Promise<Overview>).catch(() => undefined)
            : undefined;
          const pool = remembered ?? overview?.pools[0]?.pool_id ?? null;
          // A read that failed is left out: the page asks for it and shows the error with what to do.
          const view =
            engine && pool
              ? await (answer('poolView', { pool_id: pool }) as Promise<PoolView>).catch(() => undefined)
              : undefined;
          post({
            type: 'init',
            pool_id: pool,
            export_available: await exportAvailableP,
            ...(overview ? { overview } : {}),
            ...(view ? { view } : {}),
          });
          return;
        }
        case 'request':
          try {
            // Typed by the feed from data validated when read; the page trusts it (webview/src/protocol.ts)
            // and the Chromium tests check it against the protocol's schemas.
            post({ type: 'reply', id: msg.id, result: await answer(msg.method, msg.params) });
          } catch (e) {
            log(`dashboard: ${msg.method} failed: ${messageOf(e)}`);
            post({ type: 'replyError', id: msg.id, error: errorOf(e, msg.method) });
          }
          return;
        case 'selectPool':
          await deps.lastPool.set(msg.pool_id);
          return;
        case 'revealRange':
          if (!isWorkspacePlanUri(msg.uri, deps.workspaceFolders())) {
            log(`dashboard: refused to open ${msg.uri.slice(0, 200)}: not a plan file of this workspace`);
            notice(
              'The dashboard only opens plan files (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json) of this workspace; that file was not opened.',
            );
            return;
          }
          await deps
            .revealRange(msg.uri, msg.offset, msg.length)
            .catch((e: unknown) => notice(`Could not open the plan at that line: ${messageOf(e)}`));
          return;
        case 'exportSwap':
          if (!(await deps.exportSwap.available().catch(() => false))) {
            notice('The swap export command is not available in this window.');
            return;
          }
          await deps.exportSwap
            .run(msg.params, msg.then ?? 'export')
            .catch((e: unknown) => notice(`Export failed: ${messageOf(e)}`));
          return;
      }
    },
    stateChanged(stateHeight) {
      prefetched.clear();
      post({ type: 'stateChanged', state_height: stateHeight });
    },
    planChanged() {
      prefetched.clear();
      post({ type: 'planChanged' });
    },
    showPool(poolId) {
      void deps.lastPool.set(poolId);
      post({ type: 'showPool', pool_id: poolId });
    },
  };
}

class NoEngine extends Error {
  constructor() {
    super('no engine configured');
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
