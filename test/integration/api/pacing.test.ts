/**
 * Pacing follows what the service grants, over loopback against the simulated engine: the simulator sends
 * X-RateLimit-Limit and X-RateLimit-Remaining on every rate-limited answer (and Retry-After on a 429), and
 * the client's limiter takes its rate from them. No timing is asserted: the proof is the simulator's own
 * count (no 429, never more than the grant in a window) and the client's count of requests that waited
 * for a full window.
 */
import { strict as assert } from 'node:assert';
import { request } from 'undici';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { type World } from '../../../core/sim/world';
import { defaultWorld } from '../../../core/sim/defaultWorld';

const DLMM_1 = 'dlmm_1';

describe('pacing by what the service grants (simulated engine over loopback)', function () {
  this.timeout(60_000);
  const sims: RunningSimulator[] = [];
  const clients: DlmmApi[] = [];
  const start = async (world: World): Promise<RunningSimulator> => {
    const sim = await startSimulator({ port: 0, world });
    sims.push(sim);
    return sim;
  };
  const client = (opts: Parameters<typeof createApiClient>[0]): DlmmApi => {
    const api = createApiClient(opts);
    clients.push(api);
    return api;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close?.()));
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  it('the simulator states its limit and what is left on every limited answer, and Retry-After on a 429', async () => {
    const sim = await start({
      ...defaultWorld(),
      limits: { requests_per_second: 3, node_requests_per_minute: 500 },
    });
    const seen: Array<{ status: number; limit?: string; remaining?: string; retry?: string }> = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(`${sim.url}/quotes/v2/status`);
      await res.body.text();
      const h = (n: string) => res.headers[n] as string | undefined;
      seen.push({
        status: res.statusCode,
        limit: h('x-ratelimit-limit'),
        remaining: h('x-ratelimit-remaining'),
        retry: h('retry-after'),
      });
    }
    assert.deepEqual(seen, [
      { status: 200, limit: '3', remaining: '2', retry: undefined },
      { status: 200, limit: '3', remaining: '1', retry: undefined },
      { status: 200, limit: '3', remaining: '0', retry: undefined },
      { status: 429, limit: '3', remaining: '0', retry: '1' },
    ]);
  });

  it('goes faster when the service grants more (an API key raising the limit): no request waits', async () => {
    const world: World = {
      ...defaultWorld(),
      api_keys: [{ key: 'raised-key-200', requests_per_second: 200, label: 'raised' }],
    };
    const sim = await start(world);
    // 120 distinct bin ids (most outside the pool: an answer either way, each one request).
    const reads = (api: DlmmApi, from: number) =>
      Promise.allSettled(Array.from({ length: 120 }, (_, i) => api.bin(DLMM_1, from + i)));

    const keyed = client({ baseUrl: sim.url, apiKey: 'raised-key-200' });
    await reads(keyed, -300);
    assert.equal(sim.requests().service, 120);
    assert.equal(keyed.pacing?.().servicePerSecond, 200, 'the grant the service stated');
    assert.equal(keyed.pacing?.().windowWaits, 0, '120 requests fit the granted window');

    // The same reads at the document's default (no key): the default 50 a second holds most of them back.
    const plain = client({ baseUrl: sim.url });
    await reads(plain, 0);
    assert.equal(sim.requests().service, 240);
    assert.equal(plain.pacing?.().servicePerSecond, 50);
    assert.ok((plain.pacing?.().windowWaits ?? 0) >= 70, `waited: ${plain.pacing?.().windowWaits}`);
    assert.equal(sim.requests().rateLimited, 0);
  });

  it('goes slower when the service grants less than the default, and never meets a 429', async () => {
    const sim = await start({
      ...defaultWorld(),
      limits: { requests_per_second: 20, node_requests_per_minute: 500 },
    });
    const api = client({ baseUrl: sim.url });
    await Promise.allSettled(Array.from({ length: 45 }, (_, i) => api.bin(DLMM_1, i - 20)));
    assert.equal(sim.requests().service, 45);
    assert.equal(api.pacing?.().servicePerSecond, 20);
    assert.equal(sim.requests().rateLimited, 0, 'the service never had to refuse');
    assert.equal(api.stats().rateLimited, 0);
    assert.ok((api.pacing?.().windowWaits ?? 0) >= 25, `waited: ${api.pacing?.().windowWaits}`);
  });

  it('leaves room for what another client on the same address already spent (X-RateLimit-Remaining)', async () => {
    const sim = await start({
      ...defaultWorld(),
      limits: { requests_per_second: 20, node_requests_per_minute: 500 },
    });
    const first = client({ baseUrl: sim.url });
    await Promise.allSettled(Array.from({ length: 15 }, (_, i) => first.bin(DLMM_1, i - 10)));
    // A second process with its own limiter, no shared cache: only the service's headers tell it.
    const second = client({ baseUrl: sim.url });
    await Promise.allSettled(Array.from({ length: 15 }, (_, i) => second.bin(DLMM_1, i + 10)));
    assert.equal(sim.requests().service, 30);
    assert.equal(sim.requests().rateLimited, 0, 'neither client met a 429');
  });
});
