/** One printed figure of `npm run bench`. */
export interface BenchRow {
  /** What was measured, e.g. "quote walk, 350 bins (p50)". */
  name: string;
  value: number;
  unit: string;
  /** The budget in words, e.g. "<= 2 ms"; printed beside the figure. */
  budget?: string;
  /** Whether the figure is within its budget (undefined when there is none). */
  ok?: boolean;
}

/** A bench module: test/bench/<area>.bench.ts exporting `bench()`. */
export type BenchFn = () => Promise<BenchRow[]>;
