/** Pool math figures: a 350-bin quote walk (budget <= 2 ms) and add / withdraw per operation. */
import { performance } from 'node:perf_hooks';
import { addLiquidity, swapWalk, withdrawLiquidity, type BinBalances } from '../../core/dlmm/math';
import type { BenchRow } from './types';
import { FEES } from '../unit/dlmm/fixtures';

/** 351 bins below and at the active bin (0), prices falling 10 bps per bin, each holding y. */
function ladder(): Map<number, BinBalances> {
  const bins = new Map<number, BinBalances>();
  let price = 76_060_388_561n;
  for (let id = 0; id >= -350; id--) {
    bins.set(id, { price, reserve_x: 0n, reserve_y: 1_000_000_000n, shares: 31_622_776_601n });
    price = (price * 10_000n) / 10_010n;
  }
  return bins;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Times `runs` calls of `f` after `warmup` untimed ones; returns sorted milliseconds. */
function time(f: () => void, warmup: number, runs: number): number[] {
  return timeBoth(f, warmup, runs).wall;
}

/**
 * Wall and CPU milliseconds per call, each sorted. CPU time shows the code's own cost when the machine is
 * shared (the wall tail then mostly measures the scheduler).
 */
function timeBoth(f: () => void, warmup: number, runs: number): { wall: number[]; cpu: number[] } {
  for (let i = 0; i < warmup; i++) f();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    f();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const up = (a: number, b: number) => a - b;
  return { wall: wall.sort(up), cpu: cpu.sort(up) };
}

export async function bench(): Promise<BenchRow[]> {
  const bins = ladder();
  const get = (id: number) => bins.get(id);
  // Enough x to empty all 350 bins the router may visit.
  const amount = 10n ** 12n;
  const check = swapWalk(get, 0, true, amount, FEES);
  if (check.steps.length !== 350) throw new Error(`walk made ${check.steps.length} calls, expected 350`);
  // 500 untimed walks first: after 50, V8 was still optimizing the walk on its compiler threads, whose CPU
  // time process.cpuUsage() counts (samples of 3-7 ms CPU in 0.4 ms of wall time). 1000 timed walks, so the
  // p99 is the 10th worst rather than the 2nd worst of 200 (one stray sample was the whole tail).
  const walk = timeBoth(() => swapWalk(get, 0, true, amount, FEES), 500, 1000);
  const p50 = percentile(walk.wall, 0.5);
  const p99 = percentile(walk.wall, 0.99);
  const cpuP99 = percentile(walk.cpu, 0.99);

  const active: BinBalances = {
    price: 76_060_388_561n,
    reserve_x: 1_000_000n,
    reserve_y: 760_603_885n,
    shares: 50_000_000_000n,
  };
  const ops = 5_000;
  const addTimes = time(
    () => addLiquidity(active, 1_000_000n, 250_000_000n, { binId: 139, activeBinId: 139, fees: FEES }),
    500,
    ops,
  );
  const withdrawTimes = time(() => withdrawLiquidity(active, 12_345_678_901n, 1n, 1n), 500, ops);
  const mean = (xs: number[]) => (xs.reduce((s, v) => s + v, 0) / xs.length) * 1000;

  return [
    { name: 'quote walk, 350 bins (p50)', value: p50, unit: 'ms', budget: '<= 2 ms', ok: p50 <= 2 },
    { name: 'quote walk, 350 bins (p99)', value: p99, unit: 'ms', budget: '<= 2 ms', ok: p99 <= 2 },
    {
      name: 'quote walk, 350 bins (p99 CPU time)',
      value: cpuP99,
      unit: 'ms',
      budget: '<= 2 ms',
      ok: cpuP99 <= 2,
    },
    { name: 'add liquidity to the active bin (mean per op)', value: mean(addTimes), unit: 'µs' },
    { name: 'withdraw liquidity (mean per op)', value: mean(withdrawTimes), unit: 'µs' },
  ];
}
