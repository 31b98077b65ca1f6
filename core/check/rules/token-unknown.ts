import type { Finding } from '../../plan/diagnostics';
import { finding, type Rule } from './rule';

/** A swap token not in /quotes/v2/tokens. */
export const tokenUnknown: Rule = {
  code: 'token-unknown',
  needsLive: true,
  run(ctx) {
    const tokens = ctx.live?.tokens;
    if (!tokens) return [];
    const known = new Set(tokens.map((t) => t.contract_address));
    const list = tokens.map((t) => t.symbol).join(', ');
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'swap') return;
      for (const field of ['input_token', 'output_token'] as const) {
        if (known.has(op[field])) continue;
        out.push(
          finding(
            ctx,
            'token-unknown',
            { op: i, path: ['operations', i, field] },
            `${field} '${op[field]}' is not in /quotes/v2/tokens; known tokens: ${list}`,
          ),
        );
      }
    });
    return out;
  },
};
