/**
 * Distribution figures: a curve over -175..174 (350 bins, the router's list limit) expanded and the plan
 * checked with warm live data (budget <= 10 ms), beside the same 350 items written out as explicit bins;
 * the execution of its transactions within that figure (every bin's shares read, so every add executed);
 * and the bare expansion (core/dlmm/shapes.ts) on its own.
 */
import { createApiClient } from '../../core/api/client';
import { expandShape } from '../../core/dlmm/shapes';
import { analyzePlan } from '../../core/check/analyze';
import { executePlan } from '../../core/check/execute';
import { createLiveSession } from '../../core/live/live';
import { DEFAULT_SIM_API_KEY, DEFAULT_WORLD_INPUT, POOL_SBTC_USDCX } from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { parseWorld } from '../../core/sim/world';
import { timeIt, versus, type BenchRow } from './types';

const HEAD = `version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations:\n  - id: shape\n    op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n`;

export async function bench(): Promise<BenchRow[]> {
  // A pool with liquidity over ±200 bins around its active bin, so every bin of the range is listed.
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  const pools = input.pools as Array<{ id: string; liquidity: { bins_below: number; bins_above: number } }>;
  const p = pools.find((x) => x.id === POOL_SBTC_USDCX) as (typeof pools)[number];
  p.liquidity.bins_below = 200;
  p.liquidity.bins_above = 200;
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, world: parseWorld(input, 'bench-wide') });
  const api = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, apiKey: DEFAULT_SIM_API_KEY });
  try {
    const shaped = `${HEAD}    distribution: { shape: curve, from: -175, to: 174, x_amount: 100000000, y_amount: 76000000000 }\n`;
    const session = createLiveSession();
    const first = await analyzePlan(shaped, { api, session });
    const op = first.prepared[0];
    if (op?.op !== 'add' || !op.distribution?.ok) throw new Error('the bench distribution did not expand');
    const explicit = `${HEAD}    bins:\n${op.items
      .map(
        (i) =>
          `      - { active_bin_offset: ${i.active_bin_offset}, x_amount: ${i.x_amount}, y_amount: ${i.y_amount} }`,
      )
      .join('\n')}\n`;
    await analyzePlan(explicit, { api, session });
    for (let i = 0; i < 20; i++) {
      await analyzePlan(shaped, { api, session });
      await analyzePlan(explicit, { api, session });
    }
    const runs = 60;
    const withShape = await timeIt(runs, () => analyzePlan(shaped, { api, session }));
    const withBins = await timeIt(runs, () => analyzePlan(explicit, { api, session }));
    // The plan's transactions built and executed on the chain model (part of the figure above): every bin's
    // shares are read from the node, so all 350 adds are executed.
    const warm = await analyzePlan(shaped, { api, session });
    const parsed = warm.parsed;
    const plan = parsed.plan;
    if (!warm.live || !plan) throw new Error('the bench distribution did not analyze live');
    const executed = warm.execution?.transactions.every((t) => t.execution?.status === 'ok') ?? false;
    const live = warm.live;
    const execution = await timeIt(runs, () => executePlan(parsed, plan, live, warm.prepared, warm.findings));
    const active = op.pool.active_bin_id;
    const bins = new Map([...(first.live?.byPool.get(POOL_SBTC_USDCX)?.binById ?? new Map())]);
    const activeBin = bins.get(active);
    const expandOnly = await timeIt(runs * 5, () =>
      expandShape({
        shape: 'curve',
        lo: active - 175,
        hi: active + 174,
        active,
        x_total: 100_000_000n,
        y_total: 76_000_000_000n,
        priceOf: (b) => bins.get(b)?.price,
        active_reserve_x: activeBin?.reserve_x ?? 0n,
        active_reserve_y: activeBin?.reserve_y ?? 0n,
      }),
    );
    const row = versus(
      `distribution -175..174 (${op.items.length} items): expand + full analysis, warm live data (p50)`,
      withShape,
      'ms',
      { name: 'the same items as explicit bins', value: withBins },
    );
    row.budget = '<= 10 ms';
    row.ok = withShape <= 10;
    return [
      row,
      {
        name: 'of which execution (build + chain model), every bin executed (p50)',
        value: executed ? execution : NaN,
        unit: 'ms',
      },
      { name: 'expansion alone (expandShape), 350 bins (p50)', value: expandOnly, unit: 'ms' },
    ];
  } finally {
    await api.close?.();
    await sim.close();
  }
}
