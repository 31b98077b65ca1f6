/**
 * What the block-budget check (issue 41, core/tx/cost.ts) adds. The 350-position keystroke: with live data
 * the check weighs each built transaction and runs `exceeds-block-budget` over them (measured on a simple
 * add of 350 positions on a wide 1-bps pool, split into parts by cost); offline there is no build, so the
 * offline keystroke runs none of it (printed beside: the offline analysis of the keystroke bench's
 * 350-position plan). Budget: <= 1 ms per analysis. Then a one-pool swap's cost on that pool (its walk and
 * the further starts its slippage allows, a bisection of walks, made once per build) and, for a swap over
 * budget only, the search of the largest amount that fits.
 */
import { createApiClient } from '../../core/api/client';
import { analyzeOffline, analyzePlan } from '../../core/check/analyze';
import { blockBudgetFindings } from '../../core/check/rules/exceeds-block-budget';
import type { RuleContext } from '../../core/check/rules/rule';
import { DEFAULT_SIM_API_KEY, DEFAULT_USER, SBTC, USDCX } from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { listBlockCost } from '../../core/tx/cost';
import { WIDE, wideWorld } from '../integration/export/wideWorld';
import { plan350 } from './analyze.bench';
import { timeIt, versus, type BenchRow } from './types';

const BUDGET_MS = 1;
const HEAD = `version: 1\nsender: ${DEFAULT_USER}\npolicy: { max_price_impact: 5 }\noperations:\n`;

export async function bench(): Promise<BenchRow[]> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, world: wideWorld(DEFAULT_USER) });
  const api = createApiClient({
    baseUrl: sim.url,
    inventoryUrl: sim.inventoryUrl,
    nodeUrl: sim.nodeUrl,
    apiKey: DEFAULT_SIM_API_KEY,
  });
  try {
    const add = `${HEAD}  - id: wide-add\n    op: add\n    mode: simple\n    pool: ${WIDE}\n    distribution: { shape: spot, from: 1, to: 350, x_amount: 350000000, y_amount: 0 }\n`;
    const a = await analyzePlan(add, { api });
    const txs = a.execution?.transactions ?? [];
    const positions = txs.reduce((n, t) => n + (t.blockCost?.units ?? 0), 0);
    if (positions !== 350 || !a.plan) throw new Error(`the 350-position add was not built (${positions})`);
    const version = a.execution!.routers!.version;
    const ctx: RuleContext = {
      parsed: a.parsed,
      plan: a.plan,
      live: a.live,
      prepared: a.prepared,
      maxTipLag: 0,
    };
    // What the check adds per analysis: each transaction's figure (the build's), then the rule over them.
    const costCheck = () => {
      for (const tx of txs) listBlockCost(tx, version);
      blockBudgetFindings(ctx, txs, () => String);
    };
    for (let i = 0; i < 200; i++) costCheck();
    const added = await timeIt(201, costCheck);
    const text = plan350(0);
    for (let i = 0; i < 10; i++) analyzeOffline(text);
    const offline = await timeIt(21, () => analyzeOffline(text));

    // A swap's figure is made by its build: the check of a one-swap plan, with and without it over budget.
    const swap = (amount: string) =>
      `${HEAD}  - { id: sell, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: ${amount} }\n`;
    const swapCheck = async (amount: string) => {
      const times: number[] = [];
      let units = NaN;
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now();
        const r = await analyzePlan(swap(amount), { api });
        times.push(performance.now() - t0);
        units = r.execution?.transactions[0]?.blockCost?.units ?? NaN;
      }
      times.sort((x, y) => x - y);
      return { ms: times[3]!, units };
    };
    const within = await swapCheck('160000000');
    const over = await swapCheck('390000000');
    return [
      {
        ...versus(
          `cost check of a 350-position add's ${txs.length} transactions (figures + exceeds-block-budget), per analysis (p50)`,
          added,
          'ms',
          {
            name: "offline analysis of the keystroke's 350-position plan, which runs no cost check (p50)",
            value: offline,
          },
        ),
        budget: `<= ${BUDGET_MS} ms`,
        ok: added <= BUDGET_MS,
      },
      {
        name: `live check of a one-pool swap on a 1-bps pool within budget (${within.units} bins its walk may take; p50)`,
        value: within.ms,
        unit: 'ms',
      },
      {
        name: `live check of a swap over budget (${over.units} bins), with the search of the largest amount that fits (p50)`,
        value: over.ms,
        unit: 'ms',
      },
    ];
  } finally {
    await api.close?.();
    await sim.close();
  }
}
