/**
 * The chain model's state built from what an analysis read (core/live/live.ts): per pool the listed bins
 * (reserves, prices), total shares where a trusted source gave them (node get-bin-balances, inventory, the
 * position records), the sender's shares and position NFTs (every listed position bin), the active bin and
 * the fees. Bins whose total shares no source gave are marked unknown: the executor then says the check
 * could not run instead of guessing. A bin not in the list has no known price: executing into it is
 * unknown too. The sender's token balances read from the node are exact; the others unknown (floors). The
 * core's minimum shares are the ones read for a first deposit; not read, a first deposit is unknown.
 */
import {
  ChainBalances,
  chainPoolFromListing,
  MemoryChainState,
  STX_KEY,
  type ChainPool,
} from '../chain/index';
import type { BinBalances } from '../dlmm/math';
import { poolFees } from '../quote/exact';
import { knownShares, type LiveData, type LivePool } from './live';

/** Pools that a plan's swaps route through but that were not read: named in unknown results. */
const NOT_READ = 'its bins were not read, so operations through it cannot be executed';

/** Why the core's minimums are not in a state whose plan was not seen to make a first deposit. */
const MINIMUMS_NOT_NEEDED =
  'they were not read, because no add or move of the plan targets an empty bin of the state read';

/** A chain pool from a live pool; undefined when the pool, its principal or its active bin is unknown. */
function chainPoolFromLive(
  lp: LivePool,
  sender: string | undefined,
  minimums: ChainPool['minimumShares'],
): ChainPool | undefined {
  const p = lp.pool;
  if (!p || lp.principal === undefined || lp.activeBinId === undefined || !lp.bins) return undefined;
  const bins = new Map<number, BinBalances>();
  const unknownShares = new Set<number>();
  for (const b of lp.bins.bins) {
    // Trusted shares have one source of truth (knownShares): the v2 list's liquidity is never one.
    const shares = knownShares(lp, b.bin_id);
    if (shares === undefined) unknownShares.add(b.bin_id);
    bins.set(b.bin_id, {
      price: b.price,
      reserve_x: b.reserve_x,
      reserve_y: b.reserve_y,
      shares: shares ?? 0n,
    });
  }
  const positions = new Map<string, Map<number, bigint>>();
  if (sender !== undefined && lp.positions) {
    const mine = new Map<number, bigint>();
    for (const r of lp.positions) mine.set(r.bin_id, r.user_liquidity);
    positions.set(sender, mine);
  }
  const pool = chainPoolFromListing({
    id: lp.principal,
    tokenX: p.token_x,
    tokenY: p.token_y,
    fees: poolFees(p),
    active: p.active,
    activeBinId: lp.activeBinId,
    bins,
    positions,
    unknownShares,
  });
  pool.minimumShares = minimums;
  return pool;
}

/** The state an analysis read, as one chain state (pools by principal; asset names from the token list). */
export function chainStateFromLive(live: LiveData, sender: string | undefined): MemoryChainState {
  const pools: ChainPool[] = [];
  const seen = new Set<string>();
  // The core's minimums as read (one core for every pool); never the launch values by default.
  const read = live.coreMinimums;
  const minimums = read?.value ?? { unread: read?.unread ?? MINIMUMS_NOT_NEEDED };
  for (const lp of [...live.byPool.values(), ...live.routePools.values()]) {
    const cp = chainPoolFromLive(lp, sender, minimums);
    if (cp && !seen.has(cp.id)) {
      seen.add(cp.id);
      pools.push(cp);
    }
  }
  const names = new Map<string, string>();
  for (const t of live.tokens ?? []) if (t.asset_name) names.set(t.contract_address, t.asset_name);
  // The sender's balances as read (exact); any other is unknown: a spend beyond what the plan received
  // before is then unverified (reported), never assumed funded or unfunded.
  const balances = new ChainBalances('unknown');
  if (sender !== undefined)
    for (const b of live.balances?.values() ?? [])
      if (b.amount !== undefined)
        balances.set(sender, b.stx ? STX_KEY : b.token, { amount: b.amount, exact: true });
  return new MemoryChainState(pools, names, NOT_READ, balances);
}

/**
 * The bin list read that `chainStateFromLive(live, …)` builds pool `principal`'s bins from (the same pool
 * it picks), or undefined when that state has no such pool.
 */
export function binsReadOf(live: LiveData, principal: string): object | undefined {
  for (const lp of [...live.byPool.values(), ...live.routePools.values()]) {
    if (!lp.pool || lp.principal === undefined || lp.activeBinId === undefined || !lp.bins) continue;
    if (lp.principal === principal) return lp.bins;
  }
  return undefined;
}
