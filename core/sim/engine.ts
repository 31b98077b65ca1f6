/**
 * The simulated engine's state: per pool the bins (reserves, total shares), users' shares, the active
 * bin and the protocol fees set aside; plus the status (state height, tip lag, readiness) and inventory
 * faults. Every state change goes through the exact contract math of core/dlmm/math.ts and bumps the
 * state height; `transaction` groups changes and rolls them back when any of them reverts.
 */
import { MAX_BIN_ID, MIN_BIN_ID, isSignedBinId } from '../dlmm/bins';
import {
  swapXForYInBin,
  swapYForXInBin,
  type BinBalances,
  type CoreMinimums,
  type LiquidityResult,
} from '../dlmm/math';
import {
  binOf,
  ChainBalances,
  CowBins,
  STX_KEY,
  type Held,
  pricesById,
  restorePool,
  snapshotPool,
  userSharesOf,
  type ChainPool,
  type PoolSnapshot,
} from '../chain/index';
import { layoutPool } from './layout';
import type { FaultSpec, PoolSpec, TokenSpec, World } from './world';
import type { InventoryFault } from '../api/errors';

/** One pool's live state: the chain model's pool plus what the service adds (alias, quotable, spec). */
export interface SimPool extends ChainPool {
  readonly alias: string;
  readonly binStep: number;
  readonly spec: PoolSpec;
  quotable: boolean;
  /** Price of every bin, by unsigned id. */
  readonly prices: readonly bigint[];
}

interface SimStatus {
  state_height: number;
  /** null: the chain tip is unknown (never caught up). */
  tip_lag: number | null;
  ready: boolean;
  app_ready: boolean;
}

/** A failed engine call: the contract error it reverts with (or an engine-level problem). */
type EngineResult<T> = LiquidityResult<T>;

interface Snapshot {
  pools: Map<string, PoolSnapshot>;
  balances: Map<string, Held>;
  nonces: Map<string, bigint>;
  status: SimStatus;
  faults: FaultSpec[];
}

const fail = <T>(error: EngineFailure, detail: string): EngineResult<T> =>
  ({ ok: false, error, detail }) as EngineResult<T>;
type EngineFailure = Extract<LiquidityResult<never>, { ok: false }>['error'];

/** The live simulated engine built from a world. */
export class SimEngine {
  private poolsById = new Map<string, SimPool>();
  private poolsByAlias = new Map<string, SimPool>();
  // Set by reset(), which the constructor calls.
  private statusValue!: SimStatus;
  private faultList!: FaultSpec[];
  private depth = 0;
  private changedInTx = false;
  /** Increments on any change (state or status): a cache key for serialized answers. */
  revision = 0;
  /**
   * Admin fault: the quote endpoints report amount_out skewed by this many bps (+ more, - less) against the
   * exact walk, so clients can be tested for trusting the engine's figure. 0 (honest) by default.
   */
  quoteSkewBps = 0;

  /** A quoted output as the engine reports it: the exact figure skewed by `quoteSkewBps`. */
  skewed(amountOut: bigint): bigint {
    return this.quoteSkewBps === 0 ? amountOut : (amountOut * BigInt(10_000 + this.quoteSkewBps)) / 10_000n;
  }
  /**
   * Every principal's token balances (the world's `users[].balances`; anything not listed holds 0): the
   * dry run spends and credits them as the chain does, and the node's `get-balance` answers from them.
   */
  readonly balances = new ChainBalances('zero');
  /** Every account's next nonce (the world's `users[].nonce`; an account never seen has 0). */
  private nonces = new Map<string, bigint>();

  constructor(readonly world: World) {
    this.reset();
  }

  /** The balances' key of a world token: the native STX wrapper (no asset name) is STX. */
  balanceKey(token: string): string {
    const spec = this.token(token);
    return spec && spec.asset_name === null ? STX_KEY : token;
  }

  /** What `principal` holds of `token` (a token contract; the STX wrapper: micro-STX). */
  balanceOf(principal: string, token: string): bigint {
    return this.balances.get(principal, this.balanceKey(token)).amount;
  }

  private loadBalances(): void {
    this.balances.restore(new Map());
    this.nonces = new Map();
    for (const u of this.world.users) {
      for (const [token, amount] of Object.entries(u.balances))
        this.balances.credit(u.address, this.balanceKey(token), amount);
      if (u.nonce > 0n) this.nonces.set(u.address, u.nonce);
    }
  }

  /** The nonce `principal`'s next transaction must carry (the node's `/v2/accounts` `nonce`). */
  nonceOf(principal: string): bigint {
    return this.nonces.get(principal) ?? 0n;
  }

  /** A mined transaction of `principal` used its nonce: the next one must carry the one after. */
  useNonce(principal: string): void {
    this.nonces.set(principal, this.nonceOf(principal) + 1n);
    this.markChanged();
  }

  /** The core's minimum-bin-shares and minimum-burnt-shares (the world's `core`), as its node read answers them. */
  get minimumShares(): CoreMinimums {
    return {
      binShares: this.world.core.minimum_bin_shares,
      burntShares: this.world.core.minimum_burnt_shares,
    };
  }

  private loadPools(): void {
    this.poolsById.clear();
    this.poolsByAlias.clear();
    const minimumShares = this.minimumShares;
    this.world.pools.forEach((spec, i) => {
      const layout = layoutPool(this.world, spec, i);
      const pool: SimPool = {
        id: spec.id,
        alias: spec.alias,
        tokenX: spec.token_x,
        tokenY: spec.token_y,
        binStep: spec.bin_step,
        spec,
        fees: {
          x_protocol: BigInt(spec.fees.x_protocol),
          x_provider: BigInt(spec.fees.x_provider),
          x_variable: BigInt(spec.fees.x_variable),
          y_protocol: BigInt(spec.fees.y_protocol),
          y_provider: BigInt(spec.fees.y_provider),
          y_variable: BigInt(spec.fees.y_variable),
        },
        active: spec.active,
        quotable: spec.quotable,
        activeBinId: spec.active_bin,
        prices: layout.prices,
        priceOf: pricesById(layout.prices),
        // Copy-on-write: a transaction's snapshot costs the bins it writes, not the pool.
        bins: new CowBins(layout.bins),
        positions: layout.positions,
        protocolFeesX: 0n,
        protocolFeesY: 0n,
        minimumShares,
      };
      this.poolsById.set(pool.id, pool);
      this.poolsByAlias.set(pool.alias, pool);
    });
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** Current status (a copy). */
  get status(): SimStatus {
    return { ...this.statusValue };
  }

  /** Chain tip implied by the status: state height + tip lag, or null when the lag is unknown. */
  get chainTip(): number | null {
    const s = this.statusValue;
    return s.tip_lag === null ? null : s.state_height + s.tip_lag;
  }

  get faults(): readonly FaultSpec[] {
    return this.faultList;
  }

  tokens(): readonly TokenSpec[] {
    return this.world.tokens;
  }

  token(contract: string): TokenSpec | undefined {
    return this.world.tokens.find((t) => t.contract === contract);
  }

  pools(): SimPool[] {
    return [...this.poolsById.values()];
  }

  /** Pool by contract principal or alias (which forms an endpoint accepts is the server's concern). */
  pool(idOrAlias: string): SimPool | undefined {
    return this.poolsById.get(idOrAlias) ?? this.poolsByAlias.get(idOrAlias);
  }

  poolByPrincipal(id: string): SimPool | undefined {
    return this.poolsById.get(id);
  }

  poolByAlias(alias: string): SimPool | undefined {
    return this.poolsByAlias.get(alias);
  }

  /** A bin's balances; bins never funded have their price and zero reserves/shares. */
  bin(pool: SimPool, binId: number): BinBalances {
    return binOf(pool, binId);
  }

  /** Bins holding reserves, ordered by id. */
  binsWithReserves(pool: SimPool): [number, BinBalances][] {
    return [...pool.bins.entries()]
      .filter(([, b]) => b.reserve_x > 0n || b.reserve_y > 0n)
      .sort((a, b) => a[0] - b[0]);
  }

  /** A user's bins in a pool (shares may be 0 where the user once added), ordered by id. */
  userBins(pool: SimPool, user: string): { binId: number; shares: bigint }[] {
    const mine = pool.positions.get(user);
    if (!mine) return [];
    return [...mine.entries()]
      .map(([binId, shares]) => ({ binId, shares }))
      .sort((a, b) => a.binId - b.binId);
  }

  userShares(pool: SimPool, user: string, binId: number): bigint {
    return userSharesOf(pool, user, binId);
  }

  /** The inventory fault that applies to (pool, principal), if any; tip lag is checked by the caller. */
  faultFor(pool: SimPool, principal: string): InventoryFault | undefined {
    const hit = this.faultList.find(
      (f) =>
        (f.pool === pool.id || f.pool === pool.alias) &&
        (f.principal === undefined || f.principal === principal),
    );
    return hit?.code;
  }

  // ---- changes ----------------------------------------------------------------------------------

  /**
   * Runs `fn` as one transaction: the state height bumps once if anything changed; if `fn` throws or
   * returns `{ ok: false }`, every change made inside is undone (a reverted transaction changes nothing).
   */
  transaction<T>(fn: () => T): T {
    const snap = this.snapshot();
    const outer = this.depth === 0;
    if (outer) this.changedInTx = false;
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      this.restore(snap);
      throw e;
    } finally {
      this.depth--;
    }
    if (isFailure(result)) this.restore(snap);
    else if (outer && this.changedInTx) this.bumpHeight(1);
    return result;
  }

  /**
   * Moves the active bin by `k` (positive: up) the way trades would: a swap drains the output side of
   * every bin it crosses, and the protocol part of its fees is set aside.
   */
  shiftActiveBin(pool: SimPool, k: number): EngineResult<{ before: number; after: number }> {
    const before = pool.activeBinId;
    const target = before + k;
    if (!Number.isInteger(k) || !isSignedBinId(target)) {
      return fail(
        'ERR_INVALID_BIN_ID',
        `shifting ${pool.alias} by ${k} from bin ${before} leaves ${MIN_BIN_ID}..${MAX_BIN_ID}`,
      );
    }
    if (k === 0) return { ok: true, value: { before, after: before } };
    const xForY = k < 0;
    return this.transaction(() => {
      // Each crossed bin is swapped against until its output side is empty (one call usually does it;
      // the fee floor can leave dust that a further call in the same bin takes, as the router's walk would).
      for (let id = before; id !== target; id += xForY ? -1 : 1) {
        for (let call = 0; call < MAX_CALLS_PER_BIN; call++) {
          const bin = pool.bins.get(id);
          if (!bin || (xForY ? bin.reserve_y : bin.reserve_x) === 0n) break;
          const r = xForY
            ? swapXForYInBin(bin, MAX_PROBE, pool.fees)
            : swapYForXInBin(bin, MAX_PROBE, pool.fees);
          pool.bins.set(id, r.bin_after);
          if (xForY) pool.protocolFeesX += r.protocol_fee;
          else pool.protocolFeesY += r.protocol_fee;
          if (r.exhausted) break;
        }
      }
      pool.activeBinId = target;
      this.markChanged();
      return { ok: true as const, value: { before, after: target } };
    });
  }

  /** Changes status fields (admin); a state-height bump counts as a state change. */
  setStatus(patch: Partial<SimStatus>): void {
    this.statusValue = { ...this.statusValue, ...patch };
    this.revision++;
  }

  /** Advances the applied state height by `n` blocks (the chain tip follows when the lag is known). */
  bumpHeight(n = 1): void {
    this.statusValue.state_height += n;
    this.revision++;
  }

  setFaults(faults: FaultSpec[]): void {
    this.faultList = [...faults];
    this.revision++;
  }

  /** Back to the world's initial state. */
  reset(): void {
    this.quoteSkewBps = 0;
    this.statusValue = { ...this.world.status };
    this.faultList = [...this.world.inventory_faults];
    this.loadPools();
    this.loadBalances();
    this.revision++;
  }

  // ---- internals --------------------------------------------------------------------------------

  /** Records a change (the engine's own calls, and the dry-run's on the pools through the chain model). */
  markChanged(): void {
    if (this.depth > 0) this.changedInTx = true;
    else this.bumpHeight(1);
    this.revision++;
  }

  private snapshot(): Snapshot {
    const pools = new Map<string, PoolSnapshot>();
    for (const p of this.poolsById.values()) pools.set(p.id, snapshotPool(p));
    return {
      pools,
      balances: this.balances.snapshot(),
      nonces: new Map(this.nonces),
      status: { ...this.statusValue },
      faults: [...this.faultList],
    };
  }

  private restore(s: Snapshot): void {
    for (const [id, saved] of s.pools) {
      const live = this.poolsById.get(id);
      if (live) restorePool(live, saved);
    }
    this.balances.restore(s.balances);
    this.nonces = s.nonces;
    this.statusValue = s.status;
    this.faultList = s.faults;
    this.revision++;
  }
}

/** Far above any bin's cap: a probe swap with it takes exactly the cap. */
const MAX_PROBE = (1n << 100n) - 1n;
const MAX_CALLS_PER_BIN = 8;

function isFailure(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;
}
