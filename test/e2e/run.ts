/**
 * Runs the e2e suites (test/e2e/*.e2e.ts) with mocha in one process sharing one harness, under an overall
 * time bound, and ends with the plain 'N passed, N failed' line. Arguments filter suite files by substring.
 */
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from './harness';
import { stopHarness } from './support';

const RUN_LIMIT_MS = Number(process.env.DLMM_E2E_RUN_LIMIT_MS ?? 20 * 60_000);
const dir = __dirname;
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  // The smoke suite first: when it fails, the others' failures are explained by it.
  .sort((a, b) => Number(b.startsWith('smoke')) - Number(a.startsWith('smoke')) || a.localeCompare(b));

async function main(): Promise<number> {
  if (files.length === 0) {
    console.error(`e2e: no suite matches ${filters.join(' ')}`);
    return 2;
  }
  const mocha = new Mocha({ reporter: 'spec', timeout: 180_000, slow: 15_000, bail: false });
  mocha.rootHooks({ afterAll: [async () => stopHarness()] });
  for (const f of files) mocha.addFile(join(dir, f));
  await mocha.loadFilesAsync();
  const started = Date.now();
  return new Promise((resolve) => {
    const runner = mocha.run(() => undefined);
    runner.on('end', () => {
      const s = runner.stats;
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`e2e: ${files.length} suite file(s) in ${secs}s; screenshots in ${ARTIFACTS_DIR}`);
      console.log(`e2e: ${s?.passes ?? 0} passed, ${s?.failures ?? 0} failed, ${s?.pending ?? 0} skipped`);
      resolve((s?.failures ?? 1) > 0 || (s?.passes ?? 0) === 0 ? 1 : 0);
    });
  });
}

const watchdog = setTimeout(() => {
  console.error(`e2e: the run exceeded ${RUN_LIMIT_MS / 60_000} minutes; stopping every process it started`);
  void stopHarness().finally(() => {
    console.log('e2e: 0 passed, 1 failed');
    process.exit(1);
  });
}, RUN_LIMIT_MS);
watchdog.unref();

main().then(
  async (code) => {
    await stopHarness();
    process.exit(code);
  },
  async (err) => {
    console.error(err);
    await stopHarness();
    console.log('e2e: 0 passed, 1 failed');
    process.exit(1);
  },
);
