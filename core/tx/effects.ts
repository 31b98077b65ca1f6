/**
 * What an executed transaction did, as amounts a person reads: per list element the shares minted or
 * burned and the tokens deposited, received or swapped (from the chain model's effects), and the sender's
 * totals sent and received (from the asset movements the chain model recorded). Computed once, when the
 * builder executes a transaction on the state read (build.ts), and shown by the export summary and hover.
 */
import type { ChainState, ExecResult, ItemEffect } from '../chain/index';
import type { Token } from '../api/types';
import type { Amount, TokenInfo, TxEffects } from './types';

/** Token records by contract, and by post-condition asset (`contract::name`, or `stx`). */
export interface EffectTokens {
  byContract(contract: string): TokenInfo | undefined;
  byAsset(asset: string): TokenInfo | undefined;
}

/** Token lookups from the token list (and the STX wrapper, whose movements are native `stx`). */
export function effectTokens(tokens: readonly Token[], stxWrapper: string): EffectTokens {
  const info = (t: Token): TokenInfo => ({
    contract: t.contract_address,
    symbol: t.symbol,
    decimals: t.decimals,
    assetName: t.asset_name ?? null,
  });
  const contracts = new Map<string, TokenInfo>();
  const assets = new Map<string, TokenInfo>();
  for (const t of tokens) {
    const i = info(t);
    contracts.set(t.contract_address, i);
    if (t.asset_name) assets.set(`${t.contract_address}::${t.asset_name}`, i);
  }
  const stx = contracts.get(stxWrapper) ?? {
    contract: stxWrapper,
    symbol: 'STX',
    decimals: 6,
    assetName: null,
  };
  assets.set('stx', stx);
  return { byContract: (c) => contracts.get(c), byAsset: (a) => assets.get(a) };
}

const amount = (label: string, a: bigint, token: TokenInfo | undefined): Amount =>
  token ? { label, amount: a, token } : { label, amount: a };

/** The effects of a successful execution; undefined for a revert or an unknown result. */
export function txEffects(
  exec: ExecResult | undefined,
  sender: string,
  state: ChainState,
  tokens: EffectTokens,
): TxEffects | undefined {
  if (!exec || exec.status !== 'ok') return undefined;
  const sides = (pool: string) => {
    const p = state.pool(pool);
    return {
      x: p ? tokens.byContract(p.tokenX) : undefined,
      y: p ? tokens.byContract(p.tokenY) : undefined,
    };
  };
  const rows = exec.effects.map((e, element) => ({ ...effectRow(e), element }));
  function effectRow(e: ItemEffect): Omit<TxEffects['rows'][number], 'element'> {
    const t = sides(e.pool);
    switch (e.kind) {
      case 'add':
        return {
          label: `bin ${e.bin}`,
          bin: e.bin,
          amounts: [
            // A one-sided add deposits nothing of the other token: only what moves is listed.
            ...(e.x > 0n || e.y === 0n ? [amount('deposits x', e.x, t.x)] : []),
            ...(e.y > 0n ? [amount('deposits y', e.y, t.y)] : []),
            { label: 'shares minted', amount: e.minted },
          ],
        };
      case 'withdraw':
        return {
          label: `bin ${e.bin}`,
          bin: e.bin,
          amounts: [
            { label: 'shares burned', amount: e.shares },
            amount('receives x', e.x, t.x),
            amount('receives y', e.y, t.y),
          ],
        };
      case 'move':
        return {
          label: `${e.from} -> ${e.to}`,
          bin: e.to,
          amounts: [
            { label: 'shares burned', amount: e.shares },
            { label: 'shares minted', amount: e.minted },
          ],
        };
      case 'swap':
        return {
          label: `${shortPool(e.pool)} from bin ${e.bin}`,
          amounts: [amount('in', e.in, e.xForY ? t.x : t.y), amount('out', e.out, e.xForY ? t.y : t.x)],
        };
    }
  }
  const sent = new Map<string, bigint>();
  const received = new Map<string, bigint>();
  for (const m of exec.movements) {
    if (m.amount === undefined || m.nftTokenId !== undefined || m.asset.endsWith('::pool-token')) continue;
    if (m.from === sender) sent.set(m.asset, (sent.get(m.asset) ?? 0n) + m.amount);
    else if (state.pool(m.from)) received.set(m.asset, (received.get(m.asset) ?? 0n) + m.amount);
  }
  const totals = (m: Map<string, bigint>, label: string): Amount[] =>
    [...m].map(([asset, a]) => amount(label, a, tokens.byAsset(asset)));
  return { rows, sent: totals(sent, 'sends'), received: totals(received, 'receives') };
}

/** `ADDR.dlmm-pool-x-y` -> `dlmm-pool-x-y` (the contract name says which pool; the address is long). */
function shortPool(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(dot + 1);
}
