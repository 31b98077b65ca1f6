/**
 * Execution costs: what a router call spends of a Stacks block's execution budget, and whether it fits.
 *
 * A transaction must fit in one block. Over any of the five limits it is never mined: miners drop it and
 * every later nonce of the sender waits behind it. The figures are a call's fixed part plus a part per
 * unit (a list element of a liquidity call, a bin the walk of a simple swap uses, a step of swap-multi),
 * measured on Bitflow's published v-1-1 contracts in the Clarinet JS SDK simnet with costs tracked
 * (test/fixtures/bitflow-dlmm holds the contracts, test/integration/costs/ the test that keeps this table
 * within COST_TOLERANCE_SHARE of the measurement; `npx tsx scripts/measure-costs.ts` prints the figures).
 * The v-1-2 routers call the same core and add a deadline check: their figure is v-1-1's plus
 * V12_MARGIN until they are measured (no v-1-2 source was found published; docs/block-budget.md).
 */

/** The five dimensions Clarity tracks, as the simnet reports them in `costs.total`. */
export interface Cost {
  readCount: number;
  readLength: number;
  writeCount: number;
  writeLength: number;
  runtime: number;
}

/** A Stacks block's execution limits (epoch 3). */
export const BLOCK_LIMIT: Readonly<Cost> = {
  readCount: 15_000,
  readLength: 100_000_000,
  writeCount: 15_000,
  writeLength: 15_000_000,
  runtime: 5_000_000_000,
};

/**
 * The share of a block a transaction should stay under (80%): a miner fills a block with other
 * transactions too, and the state at execution may differ from the state read (a swap may walk more bins).
 */
export const SAFE_BLOCK_SHARE = 0.8;

/**
 * What a v-1-2 call spends above v-1-1's: a deadline check (one block-info read, a comparison) once per
 * call. Not measured: the v-1-2 source is not published in the repositories searched. The margin is a
 * bound by construction (a read and a comparison cost at most one read and well under 1 KB and 100,000
 * runtime units in the v-1-1 measurement), not a figure taken from a run.
 */
export const V12_MARGIN: Readonly<Cost> = {
  readCount: 2,
  readLength: 1_000,
  writeCount: 0,
  writeLength: 0,
  runtime: 100_000,
};

/** What one unit is for a function: a list element, a bin the walk uses, a step. */
export type CostUnit = 'position' | 'bin' | 'step';

export interface FunctionCost {
  base: Cost;
  per: Cost;
  unit: CostUnit;
  /**
   * Added per unit whose bin had no shares before (liquidity adds, and a move's target bin): the core then
   * also mints the burnt shares to the burn address. Absent: the function never creates a bin.
   */
  perNewBin?: Cost;
  /**
   * Added per unit that moves both tokens (an add of X and Y, into the active bin; a withdraw receiving X
   * and Y, from it): a second token transfer. Absent: the function's units never do.
   */
  perBothTokens?: Cost;
  /** Where the figures were measured. */
  measured: string;
}

const c = (
  readCount: number,
  readLength: number,
  writeCount: number,
  writeLength: number,
  runtime: number,
): Cost => ({
  readCount,
  readLength,
  writeCount,
  writeLength,
  runtime,
});

const SOURCE =
  'BitflowFinance/bitflow-dlmm c561b4b3 v-1-1 contracts in the Clarinet JS SDK 3.21.0 simnet (trackCosts), ' +
  'test/integration/costs/costs.test.ts';

/**
 * How close the table is held to the measurement (costs.test.ts): at every size measured, every dimension
 * of callCost is at or above what the simnet measured, and above it by at most this share of that
 * dimension's block limit.
 */
export const COST_TOLERANCE_SHARE = 0.005;

/** A bin that had no shares: 17 more reads and 6 more writes per such unit (the burnt shares' mint). */
const NEW_BIN = c(17, 25_200, 6, 500, 150_000);
/** An add of X and Y (the active bin): the second token's transfer. */
const ADD_BOTH = c(5, 1_000, 2, 0, 100_000);
/** A withdraw receiving X and Y (the active bin): the pool's second transfer. */
const WITHDRAW_BOTH = c(9, 26_000, 2, 0, 64_000);

/**
 * Per router function the product exports: the fixed part and the part per unit, measured (rounded up).
 * Read count binds for every function: the other dimensions stay under 80% of their limit at the read
 * count's maximum. Beyond the units that create a bin or move both tokens (UnitCounts, counted by the chain
 * model), the counts do not depend on the state; the lengths and the runtime grow a little with
 * the sender's list of bins in the pool (about 17 bytes per bin it holds, per list read or write), which the
 * measurement keeps short: at 1001 held bins a position reads and writes about 17 KB more, which still leaves
 * read count binding (docs/block-budget.md).
 */
export const FUNCTION_COSTS: Readonly<Record<string, FunctionCost>> = {
  'add-liquidity-multi': {
    base: c(3, 19_400, 0, 0, 0),
    per: c(45, 204_000, 9, 450, 674_000),
    unit: 'position',
    perNewBin: NEW_BIN,
    perBothTokens: ADD_BOTH,
    measured: SOURCE,
  },
  'add-relative-liquidity-multi': {
    base: c(3, 19_400, 0, 0, 0),
    per: c(49, 229_000, 9, 450, 702_000),
    unit: 'position',
    perNewBin: NEW_BIN,
    perBothTokens: ADD_BOTH,
    measured: SOURCE,
  },
  'add-relative-liquidity-same-multi': {
    base: c(7, 44_000, 0, 0, 0),
    per: c(45, 204_000, 9, 450, 739_000),
    unit: 'position',
    perNewBin: NEW_BIN,
    perBothTokens: ADD_BOTH,
    measured: SOURCE,
  },
  'withdraw-liquidity-multi': {
    base: c(3, 19_900, 0, 210, 21_300),
    per: c(44, 211_000, 11, 330, 652_000),
    unit: 'position',
    perBothTokens: WITHDRAW_BOTH,
    measured: SOURCE,
  },
  'withdraw-relative-liquidity-multi': {
    base: c(3, 19_900, 0, 210, 21_300),
    per: c(48, 236_000, 11, 330, 680_000),
    unit: 'position',
    perBothTokens: WITHDRAW_BOTH,
    measured: SOURCE,
  },
  'move-liquidity-multi': {
    base: c(3, 19_700, 0, 0, 22_400),
    per: c(66, 278_000, 16, 890, 972_000),
    unit: 'position',
    perNewBin: NEW_BIN,
    measured: SOURCE,
  },
  'move-relative-liquidity-multi': {
    base: c(3, 19_700, 0, 0, 22_400),
    per: c(70, 303_000, 16, 890, 1_000_000),
    unit: 'position',
    perNewBin: NEW_BIN,
    measured: SOURCE,
  },
  // A bin the walk drains costs 53 reads, the last (partly used) one 49, an empty bin about 32: 53 per bin
  // is the bound. The base runtime is the 350-step fold, idle after the amount is spent.
  'swap-x-for-y-simple-multi': {
    base: c(0, 0, 0, 0, 8_500_000),
    per: c(53, 254_000, 8, 220, 586_000),
    unit: 'bin',
    measured: SOURCE,
  },
  'swap-y-for-x-simple-multi': {
    base: c(0, 0, 0, 0, 8_500_000),
    per: c(53, 254_000, 8, 220, 586_000),
    unit: 'bin',
    measured: SOURCE,
  },
  'swap-multi': {
    base: c(3, 15_800, 0, 0, 22_300),
    per: c(46, 230_000, 6, 150, 702_000),
    unit: 'step',
    measured: SOURCE,
  },
};

const DIMENSIONS = ['readCount', 'readLength', 'writeCount', 'writeLength', 'runtime'] as const;

/** Among a call's units: those into a bin that had no shares, and those that move both tokens. */
export interface UnitCounts {
  newBins?: number;
  bothTokens?: number;
}

/**
 * The cost of `fn` over `units` units on the router version given, `counts` of them costlier (UnitCounts);
 * undefined for a function not in the table.
 */
export function callCost(
  fn: string,
  units: number,
  version: 'v-1-1' | 'v-1-2',
  counts: UnitCounts = {},
): Cost | undefined {
  const f = FUNCTION_COSTS[fn];
  if (!f) return undefined;
  const out = {} as Cost;
  for (const d of DIMENSIONS)
    out[d] = Math.ceil(
      f.base[d] +
        f.per[d] * units +
        (f.perNewBin?.[d] ?? 0) * (counts.newBins ?? 0) +
        (f.perBothTokens?.[d] ?? 0) * (counts.bothTokens ?? 0) +
        (version === 'v-1-2' ? V12_MARGIN[d] : 0),
    );
  return out;
}

/** The share of a block a cost takes: its largest dimension over that dimension's limit, and which. */
export function blockShare(cost: Cost): { share: number; dimension: keyof Cost } {
  let best: { share: number; dimension: keyof Cost } = { share: 0, dimension: 'readCount' };
  for (const d of DIMENSIONS) {
    const s = cost[d] / BLOCK_LIMIT[d];
    if (s > best.share) best = { share: s, dimension: d };
  }
  return best;
}

/**
 * The most units of `fn` whose cost stays within `share` of a block (0 when not even one fits); with
 * `newBins`, every unit goes into a bin that had no shares, with `bothTokens` every unit moves both tokens.
 */
export function maxUnitsWithin(
  fn: string,
  share: number,
  version: 'v-1-1' | 'v-1-2',
  opts: { newBins?: boolean; bothTokens?: boolean } = {},
): number | undefined {
  const f = FUNCTION_COSTS[fn];
  if (!f) return undefined;
  const perUnit = (d: keyof Cost): number =>
    f.per[d] +
    (opts.newBins ? (f.perNewBin?.[d] ?? 0) : 0) +
    (opts.bothTokens ? (f.perBothTokens?.[d] ?? 0) : 0);
  let n = Number.MAX_SAFE_INTEGER;
  for (const d of DIMENSIONS) {
    const room = BLOCK_LIMIT[d] * share - f.base[d] - (version === 'v-1-2' ? V12_MARGIN[d] : 0);
    if (perUnit(d) > 0) n = Math.min(n, Math.floor(room / perUnit(d)));
    else if (room < 0) n = 0;
  }
  // callCost rounds up: step back while the rounded figure is over.
  const cost = (k: number): Cost =>
    callCost(fn, k, version, { newBins: opts.newBins ? k : 0, bothTokens: opts.bothTokens ? k : 0 })!;
  while (n > 0 && blockShare(cost(n)).share > share) n--;
  return Math.max(0, n);
}
