import type { Finding } from '../../plan/diagnostics';
import { percentToPpm } from '../../dlmm/percent';
import { finding, type Rule } from './rule';
import { checkedSwaps } from './swapQuoteText';

/** Above this percent a swap's price impact is an error whatever the policy says. */
const PRICE_IMPACT_ERROR_PERCENT = 10;

const pctText = (bps: number): string => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;

/**
 * Price impact of a swap's route above `policy.max_price_impact` percent (default 2): warning; above 10%:
 * error. The impact is ours (the exact walk on the bins read) when the quote was recomputed.
 */
export const priceImpact: Rule = {
  code: 'price-impact',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const maxPpm = percentToPpm(ctx.plan.policy.max_price_impact) ?? 20_000n;
    const errorPpm = BigInt(PRICE_IMPACT_ERROR_PERCENT) * 10_000n;
    for (const { index, q } of checkedSwaps(ctx)) {
      const bps = q.check.price_impact_bps;
      if (bps === null) continue;
      const ppm = BigInt(bps) * 100n;
      const isError = ppm > errorPpm;
      if (!isError && ppm <= maxPpm) continue;
      out.push(
        finding(
          ctx,
          'price-impact',
          { op: index, path: ['operations', index, 'amount_in'], strict: isError },
          `price impact ${pctText(bps)} is above ${isError ? `${PRICE_IMPACT_ERROR_PERCENT}% (always an error)` : `policy.max_price_impact ${ctx.plan.policy.max_price_impact}%`}` +
            `${q.check.verified ? ' (exact walk on the bins read)' : ' (as the engine reports it)'}; ` +
            'swap a smaller amount or split it over time',
        ),
      );
    }
    return out;
  },
};
