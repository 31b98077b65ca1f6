/**
 * Cold starts of the command line beside a bare `node -e 0`, interleaved and reported as medians (the
 * machine's load swings): `dlmm --version` and `dlmm check --offline` on one plan load only what they need.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../integration/lsp/harness';
import { median, versus, type BenchRow } from './types';

const ROUNDS = 9;
function time(args: string[]): number {
  const s = performance.now();
  try {
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore', env: { PATH: process.env.PATH } });
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
  const bare: number[] = [];
  const version: number[] = [];
  const check: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(time(['-e', '0']));
    version.push(time([bin, '--version']));
    check.push(time([bin, 'check', '--offline', plan]));
  }
  const peer = { name: 'node -e 0', value: median(bare) };
  return [
    versus(`dlmm --version (median of ${ROUNDS})`, median(version), 'ms', peer, 1.5),
    versus(`dlmm check --offline one.dlmm.yaml (median of ${ROUNDS})`, median(check), 'ms', peer, 1.5),
  ];
}
