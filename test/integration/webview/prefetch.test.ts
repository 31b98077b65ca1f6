/**
 * The dashboard host's prefetch against the simulated engine over loopback: reads started at panel
 * creation answer the webview's first requests (no second read), are used once, and are dropped when the
 * engine's state changes or they grow old.
 */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { createDashboardHost, type DashboardHost } from '../../../client/src/dashboard/host';
import { PREFETCH_TTL_MS } from '../../../client/src/dashboard/prefetch';
import { HostMessageSchema, type HostMessage } from '../../../webview/src/protocol';

describe('dashboard host prefetch (simulated engine)', () => {
  let sim: RunningSimulator;
  let api: DlmmApi;
  let oracle: DlmmApi;
  let posted: HostMessage[];
  let clock: number;
  let memento: string | undefined;
  /** The latest ladder read the host started (to wait for a prefetch without sleeping). */
  let lastBins: Promise<unknown> | undefined;

  function host(): DashboardHost {
    return createDashboardHost({
      getApi: () => ({ ...api, bins: (id: string) => (lastBins = api.bins(id)) }),
      getActivePlan: async () => undefined,
      senderSetting: () => undefined,
      post: (m) => posted.push(m),
      revealRange: async () => undefined,
      workspaceFolders: () => [],
      lastPool: { get: () => memento, set: (id) => (memento = id) },
      exportSwap: { available: async () => false, run: async () => undefined },
      now: () => clock,
    });
  }

  /** Sends one request and returns the reply's result (failing on replyError). */
  async function request(h: DashboardHost, id: number, method: string, params: unknown): Promise<unknown> {
    await h.receive({ type: 'request', id, method, params });
    const reply = posted.find((m) => (m.type === 'reply' || m.type === 'replyError') && m.id === id);
    assert.ok(reply && reply.type === 'reply', `a reply to ${method}: ${JSON.stringify(reply)}`);
    return reply.result;
  }

  /** Waits (bounded, no fixed sleep) until `get` returns something. */
  async function until<T>(get: () => T | undefined): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const v = get();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error('timed out waiting for the prefetch to start');
      await new Promise((r) => setImmediate(r));
    }
  }

  before(async () => {
    sim = await startSimulator();
  });
  beforeEach(() => {
    api = createApiClient({ baseUrl: sim.url });
    oracle = createApiClient({ baseUrl: sim.url });
    lastBins = undefined;
    posted = [];
    clock = 1_000_000;
    memento = undefined;
  });
  afterEach(async () => {
    await api.close?.();
    await oracle.close?.();
  });
  after(async () => {
    await sim?.close();
  });

  it('answers the handshake with the pool list and the first pool, read at creation (one round trip)', async () => {
    const h = host();
    h.prefetch();
    const first = (await oracle.pools())[0]!.pool_id;
    // The prefetch reads the list, then the first pool's view (pool, bins, tokens, status, sent together).
    await until(() => lastBins);
    await lastBins;
    api.clearCache();
    const before = api.stats().requests;
    await h.receive({ type: 'ready', last_pool_id: null });
    assert.equal(api.stats().requests, before, 'the prefetched list and view were used: no read was sent');
    const init = posted[0];
    assert.ok(init?.type === 'init', JSON.stringify(init)?.slice(0, 200));
    assert.equal(init.pool_id, first, 'no pool remembered: the first listed');
    assert.equal(init.export_available, false);
    assert.equal(init.overview?.pools[0]?.pool_id, first);
    assert.equal(init.view?.header.pool_id, first);
    assert.ok((init.view?.bins.length ?? 0) > 0);
    assert.ok(HostMessageSchema.safeParse(init).success, 'init follows the protocol');

    // Used once: the same pool asked for again reads the engine again.
    await request(h, 3, 'poolView', { pool_id: first });
    assert.ok(api.stats().requests > before, 'a second poolView is read again');
  });

  it('without an engine the handshake carries no data (the page asks, and shows what to do)', async () => {
    const h = createDashboardHost({
      getApi: () => undefined,
      getActivePlan: async () => undefined,
      senderSetting: () => undefined,
      post: (m) => posted.push(m),
      revealRange: async () => undefined,
      lastPool: { get: () => undefined, set: () => undefined },
      exportSwap: { available: async () => true, run: async () => undefined },
      workspaceFolders: () => [],
    });
    h.prefetch();
    await h.receive({ type: 'ready', last_pool_id: null });
    assert.deepEqual(posted, [{ type: 'init', pool_id: null, export_available: true }]);
  });

  it('prefetches the remembered pool, and drops prefetched answers when the state changes or they age', async () => {
    const pools = await oracle.pools();
    memento = pools[1]!.pool_id;
    const h = host();
    h.prefetch();
    await until(() => lastBins);
    await lastBins;
    const shifted = sim.engine.shiftActiveBin(sim.engine.pool(memento)!, 2);
    assert.ok(shifted.ok);
    api.clearCache();
    h.stateChanged(sim.engine.status.state_height);
    const view = (await request(h, 1, 'poolView', { pool_id: memento })) as {
      header: { active_bin: number };
    };
    assert.equal(view.header.active_bin, pools[1]!.active_bin + 2, 'read after the state change');

    h.prefetch();
    clock += PREFETCH_TTL_MS + 1;
    api.clearCache();
    const aged = api.stats().requests;
    await request(h, 2, 'overview', {});
    assert.ok(api.stats().requests > aged, 'an answer older than the freshness limit is read again');
    sim.engine.reset();
  });
});
