/**
 * The language server's settings by every standard route (issue 43): `initializationOptions.dlmm`, a
 * `workspace/didChangeConfiguration` push (`settings.dlmm`), the `workspace/configuration` pull, and the
 * environment; `environment` resolved by the server (`simulator` runs its own simulated engine). A plan the
 * server could not check live always carries one `live-unchecked` warning saying why, never an empty list.
 * Real JSON-RPC over stdio, the simulated engine on loopback.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startLsp, type LspSession } from './harness';

const ROOT = join(__dirname, '../../..');
const LADDER = readFileSync(join(ROOT, 'examples/add-ladder.dlmm.yaml'), 'utf8');
/** An ask below the active bin (139): clean offline, `wrong-token-side` (it reverts on chain) live. */
const BELOW = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 135, x_amount: 1000, y_amount: 0 }
`;

const codes = (d: Diagnostic[]) => d.map((x) => String(x.code));
const notice = (d: Diagnostic[]) => d.find((x) => x.code === 'live-unchecked');

describe('language server settings by every route, and the notice when live rules did not run', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  const open: LspSession[] = [];
  const start = async (opts: Parameters<typeof startLsp>[0]): Promise<LspSession> => {
    const lsp = await startLsp(opts);
    open.push(lsp);
    return lsp;
  };
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    for (const lsp of open.splice(0)) await lsp.close();
  });
  after(async () => sim?.close());

  it('no service configured: every plan says its live rules did not run, and why', async () => {
    const lsp = await start({ env: {}, initializationOptions: { debounceMs: 10 } });
    const ladder = 'file:///work/add-ladder.dlmm.yaml';
    const below = 'file:///work/below.dlmm.yaml';
    lsp.open(ladder, LADDER);
    lsp.open(below, BELOW);
    for (const uri of [ladder, below]) {
      const d = await lsp.diagnostics(uri, (x) => notice(x) !== undefined);
      assert.deepEqual(codes(d), ['live-unchecked'], uri);
      const n = notice(d)!;
      assert.equal(n.severity, 2, 'a warning: visible in every editor');
      assert.match(n.message, /the live rules did not run: no service configured/);
      assert.match(n.message, /DLMM_API_URL/);
    }
  });

  it('initializationOptions.dlmm, with no configuration support: live', async () => {
    const lsp = await start({
      env: {},
      initializationOptions: { debounceMs: 10, dlmm: { environment: 'custom', apiUrl: sim.url } },
    });
    const uri = 'file:///work/below.dlmm.yaml';
    lsp.open(uri, BELOW);
    const d = await lsp.diagnostics(uri, (x) => codes(x).includes('wrong-token-side'));
    assert.ok(!codes(d).includes('live-unchecked'), codes(d).join(', '));
  });

  it('a didChangeConfiguration push: live, and a push without a URL says what is missing', async () => {
    const lsp = await start({ env: {}, initializationOptions: { debounceMs: 10 } });
    const uri = 'file:///work/below.dlmm.yaml';
    lsp.open(uri, BELOW);
    await lsp.diagnostics(uri, (x) => notice(x) !== undefined);
    void lsp.conn.sendNotification('workspace/didChangeConfiguration', {
      settings: { dlmm: { environment: 'custom', apiUrl: sim.url } },
    });
    await lsp.diagnostics(uri, (x) => codes(x).includes('wrong-token-side') && !notice(x));
    void lsp.conn.sendNotification('workspace/didChangeConfiguration', {
      settings: { dlmm: { environment: 'custom' } },
    });
    const d = await lsp.diagnostics(uri, (x) => notice(x) !== undefined);
    assert.match(notice(d)!.message, /dlmm\.environment is custom and dlmm\.apiUrl is empty/);
    assert.ok(!codes(d).includes('wrong-token-side'));
    void lsp.conn.sendNotification('workspace/didChangeConfiguration', {
      settings: { dlmm: { slippageTolerance: 2 } },
    });
    const none = await lsp.diagnostics(uri, (x) => /set neither/.test(notice(x)?.message ?? ''));
    assert.match(
      notice(none)!.message,
      /set neither dlmm\.environment nor dlmm\.apiUrl and DLMM_API_URL is not set/,
    );
  });

  it('the workspace/configuration pull wins over what was pushed', async () => {
    const lsp = await start({
      env: {},
      configuration: (section) => (section === 'dlmm' ? { environment: 'custom', apiUrl: sim.url } : null),
      initializationOptions: { debounceMs: 10, dlmm: { environment: 'custom' } },
    });
    const uri = 'file:///work/below.dlmm.yaml';
    lsp.open(uri, BELOW);
    await lsp.diagnostics(uri, (x) => codes(x).includes('wrong-token-side') && !notice(x));
  });

  it('environment: simulator without a URL: the server runs its own simulated engine', async () => {
    const lsp = await start({
      env: {},
      initializationOptions: { debounceMs: 10, dlmm: { environment: 'simulator' } },
    });
    const uri = 'file:///work/below.dlmm.yaml';
    lsp.open(uri, BELOW);
    const d = await lsp.diagnostics(uri, (x) => codes(x).includes('wrong-token-side'));
    assert.ok(!notice(d));
  });

  it('a service that does not answer: api-unreachable says so, never an empty list', async () => {
    const lsp = await start({
      env: {},
      initializationOptions: {
        debounceMs: 10,
        dlmm: { environment: 'custom', apiUrl: 'http://127.0.0.1:9/api' },
      },
    });
    const uri = 'file:///work/add-ladder.dlmm.yaml';
    lsp.open(uri, LADDER);
    const d = await lsp.diagnostics(uri, (x) => codes(x).includes('api-unreachable'), 20_000);
    assert.ok(d.some((x) => x.code === 'api-unreachable' && x.severity === 2));
  });

  it('refused settings fall back to the environment, and the notice says they were refused', async () => {
    const lsp = await start({
      env: {},
      initializationOptions: {
        debounceMs: 10,
        dlmm: { environment: 'custom', apiUrl: 'file:///etc/passwd' },
      },
    });
    const uri = 'file:///work/below.dlmm.yaml';
    lsp.open(uri, BELOW);
    const d = await lsp.diagnostics(uri, (x) => notice(x) !== undefined);
    assert.match(notice(d)!.message, /dlmm settings were refused \(apiUrl: /);
  });
});
