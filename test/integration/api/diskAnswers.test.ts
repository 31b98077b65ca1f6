/**
 * The engine's answers kept on disk at a state height serve a new client (a new `dlmm` process) also for the
 * reads it makes while its first status read is still on the wire, as an analysis does (status first, then
 * everything at once): at an unchanged height only the status goes to the engine. Counted at the simulator
 * over loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

describe('on-disk answers serve reads made while the first status read is on the wire', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let cacheDir: string;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-disk-answers-'));
  });
  after(async () => {
    await sim?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  /** A new client (as a new process makes), its status and three height facts asked at once. */
  async function firstReads(): Promise<{ service: number; pool: unknown; pools: number; tokens: number }> {
    const api: DlmmApi = createApiClient({ baseUrl: sim.url, cacheDir });
    const before = sim.requests().service;
    try {
      const [, pools, tokens, pool] = await Promise.all([
        api.status(),
        api.pools(),
        api.tokens(),
        api.pool(POOL_SBTC_USDCX),
      ]);
      return { service: sim.requests().service - before, pool, pools: pools.length, tokens: tokens.length };
    } finally {
      await api.close?.();
    }
  }

  it('a second client at the same height sends the status read only, and reads the same answers', async () => {
    const cold = await firstReads();
    assert.equal(cold.service, 4, 'status, pools, tokens, pool');
    const warm = await firstReads();
    assert.equal(warm.service, 1, 'the status read only');
    assert.deepEqual(warm, { ...cold, service: 1 });

    // A new applied height: the kept answers are not used.
    const shift = await fetch(`${sim.url}/admin/pools/dlmm_1/shift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bins: 1 }),
    });
    assert.equal(shift.status, 200);
    const moved = await firstReads();
    assert.equal(moved.service, 4);
    assert.notDeepEqual(moved.pool, cold.pool, 'the pool read again at the new height');
  });
});
