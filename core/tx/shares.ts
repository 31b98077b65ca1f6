/**
 * Bin shares for bounds. v2's bin list has `liquidity: null`, so shares come from the prepared item
 * (`bin_shares_known`, when the analysis read a trusted source) or from the node read-only proxy:
 * the pool's `get-bin-balances (id uint)` with the UNSIGNED id, answered as a hex Clarity value
 * `(ok {bin-shares, x-balance, y-balance})`.
 */
import { Cl, cvToHex } from '@stacks/transactions';
import { toUnsignedBinId } from '../dlmm/bins';
import type { DlmmApi } from '../api/types';
import { decodeBinBalances } from '../live/binShareCodec';

export interface NodeBinBalances {
  reserve_x: bigint;
  reserve_y: bigint;
  shares: bigint;
}

/** Reads a bin's balances from the node proxy; undefined when there is no node or the read fails. */
async function readBinBalances(
  api: DlmmApi | undefined,
  pool: string,
  signedBinId: number,
): Promise<NodeBinBalances | undefined> {
  if (!api || !api.hasNode()) return undefined;
  try {
    const arg = cvToHex(Cl.uint(toUnsignedBinId(signedBinId))).replace(/^0x/, '');
    const res = await api.callReadOnly(pool, 'get-bin-balances', [arg]);
    if (!res.okay || !res.result) return undefined;
    // Only an answer that is exactly the pool's type, whole, is read (binShareCodec.ts).
    return decodeBinBalances(res.result);
  } catch {
    return undefined;
  }
}

/** Memoizes reads per (pool, bin) for one export, reading at most `limit` bins in parallel batches. */
export class BinShareReader {
  private readonly cache = new Map<string, Promise<NodeBinBalances | undefined>>();
  constructor(private readonly api: DlmmApi | undefined) {}

  read(pool: string, signedBinId: number): Promise<NodeBinBalances | undefined> {
    const key = `${pool}#${signedBinId}`;
    let p = this.cache.get(key);
    if (!p) {
      p = readBinBalances(this.api, pool, signedBinId);
      this.cache.set(key, p);
    }
    return p;
  }
}
