/**
 * Runs Bitflow's published v-1-1 contracts (test/fixtures/bitflow-dlmm) in the Clarinet JS SDK simnet with
 * costs tracked, and measures what each router function the product exports spends of a block.
 *
 * Used by test/integration/costs/costs.test.ts (which holds core/chain/costs.ts to the figures) and by
 * scripts/measure-costs.ts (which prints them, to refresh the table). The fixture is copied to a temporary
 * folder first: the simnet writes a deployment plan beside its manifest, and the repository stays clean.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSimnet, type Simnet } from '@stacks/clarinet-sdk';
import { Cl, cvToString, type ClarityValue } from '@stacks/transactions';
import type { Cost } from '../../../core/chain/costs';
import { swapWalk } from '../../../core/dlmm/swap';
import type { BinBalances, PoolFees } from '../../../core/dlmm/types';

export const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'bitflow-dlmm');

const DIMENSIONS = ['readCount', 'readLength', 'writeCount', 'writeLength', 'runtime'] as const;

const LIQ = 'dlmm-liquidity-router-v-1-1';
const SWAP = 'dlmm-swap-router-v-1-1';
const CORE = 'dlmm-core-v-1-1';
const POOL = 'dlmm-pool-sbtc-usdc-v-1-1';
const BIN_STEP = 25n;
/** Pool fees as created below (bps): 0.1% protocol and 0.3% provider on each side, no variable fee. */
export const FEES: PoolFees = {
  x_protocol: 10n,
  x_provider: 30n,
  x_variable: 0n,
  y_protocol: 10n,
  y_provider: 30n,
  y_variable: 0n,
};
/** Initial price of the active bin (Y per X times 1e8): 5,000 USDC over 0.1 BTC in base units. */
const INITIAL_PRICE = (5_000_000_000n * 100_000_000n) / 10_000_000n;
/** Y per seeded bin below the active bin, X per seeded bin above it. */
const Y_PER_BIN = 500_000_000n;
const X_PER_BIN = 1_000_000n;

/** One measured call: the units it spent its cost over, and the cost. */
export interface Point {
  units: number;
  cost: Cost;
}

/** A call that did not fit a block: the simnet aborts it with CostBalanceExceeded. */
export class CostBalanceExceeded extends Error {}

/** The bin factors of a 25 bps step: 1e8 * 1.0025^(i - 500), rounded, computed in bigint. */
function binFactors(): bigint[] {
  const scale = 10n ** 40n;
  const up = [scale];
  const down = [scale];
  for (let i = 1; i <= 500; i++) {
    up.push((up[i - 1]! * (10_000n + BIN_STEP)) / 10_000n);
    down.push((down[i - 1]! * 10_000n) / (10_000n + BIN_STEP));
  }
  const out: bigint[] = [];
  for (let i = 0; i <= 1000; i++) {
    const d = i - 500;
    const v = d >= 0 ? up[d]! : down[-d]!;
    out.push((v * 100_000_000n + scale / 2n) / scale);
  }
  return out;
}

const range = (from: number, count: number, step = 1): number[] =>
  Array.from({ length: count }, (_, i) => from + i * step);

/** The simnet with the pool created, and the calls the measurement makes. */
export class CostSimnet {
  readonly deployer: string;
  readonly wallets: string[];
  private readonly pool: ClarityValue;
  private readonly tokenX: ClarityValue;
  private readonly tokenY: ClarityValue;
  private readonly factors = binFactors();

  private constructor(
    private readonly simnet: Simnet,
    private readonly dir: string,
  ) {
    const accounts = simnet.getAccounts();
    this.deployer = accounts.get('deployer')!;
    this.wallets = range(1, 8).map((i) => accounts.get(`wallet_${i}`)!);
    this.pool = Cl.contractPrincipal(this.deployer, POOL);
    this.tokenX = Cl.contractPrincipal(this.deployer, 'mock-sbtc-token');
    this.tokenY = Cl.contractPrincipal(this.deployer, 'mock-usdc-token');
  }

  /** Copies the fixture to a temporary folder, starts the simnet there, creates and seeds nothing yet. */
  static async open(): Promise<CostSimnet> {
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-costs-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const simnet = await quiet(() =>
      initSimnet(join(dir, 'Clarinet.toml'), true, { trackCosts: true, trackCoverage: false }),
    );
    const s = new CostSimnet(simnet, dir);
    s.setup();
    return s;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Tokens for everyone, the 25 bps bin step, the pool (active bin 0) created by the deployer. */
  private setup(): void {
    for (const who of [this.deployer, ...this.wallets]) {
      this.ok(this.call('mock-sbtc-token', 'mint', [Cl.uint(10n ** 15n), Cl.principal(who)], this.deployer));
      this.ok(this.call('mock-usdc-token', 'mint', [Cl.uint(10n ** 18n), Cl.principal(who)], this.deployer));
    }
    this.ok(
      this.call(
        CORE,
        'add-bin-step',
        [Cl.uint(BIN_STEP), Cl.list(this.factors.map((f) => Cl.uint(f)))],
        this.deployer,
      ),
    );
    this.ok(
      this.call(
        CORE,
        'create-pool',
        [
          this.pool,
          this.tokenX,
          this.tokenY,
          Cl.uint(10_000_000n),
          Cl.uint(5_000_000_000n),
          Cl.uint(1000n),
          Cl.uint(FEES.x_protocol),
          Cl.uint(FEES.x_provider),
          Cl.uint(FEES.y_protocol),
          Cl.uint(FEES.y_provider),
          Cl.uint(BIN_STEP),
          Cl.uint(900n),
          Cl.bool(false),
          Cl.none(),
          Cl.principal(this.deployer),
          Cl.stringAscii('https://example.invalid/dlmm'),
          Cl.bool(true),
        ],
        this.deployer,
      ),
    );
  }

  /** A public call with the SDK's console output held back (it prints every event and, on an abort, a trace). */
  call(
    contract: string,
    fn: string,
    args: ClarityValue[],
    sender: string,
  ): { result: ClarityValue; cost: Cost; events: number } {
    const r = quiet(() => {
      try {
        return this.simnet.callPublicFn(contract, fn, args, sender);
      } catch (e) {
        const text = String(e);
        if (text.includes('CostBalanceExceeded'))
          throw new CostBalanceExceeded(`${fn}: ${/CostBalanceExceeded\([^\n]*/.exec(text)?.[0] ?? text}`);
        throw e;
      }
    });
    if (!r.costs) throw new Error(`${fn}: the simnet reported no costs (trackCosts off?)`);
    const cost = {} as Cost;
    for (const d of DIMENSIONS) cost[d] = r.costs.total[d];
    const swaps = r.events.filter(
      (e) => e.event === 'print_event' && /\(action "swap-[xy]-for-[xy]"\)/.test(printed(e.data.value)),
    ).length;
    return { result: r.result, cost, events: swaps };
  }

  ok<T extends { result: ClarityValue }>(r: T): T {
    if (r.result.type !== 'ok') throw new Error(`call failed: ${cvToString(r.result)}`);
    return r;
  }

  /** The pool's active bin. */
  activeBin(): number {
    const r = quiet(() => this.simnet.callReadOnlyFn(POOL, 'get-active-bin-id', [], this.deployer));
    const v = r.result;
    if (v.type !== 'ok' || v.value.type !== 'int')
      throw new Error('get-active-bin-id answered ' + cvToString(v));
    return Number(v.value.value);
  }

  /** A bin's balances as the pool holds them (price from the factors, as the core computes it). */
  bin(binId: number): BinBalances {
    const r = quiet(() =>
      this.simnet.callReadOnlyFn(POOL, 'get-bin-balances', [Cl.uint(binId + 500)], this.deployer),
    );
    const v = r.result;
    if (v.type !== 'ok' || v.value.type !== 'tuple')
      throw new Error('get-bin-balances answered ' + cvToString(v));
    const t = v.value.value as Record<string, { value: string | bigint }>;
    return {
      price: (INITIAL_PRICE * this.factors[binId + 500]!) / 100_000_000n,
      reserve_x: BigInt(t['x-balance']!.value),
      reserve_y: BigInt(t['y-balance']!.value),
      shares: BigInt(t['bin-shares']!.value),
    };
  }

  /** A read-only call's result (e.g. get-minimum-bin-shares). */
  readOnly(contract: string, fn: string): ClarityValue {
    return quiet(() => this.simnet.callReadOnlyFn(contract, fn, [], this.deployer)).result;
  }

  private traits(): Record<string, ClarityValue> {
    return { 'pool-trait': this.pool, 'x-token-trait': this.tokenX, 'y-token-trait': this.tokenY };
  }

  private amounts(binId: number, active: number): Record<string, ClarityValue> {
    return {
      'x-amount': Cl.uint(binId >= active ? X_PER_BIN : 0n),
      'y-amount': Cl.uint(binId <= active ? Y_PER_BIN : 0n),
      'min-dlp': Cl.uint(1n),
      'max-x-liquidity-fee': Cl.uint(10n ** 12n),
      'max-y-liquidity-fee': Cl.uint(10n ** 12n),
    };
  }

  /** add-liquidity-multi of one position per bin; returns the shares minted per bin. */
  addLiquidity(bins: number[], sender: string): { cost: Cost; minted: bigint[] } {
    const active = this.activeBin();
    const list = bins.map((b) =>
      Cl.tuple({ ...this.traits(), 'bin-id': Cl.int(b), ...this.amounts(b, active) }),
    );
    const r = this.ok(this.call(LIQ, 'add-liquidity-multi', [Cl.list(list)], sender));
    return { cost: r.cost, minted: uints(r.result) };
  }

  addRelative(offsets: number[], sender: string): { cost: Cost; minted: bigint[] } {
    const active = this.activeBin();
    const list = offsets.map((o) =>
      Cl.tuple({ ...this.traits(), 'active-bin-id-offset': Cl.int(o), ...this.amounts(active + o, active) }),
    );
    const r = this.ok(this.call(LIQ, 'add-relative-liquidity-multi', [Cl.list(list)], sender));
    return { cost: r.cost, minted: uints(r.result) };
  }

  addRelativeSame(offsets: number[], sender: string): Cost {
    const active = this.activeBin();
    const list = offsets.map((o) =>
      Cl.tuple({ 'active-bin-id-offset': Cl.int(o), ...this.amounts(active + o, active) }),
    );
    return this.ok(
      this.call(
        LIQ,
        'add-relative-liquidity-same-multi',
        [
          Cl.list(list),
          this.pool,
          this.tokenX,
          this.tokenY,
          Cl.some(Cl.tuple({ 'max-deviation': Cl.uint(0n), 'expected-bin-id': Cl.int(active) })),
        ],
        sender,
      ),
    ).cost;
  }

  /** withdraw-liquidity-multi of `shares[i]` from `bins[i]`. */
  withdraw(bins: number[], shares: bigint[], sender: string): Cost {
    const list = bins.map((b, i) =>
      Cl.tuple({
        ...this.traits(),
        'bin-id': Cl.int(b),
        amount: Cl.uint(shares[i]!),
        'min-x-amount': Cl.uint(0n),
        'min-y-amount': Cl.uint(1n),
      }),
    );
    return this.ok(this.call(LIQ, 'withdraw-liquidity-multi', [Cl.list(list)], sender)).cost;
  }

  withdrawRelative(offsets: number[], shares: bigint[], sender: string): Cost {
    const list = offsets.map((o, i) =>
      Cl.tuple({
        ...this.traits(),
        'active-bin-id-offset': Cl.int(o),
        amount: Cl.uint(shares[i]!),
        'min-x-amount': Cl.uint(0n),
        'min-y-amount': Cl.uint(1n),
      }),
    );
    return this.ok(this.call(LIQ, 'withdraw-relative-liquidity-multi', [Cl.list(list)], sender)).cost;
  }

  private moveBounds(): Record<string, ClarityValue> {
    return {
      'min-dlp': Cl.uint(1n),
      'max-x-liquidity-fee': Cl.uint(10n ** 12n),
      'max-y-liquidity-fee': Cl.uint(10n ** 12n),
    };
  }

  move(from: number[], to: number[], shares: bigint[], sender: string): Cost {
    const list = from.map((f, i) =>
      Cl.tuple({
        ...this.traits(),
        'from-bin-id': Cl.int(f),
        'to-bin-id': Cl.int(to[i]!),
        amount: Cl.uint(shares[i]!),
        ...this.moveBounds(),
      }),
    );
    return this.ok(this.call(LIQ, 'move-liquidity-multi', [Cl.list(list)], sender)).cost;
  }

  moveRelative(from: number[], offsets: number[], shares: bigint[], sender: string): Cost {
    const list = from.map((f, i) =>
      Cl.tuple({
        ...this.traits(),
        'from-bin-id': Cl.int(f),
        'active-bin-id-offset': Cl.int(offsets[i]!),
        amount: Cl.uint(shares[i]!),
        ...this.moveBounds(),
      }),
    );
    return this.ok(this.call(LIQ, 'move-relative-liquidity-multi', [Cl.list(list)], sender)).cost;
  }

  /**
   * A simple-multi swap; the point's units are the core swap calls the walk made (its swap events), which
   * is what the chain model counts (`swapWalk` steps).
   */
  simpleSwap(xForY: boolean, amount: bigint, sender: string): Point {
    const fn = xForY ? 'swap-x-for-y-simple-multi' : 'swap-y-for-x-simple-multi';
    const r = this.ok(
      this.call(SWAP, fn, [this.pool, this.tokenX, this.tokenY, Cl.uint(amount), Cl.uint(1n)], sender),
    );
    return { units: r.events, cost: r.cost };
  }

  /** The walk the chain model predicts from the pool read now (bins read lazily). */
  walk(xForY: boolean, amount: bigint, maxBins = 350): ReturnType<typeof swapWalk> {
    const cache = new Map<number, BinBalances | undefined>();
    const getBin = (id: number): BinBalances | undefined => {
      if (!cache.has(id)) {
        const b = this.bin(id);
        cache.set(id, b.shares === 0n ? undefined : b);
      }
      return cache.get(id);
    };
    return swapWalk(getBin, this.activeBin(), xForY, amount, FEES, maxBins);
  }

  /** The smallest amount whose walk makes exactly `bins` core swap calls (from the pool read now). */
  amountForBins(xForY: boolean, bins: number): bigint {
    const half = xForY ? X_PER_BIN / 2n : Y_PER_BIN / 2n;
    if (bins === 1) return half;
    return this.walk(xForY, 10n ** 30n, bins - 1).amount_in_used + half;
  }

  /** swap-multi of `steps` elements, each a small swap in the active bin, alternating directions. */
  swapMulti(steps: number, sender: string): Point {
    const active = this.activeBin();
    const list = range(0, steps).map((i) =>
      Cl.tuple({
        ...this.traits(),
        'expected-bin-id': Cl.int(active),
        amount: Cl.uint(i % 2 === 0 ? 100n : 50_000n),
        'min-received': Cl.uint(1n),
        'x-for-y': Cl.bool(i % 2 === 0),
      }),
    );
    const r = this.ok(this.call(SWAP, 'swap-multi', [Cl.list(list), Cl.uint(1_000n)], sender));
    return { units: steps, cost: r.cost };
  }
}

/** The (list uint) a router answered. */
function uints(v: ClarityValue): bigint[] {
  if (v.type !== 'ok' || v.value.type !== 'list')
    throw new Error('expected (ok (list uint)), got ' + cvToString(v));
  return v.value.value.map((u) => {
    if (u.type !== 'uint') throw new Error('expected uint, got ' + cvToString(u));
    return BigInt(u.value);
  });
}

function printed(v: ClarityValue | undefined): string {
  return v ? cvToString(v) : '';
}

/** Runs `f` with console.log / console.error held back (the SDK prints events and traces there). */
function quiet<T>(f: () => T): T {
  const log = console.log;
  const error = console.error;
  console.log = () => undefined;
  console.error = () => undefined;
  try {
    const r = f();
    if (r instanceof Promise) return r.finally(() => ((console.log = log), (console.error = error))) as T;
    console.log = log;
    console.error = error;
    return r;
  } catch (e) {
    console.log = log;
    console.error = error;
    throw e;
  }
}

/** base + per-unit through two or more points (least squares; exact for two). */
export function fit(points: Point[]): { base: Cost; per: Cost } {
  const base = {} as Cost;
  const per = {} as Cost;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.units, 0) / n;
  for (const d of DIMENSIONS) {
    const my = points.reduce((s, p) => s + p.cost[d], 0) / n;
    let sxy = 0;
    let sxx = 0;
    for (const p of points) {
      sxy += (p.units - mx) * (p.cost[d] - my);
      sxx += (p.units - mx) ** 2;
    }
    per[d] = sxy / sxx;
    base[d] = my - per[d] * mx;
  }
  return { base, per };
}

/** The measured points per router function, and what else the table needs. */
export interface Measurement {
  points: Record<string, Point[]>;
  /** One-sided positions and one in the active bin (X and Y): add-liquidity-multi, then withdraw-liquidity-multi. */
  bothTokens: { add: Point; withdraw: Point };
  /** swap-y-for-x-simple-multi across empty bins: the walk's units, and how many of them were empty. */
  gap: Point & { empty: number };
  /** add-liquidity-multi into bins that had no shares (the core also mints the burnt shares). */
  newBinPoints: Point[];
}

/** Two sizes per function (small and moderate: the counts are linear to the unit, see the test). */
export const SIZES = [2, 6] as const;

/** The bin above the active one seeded alone, so that a walk up crosses the empty bins below it. */
const GAP_TOP = 21;

/**
 * Measures every router function the product exports on a pool seeded here. State: bins below the active
 * bin hold Y, the measuring sender holds no share of a bin it adds to or moves to (so the pool appends to its
 * bin list) and withdraws or moves all it holds (so the pool removes the bin from it): the costlier case of
 * each. Simple swaps walk bins that hold liquidity.
 */
export function measureAll(s: CostSimnet): Measurement {
  const [a, b] = SIZES;
  const points: Record<string, Point[]> = {};
  const [w1, w2, w3, w4, w5, w6, w7, w8] = s.wallets as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const binsA = range(-1, a, -1);
  const binsB = range(-1 - a, b, -1);
  // Bins that had no shares: the deployer seeds -1..-(a+b) and, for the moves' targets, the next 2(a+b).
  const newBinPoints = [binsA, binsB].map((bins) => ({
    units: bins.length,
    cost: s.addLiquidity(bins, s.deployer).cost,
  }));
  s.addLiquidity([...range(-1 - a - b, 2 * (a + b), -1), GAP_TOP], s.deployer);
  const targetsA = range(-1 - a - b, a, -1);
  const targetsB = range(-1 - 2 * a - b, b, -1);
  const offsetsA = range(-1 - 2 * (a + b), a, -1);
  const offsetsB = range(-1 - 2 * (a + b) - a, b, -1);

  const added1 = [binsA, binsB].map((bins) => s.addLiquidity(bins, w1));
  points['add-liquidity-multi'] = added1.map((r, i) => ({ units: [a, b][i]!, cost: r.cost }));
  const added2 = [binsA, binsB].map((bins) => s.addRelative(bins, w2));
  points['add-relative-liquidity-multi'] = added2.map((r, i) => ({ units: [a, b][i]!, cost: r.cost }));
  points['add-relative-liquidity-same-multi'] = [binsA, binsB].map((bins) => ({
    units: bins.length,
    cost: s.addRelativeSame(bins, w3),
  }));
  const added4 = [binsA, binsB].map((bins) => s.addLiquidity(bins, w4));
  const both = [...binsA, 0];
  const bothAdd = s.addLiquidity(both, w7);
  const bothTokens = {
    add: { units: both.length, cost: bothAdd.cost },
    withdraw: { units: both.length, cost: s.withdraw(both, bothAdd.minted, w7) },
  };

  points['withdraw-liquidity-multi'] = [binsA, binsB].map((bins, i) => ({
    units: bins.length,
    cost: s.withdraw(bins, added1[i]!.minted, w1),
  }));
  points['withdraw-relative-liquidity-multi'] = [binsA, binsB].map((bins, i) => ({
    units: bins.length,
    cost: s.withdrawRelative(bins, added2[i]!.minted, w2),
  }));
  points['move-liquidity-multi'] = [binsA, binsB].map((bins, i) => ({
    units: bins.length,
    cost: s.move(bins, [targetsA, targetsB][i]!, added4[i]!.minted, w4),
  }));
  // w3 added through the same-multi form: its shares per bin are the same as w2's (same amounts, same bins).
  points['move-relative-liquidity-multi'] = [binsA, binsB].map((bins, i) => ({
    units: bins.length,
    cost: s.moveRelative(bins, [offsetsA, offsetsB][i]!, added2[i]!.minted, w3),
  }));

  // Simple swaps: down through the seeded bins and back up.
  points['swap-x-for-y-simple-multi'] = [2, 6].map((n) => s.simpleSwap(true, s.amountForBins(true, n), w5));
  points['swap-y-for-x-simple-multi'] = [2, 6].map((n) => s.simpleSwap(false, s.amountForBins(false, n), w5));
  points['swap-multi'] = [2, 6].map((n) => s.swapMulti(n, w6));

  // Up across the empty bins below GAP_TOP into it, then back down.
  const steps = GAP_TOP - s.activeBin() + 1;
  const walked = s.walk(false, s.amountForBins(false, steps)).steps;
  const empty = walked.filter((step) => s.bin(step.bin_id).shares === 0n).length;
  const gap = { ...s.simpleSwap(false, s.amountForBins(false, steps), w8), empty };
  s.simpleSwap(true, s.amountForBins(true, steps), w8);
  return { points, newBinPoints, bothTokens, gap };
}

export { range };
