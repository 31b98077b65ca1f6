/**
 * A hand-built pool on the chain model (core/chain) for tables that need one: bins priced 1.000 + 0.001 a bin,
 * each holding its reserves and their sum plus 1,000 in shares, no positions unless given.
 */
import type { ChainPool } from '../../../core/chain/index';
import type { BinBalances, PoolFees } from '../../../core/dlmm/math';

const OWNER = 'SP000000000000000000002Q6VF78';

/** The price of signed bin `id`. */
export const price = (id: number): bigint => 100_000_000n + BigInt(id) * 100_000n;

/** Bin `id` holding `x` and `y`. */
export const bin = (id: number, x: bigint, y: bigint): BinBalances => ({
  price: price(id),
  reserve_x: x,
  reserve_y: y,
  shares: x + y + 1000n,
});

/** The test pool with these fees, bins and active bin; `more` sets any other field (positions, …). */
export function testPool(
  fees: PoolFees,
  bins: ChainPool['bins'],
  activeBinId: number,
  more: Partial<ChainPool> = {},
): ChainPool {
  return {
    id: `${OWNER}.dlmm-pool-test`,
    tokenX: `${OWNER}.x`,
    tokenY: `${OWNER}.y`,
    fees,
    active: true,
    activeBinId,
    priceOf: price,
    bins,
    positions: new Map(),
    protocolFeesX: 0n,
    protocolFeesY: 0n,
    ...more,
  };
}
