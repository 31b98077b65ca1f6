/**
 * Node reads of bin shares, counted at the simulator (real HTTP): a first export of N new bins sends at
 * most N node requests, the same export again at the same applied state height sends none (the on-disk
 * cache under DLMM_CACHE_DIR is shared by every command), a moved state height drops the cache, ten
 * 60-position exports in a row never see a 429, and an operation whose min-dlp cannot be computed is
 * refused unless --allow-unprotected is given.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

/** A strict add on `bins` of the sBTC/USDCx pool (active bin 139): x above the active bin, y below. */
function addPlan(bins: number[]): string {
  const rows = bins.map((b) =>
    b > 139
      ? `      - { bin_id: ${b}, x_amount: 1000, y_amount: 0 }`
      : b < 139
        ? `      - { bin_id: ${b}, x_amount: 0, y_amount: 100000 }`
        : `      - { bin_id: ${b}, x_amount: 1000, y_amount: 76060 }`,
  );
  return `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: ladder
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
${rows.join('\n')}
`;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Bins of the default world's user in this pool: their total shares come with the positions. */
const USER_BINS = new Set([136, 137, 138, 139, 140, 141]);

describe('node reads of bin shares: once per (pool, bin, state height) per machine', function () {
  this.timeout(120_000);
  let sim: RunningSimulator;
  let dir: string;
  let cacheDir: string;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-nodecache-'));
    cacheDir = join(dir, 'cache');
  });
  after(async () => {
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });

  function io(env: Record<string, string | undefined>): CliIO & { stdout: string; stderr: string } {
    const x = {
      stdout: '',
      stderr: '',
      env,
      cwd: dir,
      out: (t: string) => void (x.stdout += t),
      err: (t: string) => void (x.stderr += t),
    };
    return x;
  }

  async function exportPlan(file: string, extra: string[] = [], node = true) {
    const out = io({ DLMM_CACHE_DIR: cacheDir, ...(node ? { DLMM_NODE_URL: sim.nodeUrl } : {}) });
    const before = sim.requests();
    const code = await main(['export', file, '--api', sim.url, '--format', 'summary', ...extra], out);
    const after = sim.requests();
    return {
      code,
      stdout: out.stdout,
      stderr: out.stderr,
      node: after.node - before.node,
      rateLimited: after.rateLimited - before.rateLimited,
    };
  }

  /** The sender's balances of the add's two tokens and of STX: node facts of the height too. */
  const BALANCE_READS = 3;

  it('sends at most N node requests for N new bins, then none at the same height', async () => {
    const bins = range(145, 164);
    await writeFile(join(dir, 'twenty.dlmm.yaml'), addPlan(bins));
    const first = await exportPlan('twenty.dlmm.yaml');
    assert.equal(first.code, 0, first.stderr);
    assert.ok(
      first.node > 0 && first.node <= bins.length + BALANCE_READS,
      `${first.node} node requests for ${bins.length} bins and ${BALANCE_READS} balances`,
    );
    assert.doesNotMatch(first.stderr, /min-dlp-unprotected/);
    const second = await exportPlan('twenty.dlmm.yaml');
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.node, 0);
    assert.equal(second.stdout, first.stdout, 'the same bounds from the cached shares');
    const files = (await readdir(cacheDir)).filter((f) => f.startsWith('node-'));
    assert.equal(files.length, 1);
    for (const f of await readdir(cacheDir)) {
      const text = await readFile(join(cacheDir, f), 'utf8');
      assert.doesNotMatch(text, /127\.0\.0\.1|api[-_]?key/i, 'the cache holds chain facts and times only');
    }
  });

  it('drops the cached shares when the applied state height moves', async () => {
    const bins = range(145, 150);
    await writeFile(join(dir, 'six.dlmm.yaml'), addPlan(bins));
    const warm = await exportPlan('six.dlmm.yaml');
    assert.equal(warm.code, 0, warm.stderr);
    assert.equal(warm.node, 0, 'read by the previous test at this height');
    const height = sim.engine.status.state_height;
    sim.engine.setStatus({ state_height: (height ?? 0) + 1 });
    const moved = await exportPlan('six.dlmm.yaml');
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(
      moved.node,
      bins.length + BALANCE_READS,
      'every bin and balance read again at the new height',
    );
    const files = (await readdir(cacheDir)).filter((f) => f.startsWith('node-'));
    const stored = JSON.parse(await readFile(join(cacheDir, files[0]!), 'utf8')) as {
      height: number;
      entries: Record<string, unknown>;
    };
    assert.equal(stored.height, (height ?? 0) + 1);
    assert.equal(
      Object.keys(stored.entries).length,
      bins.length + BALANCE_READS,
      'entries of the old height dropped',
    );
  });

  it('never reads shares the positions already state, and ten 60-position exports see no 429', async () => {
    const bins = range(110, 169);
    assert.equal(bins.length, 60);
    await writeFile(join(dir, 'sixty.dlmm.yaml'), addPlan(bins));
    const unknown = bins.filter((b) => !USER_BINS.has(b));
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const r = await exportPlan('sixty.dlmm.yaml');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.rateLimited, 0, `export ${i + 1} saw 429s`);
      if (i > 0) assert.equal(r.node, 0, `export ${i + 1} read the node again`);
      total += r.node;
    }
    assert.ok(total <= unknown.length, `${total} node requests for ${unknown.length} bins of unknown shares`);
  });

  it('refuses an operation whose min-dlp cannot be computed unless --allow-unprotected', async () => {
    await writeFile(join(dir, 'nonode.dlmm.yaml'), addPlan([150, 151]));
    const refused = await exportPlan('nonode.dlmm.yaml', [], false);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /bounds-unknown/);
    assert.match(refused.stderr, /bin\(s\) 150, 151/);
    assert.match(refused.stderr, /--allow-unprotected/);
    const allowed = await exportPlan('nonode.dlmm.yaml', ['--allow-unprotected'], false);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /min-dlp-unprotected/);
    assert.match(allowed.stdout, /min-dlp fell back to 1 .*bin\(s\) 150, 151/);
  });
});
