import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';
import { amountWords, checkedSwaps } from './swapQuoteText';

/**
 * The engine's quoted output and our exact recomputation from the bins read disagree (both named). A quote
 * that could not be recomputed at all is swap-unchecked's error, not this warning.
 */
export const quoteMismatch: Rule = {
  code: 'quote-mismatch',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    for (const { index, op, q } of checkedSwaps(ctx)) {
      const c = q.check;
      if (!c.verified || !c.mismatch) continue;
      const outW = (v: bigint) => amountWords(ctx.live, op.output_token, v);
      const message =
        `the engine quotes ${outW(c.engine_amount_out)} but the exact walk on the bins read gives ${outW(c.amount_out)} ` +
        `for ${amountWords(ctx.live, op.input_token, c.amount_in_used)} in; the export bounds with the exact figure`;
      out.push(
        finding(ctx, 'quote-mismatch', { op: index, path: ['operations', index, 'amount_in'] }, message),
      );
    }
    return out;
  },
};
