/**
 * A warm `dlmm quote` (a second process at the same applied state height, with the machine's cache folder)
 * reuses what the engine already answered at that height: tokens, pools, the v1 pools list and the route's
 * bin list come from the on-disk answers, and so does the host's amount form; it asks the status (to know
 * the height) and the quote. Real processes (`node bin/dlmm.js`) against the simulator over loopback, its
 * own request count.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

const ROOT = join(__dirname, '..', '..', '..');

describe('dlmm quote, warm: reuses what the engine answered at the same height', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let cacheDir: string;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-warm-quote-'));
  });
  after(async () => {
    await sim?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const quote = async (amount: string): Promise<{ out: string; requests: number }> => {
    const before = sim.requests().service;
    const r = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin', 'dlmm.js'), 'quote', '--in', 'sBTC', '--out', 'USDCx', '--amount', amount],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          DLMM_API_URL: sim.url,
          DLMM_NODE_URL: sim.nodeUrl,
          DLMM_CACHE_DIR: cacheDir,
        },
      },
    );
    return { out: r.stdout, requests: sim.requests().service - before };
  };

  it('asks the status and the quote only, and prints what the cold run printed', async () => {
    const cold = await quote('0.1');
    assert.ok(cold.requests > 2, `cold: ${cold.requests}`);
    const warm = await quote('0.1');
    assert.equal(warm.out, cold.out);
    assert.equal(warm.requests, 2, 'GET /quotes/v2/status and POST /quotes/v2/quote');
    // Another amount on the same route: the same two.
    const other = await quote('0.25');
    assert.equal(other.requests, 2);
    assert.match(other.out, /0\.25 sBTC/);

    // A new applied height: nothing kept is reused.
    const shift = await fetch(`${sim.url}/admin/pools/dlmm_1/shift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bins: 1 }),
    });
    assert.equal(shift.status, 200);
    const moved = await quote('0.1');
    assert.ok(moved.requests > 2, `after the height moved: ${moved.requests}`);
    assert.equal(sim.requests().rateLimited, 0);
  });
});
