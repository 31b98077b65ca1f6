/** Shared wording of the swap-quote rules: amounts in base units with the token's human form. */
import type { Token } from '../../api/types';
import { formatUnits } from '../../dlmm/bins';
import type { LiveData, LiveSwap } from '../../live/live';
import type { RuleContext } from './rule';

/** "0.86 sBTC (86000000)" when the token is known, else the base units and contract. */
export function amountWords(live: LiveData | undefined, contract: string, amount: bigint): string {
  const t: Token | undefined = live?.tokens?.find((x) => x.contract_address === contract);
  return t ? `${formatUnits(amount, t.decimals)} ${t.symbol} (${amount})` : `${amount} of ${contract}`;
}

/** Each swap operation with a checked quote, and its index. */
export function checkedSwaps(ctx: RuleContext): {
  index: number;
  op: Extract<RuleContext['plan']['operations'][number], { op: 'swap' }>;
  q: LiveSwap & { check: NonNullable<LiveSwap['check']> };
}[] {
  const out: ReturnType<typeof checkedSwaps> = [];
  ctx.plan.operations.forEach((op, index) => {
    if (op.op !== 'swap') return;
    const q = ctx.live?.swaps.get(index);
    if (!q?.route || !q.check) return;
    if (q.route.hops.length === 0) return; // swap-no-route says it
    out.push({ index, op, q: q as LiveSwap & { check: NonNullable<LiveSwap['check']> } });
  });
  return out;
}
