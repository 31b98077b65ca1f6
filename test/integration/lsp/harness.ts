/**
 * Drives the real language server over stdio JSON-RPC (`node bin/dlmm.js lsp --stdio`), the way any editor
 * does: initialize, open/change documents, wait for published diagnostics. Shared by the integration tests
 * and the LSP bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { SERVER_EXEC_ARGV } from '../../../client/src/serverProcess';

export const ROOT = join(__dirname, '..', '..', '..');

export interface LspSession {
  conn: MessageConnection;
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the first diagnostics for `uri` (optionally of a version) that satisfy `pred`. */
  diagnostics(
    uri: string,
    pred?: (d: Diagnostic[], version?: number) => boolean,
    timeoutMs?: number,
  ): Promise<Diagnostic[]>;
  latest(uri: string): PublishDiagnosticsParams | undefined;
  /** How many times diagnostics of `version` were published for `uri` (offline, then live: 2). */
  publishCount(uri: string, version: number): number;
  /**
   * The `dlmm/analysis` events for `uri`/`version` so far (`live` of each publish, in order); only sent
   * when the session was started with `initializationOptions.analysisEvents: true`.
   */
  analyses(uri: string, version: number): boolean[];
  /** For the same events, which analysis of the document made each publish (1: the first since it opened). */
  runs(uri: string, version: number): number[];
  /** URIs in the order of their first live publish (needs `analysisEvents`). */
  liveOrder(): string[];
  /** Resolves when a live analysis of `version` was published for `uri` (needs `analysisEvents`). */
  live(uri: string, version: number, timeoutMs?: number): Promise<void>;
  open(uri: string, text: string, languageId?: string): void;
  change(uri: string, text: string): number;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  initializationOptions?: unknown;
  /** Answers `workspace/configuration` per section; absent = the client has no configuration support. */
  configuration?: (section: string | undefined) => unknown;
  /** Binary to run (default: node bin/dlmm.js lsp --stdio). */
  command?: { cmd: string; args: string[] };
}

/**
 * The server as the extension starts it (client/src/extension.ts): its entry, dist/server.js, with the Node
 * flags of client/src/serverProcess.ts (over stdio here, IPC in the editor).
 */
export function extensionServer(): { cmd: string; args: string[] } {
  return { cmd: process.execPath, args: [...SERVER_EXEC_ARGV, join(ROOT, 'dist', 'server.js'), '--stdio'] };
}

/**
 * The tests' server (dist/server-test.js, built from testServer.ts): `dlmm lsp --stdio` with the test-only
 * requests of testHooks.ts, under the Node flags `nodeArgs`.
 */
export function testServer(nodeArgs: string[] = []): { cmd: string; args: string[] } {
  const entry = join(ROOT, 'dist', 'server-test.js');
  if (!existsSync(entry)) throw new Error('dist/server-test.js is missing: run `node esbuild.mjs` first');
  return { cmd: process.execPath, args: [...nodeArgs, entry, '--stdio'] };
}

/** Spawns the server and completes the initialize handshake. */
export async function startLsp(opts: StartOptions = {}): Promise<LspSession> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    throw new Error('dist/cli.js is missing: run `node esbuild.mjs` first');
  const command = opts.command ?? {
    cmd: process.execPath,
    args: [join(ROOT, 'bin', 'dlmm.js'), 'lsp', '--stdio'],
  };
  const child = spawn(command.cmd, command.args, {
    cwd: ROOT,
    // XDG_CACHE_HOME: the suite's temporary cache folder (test/setup.ts), never the developer's own.
    env: { PATH: process.env.PATH, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  const conn = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const published = new Map<string, PublishDiagnosticsParams>();
  const waiters: {
    uri: string;
    pred: (d: Diagnostic[], v?: number) => boolean;
    resolve: (d: Diagnostic[]) => void;
  }[] = [];
  const counts = new Map<string, number>();
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.set(p.uri, p);
    const key = `${p.uri}#${p.version}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.pred(p.diagnostics, p.version)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p.diagnostics);
      }
    }
  });
  const analysisLog = new Map<string, boolean[]>();
  const runLog = new Map<string, number[]>();
  const liveWaiters = new Map<string, (() => void)[]>();
  const liveOrder: string[] = [];
  conn.onNotification('dlmm/analysis', (p: { uri: string; version: number; live: boolean; run: number }) => {
    if (p.live && !liveOrder.includes(p.uri)) liveOrder.push(p.uri);
    const key = `${p.uri}#${p.version}`;
    const log = analysisLog.get(key) ?? [];
    log.push(p.live);
    analysisLog.set(key, log);
    const runs = runLog.get(key) ?? [];
    runs.push(p.run);
    runLog.set(key, runs);
    if (p.live) {
      for (const w of liveWaiters.get(key) ?? []) w();
      liveWaiters.delete(key);
    }
  });
  conn.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((i) => (opts.configuration ? (opts.configuration(i.section) ?? null) : null)),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('workspace/codeLens/refresh', () => null);
  conn.onRequest('workspace/inlayHint/refresh', () => null);
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();

  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      textDocument: { publishDiagnostics: { versionSupport: true }, hover: { contentFormat: ['markdown'] } },
      workspace: { configuration: opts.configuration !== undefined },
    },
    initializationOptions: opts.initializationOptions ?? {},
  });
  await conn.sendNotification('initialized', {});

  const versions = new Map<string, number>();
  return {
    conn,
    child,
    stderr: () => err,
    latest: (uri) => published.get(uri),
    publishCount: (uri, version) => counts.get(`${uri}#${version}`) ?? 0,
    analyses: (uri, version) => [...(analysisLog.get(`${uri}#${version}`) ?? [])],
    runs: (uri, version) => [...(runLog.get(`${uri}#${version}`) ?? [])],
    liveOrder: () => [...liveOrder],
    live(uri, version, timeoutMs = 15_000) {
      const key = `${uri}#${version}`;
      if (analysisLog.get(key)?.includes(true)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no live analysis of ${uri} v${version} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const list = liveWaiters.get(key) ?? [];
        list.push(() => (clearTimeout(timer), resolve()));
        liveWaiters.set(key, list);
      });
    },
    diagnostics(uri, pred = () => true, timeoutMs = 10_000) {
      const have = published.get(uri);
      if (have && pred(have.diagnostics, have.version)) return Promise.resolve(have.diagnostics);
      return new Promise((resolve, reject) => {
        const w = { uri, pred, resolve: (d: Diagnostic[]) => (clearTimeout(timer), resolve(d)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          const last = published.get(uri);
          reject(
            new Error(
              `no matching diagnostics for ${uri} within ${timeoutMs} ms; last: ${JSON.stringify(last?.diagnostics.map((d) => d.code))}`,
            ),
          );
        }, timeoutMs);
        waiters.push(w);
      });
    },
    open(uri, text, languageId = 'yaml') {
      versions.set(uri, 1);
      void conn.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    change(uri, text) {
      const v = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, v);
      void conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text }],
      });
      return v;
    },
    async close() {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      try {
        await Promise.race([conn.sendRequest('shutdown'), delay(2000)]);
        void conn.sendNotification('exit');
      } catch {
        /* the server may already be gone */
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      conn.dispose();
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Offset of the `n`-th occurrence (0-based) of `needle` in `text`, plus `delta`, as an LSP position. */
export function positionOf(
  text: string,
  needle: string,
  delta = 0,
  n = 0,
): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' not found in the test plan`);
  }
  const offset = at + delta;
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** A simulated engine on loopback and a language server reading it, with one plan open. */
export interface SimLsp {
  sim: RunningSimulator;
  lsp: LspSession;
  close(): Promise<void>;
}

/** Starts the default world's simulator and a server pointed at it, then opens `text` as `uri`. */
export async function startSimLsp(
  uri: string,
  text: string,
  initializationOptions: Record<string, unknown>,
): Promise<SimLsp> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const lsp = await startLsp({
    env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
    initializationOptions: { debounceMs: 30, ...initializationOptions },
  }).catch(async (e: unknown) => {
    await sim.close();
    throw e;
  });
  lsp.open(uri, text);
  return {
    sim,
    lsp,
    close: async () => {
      await lsp.close();
      await sim.close();
    },
  };
}
