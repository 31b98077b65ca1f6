/**
 * Turns a world's pool spec into bin balances (prices from the geometric rule, generated or explicit
 * reserves, total shares as a first deposit would mint them) and its users' share tables.
 */
import { applyPpm } from '../dlmm/percent';
import { isqrt, liquidityValue, type BinBalances } from '../dlmm/math';
import { BIN_ID_OFFSET } from '../dlmm/bins';
import { geometricBinPrices } from './prices';
import { WorldError, type PoolSpec, type World } from './world';

interface PoolLayout {
  prices: bigint[];
  bins: Map<number, BinBalances>;
  /** user -> signed bin id -> shares */
  positions: Map<string, Map<number, bigint>>;
}

/** Amount for a bin `distance` bins from the active bin under the spec's shape (distance >= 1). */
function shaped(perBin: bigint, distance: number, radius: number, shape: 'flat' | 'triangle'): bigint {
  if (shape === 'flat') return perBin;
  return (perBin * BigInt(radius + 1 - distance)) / BigInt(radius);
}

/** Reserves per signed bin id from the liquidity spec or the explicit bins. */
function reservesOf(pool: PoolSpec): Map<number, { x: bigint; y: bigint; shares?: bigint }> {
  const out = new Map<number, { x: bigint; y: bigint; shares?: bigint }>();
  const l = pool.liquidity;
  if (l) {
    // The active bin holds half a bin of each side: both tokens, as after a balanced deposit.
    out.set(pool.active_bin, { x: l.x_per_bin / 2n, y: l.y_per_bin / 2n });
    for (let d = 1; d <= l.bins_below; d++)
      out.set(pool.active_bin - d, { x: 0n, y: shaped(l.y_per_bin, d, l.bins_below, l.shape) });
    for (let d = 1; d <= l.bins_above; d++)
      out.set(pool.active_bin + d, { x: shaped(l.x_per_bin, d, l.bins_above, l.shape), y: 0n });
  }
  for (const b of pool.bins ?? []) out.set(b.bin_id, { x: b.reserve_x, y: b.reserve_y, shares: b.shares });
  return out;
}

/** Builds the pool's bins and positions; throws WorldError when user shares exceed a bin's total. */
export function layoutPool(world: World, pool: PoolSpec, poolIndex: number): PoolLayout {
  const prices = geometricBinPrices(pool.active_bin, pool.active_price, pool.bin_step);
  const bins = new Map<number, BinBalances>();
  for (const [id, r] of reservesOf(pool)) {
    if (r.x === 0n && r.y === 0n && !r.shares) continue;
    const price = prices[id + BIN_ID_OFFSET] as bigint;
    const shares = r.shares ?? isqrt(liquidityValue(r.x, r.y, price));
    bins.set(id, { price, reserve_x: r.x, reserve_y: r.y, shares });
  }
  const problems: string[] = [];
  const positions = new Map<string, Map<number, bigint>>();
  const owned = new Map<number, bigint>();
  world.users.forEach((user, ui) => {
    user.positions.forEach((pos, pi) => {
      if (pos.pool !== pool.id && pos.pool !== pool.alias) return;
      const mine = positions.get(user.address) ?? new Map<number, bigint>();
      positions.set(user.address, mine);
      pos.bins.forEach((b, bi) => {
        const at = `users.${ui}.positions.${pi}.bins.${bi}`;
        const bin = bins.get(b.bin_id);
        if (!bin || bin.shares === 0n) {
          problems.push(
            `${at}: bin ${b.bin_id} of ${pool.alias} has no liquidity, so nobody can own shares in it`,
          );
          return;
        }
        const shares = b.shares ?? applyPpm(bin.shares, b.share_percent ?? 0n);
        mine.set(b.bin_id, (mine.get(b.bin_id) ?? 0n) + shares);
        const total = (owned.get(b.bin_id) ?? 0n) + shares;
        owned.set(b.bin_id, total);
        if (total > bin.shares) {
          problems.push(
            `${at}: users own ${total} shares of bin ${b.bin_id} of ${pool.alias}, above its total ${bin.shares}`,
          );
        }
      });
    });
  });
  if (problems.length > 0) {
    throw new WorldError(
      'world-invalid',
      `pools.${poolIndex} (${pool.alias}): inconsistent positions:\n  ${problems.join('\n  ')}`,
      problems,
    );
  }
  return { prices, bins, positions };
}
