/**
 * The cache folder swapped for a symbolic link in a loop while `dlmm export` runs (issue 46;
 * docs/guarantees.md "The cache folder is checked on the descriptor it is used through"). Another process
 * moves the cache folder away, puts a link to a folder of the same user in its place, takes it away and
 * moves the folder back, over and over, and looks into the link's target at every step; meanwhile the real
 * CLI (`bin/dlmm.js`, with its code cache) exports a plan against the simulated engine, reading bin shares
 * from its node (both write into the cache folder: node facts, pacing, compiled code). Nothing may ever
 * appear in the link's target: before the fix, writes checked the folder once and then named their files by
 * path, and went through the link.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { ROOT } from '../lsp/harness';
import { skipBecause } from '../../skip';

/** The swapper: runs until `stop` exists (at most 90 s), prints what it saw in the target and how many swaps. */
const SWAPPER = `
const fs = require('node:fs');
const [dir, real, target, stop] = process.argv.slice(1);
const nap = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(nap, 0, 0, ms);
const seen = new Set();
const look = () => { for (const name of fs.readdirSync(target)) seen.add(name); };
const quiet = (f) => { try { f(); } catch {} };
let swaps = 0;
const until = Date.now() + 90000;
while (!fs.existsSync(stop) && Date.now() < until) {
  sleep(1);
  quiet(() => fs.renameSync(dir, real));
  quiet(() => fs.symlinkSync(target, dir));
  look();
  sleep(1);
  look();
  quiet(() => fs.unlinkSync(dir));
  // A run may have made a new folder at the path while it was free: the real one goes back in its place.
  quiet(() => fs.rmSync(dir, { recursive: true, force: true }));
  quiet(() => fs.renameSync(real, dir));
  look();
  swaps++;
}
quiet(() => fs.unlinkSync(dir));
if (!fs.existsSync(dir)) quiet(() => fs.renameSync(real, dir));
look();
process.stdout.write(JSON.stringify({ seen: [...seen], swaps }));
`;

const PLAN = `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: ladder
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 142, x_amount: 1000, y_amount: 0 }
      - { bin_id: 143, x_amount: 1000, y_amount: 0 }
      - { bin_id: 135, x_amount: 0, y_amount: 100000 }
`;

describe('the cache folder swapped for a link while exports run', function () {
  this.timeout(180_000);
  let sim: RunningSimulator;
  let dir: string;

  before(async function () {
    if (process.platform !== 'linux')
      return skipBecause(
        this,
        'the descriptor-anchored cache folder is exact on Linux only (docs/guarantees.md)',
      );
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-cacheswap-'));
  });
  after(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('no file ever appears in the link target, and the exports still succeed', async () => {
    const cache = join(dir, 'cache');
    const target = join(dir, 'target');
    const stop = join(dir, 'stop');
    await mkdir(cache, { mode: 0o700 });
    await mkdir(target, { mode: 0o700 });
    const plan = join(dir, 'ladder.dlmm.yaml');
    await writeFile(plan, PLAN);

    const swapper = spawn(process.execPath, ['-e', SWAPPER, cache, join(dir, 'cache.real'), target, stop], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let report = '';
    swapper.stdout.on('data', (b: Buffer) => (report += b.toString()));
    const swapperDone = new Promise<void>((resolve) => swapper.on('exit', () => resolve()));

    const exportOnce = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(ROOT, 'bin', 'dlmm.js'), 'export', plan, '--api', sim.url, '--format', 'summary'],
          {
            cwd: dir,
            env: { PATH: process.env.PATH, DLMM_CACHE_DIR: cache, DLMM_NODE_URL: sim.nodeUrl },
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    const runs: { code: number | null; out: string }[] = [];
    try {
      // Two at a time, eight in all: every one writes pacing and node facts, and compiled code at its exit.
      for (let i = 0; i < 4; i++) runs.push(...(await Promise.all([exportOnce(), exportOnce()])));
    } finally {
      await writeFile(stop, '');
      await swapperDone;
    }
    const { seen, swaps } = JSON.parse(report) as { seen: string[]; swaps: number };
    assert.ok(swaps > 10, `the folder was swapped ${swaps} times`);
    for (const r of runs) assert.equal(r.code, 0, r.out);
    assert.deepEqual(seen, [], `files appeared in the link's target: ${seen.join(', ')}`);
    assert.deepEqual(await readdir(target), []);
    // The real folder kept what was written into it (the cache still works when left alone).
    assert.ok(existsSync(cache));
  });
});
