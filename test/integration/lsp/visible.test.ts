/**
 * The visible editors' live diagnostics first, over real JSON-RPC (`dlmm lsp --stdio` against the simulator
 * over loopback): the client names the plan it shows (`dlmm/visibleDocuments`), then opens 30 other plans
 * and that one last; the shown plan's live analysis is published before any of the others'.
 */
import assert from 'node:assert/strict';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { scalePlan } from '../../bench/lspScale.bench';
import { startLsp, type LspSession } from './harness';

describe('language server: visible documents analysed first', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let lsp: LspSession | undefined;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await lsp?.close();
    lsp = undefined;
  });
  after(async () => {
    await sim?.close();
  });

  it('publishes the shown plan live before the 30 plans opened before it', async () => {
    lsp = await startLsp({
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000, analysisEvents: true },
    });
    const uri = (i: number) => `file:///work/visible/plan-${i}.dlmm.yaml`;
    const shown = uri(99);
    await lsp.conn.sendNotification('dlmm/visibleDocuments', { uris: [shown, 'file:///work/notes.txt'] });
    for (let i = 0; i < 30; i++) lsp.open(uri(i), scalePlan(i));
    lsp.open(shown, scalePlan(99));
    await lsp.live(shown, 1, 30_000);
    for (let i = 0; i < 30; i++) await lsp.live(uri(i), 1, 30_000);
    const order = lsp.liveOrder();
    assert.equal(order.length, 31);
    assert.equal(order[0], shown, `first live publish: ${order[0]}`);
  });

  it('analyses every plan in turn when the client never names visible ones', async () => {
    lsp = await startLsp({
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000, analysisEvents: true },
    });
    const uri = (i: number) => `file:///work/plain/plan-${i}.dlmm.yaml`;
    for (let i = 0; i < 5; i++) lsp.open(uri(i), scalePlan(i));
    for (let i = 0; i < 5; i++) await lsp.live(uri(i), 1, 30_000);
    assert.equal(lsp.liveOrder().length, 5);
  });
});
