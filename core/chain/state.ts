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
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID, isSignedBinId } from '../dlmm/bins';
import type { BinBalances, PoolFees } from '../dlmm/math';

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
  /** Bins ever written, by signed id. */
  bins: Map<number, BinBalances>;
  /** user -> signed bin id -> shares. An entry (even 0) means the user holds that bin's position NFT. */
  positions: Map<string, Map<number, bigint>>;
  protocolFeesX: bigint;
  protocolFeesY: bigint;
  /** Bins whose total shares are unknown (analyzer states only). */
  unknownShares?: Set<number>;
}

/** What the executor reads: pools by principal and the fungible-token asset names. */
export interface ChainState {
  pool(principal: string): ChainPool | undefined;
  /** `define-fungible-token` name of a SIP-010 contract, when known. */
  assetName(token: string): string | undefined;
  /** Why a pool's state is absent although the pool may exist (analyzer states); undefined: no such pool. */
  missing?(principal: string): string | undefined;
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
  bins: Map<number, BinBalances>;
  positions: Map<string, Map<number, bigint>>;
  activeBinId: number;
  active: boolean;
  protocolFeesX: bigint;
  protocolFeesY: bigint;
  unknownShares: Set<number> | undefined;
}

/** A copy of a pool's mutable state (maps copied; balances are immutable values). */
export function snapshotPool(p: ChainPool): PoolSnapshot {
  return {
    bins: new Map(p.bins),
    positions: new Map([...p.positions].map(([u, m]) => [u, new Map(m)])),
    activeBinId: p.activeBinId,
    active: p.active,
    protocolFeesX: p.protocolFeesX,
    protocolFeesY: p.protocolFeesY,
    unknownShares: p.unknownShares ? new Set(p.unknownShares) : undefined,
  };
}

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
  /** A deep copy (pools cloned). */
  clone(): MemoryChainState {
    return new MemoryChainState([...this.pools.values()].map(clonePool), this.assetNames, this.missingReason);
  }
  snapshot(): Map<string, PoolSnapshot> {
    return new Map([...this.pools].map(([id, p]) => [id, snapshotPool(p)]));
  }
  restore(s: Map<string, PoolSnapshot>): void {
    for (const [id, snap] of s) {
      const p = this.pools.get(id);
      if (p) restorePool(p, snap);
    }
  }
}
