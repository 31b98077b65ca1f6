/** API client figures: exact JSON reading, loopback reads against the simulator, cache and coalescing. */
import { createApiClient } from '../../core/api/client';
import { parseJsonExact } from '../../core/api/json';
import { DEFAULT_SIM_API_KEY } from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import type { BenchRow } from './types';

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function timed(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Runs the API benchmarks (bounded: a few hundred loopback requests at most). */
export async function bench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const ladder = {
    success: true,
    active_bin_id: 0,
    bins: Array.from({ length: 1001 }, (_, i) => ({
      bin_id: i - 500,
      price: String(100_000_000 + i * 1000),
      reserve_x: String(10n ** 30n + BigInt(i)),
      reserve_y: '123456789012345678901234567890',
      liquidity: null,
    })),
  };
  const text = JSON.stringify(ladder);
  const exact = p50(await timed(50, () => parseJsonExact(text)));
  const native = p50(await timed(50, () => JSON.parse(text)));
  rows.push({
    name: 'parseJsonExact, 1001-bin ladder (p50)',
    value: exact,
    unit: 'ms',
    budget: '<= 5 ms',
    ok: exact <= 5,
  });
  rows.push({ name: 'JSON.parse, same body, for comparison (p50)', value: native, unit: 'ms' });
  // As the client reads every answer: a fraction or an exponent kept as text (core/api/validate.ts).
  const keep = p50(await timed(50, () => parseJsonExact(text, { keepDecimals: true })));
  rows.push({
    name: 'parseJsonExact keepDecimals, same body (p50)',
    value: keep,
    unit: 'ms',
    budget: '<= 5 ms',
    ok: keep <= 5,
  });

  const sim = await startSimulator({ port: 0 });
  const api = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
  try {
    const pools = await api.pools();
    const poolId = pools[0]?.pool_id as string;
    const cold = p50(
      await timed(40, async () => {
        api.clearCache();
        await api.bins(poolId);
      }),
    );
    rows.push({
      name: 'bins() over loopback, uncached (p50)',
      value: cold,
      unit: 'ms',
      budget: '<= 20 ms',
      ok: cold <= 20,
    });
    await api.status();
    await api.bins(poolId);
    const hit = p50(await timed(200, () => api.bins(poolId)));
    rows.push({ name: 'bins() cache hit (p50)', value: hit, unit: 'ms', budget: '<= 1 ms', ok: hit <= 1 });
    api.clearCache();
    const before = api.stats().requests;
    await Promise.all(Array.from({ length: 50 }, () => api.bins(poolId)));
    const sent = api.stats().requests - before;
    rows.push({
      name: '50 concurrent identical reads: requests sent',
      value: sent,
      unit: 'requests',
      budget: '1',
      ok: sent === 1,
    });
  } finally {
    await api.close?.();
    await sim.close();
  }
  return rows;
}
