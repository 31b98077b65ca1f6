/**
 * Cold starts of the command line beside a bare `node -e 0`, interleaved and reported as medians (the
 * machine's load swings): `dlmm --version` and `dlmm check --offline` on one plan load only what they need.
 * `check` loads its bundle through the V8 code cache (cli/src/codeCache.ts): the budget row is the usual,
 * repeated run (the cache written by an earlier run); the first run of a build (no cache yet: it compiles
 * and writes the cache) is printed beside it. Each run has only PATH and its own DLMM_CACHE_DIR.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 9;
function time(args: string[], cacheDir = 'off'): number {
  const s = performance.now();
  try {
    execFileSync(process.execPath, args, {
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

export async function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const bin = join(ROOT, 'bin', 'dlmm.js');
  const plan = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
  const check = [bin, 'check', '--offline', plan];
  const tmp = mkdtempSync(join(tmpdir(), 'dlmm-bench-cold-'));
  const warmDir = join(tmp, 'warm');
  const bare: number[] = [];
  const version: number[] = [];
  const warm: number[] = [];
  const first: number[] = [];
  try {
    time(check, warmDir); // writes the cache the repeated runs use
    for (let i = 0; i < ROUNDS; i++) {
      bare.push(time(['-e', '0']));
      version.push(time([bin, '--version'], warmDir));
      warm.push(time(check, warmDir));
      first.push(time(check, join(tmp, `first-${i}`)));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const peer = { name: 'node -e 0', value: median(bare) };
  return [
    versus(`dlmm --version (median of ${ROUNDS})`, median(version), 'ms', peer, 1.5),
    versus(
      `dlmm check --offline one.dlmm.yaml, repeated run (median of ${ROUNDS})`,
      median(warm),
      'ms',
      peer,
      1.5,
    ),
    versus(
      `dlmm check --offline one.dlmm.yaml, first run: compiles, writes the code cache (median of ${ROUNDS})`,
      median(first),
      'ms',
      peer,
    ),
  ];
}
