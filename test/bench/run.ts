/**
 * `npm run bench`: runs every test/bench/*.bench.ts (or those named on the command line) and prints figures
 * with their budgets, and for compared figures the peer's figure and the ratio. Budgets are reported, never
 * asserted (timing asserts do not belong in tests): the run exits non-zero only when a figure could not be
 * measured (a bench threw, or a value or its peer is not a number).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchFn, BenchRow } from './types';

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const dir = __dirname;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  let over = 0;
  let unmeasured = 0;
  for (const f of files) {
    const mod = (await import(join(dir, f))) as { bench?: BenchFn };
    if (!mod.bench) continue;
    process.stdout.write(`\n== ${f.replace('.bench.ts', '')}\n`);
    let rows: BenchRow[];
    try {
      rows = await mod.bench();
    } catch (e) {
      process.stdout.write(`  failed: ${e instanceof Error ? e.message : String(e)}\n`);
      unmeasured++;
      continue;
    }
    for (const r of rows) {
      const measured = Number.isFinite(r.value) && (r.peer === undefined || Number.isFinite(r.peer.value));
      if (!measured) unmeasured++;
      const mark = !measured ? '?' : r.ok === undefined ? ' ' : r.ok ? '✓' : '✗';
      if (measured && r.ok === false) over++;
      const peer = r.peer
        ? `  peer ${r.peer.name} ${fmt(r.peer.value)} ${r.unit}, ratio ${(r.value / r.peer.value).toFixed(2)}x`
        : '';
      process.stdout.write(
        `  ${mark} ${r.name.padEnd(58)} ${fmt(r.value).padStart(12)} ${r.unit.padEnd(8)} ${r.budget ? 'budget ' + r.budget : ''}${peer}\n`,
      );
    }
  }
  process.stdout.write(
    `\n${over === 0 ? 'all measured figures within budget' : `${over} figure(s) over budget`}` +
      `${unmeasured === 0 ? '' : `; ${unmeasured} figure(s) could not be measured`}\n`,
  );
  if (unmeasured > 0) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(String(e) + '\n');
  process.exitCode = 1;
});
