/**
 * Cold starts of the command line beside a bare `node -e 0`, interleaved and reported as medians (the
 * machine's load swings): `dlmm --version` and `dlmm check --offline` on one plan, run as users run them,
 * through the `dlmm` launcher (bin/dlmm, package.json "bin"). `check` starts from its startup snapshot
 * (cli/src/snapshot.ts) and loads what else it needs through the V8 code cache (cli/src/codeCache.ts): the
 * budget row is the usual, repeated run (snapshot and cache written by an earlier run); the first run of a
 * build (neither yet: the plain CLI compiles and writes the code cache, then starts the snapshot's build in
 * the background) is printed beside it, and so is that background build. Each run has only PATH and its own
 * DLMM_CACHE_DIR.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 9;
function time(file: string, args: string[], cacheDir = 'off'): number {
  const s = performance.now();
  try {
    execFileSync(file, args, {
      cwd: ROOT,
      stdio: 'ignore',
      env: { PATH: process.env.PATH, DLMM_CACHE_DIR: cacheDir },
    });
  } catch (e) {
    // `check` exits 1 on error findings; only a failure to run is unmeasured.
    if ((e as { status?: number }).status !== 1) return NaN;
  }
  return performance.now() - s;
}

/**
 * Ms from `since` until the background build has put a snapshot into `cacheDir` (polled, so the next
 * measurement never overlaps it); NaN after a minute without one.
 */
async function snapshotBuilt(cacheDir: string, since: number): Promise<number> {
  const folder = join(cacheDir, 'snapshot');
  while (performance.now() - since < 60_000) {
    const names = existsSync(folder) ? readdirSync(folder) : [];
    if (names.some((n) => n.endsWith('.blob')) && !names.some((n) => n.endsWith('.lock')))
      return performance.now() - since;
    await new Promise((r) => setTimeout(r, 5));
  }
  return NaN;
}

export async function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'snapshot.id')))
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const dlmm = join(ROOT, 'bin', 'dlmm');
  const plan = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
  const check = ['check', '--offline', plan];
  const tmp = mkdtempSync(join(tmpdir(), 'dlmm-bench-cold-'));
  const warmDir = join(tmp, 'warm');
  const bare: number[] = [];
  const version: number[] = [];
  const warm: number[] = [];
  const first: number[] = [];
  const build: number[] = [];
  try {
    // Writes the code cache and, in the background, the snapshot the repeated runs use.
    time(dlmm, check, warmDir);
    if (Number.isNaN(await snapshotBuilt(warmDir, performance.now()))) return [];
    for (let i = 0; i < ROUNDS; i++) {
      bare.push(time(process.execPath, ['-e', '0']));
      version.push(time(dlmm, ['--version'], warmDir));
      warm.push(time(dlmm, check, warmDir));
      const dir = join(tmp, `first-${i}`);
      first.push(time(dlmm, check, dir));
      build.push(await snapshotBuilt(dir, performance.now()));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const peer = { name: 'node -e 0', value: median(bare) };
  return [
    versus(`dlmm --version (median of ${ROUNDS})`, median(version), 'ms', peer, 1.5),
    versus(
      `dlmm check --offline one.dlmm.yaml, repeated run: from the snapshot (median of ${ROUNDS})`,
      median(warm),
      'ms',
      peer,
      1.5,
    ),
    versus(
      `dlmm check --offline one.dlmm.yaml, first run: plain CLI, writes the code cache, starts the snapshot build (median of ${ROUNDS})`,
      median(first),
      'ms',
      peer,
    ),
    versus(
      `  the snapshot's build in the background, after that first run (median of ${ROUNDS})`,
      median(build),
      'ms',
      peer,
    ),
  ];
}
