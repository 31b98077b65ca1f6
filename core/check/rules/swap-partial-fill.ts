import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';
import { amountWords, checkedSwaps } from './swapQuoteText';

/** The route cannot take the whole amount_in: only part of it finds liquidity within the walk. */
export const swapPartialFill: Rule = {
  code: 'swap-partial-fill',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const { index, op, q } of checkedSwaps(ctx)) {
      const c = q.check;
      if (c.complete || c.amount_in_used === 0n) continue; // nothing used at all: swap-no-route
      const inW = (v: bigint) => amountWords(ctx.live, op.input_token, v);
      out.push(
        finding(
          ctx,
          'swap-partial-fill',
          { op: index, path: ['operations', index, 'amount_in'] },
          `the route fills only part of amount_in: ${inW(c.amount_in_used)} of ${inW(c.amount_in)} finds liquidity ` +
            `(${amountWords(ctx.live, op.output_token, c.amount_out)} out for that part${c.verified ? ', recomputed from the bins read' : ', as the engine reports it'}); ` +
            `the most that fits is ${c.amount_in_used}: lower amount_in to at most that, or split the swap`,
        ),
      );
    }
    return out;
  },
};
