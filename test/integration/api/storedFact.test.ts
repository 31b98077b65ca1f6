/**
 * DlmmApi.storedFact against the simulated engine over loopback: a new client (a new `dlmm` process) answers
 * a bin fact another client read at the same applied state height from the node store at once, only while
 * the status that taught that height is within its reuse window, never for a read-only function that is not
 * a fact, and never once the height has moved. Node requests counted at the simulator.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

/** The unsigned bin id argument of get-bin-balances for signed `id`, as hex without 0x. */
const binArg = (id: number): string => '01' + (id + 500).toString(16).padStart(32, '0');

describe('storedFact: a bin fact kept at this height, answered at once', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let cacheDir: string;
  let clock = 1_000_000;
  const clients: DlmmApi[] = [];

  const client = (): DlmmApi => {
    const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, cacheDir, now: () => clock });
    clients.push(api);
    return api;
  };

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-stored-fact-'));
  });
  after(async () => {
    for (const api of clients) await api.close?.();
    await sim?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('serves what another client read at the same height, without a node request', async () => {
    const first = client();
    await first.status();
    const read = await first.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]);
    assert.equal(read.okay, true);
    await first.close?.();

    const second = client();
    assert.equal(
      second.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]),
      undefined,
      'no height known before a status read',
    );
    await second.status();
    const nodeBefore = sim.requests().node;
    assert.deepEqual(second.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]), read);
    assert.equal(
      second.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(140)]),
      undefined,
      'never read',
    );
    assert.equal(
      second.storedFact!(POOL_SBTC_USDCX, 'get-active-bin-id', []),
      undefined,
      'not a fact of the height',
    );
    assert.equal(sim.requests().node, nodeBefore);

    // The status past its reuse window: the height may have moved, so nothing is answered at once.
    clock += 250;
    assert.equal(second.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]), undefined);
    await second.status();
    assert.deepEqual(second.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]), read);
  });

  it('answers nothing once the state height has moved', async () => {
    const api = client();
    await api.status();
    await api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(141)]);
    assert.notEqual(api.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(141)]), undefined);
    const shift = await fetch(`${sim.url}/admin/pools/dlmm_1/shift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bins: 1 }),
    });
    assert.equal(shift.status, 200);
    await api.refreshStatus!();
    assert.equal(api.storedFact!(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(141)]), undefined);
  });
});
