/**
 * A plausible bin-price history for app v2, generated deterministically from the world seed and the pool
 * id: a bounded random walk of the active bin that ends at the pool's current active bin.
 */
import { BIN_ID_OFFSET, MAX_BIN_ID, MIN_BIN_ID } from '../dlmm/bins';
import type { SimPool } from './engine';
import type { World } from './world';

/** mulberry32: tiny, fast, reproducible PRNG (not for anything security related). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

interface HistoryPoint {
  timestamp: number;
  bin_id: number;
  price: string;
}

/** Points oldest first; the walk runs backwards from the current active bin, so the last point is now. */
export function priceHistory(world: World, pool: SimPool): HistoryPoint[] {
  const { end_timestamp, interval_seconds, points } = world.history;
  const rand = prng(world.seed ^ hash(pool.id));
  const ids: number[] = [pool.activeBinId];
  let bin = pool.activeBinId;
  for (let i = 1; i < points; i++) {
    // Mostly small moves, now and then a jump of a few bins, as real markets do.
    const r = rand();
    const step = r < 0.45 ? 0 : r < 0.9 ? 1 : 1 + Math.floor(rand() * 4);
    const dir = rand() < 0.5 ? -1 : 1;
    bin = Math.min(MAX_BIN_ID, Math.max(MIN_BIN_ID, bin + dir * step));
    ids.push(bin);
  }
  ids.reverse();
  return ids.map((id, i) => ({
    timestamp: end_timestamp - (points - 1 - i) * interval_seconds,
    bin_id: id,
    price: String(pool.prices[id + BIN_ID_OFFSET]),
  }));
}
