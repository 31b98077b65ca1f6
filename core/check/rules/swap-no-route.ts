import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';
import { isQuoteVerdict } from './liveErrors';

/** The engine returns no route for a swap (answered, but nothing to execute). */
export const swapNoRoute: Rule = {
  code: 'swap-no-route',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    if (ctx.live?.notTheService) return out; // a 404 from a URL that is not the service's is no verdict
    const known = ctx.live?.tokens ? new Set(ctx.live.tokens.map((t) => t.contract_address)) : undefined;
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'swap') return;
      const q = ctx.live?.swaps.get(i);
      if (!q) return;
      if (known && (!known.has(op.input_token) || !known.has(op.output_token))) return; // token-unknown says it
      let why: string | undefined;
      if (q.error && isQuoteVerdict(q.error)) why = `${q.error.endpoint} answered: ${q.error.message}`;
      else if (q.route && (q.route.hops.length === 0 || q.route.amount_out === 0n))
        why = q.route.hops.length === 0 ? 'the route has no hops' : 'the best route returns 0';
      if (!why) return;
      out.push(
        finding(
          ctx,
          'swap-no-route',
          { op: i, path: ['operations', i, 'amount_in'] },
          `no route swaps ${op.amount_in} of ${op.input_token} into ${op.output_token}: ${why}; try a smaller amount or another pair`,
        ),
      );
    });
    return out;
  },
};
