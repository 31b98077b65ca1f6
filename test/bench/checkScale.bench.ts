/**
 * `dlmm check` over many live plans (issue 47): 1,000 and 10,000 copies of a one-pool add checked in one
 * process against the simulator over loopback (started here, so its memory is not the check's). The
 * budgets: time in proportion to the plans (10,000 within 11x the time of 1,000) and peak memory, the
 * child's `process.resourceUsage().maxRSS`, within 400 MB at 10,000 plans. BENCH_CHECK_PLANS="200,2000"
 * runs smaller sizes (the ratio budget is the ratio of the sizes, plus 10%).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SIM_API_KEY } from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { ROOT } from '../integration/lsp/harness';
import { versus, type BenchRow } from './types';

/** Writes the child's peak resident memory on stderr as it exits (loaded with --require). */
const PEAK_HOOK = `process.on('exit', () => require('node:fs').writeSync(2, '\\nmaxRSS ' + process.resourceUsage().maxRSS + '\\n'));\n`;

interface Run {
  ms: number;
  /** Peak resident memory, MB. */
  peakMb: number;
  files: number;
}

function check(dir: string, hook: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      ['--require', hook, join(ROOT, 'bin', 'dlmm.js'), 'check', dir, '--format', 'json'],
      { env, maxBuffer: 1 << 30 },
      (err, stdout, stderr) => {
        const ms = performance.now() - t0;
        const status = (err as { code?: unknown } | null)?.code;
        const rss = /maxRSS (\d+)/.exec(stderr);
        let files = NaN;
        try {
          files = (JSON.parse(stdout) as { files: unknown[] }).files.length;
        } catch {
          // unmeasured below
        }
        // `check` exits 1 on error findings; anything else did not measure the check.
        const ok = (err === null || status === 1) && rss !== null;
        done({ ms: ok ? ms : NaN, peakMb: ok ? Number(rss[1]) / 1024 : NaN, files });
      },
    );
  });
}

export async function bench(): Promise<BenchRow[]> {
  if (!existsSync(join(ROOT, 'dist', 'cli.js')))
    (await import('node:child_process')).execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  const sizes = (process.env.BENCH_CHECK_PLANS ?? '1000,10000').split(',').map(Number);
  const [small, large] = sizes as [number, number];
  const plan = readFileSync(join(ROOT, 'examples', 'add-ladder.dlmm.yaml'), 'utf8');
  const tmp = mkdtempSync(join(tmpdir(), 'dlmm-bench-check-'));
  const hook = join(tmp, 'peak.js');
  writeFileSync(hook, PEAK_HOOK);
  const sim = await startSimulator({ port: 0 });
  const env = {
    PATH: process.env.PATH,
    DLMM_API_URL: sim.url,
    DLMM_NODE_URL: sim.nodeUrl,
    DLMM_API_KEY: DEFAULT_SIM_API_KEY,
    DLMM_CACHE_DIR: join(tmp, 'cache'),
  };
  try {
    const runs: Run[] = [];
    for (const n of [small, large]) {
      const dir = join(tmp, `plans-${n}`);
      // 100 plans a folder; each plan distinct (its operation id and amounts).
      for (let i = 0; i < n; i++) {
        const sub = join(dir, String(Math.floor(i / 100)));
        if (i % 100 === 0) mkdirSync(sub, { recursive: true });
        writeFileSync(
          join(sub, `p${i}.dlmm.yaml`),
          plan
            .replace('asks-and-bids', `ladder-${i}`)
            .replace(/x_amount: 150000/g, `x_amount: ${150000 + i}`),
        );
      }
      runs.push(await check(dir, hook, env));
      const last = runs[runs.length - 1] as Run;
      if (last.files !== n) last.ms = NaN;
    }
    const [a, b] = runs as [Run, Run];
    const maxRatio = Math.round((large / small) * 1.1 * 10) / 10;
    return [
      { name: `dlmm check, ${small} live plans (json, whole process)`, value: a.ms, unit: 'ms' },
      versus(
        `dlmm check, ${large} live plans (json, whole process)`,
        b.ms,
        'ms',
        { name: `${small} plans`, value: a.ms },
        maxRatio,
      ),
      { name: `dlmm check, ${small} live plans, peak memory (maxRSS)`, value: a.peakMb, unit: 'MB' },
      {
        name: `dlmm check, ${large} live plans, peak memory (maxRSS)`,
        value: b.peakMb,
        unit: 'MB',
        ...(large >= 10000 ? { budget: '<= 400 MB', ok: b.peakMb <= 400 } : {}),
        peer: { name: `${small} plans`, value: a.peakMb },
      },
    ];
  } finally {
    await sim.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
