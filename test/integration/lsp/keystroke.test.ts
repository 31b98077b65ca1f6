/**
 * What a keystroke asks the engine, over real JSON-RPC against the simulator (its own request count): a
 * keystroke that changes only amounts re-reads nothing that did not change. At an unchanged applied state
 * height an edit of an add's amounts makes no request at all (the height is known from the status read the
 * open made, which the engine watch refreshes; bins, positions and node facts are kept per height); a swap
 * amount quotes once per (route, amount, height): typing back an amount quoted before asks nothing.
 */
import assert from 'node:assert/strict';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { scalePlan } from '../../bench/lspScale.bench';
import { startLsp, type LspSession } from './harness';

describe('language server: a keystroke reads only what changed', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let lsp: LspSession | undefined;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await lsp?.close();
    await sim?.close();
  });

  const sent = () => sim.requests().service + sim.requests().node;

  it('makes 0 requests for an edit of an add at an unchanged height, and quotes an amount once', async () => {
    lsp = await startLsp({
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      // The engine watch is slowed so that only the keystrokes ask anything.
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000, analysisEvents: true },
    });
    const uri = 'file:///work/keys/plan.dlmm.yaml';
    const plan = scalePlan(0);
    assert.match(plan, /x_amount: 1000,/);
    assert.match(plan, /amount_in: 100000\n/);
    lsp.open(uri, plan);
    await lsp.live(uri, 1, 30_000);

    const perKeystroke: number[] = [];
    const type = async (text: string): Promise<void> => {
      const before = sent();
      const v = lsp!.change(uri, text);
      await lsp!.live(uri, v, 30_000);
      perKeystroke.push(sent() - before);
    };
    // An add's amount typed digit by digit.
    for (const amount of ['10001', '100012', '1000123'])
      await type(plan.replace('x_amount: 1000,', `x_amount: ${amount},`));
    assert.deepEqual(perKeystroke, [0, 0, 0], 'edits of an add at the same height');

    // A swap's amount: a new amount is one quote; going back to one quoted before is none.
    perKeystroke.length = 0;
    await type(plan.replace('amount_in: 100000\n', 'amount_in: 1000005\n'));
    await type(plan);
    assert.ok((perKeystroke[0] ?? 0) >= 1, 'a new amount is quoted');
    assert.equal(perKeystroke[1], 0, 'the amount quoted at this height before is not asked again');
    assert.equal(sim.requests().rateLimited, 0);
  });

  it("reads the sender's inventory positions and the v1 pools list once per height, past the session's second", async () => {
    await lsp?.close();
    const log = await startSimulator({ host: '127.0.0.1', port: 0, recordRequests: true });
    try {
      lsp = await startLsp({
        env: { DLMM_API_URL: log.url, DLMM_NODE_URL: log.nodeUrl, DLMM_INVENTORY_URL: log.inventoryUrl },
        initializationOptions: { debounceMs: 150, analysisEvents: true },
      });
      const uri = 'file:///work/keys/inventory.dlmm.yaml';
      const plan = scalePlan(0);
      assert.match(plan, /op: withdraw/);
      lsp.open(uri, plan);
      await lsp.live(uri, 1, 30_000);
      const inventoryAtOpen = log.requests().inventory;
      assert.ok(inventoryAtOpen >= 1, 'the open read the positions from the inventory');
      const v1Pools = () => log.requestLog().filter((r) => r.key === 'GET /api/quotes/v1/pools').length;
      const v1AtOpen = v1Pools();
      // Edits of an add's amount more than a second apart (past the language server's shared session):
      // the height has not moved, so neither the positions nor the v1 pools list are read again.
      for (const amount of ['10001', '100012', '1000123']) {
        await new Promise((r) => setTimeout(r, 1_100));
        const v = lsp.change(uri, plan.replace('x_amount: 1000,', `x_amount: ${amount},`));
        await lsp.live(uri, v, 30_000);
      }
      // A burst of 20 keystrokes 40 ms apart under the extension's debounce: nothing read again either.
      let last = 0;
      for (let k = 0; k < 20; k++) {
        last = lsp.change(uri, plan.replace('x_amount: 1000,', `x_amount: ${2000 + 7 * k},`));
        await new Promise((r) => setTimeout(r, 40));
      }
      await lsp.live(uri, last, 30_000);
      assert.equal(log.requests().inventory, inventoryAtOpen, 'no inventory read at the same height');
      assert.equal(v1Pools(), v1AtOpen, 'no v1 pools list read for an amount edit');
    } finally {
      await lsp?.close();
      lsp = undefined;
      await log.close();
    }
  });
});
