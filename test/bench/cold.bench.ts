/**
 * Cold starts of the command line beside a bare `node -e 0`, interleaved and reported as medians (the
 * machine's load swings): `dlmm --version` and `dlmm check --offline` on one plan, run as users run them
 * (bin/dlmm.js, package.json "bin"). The budget rows are the usual, repeated runs, whose bundles load through
 * the V8 code cache (core/codeCache.ts) an earlier run wrote; the same commands without it
 * (`DLMM_CACHE_DIR=off`, as a first run of a build compiles) are printed beside them, the figures that say
 * whether the cache is still needed. Each run has only PATH and DLMM_CACHE_DIR.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 15;
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

export function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const dlmm = join(ROOT, 'bin', 'dlmm.js');
  const plan = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
  const check = ['check', '--offline', plan];
  const tmp = mkdtempSync(join(tmpdir(), 'dlmm-bench-cold-'));
  const warmDir = join(tmp, 'warm');
  const bare: number[] = [];
  const version: number[] = [];
  const versionOff: number[] = [];
  const warm: number[] = [];
  const off: number[] = [];
  try {
    // Writes the code cache the repeated runs use.
    time(dlmm, check, warmDir);
    time(dlmm, ['--version'], warmDir);
    for (let i = 0; i < ROUNDS; i++) {
      bare.push(time(process.execPath, ['-e', '0']));
      version.push(time(dlmm, ['--version'], warmDir));
      versionOff.push(time(dlmm, ['--version']));
      warm.push(time(dlmm, check, warmDir));
      off.push(time(dlmm, check));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const peer = { name: 'node -e 0', value: median(bare) };
  return Promise.resolve([
    versus(`dlmm --version, code cache written (median of ${ROUNDS})`, median(version), 'ms', peer, 1.5),
    versus(`dlmm --version, no code cache (median of ${ROUNDS})`, median(versionOff), 'ms', peer),
    versus(
      `dlmm check --offline one.dlmm.yaml, code cache written (median of ${ROUNDS})`,
      median(warm),
      'ms',
      peer,
      2,
    ),
    versus(
      `dlmm check --offline one.dlmm.yaml, no code cache (median of ${ROUNDS})`,
      median(off),
      'ms',
      peer,
    ),
  ]);
}
