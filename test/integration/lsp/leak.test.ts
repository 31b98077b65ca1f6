/**
 * The language server over time (real JSON-RPC, the simulated engine over loopback): cycles of opening 200
 * plans that need live data, editing each, closing them all. The live work of a closed or superseded
 * document is cancelled (queued node reads included, which the node's 500 requests per minute would
 * otherwise hold for a minute), so the heap after a full GC, 2 s after closing, stays where the first cycle
 * left it. The tests' server (testServer.ts) runs with `--expose-gc` and answers `dlmm/test/heap`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_USER,
  DEFAULT_WORLD_INPUT,
  POOL_SBTC_USDCX,
  POOL_STX_SBTC,
  POOL_STX_USDCX,
} from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { parseWorld } from '../../../core/sim/world';
import { startLsp, testServer, type LspSession } from './harness';
import { TestHeapRequest } from './testHooks';

const DOCS = 200;
const CYCLES = 10;
/** Bins each plan adds to: 200 plans x 4 bins x 2 versions is far more node reads than 500 a minute. */
const BINS_PER_PLAN = 4;
const MB = 1024 * 1024;

const POOLS = [
  { id: POOL_SBTC_USDCX, active: 139 },
  { id: POOL_STX_USDCX, active: -37 },
  { id: POOL_STX_SBTC, active: 12 },
];

/**
 * Plan `i`, version 1 adds X above the active bin, version 2 (the edit) Y below it: each plan's bins are
 * its own, so every live analysis needs node reads no other plan shares.
 */
function plan(i: number, version: 1 | 2): string {
  const p = POOLS[i % POOLS.length] as (typeof POOLS)[number];
  const slot = Math.floor(i / POOLS.length);
  const bins: string[] = [];
  for (let k = 0; k < BINS_PER_PLAN; k++) {
    const offset = 2 + slot * BINS_PER_PLAN + k;
    bins.push(
      version === 1
        ? `      - { bin_id: ${p.active + offset}, x_amount: ${1000 + i}, y_amount: 0 }`
        : `      - { bin_id: ${p.active - offset}, x_amount: 0, y_amount: ${2000 + i} }`,
    );
  }
  return `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: ladder-${i}
    op: add
    mode: strict
    pool: ${p.id}
    bins:
${bins.join('\n')}
`;
}

describe('language server memory over open/edit/close cycles (simulated engine)', function () {
  this.timeout(240_000);
  let sim: RunningSimulator;
  let lsp: LspSession;
  let cacheDir: string;

  before(async () => {
    // Wide pools: every bin a plan names exists, so each needs its own node read of the bin's shares.
    const input = structuredClone(DEFAULT_WORLD_INPUT);
    const reach = 2 + Math.ceil(DOCS / POOLS.length) * BINS_PER_PLAN + 2;
    for (const pool of input.pools) {
      if (pool.liquidity) {
        pool.liquidity.bins_below = reach;
        pool.liquidity.bins_above = reach;
      }
    }
    const world = parseWorld(input, 'leak test world');
    sim = await startSimulator({ host: '127.0.0.1', port: 0, world });
    cacheDir = mkdtempSync(join(tmpdir(), 'dlmm-leak-'));
    lsp = await startLsp({
      env: {
        DLMM_API_URL: sim.url,
        DLMM_NODE_URL: sim.nodeUrl,
        DLMM_CACHE_DIR: cacheDir,
      },
      command: testServer(['--expose-gc']),
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000 },
    });
  });

  after(async () => {
    await lsp?.close();
    await sim?.close();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  it('keeps the heap after GC flat over 10 cycles of 200 live plans opened, edited and closed', async () => {
    const heaps: number[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const uris = Array.from(
        { length: DOCS },
        (_, i) => `file:///work/leak/c${cycle}/plan-${String(i).padStart(3, '0')}.dlmm.yaml`,
      );
      uris.forEach((uri, i) => lsp.open(uri, plan(i, 1)));
      await Promise.all(uris.map((uri) => lsp.diagnostics(uri, (_d, v) => v === 1, 60_000)));
      uris.forEach((uri, i) => lsp.change(uri, plan(i, 2)));
      await Promise.all(uris.map((uri) => lsp.diagnostics(uri, (_d, v) => v === 2, 60_000)));
      for (const uri of uris)
        void lsp.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      // The measure: the heap 2 s after closing (the time a cancelled read takes to unwind).
      await new Promise((r) => setTimeout(r, 2000));
      const heap = await lsp.conn.sendRequest(TestHeapRequest);
      assert.ok(heap.gc, 'the server runs with --expose-gc');
      heaps.push(heap.heapUsed);
    }
    const figures = heaps.map((h) => (h / MB).toFixed(1)).join(' -> ');
    console.log(`      heap after GC per cycle (MB): ${figures}`);
    const first = heaps[0] as number;
    const last = heaps[heaps.length - 1] as number;
    assert.ok(
      last - first <= 2 * MB,
      `heap after cycle ${CYCLES} is ${((last - first) / MB).toFixed(1)} MB above cycle 1 (${figures})`,
    );
  });
});
