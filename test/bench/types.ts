/** One printed figure of `npm run bench`. */
export interface BenchRow {
  /** What was measured, e.g. "quote walk, 350 bins (p50)". */
  name: string;
  /** NaN when the figure could not be measured (the run then exits non-zero). */
  value: number;
  unit: string;
  /** The budget in words, e.g. "<= 2 ms"; printed beside the figure. */
  budget?: string;
  /** Whether the figure is within its budget (undefined when there is none). */
  ok?: boolean;
  /** The figure it is compared with (same unit): printed beside it with the ratio value / peer. */
  peer?: { name: string; value: number };
}

/** A bench module: test/bench/<area>.bench.ts exporting `bench()`. */
export type BenchFn = () => Promise<BenchRow[]>;

/** A row compared with a peer; `maxRatio` is the budget on value / peer (printed, never asserted). */
export function versus(
  name: string,
  value: number,
  unit: string,
  peer: { name: string; value: number },
  maxRatio?: number,
): BenchRow {
  const ratio = value / peer.value;
  const row: BenchRow = { name, value, unit, peer };
  if (maxRatio !== undefined) {
    row.budget = `<= ${maxRatio}x ${peer.name}`;
    row.ok = Number.isFinite(ratio) && ratio <= maxRatio;
  }
  return row;
}

/** Median of the samples (the upper one of an even count); NaN when there are none. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Median wall time in ms of `runs` sequential calls of `f`. */
export async function timeIt(runs: number, f: () => unknown): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return median(out);
}
