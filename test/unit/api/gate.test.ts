/**
 * The client's gate (DlmmApi.withGate): a held caller (a language-server run whose debounce holds) reads
 * what is in memory at once, and sends nothing to the network until its gate opens; an abort ends its wait;
 * a read it shares with a caller not held is sent for that one. A real client against the simulated engine
 * over loopback; the simulator counts what reached it.
 */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import { isCancelled } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

/** Whether `p` is still pending once every callback already queued has run. */
async function isPending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const settled = p.then(
    () => 'settled',
    () => 'settled',
  );
  return (await Promise.race([settled, new Promise((r) => setImmediate(() => r(marker)))])) === marker;
}

/** A gate and what opens it. */
function gate(): { until: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

describe('client gate (withGate, simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  const clients: DlmmApi[] = [];

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    for (const c of clients) await c.close?.();
    await sim?.close();
  });

  /** A client whose status answer is reused for `statusTtlMs`. */
  function client(statusTtlMs = 60_000): DlmmApi {
    const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, statusTtlMs });
    clients.push(api);
    return api;
  }
  const sent = (): number => sim.requests().service + sim.requests().node;
  /** An ungated request's round trip to the simulator (appReady is asked again each time: kept per height). */
  const roundTrip = async (): Promise<void> => {
    const other = client();
    await other.appReady();
  };

  it('answers a read kept in memory at once while the gate is shut', async () => {
    const api = client();
    await api.status();
    await api.pools();
    await api.tokens();
    const before = sent();
    const held = api.withGate!(gate().until);
    // Never opened: each is answered from the status reuse or the height cache.
    assert.equal((await held.pools()).length, (await api.pools()).length);
    await held.tokens();
    await held.status();
    assert.equal(sent(), before);
  });

  it('sends an uncached read, a quote and a status past its reuse only once the gate opens', async () => {
    const api = client();
    await api.status();
    // Another amount first: the simulator takes amount_in as a string, which the client learns once (422).
    await api.quote({ input_token: SBTC, output_token: USDCX, amount_in: 1_000n });
    // A status read asked each time (no reuse): it waits too.
    const fresh = client(0);
    await fresh.status();
    const g = gate();
    const held = api.withGate!(g.until);
    const before = sent();
    const bins = held.bins(POOL_SBTC_USDCX);
    const quote = held.quote({ input_token: SBTC, output_token: USDCX, amount_in: 1_234_567n });
    const status = fresh.withGate!(g.until).status();
    await roundTrip();
    for (const p of [bins, quote, status]) assert.ok(await isPending(p));
    assert.equal(sent(), before + 1, 'only the round trip not held reached the engine');
    g.open();
    const [list, route, read] = await Promise.all([bins, quote, status]);
    assert.ok(list.bins.length > 0);
    assert.ok(route.amount_out !== undefined);
    assert.equal(typeof read.state_height, 'number');
    assert.equal(sent(), before + 4);
  });

  it('keeps the gate on withSignal of a held view', async () => {
    const api = client();
    await api.status();
    const g = gate();
    const c = new AbortController();
    const tokens = api.withGate!(g.until).withSignal!(c.signal).tokens();
    const before = sent();
    await roundTrip();
    assert.ok(await isPending(tokens));
    assert.equal(sent(), before + 1);
    g.open();
    assert.ok((await tokens).length > 0);
  });

  it('ends the wait when the caller gives up, and never sends the read', async () => {
    const api = client();
    await api.status();
    const g = gate();
    const c = new AbortController();
    const before = sent();
    const read = api.withGate!(g.until).withSignal!(c.signal).pools();
    assert.ok(await isPending(read));
    c.abort();
    await assert.rejects(read, (e: unknown) => isCancelled(e));
    g.open();
    await roundTrip();
    assert.equal(sent(), before + 1, 'only the round trip');
  });

  it('sends a read it shares with a caller not held for that caller', async () => {
    const api = client();
    await api.status();
    const g = gate();
    const before = sent();
    const held = api.withGate!(g.until).activeBin(POOL_SBTC_USDCX);
    assert.ok(await isPending(held));
    // The same read by a caller not held: sent now, once, and both have it (the gate never opened).
    const [a, b] = await Promise.all([api.activeBin(POOL_SBTC_USDCX), held]);
    assert.deepEqual(a, b);
    assert.equal(sent(), before + 1);
  });
});
