/**
 * `npm run bench`: runs every test/bench/*.bench.ts (or those named on the command line) and prints figures
 * with their budgets. Budgets are reported, never asserted (timing asserts do not belong in tests).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchFn, BenchRow } from './types';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const dir = __dirname;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  let over = 0;
  for (const f of files) {
    const mod = (await import(join(dir, f))) as { bench?: BenchFn };
    if (!mod.bench) continue;
    process.stdout.write(`\n== ${f.replace('.bench.ts', '')}\n`);
    let rows: BenchRow[];
    try {
      rows = await mod.bench();
    } catch (e) {
      process.stdout.write(`  failed: ${e instanceof Error ? e.message : String(e)}\n`);
      over++;
      continue;
    }
    for (const r of rows) {
      const mark = r.ok === undefined ? ' ' : r.ok ? '✓' : '✗';
      if (r.ok === false) over++;
      const v = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(3);
      process.stdout.write(
        `  ${mark} ${r.name.padEnd(58)} ${v.padStart(12)} ${r.unit.padEnd(8)} ${r.budget ? 'budget ' + r.budget : ''}\n`,
      );
    }
  }
  process.stdout.write(
    `\n${over === 0 ? 'all figures within budget' : `${over} figure(s) over budget or failed`}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(String(e) + '\n');
  process.exitCode = 1;
});
