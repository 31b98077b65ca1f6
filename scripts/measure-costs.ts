/**
 * Prints the router call costs measured on Bitflow's published v-1-1 contracts in the Clarinet JS SDK
 * simnet (test/fixtures/bitflow-dlmm), per function: the fitted fixed part and part per unit in all five
 * dimensions, beside core/chain/costs.ts's figures. Refresh the table from it (rounded up), then run
 * test/integration/costs/costs.test.ts. Offline. Run: npx tsx scripts/measure-costs.ts
 */
import { FUNCTION_COSTS, type Cost } from '../core/chain/costs';
import { CostSimnet, fit, measureAll } from '../test/integration/costs/harness';

const DIMENSIONS = ['readCount', 'readLength', 'writeCount', 'writeLength', 'runtime'] as const;
const show = (c: Cost): string => DIMENSIONS.map((d) => `${d} ${Math.round(c[d] * 100) / 100}`).join(', ');

async function main(): Promise<void> {
  const s = await CostSimnet.open();
  try {
    const m = measureAll(s);
    for (const [fn, points] of Object.entries(m.points)) {
      const f = fit(points);
      const t = FUNCTION_COSTS[fn];
      process.stdout.write(`${fn} (units ${points.map((p) => p.units).join(', ')})\n`);
      process.stdout.write(`  measured base: ${show(f.base)}\n  measured per:  ${show(f.per)}\n`);
      if (t) process.stdout.write(`  table base:    ${show(t.base)}\n  table per:     ${show(t.per)}\n`);
    }
    const added = fit(m.points['add-liquidity-multi']!);
    const fresh = fit(m.newBinPoints);
    const surcharge = {} as Cost;
    for (const d of DIMENSIONS) surcharge[d] = fresh.per[d] - added.per[d];
    process.stdout.write(
      `per position into a bin with no shares, above add-liquidity-multi's: ${show(surcharge)}\n`,
    );
    for (const [fn, p] of [
      ['add-liquidity-multi', m.bothTokens.add],
      ['withdraw-liquidity-multi', m.bothTokens.withdraw],
    ] as const) {
      const f = fit(m.points[fn]!);
      const extra = {} as Cost;
      for (const d of DIMENSIONS) extra[d] = p.cost[d] - f.base[d] - f.per[d] * p.units;
      process.stdout.write(
        `${fn}, one of ${p.units} units moving both tokens, above the fit: ${show(extra)}\n`,
      );
    }
    const walk = fit(m.points['swap-y-for-x-simple-multi']!);
    const full = m.gap.units - m.gap.empty;
    const perEmpty = (m.gap.cost.readCount - walk.base.readCount - walk.per.readCount * full) / m.gap.empty;
    process.stdout.write(
      `swap-y-for-x-simple-multi across ${m.gap.empty} empty of ${m.gap.units} bins: ${show(m.gap.cost)}; ` +
        `about ${Math.round(perEmpty * 10) / 10} reads per empty bin\n`,
    );
  } finally {
    s.close();
  }
}

void main();
