/**
 * Execution costs: what a router call spends of a Stacks block's execution budget, and whether it fits.
 *
 * A transaction must fit in one block. Over any of the five limits it is never mined: miners drop it and
 * every later nonce of the sender waits behind it. The figures are a call's fixed part plus a part per
 * unit (a list element of a liquidity call, a bin the walk of a simple swap uses, a step of swap-multi),
 * measured on Bitflow's published v-1-1 contracts in the Clarinet JS SDK simnet with costs tracked
 * (test/integration/costs/ holds the contracts and the test that keeps this table within its tolerance).
 * The v-1-2 routers call the same core and add a deadline check: their figure is v-1-1's plus
 * V12_MARGIN until they are measured.
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

/** What a v-1-2 call spends above v-1-1's (a deadline check: one block-info read, a comparison). */
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

const SOURCE = 'BitflowFinance/bitflow-dlmm v-1-1 contracts in the Clarinet JS SDK simnet (trackCosts)';

/**
 * Per router function the product exports: the fixed part and the part per unit. Read counts from the
 * first measurements; the other dimensions are kept by the measuring test.
 */
export const FUNCTION_COSTS: Readonly<Record<string, FunctionCost>> = {
  'add-liquidity-multi': {
    base: c(3, 0, 0, 0, 0),
    per: c(45.5, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'add-relative-liquidity-multi': {
    base: c(7, 0, 0, 0, 0),
    per: c(46, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'add-relative-liquidity-same-multi': {
    base: c(7, 0, 0, 0, 0),
    per: c(46, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'withdraw-liquidity-multi': {
    base: c(3, 0, 0, 0, 0),
    per: c(43, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'withdraw-relative-liquidity-multi': {
    base: c(3, 0, 0, 0, 0),
    per: c(47, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'move-liquidity-multi': {
    base: c(3, 0, 0, 0, 0),
    per: c(66, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'move-relative-liquidity-multi': {
    base: c(3, 0, 0, 0, 0),
    per: c(70, 0, 0, 0, 0),
    unit: 'position',
    measured: SOURCE,
  },
  'swap-x-for-y-simple-multi': {
    base: c(49, 0, 0, 0, 0),
    per: c(53, 0, 0, 0, 0),
    unit: 'bin',
    measured: SOURCE,
  },
  'swap-y-for-x-simple-multi': {
    base: c(49, 0, 0, 0, 0),
    per: c(53, 0, 0, 0, 0),
    unit: 'bin',
    measured: SOURCE,
  },
  'swap-multi': { base: c(3, 0, 0, 0, 0), per: c(53, 0, 0, 0, 0), unit: 'step', measured: SOURCE },
};

const DIMENSIONS = ['readCount', 'readLength', 'writeCount', 'writeLength', 'runtime'] as const;

/** The cost of `fn` over `units` units on the router version given; undefined for a function not in the table. */
export function callCost(fn: string, units: number, version: 'v-1-1' | 'v-1-2'): Cost | undefined {
  const f = FUNCTION_COSTS[fn];
  if (!f) return undefined;
  const out = {} as Cost;
  for (const d of DIMENSIONS)
    out[d] = Math.ceil(f.base[d] + f.per[d] * units + (version === 'v-1-2' ? V12_MARGIN[d] : 0));
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

/** The most units of `fn` whose cost stays within `share` of a block (0 when not even one fits). */
export function maxUnitsWithin(fn: string, share: number, version: 'v-1-1' | 'v-1-2'): number | undefined {
  const f = FUNCTION_COSTS[fn];
  if (!f) return undefined;
  let n = Number.MAX_SAFE_INTEGER;
  for (const d of DIMENSIONS) {
    const room = BLOCK_LIMIT[d] * share - f.base[d] - (version === 'v-1-2' ? V12_MARGIN[d] : 0);
    if (f.per[d] > 0) n = Math.min(n, Math.floor(room / f.per[d]));
    else if (room < 0) n = 0;
  }
  // callCost rounds up: step back while the rounded figure is over.
  while (n > 0 && blockShare(callCost(fn, n, version)!).share > share) n--;
  return Math.max(0, n);
}
