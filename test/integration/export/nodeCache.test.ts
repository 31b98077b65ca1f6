/**
 * Node reads of bin shares, counted at the simulator (real HTTP): a first export of N new bins sends at
 * most N node requests, the same export again at the same applied state height sends none (the on-disk
 * cache under DLMM_CACHE_DIR is shared by every command), a moved state height drops the cache, ten
 * 60-position exports in a row never see a 429, and an operation whose min-dlp cannot be computed is
 * refused unless --allow-unprotected is given.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { skipBecause } from '../../skip';

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

  it('does not believe shares changed in the cache at the same height: reads them again, same bounds', async () => {
    const own = join(dir, 'tamper-cache');
    const run = async () => {
      const out = io({ DLMM_CACHE_DIR: own, DLMM_NODE_URL: sim.nodeUrl });
      const before = sim.requests().node;
      const code = await main(['export', 'tamper.dlmm.yaml', '--api', sim.url, '--format', 'summary'], out);
      return { code, stdout: out.stdout, stderr: out.stderr, node: sim.requests().node - before };
    };
    await writeFile(join(dir, 'tamper.dlmm.yaml'), addPlan([150, 151, 152]));
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.equal((await run()).node, 0, 'all from the cache at this height');
    const file = join(
      own,
      (await readdir(own)).find((f) => f.startsWith('node-'))!,
    );
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      entries: Record<string, { result?: string }>;
    };
    // The probe: one bin's answer replaced by another bin's (a valid answer, other shares), height kept.
    const bins = Object.entries(stored.entries).filter(([k]) => k.includes(' get-bin-balances '));
    assert.equal(bins.length, 3);
    const [a, b] = bins.filter(([, v]) => v.result !== bins[0]![1].result).concat([bins[0]!]);
    assert.ok(a && b && a[1].result !== b[1].result, 'two bins with different shares to swap');
    stored.entries[a[0]]!.result = b[1].result;
    await writeFile(file, JSON.stringify(stored));
    const again = await run();
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.node, 1, 'the changed record, and only it, is read from the node again');
    assert.equal(again.stdout, first.stdout, 'the bounds of the node’s answers, not of the changed file');
  });

  it('a cache folder others can write is not used: one notice, the export still right, nothing written there', async function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const open = join(dir, 'open-cache');
    await mkdir(open, { mode: 0o777 });
    await chmod(open, 0o777);
    await writeFile(join(dir, 'open.dlmm.yaml'), addPlan([150, 151]));
    const out = io({ DLMM_CACHE_DIR: open, DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(['export', 'open.dlmm.yaml', '--api', sim.url, '--format', 'summary'], out);
    assert.equal(code, 0, out.stderr);
    const notices = out.stderr.split('\n').filter((l) => l.includes('is not used'));
    assert.equal(notices.length, 1, out.stderr);
    assert.match(
      notices[0]!,
      /^dlmm: the cache folder .*open-cache is not used: it is writable by everyone \(mode 777\); .*chmod 700/,
    );
    assert.deepEqual(await readdir(open), []);
  });

  it('a FIFO in place of the pacing file or the node cache: no hang, a notice, the export done', async function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const fifoCache = join(dir, 'fifo-cache');
    await mkdir(fifoCache, { mode: 0o700 });
    // The names the store gives them: copied from a run in another folder.
    const probe = join(dir, 'probe-cache');
    const first = io({ DLMM_CACHE_DIR: probe, DLMM_NODE_URL: sim.nodeUrl });
    await writeFile(join(dir, 'fifo.dlmm.yaml'), addPlan([150, 151]));
    assert.equal(await main(['export', 'fifo.dlmm.yaml', '--api', sim.url, '--format', 'summary'], first), 0);
    const names = (await readdir(probe)).filter((f) => /^(node|service)-/.test(f));
    // The node cache, the pacing file and the service's answers kept per height.
    assert.equal(names.length, 3, names.join(' '));
    try {
      for (const n of names) execFileSync('mkfifo', [join(fifoCache, n)]);
    } catch {
      skipBecause(this, 'mkfifo is not on this machine: there is no FIFO to test');
    }
    const out = io({ DLMM_CACHE_DIR: fifoCache, DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(['export', 'fifo.dlmm.yaml', '--api', sim.url, '--format', 'summary'], out);
    assert.equal(code, 0, out.stderr);
    assert.equal(out.stdout, first.stdout);
    assert.match(out.stderr, /node-[0-9a-f]+\.json is not used: it is not a regular file/);
    assert.match(out.stderr, /service-[0-9a-f]+\.json is not used: it is not a regular file/);
    assert.match(out.stderr, /service-answers-[0-9a-f]+\.json is not used: it is not a regular file/);
  });
});
