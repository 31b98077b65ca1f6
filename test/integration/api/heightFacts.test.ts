/**
 * The facts of an applied state height are read once per height (the API client against the simulated
 * engine over loopback HTTP, counting what the engine received): the sender's inventory positions and the
 * quotes v1 pools list are kept until the height moves, then read again. An inventory fault is never kept
 * (each read asks again and fails again: never an empty book), nor is a book that lags the tip.
 */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import { isApiError } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

const USER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

async function admin(sim: RunningSimulator, body: unknown): Promise<void> {
  const res = await fetch(`${sim.url}/admin/state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

describe('api client: the facts of a height are read once per height', function () {
  this.timeout(20_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  beforeEach(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    // The status is reused for a minute: only the test's own refreshes move the height the client knows.
    api = createApiClient({ baseUrl: sim.url, inventoryUrl: sim.inventoryUrl, statusTtlMs: 60_000 });
    await api.status();
  });
  afterEach(async () => {
    await sim.close();
  });

  it('reads the inventory once for many reads at one height, and again when the height moves', async () => {
    const first = await api.inventory('dlmm_1', USER);
    assert.ok(first.bins.length > 0, 'the default world gives the user positions');
    for (let i = 0; i < 9; i++) assert.deepEqual(await api.inventory('dlmm_1', USER), first);
    assert.equal(sim.requests().inventory, 1, 'ten reads at one height: one request');

    await admin(sim, { bump_height: 1 });
    await api.refreshStatus!();
    await api.inventory('dlmm_1', USER);
    await api.inventory('dlmm_1', USER);
    assert.equal(sim.requests().inventory, 2, 'a new height: read once more');
  });

  it('never keeps an inventory fault nor a book that lags the tip', async () => {
    await admin(sim, { inventory_faults: [{ pool: 'dlmm_1', code: 'RECONCILE_DIRTY' }] });
    for (let i = 0; i < 3; i++) {
      const e = await api.inventory('dlmm_1', USER).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(isApiError(e) && e.code === 'inventory-unavailable', `read ${i}: ${String(e)}`);
    }
    assert.equal(sim.requests().inventory, 3, 'a fault is asked again each time');

    // The fault cleared at the same height: the next read asks, and is believed.
    await admin(sim, { inventory_faults: [] });
    assert.ok((await api.inventory('dlmm_1', USER)).bins.length > 0);
    assert.equal(sim.requests().inventory, 4);
  });

  it('reads the quotes v1 pools list once per height', async () => {
    const before = sim.requests().service;
    const first = await api.v1Pools();
    for (let i = 0; i < 9; i++) assert.deepEqual(await api.v1Pools(), first);
    assert.equal(sim.requests().service - before, 1, 'ten reads at one height: one request');
    await admin(sim, { bump_height: 1 });
    await api.refreshStatus!();
    const afterBump = sim.requests().service;
    await api.v1Pools();
    await api.v1Pools();
    assert.equal(sim.requests().service - afterBump, 1, 'a new height: read once more');
  });
});
