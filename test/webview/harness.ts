/**
 * Test host for the dashboard webview in a real Chromium: a loopback server serves the production HTML
 * (client/src/dashboard/html.ts, same CSP) and dist/webview.{js,css}; a replaced `acquireVsCodeApi`
 * carries messages to the real host code (client/src/dashboard/host.ts) running here in Node, which reads
 * the engine through DlmmApi. Replies go back as window `message` events, as VS Code delivers them.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { DlmmApi } from '../../core/api/types';
import type { ActivePlan } from '../../client/src/dashboard/feed';
import { createDashboardHost, type DashboardHost } from '../../client/src/dashboard/host';
import { buildDashboardHtml } from '../../client/src/dashboard/html';
import type { LadderSummary } from '../../webview/src/ladder';
import {
  HostMessageSchema,
  REQUESTS,
  describeZodError,
  type HostMessage,
  type QuoteParams,
  type RequestMethod,
} from '../../webview/src/protocol';

export const ROOT = resolve(__dirname, '../..');
export const ARTIFACTS = join(ROOT, 'test/webview/artifacts');
const DIST = join(ROOT, 'dist');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium (never a downloaded browser); DLMM_CHROMIUM overrides the path. */
export const CHROMIUM_PATH = process.env.DLMM_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Why the Chromium tests cannot run here, or undefined when they can. Outside CI a machine without Debian's
 * chromium skips them with this reason; under CI (CI=true) they must run, so the caller fails instead.
 */
export function chromiumMissingReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  return `skipped: Debian's chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium; .ci/run installs it before npm test)`;
}

/** Launches Debian's Chromium (never a downloaded browser). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Builds dist/webview.js and .css from webview/src with esbuild.mjs's webview options. `npm test` builds
 * first anyway; rebuilding here (about 0.2 s) keeps a single test file run, or a concurrent build of an
 * older tree, from testing a stale bundle.
 */
export async function ensureWebviewBundle(): Promise<void> {
  const out = join(DIST, 'webview.js');
  const srcDir = join(ROOT, 'webview/src');
  await esbuild.build({
    entryPoints: [join(srcDir, 'main.ts')],
    outfile: out,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome114',
    sourcemap: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
}

export interface HostOptions {
  api: DlmmApi | undefined;
  activePlan?: () => Promise<ActivePlan | undefined>;
  /** Workspace folder URIs the host opens plans in (default file:///work). */
  workspaceFolders?: string[];
  sender?: string;
  exportAvailable?: boolean;
  /** State the webview's getState() returns first (as VS Code restores it). */
  initialState?: unknown;
  width?: number;
  /** The configured keys the host redacts (as panel.ts passes client/src/userText.ts's). */
  secrets?: readonly string[];
  /**
   * Check every host message against the protocol's schemas (default true): the page trusts the host and
   * validates nothing, so this is where a host that breaks the protocol is caught. The bench turns it off
   * (it would add the test's own validation to the figures).
   */
  checkProtocol?: boolean;
}

export interface DashboardPage {
  page: Page;
  host: DashboardHost;
  url: string;
  /** Every message the webview sent. */
  received: unknown[];
  reveals: { uri: string; offset: number; length: number }[];
  exports: QuoteParams[];
  /** Quote panel "Send to wallet" clicks (the swap plan then goes to Send to Wallet). */
  wallets: QuoteParams[];
  lastPool: string | undefined;
  /** Page errors and CSP violations seen so far. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

/** Serves the dashboard HTML and dist assets on loopback. */
async function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/' || path === '/index.html') {
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        buildDashboardHtml({
          cspSource: origin,
          scriptUri: `${origin}/dist/webview.js`,
          styleUri: `${origin}/dist/webview.css`,
        }),
      );
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const m = /^\/dist\/(webview\.(?:js|css)(?:\.map)?)$/.exec(path);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const file = join(DIST, m[1]!);
    res.writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Opens the dashboard in a new page wired to the real host code; resolves once the page has loaded. */
export async function openDashboard(browser: Browser, opts: HostOptions): Promise<DashboardPage> {
  const { server, origin } = await serve();
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 1000 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const handle: DashboardPage = {
    page,
    host: undefined as unknown as DashboardHost,
    url: origin + '/',
    received: [],
    reveals: [],
    exports: [],
    wallets: [],
    lastPool: undefined,
    async problems() {
      const csp = await page
        .evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
        .catch(() => []);
      return [...errors, ...csp.map((c) => `csp: ${c}`)];
    },
    async close() {
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  // As VS Code does, the message crosses as JSON text and is posted to the page as a parsed object.
  // (Handing Playwright the object instead costs ~100 ms per 1001-bin ladder in its own serializer.)
  const methods = new Map<number, RequestMethod>();
  const checkProtocol = (msg: HostMessage): void => {
    const envelope = HostMessageSchema.safeParse(msg);
    if (!envelope.success) {
      errors.push(`protocol: host sent ${msg.type}: ${describeZodError(envelope.error)}`);
      return;
    }
    if (msg.type !== 'reply') return;
    const method = methods.get(msg.id);
    const result = method ? REQUESTS[method].result.safeParse(msg.result) : undefined;
    if (!method) errors.push(`protocol: reply to unknown request ${msg.id}`);
    else if (result && !result.success)
      errors.push(`protocol: reply to ${method}: ${describeZodError(result.error)}`);
  };
  const post = (msg: HostMessage): Promise<void> => {
    if (opts.checkProtocol !== false) checkProtocol(msg);
    return page
      .evaluate((text) => window.postMessage(JSON.parse(text), '*'), JSON.stringify(msg))
      .catch(() => undefined);
  };
  handle.host = createDashboardHost({
    getApi: () => opts.api,
    getActivePlan: opts.activePlan ?? (async () => undefined),
    senderSetting: () => opts.sender,
    post,
    revealRange: async (uri, offset, length) => {
      handle.reveals.push({ uri, offset, length });
    },
    workspaceFolders: () => opts.workspaceFolders ?? ['file:///work'],
    lastPool: { get: () => handle.lastPool, set: (id) => (handle.lastPool = id) },
    ...(opts.secrets ? { secrets: () => opts.secrets ?? [] } : {}),
    exportSwap: {
      available: async () => opts.exportAvailable ?? false,
      run: async (p, then) => {
        if (then === 'wallet') handle.wallets.push(p);
        else handle.exports.push(p);
      },
    },
  });
  await page.exposeBinding('__dlmmHostReceive', (_source, msg: unknown) => {
    handle.received.push(msg);
    const m = msg as { type?: unknown; id?: unknown; method?: unknown };
    if (
      m.type === 'request' &&
      typeof m.id === 'number' &&
      typeof m.method === 'string' &&
      m.method in REQUESTS
    )
      methods.set(m.id, m.method as RequestMethod);
    void handle.host.receive(msg);
  });
  // The replaced VS Code API (what acquireVsCodeApi returns in a real webview) and a CSP violation log.
  // Passed as source text: a function would be serialized with the test transpiler's helpers in it.
  await page.addInitScript(`(() => {
    let state = ${JSON.stringify(opts.initialState ?? null)};
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__dlmmHostReceive(m),
      getState: () => state,
      setState: (s) => { state = s; },
    });
  })();`);
  // As panel.ts does before setting the webview's HTML.
  handle.host.prefetch();
  await page.goto(handle.url);
  return handle;
}

/** Saves a screenshot under test/webview/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the ladder drew (the webview's own type: the test reads exactly what the page reports). */
export type { LadderSummary };

/** The ladder's drawn-bars summary once it satisfies `until` (bounded wait, no fixed sleep). */
export async function ladderSummary(
  page: Page,
  until: (s: LadderSummary) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<LadderSummary> {
  const deadline = Date.now() + timeoutMs;
  let last: LadderSummary | undefined;
  for (;;) {
    const text = await page
      .getAttribute('[data-testid=ladder]', 'data-summary', { timeout: timeoutMs })
      .catch(() => null);
    if (text) {
      last = JSON.parse(text) as LadderSummary;
      if (until(last)) return last;
    }
    if (Date.now() > deadline)
      throw new Error(
        `ladder summary did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last)?.slice(0, 400)}`,
      );
    await page
      .waitForFunction(
        (prev) => document.querySelector('[data-testid=ladder]')?.getAttribute('data-summary') !== prev,
        text,
        { timeout: Math.max(100, deadline - Date.now()) },
      )
      .catch(() => undefined);
  }
}
