/**
 * The chain model's state: per pool the bins (reserves, total shares), every user's shares, the position
 * NFTs and the active bin, exactly what the DLMM contracts keep. The simulated engine holds one of these
 * per pool; the analyzer builds one from what it read and executes a plan's transactions on a copy.
 *
 * Facts kept here (read from the pool and core contracts):
 * - The position NFT `pool-token-id {token-id, owner}` exists from the first mint into (bin, owner); every
 *   later mint, burn or transfer of that bin's shares burns and re-mints it (a send under post-conditions),
 *   and it survives a full withdrawal, although `get-user-bins` then no longer lists the bin.
 * - Bin total shares may be unknown to the analyzer (the v2 bin list has `liquidity: null` and no node
 *   read answered): such bins are listed in `unknownShares`, and anything that needs their shares cannot
 *   be executed (the executor says so instead of guessing).
 *
 * Copies are copy-on-write: a pool's bins may be a `CowBins` (every state the analyzer builds, and the
 * simulator's pools), whose snapshot shares the bins read and copies only the bins written since, so a
 * snapshot before each call (the executor's all-or-nothing), a copy per what-if run and the builder's
 * scratch runs cost what they write, not the pool's size. A plain Map still works and is copied whole.
 * `unknownShares` is never changed in place (a new set replaces it), so copies share it.
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID, isSignedBinId } from '../dlmm/bins';
import type { BinBalances, CoreMinimums, PoolFees } from '../dlmm/math';
import type { ChainBalances } from './balances';

/** One pool's state. Bin ids are signed. */
export interface ChainPool {
  /** Contract principal. */
  readonly id: string;
  readonly tokenX: string;
  readonly tokenY: string;
  readonly fees: PoolFees;
  /** Pool enabled (swaps, adds and moves assert it). */
  active: boolean;
  activeBinId: number;
  /** Price of a bin by signed id (the contract derives it from the initial price and bin step). */
  priceOf(binId: number): bigint;
  /** Bins ever written, by signed id (a Map, or a copy-on-write CowBins). */
  bins: Bins;
  /** user -> signed bin id -> shares. An entry (even 0) means the user holds that bin's position NFT. */
  positions: Map<string, Map<number, bigint>>;
  protocolFeesX: bigint;
  protocolFeesY: bigint;
  /** Bins whose total shares are unknown (analyzer states only); replaced, never changed in place. */
  unknownShares?: ReadonlySet<number>;
  /**
   * The core's minimum-bin-shares and minimum-burnt-shares a first deposit into an empty bin of this pool
   * meets (the core's data-vars, read with the pool's facts). Absent: the launch values (a model state that
   * reads nothing); `unread`: an analysis that could not read them, so a first deposit is unknown state.
   */
  minimumShares?: CoreMinimums | { unread: string };
}

/** What the model reads and writes of a pool's bins: a Map has all of it, and so has CowBins. */
export interface Bins extends Iterable<[number, BinBalances]> {
  readonly size: number;
  get(id: number): BinBalances | undefined;
  has(id: number): boolean;
  set(id: number, b: BinBalances): unknown;
  keys(): IterableIterator<number>;
  values(): IterableIterator<BinBalances>;
  entries(): IterableIterator<[number, BinBalances]>;
}

/**
 * Copy-on-write bins: a base map that is never written (shared by every copy) and this copy's own writes
 * over it. `fork()` is an independent copy costing the writes made so far; a write to one copy never shows
 * in another or in the base. Reads and iteration are those of a Map that saw the same `set` calls (base
 * order, a key first written later at the end).
 */
export class CowBins implements Bins {
  private base: ReadonlyMap<number, BinBalances>;
  private own: Map<number, BinBalances>;
  /** Keys in `own` that `base` lacks. */
  private added: number;

  /** `base` becomes this table's: the caller must never write it again. */
  constructor(base: ReadonlyMap<number, BinBalances>, own?: Map<number, BinBalances>, added = 0) {
    this.base = base;
    this.own = own ?? new Map();
    this.added = added;
  }

  get size(): number {
    return this.base.size + this.added;
  }

  get(id: number): BinBalances | undefined {
    const mine = this.own.size === 0 ? undefined : this.own.get(id);
    return mine ?? this.base.get(id);
  }

  has(id: number): boolean {
    return this.own.has(id) || this.base.has(id);
  }

  set(id: number, b: BinBalances): this {
    if (!this.own.has(id) && !this.base.has(id)) this.added++;
    this.own.set(id, b);
    return this;
  }

  /** An independent copy: shares the base, copies the writes (folded into a new base when they are many). */
  fork(): CowBins {
    if (this.own.size > 32 && this.own.size * 2 > this.base.size) {
      this.base = new Map(this.entries());
      this.own = new Map();
      this.added = 0;
    }
    return new CowBins(this.base, this.own.size === 0 ? undefined : new Map(this.own), this.added);
  }

  *entries(): IterableIterator<[number, BinBalances]> {
    const own = this.own;
    for (const [id, b] of this.base) yield [id, own.get(id) ?? b];
    if (this.added > 0) for (const e of own) if (!this.base.has(e[0])) yield e;
  }

  *keys(): IterableIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): IterableIterator<BinBalances> {
    for (const [, b] of this.entries()) yield b;
  }

  [Symbol.iterator](): IterableIterator<[number, BinBalances]> {
    return this.entries();
  }
}

/**
 * A copy of bins: O(writes) for CowBins, a whole copy for a plain Map. Told apart by `fork`, not instanceof:
 * a lazily loaded bundle carries its own copy of this class.
 */
function copyBins(bins: Bins): Bins {
  const cow = bins as Partial<CowBins>;
  return typeof cow.fork === 'function' ? cow.fork() : new Map(bins);
}

/** What the executor reads: pools by principal and the fungible-token asset names. */
export interface ChainState {
  pool(principal: string): ChainPool | undefined;
  /** `define-fungible-token` name of a SIP-010 contract, when known. */
  assetName(token: string): string | undefined;
  /** Why a pool's state is absent although the pool may exist (analyzer states); undefined: no such pool. */
  missing?(principal: string): string | undefined;
  /**
   * Token balances (core/chain/balances.ts): the sender's spends are checked against them and its receipts
   * credited. Absent: transfers are not checked (a state that models no balances at all).
   */
  balances?: ChainBalances;
}

/** A bin's balances; bins never written have their price and zero reserves/shares. */
export function binOf(pool: ChainPool, binId: number): BinBalances {
  if (!isSignedBinId(binId)) throw new RangeError(`bin id ${binId} is outside ${MIN_BIN_ID}..${MAX_BIN_ID}`);
  return pool.bins.get(binId) ?? { price: pool.priceOf(binId), reserve_x: 0n, reserve_y: 0n, shares: 0n };
}

export function userSharesOf(pool: ChainPool, user: string, binId: number): bigint {
  return pool.positions.get(user)?.get(binId) ?? 0n;
}

/** Whether `user` holds the position NFT of `binId` (minted once, never burned for good). */
export function hasPositionNft(pool: ChainPool, user: string, binId: number): boolean {
  return pool.positions.get(user)?.has(binId) ?? false;
}

/** Adds `delta` to a user's shares of a bin (creating the NFT entry on the first mint). */
export function creditShares(pool: ChainPool, user: string, binId: number, delta: bigint): void {
  let mine = pool.positions.get(user);
  if (!mine) {
    mine = new Map<number, bigint>();
    pool.positions.set(user, mine);
  }
  mine.set(binId, (mine.get(binId) ?? 0n) + delta);
}

/** Prices by unsigned id -> a signed-id price function. */
export function pricesById(prices: readonly bigint[]): (binId: number) => bigint {
  return (binId) => prices[binId + BIN_ID_OFFSET] as bigint;
}

/** The mutable part of a pool, for snapshots. */
export interface PoolSnapshot {
  bins: Bins;
  positions: Map<string, Map<number, bigint>>;
  activeBinId: number;
  active: boolean;
  protocolFeesX: bigint;
  protocolFeesY: bigint;
  unknownShares: ReadonlySet<number> | undefined;
}

/**
 * A copy of a pool's mutable state: bins copied on write (CowBins) or whole (a plain Map), holders' shares
 * copied, `unknownShares` shared (never changed in place); balances are immutable values.
 */
export function snapshotPool(p: ChainPool): PoolSnapshot {
  const positions = new Map<string, Map<number, bigint>>();
  for (const [user, mine] of p.positions) positions.set(user, new Map(mine));
  return {
    bins: copyBins(p.bins),
    positions,
    activeBinId: p.activeBinId,
    active: p.active,
    protocolFeesX: p.protocolFeesX,
    protocolFeesY: p.protocolFeesY,
    unknownShares: p.unknownShares,
  };
}

/** Puts a snapshot back: the pool takes the snapshot's tables, so a snapshot is restored at most once. */
export function restorePool(p: ChainPool, s: PoolSnapshot): void {
  p.bins = s.bins;
  p.positions = s.positions;
  p.activeBinId = s.activeBinId;
  p.active = s.active;
  p.protocolFeesX = s.protocolFeesX;
  p.protocolFeesY = s.protocolFeesY;
  if (s.unknownShares) p.unknownShares = s.unknownShares;
  else delete p.unknownShares;
}

/** An independent copy of a pool (what the analyzer executes on). */
export function clonePool(p: ChainPool): ChainPool {
  const s = snapshotPool(p);
  const copy: ChainPool = {
    id: p.id,
    tokenX: p.tokenX,
    tokenY: p.tokenY,
    fees: p.fees,
    priceOf: p.priceOf,
    ...s,
  };
  if (p.minimumShares) copy.minimumShares = p.minimumShares;
  if (!s.unknownShares) delete copy.unknownShares;
  return copy;
}

/** A plain state over a set of pools (analyzer, tests). */
export class MemoryChainState implements ChainState {
  readonly pools = new Map<string, ChainPool>();
  constructor(
    pools: Iterable<ChainPool> = [],
    readonly assetNames = new Map<string, string>(),
    /** Reason given for any pool not in the state (undefined: unknown pools do not exist). */
    readonly missingReason?: string,
    public balances?: ChainBalances,
  ) {
    for (const p of pools) this.pools.set(p.id, p);
  }
  pool(principal: string): ChainPool | undefined {
    return this.pools.get(principal);
  }
  assetName(token: string): string | undefined {
    return this.assetNames.get(token);
  }
  missing(principal: string): string | undefined {
    return this.missingReason === undefined ? undefined : `pool ${principal}: ${this.missingReason}`;
  }
  /** A deep copy (pools and balances cloned). */
  clone(): MemoryChainState {
    return new MemoryChainState(
      [...this.pools.values()].map(clonePool),
      this.assetNames,
      this.missingReason,
      this.balances?.clone(),
    );
  }
}
