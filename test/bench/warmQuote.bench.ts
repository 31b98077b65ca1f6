/**
 * What a user waits for when quoting again: a warm `dlmm quote` (a whole process, a second run at the same
 * applied state height with the cache folder) against the published client library's warm call
 * (@bitflowlabs/core-sdk getQuoteForRoute, its second call in one process), both against the simulator over
 * loopback; and the requests each makes, counted by the simulator. `node -e 0` is printed as the floor of
 * any process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BitflowSDK } from '@bitflowlabs/core-sdk';
import { DEFAULT_SIM_API_KEY } from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { median, versus, type BenchRow } from './types';

const ROOT = join(__dirname, '..', '..');
const RUNS = 7;

export async function bench(): Promise<BenchRow[]> {
  const sim = await startSimulator({ port: 0 });
  const cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-bench-warm-'));
  const sent = () => sim.requests().service + sim.requests().node;
  const run = promisify(execFile);
  const env = {
    PATH: process.env.PATH,
    DLMM_API_URL: sim.url,
    DLMM_NODE_URL: sim.nodeUrl,
    DLMM_CACHE_DIR: cacheDir,
  };
  const quiet = { warn: console.warn, error: console.error, log: console.log };
  try {
    const dlmmQuote = () =>
      run(
        process.execPath,
        [join(ROOT, 'bin', 'dlmm.js'), 'quote', '--in', 'sBTC', '--out', 'USDCx', '--amount', '0.1'],
        {
          env,
        },
      );
    // The same quote with the embedded simulator (--sim): the process starts it as well.
    const simQuote = () =>
      run(
        process.execPath,
        [join(ROOT, 'bin', 'dlmm.js'), 'quote', '--sim', '--in', 'sBTC', '--out', 'USDCx', '--amount', '0.1'],
        { env: { PATH: process.env.PATH, DLMM_CACHE_DIR: cacheDir } },
      );
    await dlmmQuote(); // cold: fills the cache folder
    await simQuote();
    const ours: number[] = [];
    const withSim: number[] = [];
    const ourRequests: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const before = sent();
      const t0 = performance.now();
      await dlmmQuote();
      ours.push(performance.now() - t0);
      ourRequests.push(sent() - before);
      const t1 = performance.now();
      await run(process.execPath, ['-e', '0']);
      floor.push(performance.now() - t1);
      const t2 = performance.now();
      await simQuote();
      withSim.push(performance.now() - t2);
    }

    console.warn = () => {};
    console.error = () => {};
    console.log = () => {};
    const sdk = new BitflowSDK({
      BITFLOW_API_HOST: sim.coreUrl,
      BITFLOW_API_KEY: DEFAULT_SIM_API_KEY,
      READONLY_CALL_API_HOST: sim.nodeUrl,
      KEEPER_API_HOST: `${sim.coreUrl}/keeper-not-served`,
      KEEPER_API_KEY: 'placeholder-keeper-key',
    });
    const warm = await sdk.getQuoteForRoute('token-sbtc', 'token-usdcx', 0.1); // warm-up
    if (!warm.bestRoute) throw new Error('the library found no route sBTC -> USDCx');
    const lib: number[] = [];
    const libRequests: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const before = sent();
      const t0 = performance.now();
      await sdk.getQuoteForRoute('token-sbtc', 'token-usdcx', 0.1);
      lib.push(performance.now() - t0);
      libRequests.push(sent() - before);
    }
    console.warn = quiet.warn;
    console.error = quiet.error;
    console.log = quiet.log;
    const libMs = median(lib);
    return [
      versus('warm dlmm quote, whole process (median)', median(ours), 'ms', {
        name: 'the library warm call + node -e 0',
        value: libMs + median(floor),
      }),
      { name: 'node -e 0 (any process, median)', value: median(floor), unit: 'ms' },
      // Issue 47: a quote starts what it needs and no more.
      versus(
        'warm dlmm quote, whole process, cache folder set (median)',
        median(ours),
        'ms',
        {
          name: 'node -e 0',
          value: median(floor),
        },
        3,
      ),
      versus(
        'warm dlmm quote --sim, whole process (median)',
        median(withSim),
        'ms',
        {
          name: 'node -e 0',
          value: median(floor),
        },
        3,
      ),
      { name: 'the library warm getQuoteForRoute, in process (median)', value: libMs, unit: 'ms' },
      versus('warm dlmm quote, requests', median(ourRequests), 'req', {
        name: 'the library warm call',
        value: median(libRequests),
      }),
    ];
  } finally {
    console.warn = quiet.warn;
    console.error = quiet.error;
    console.log = quiet.log;
    await sim.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
