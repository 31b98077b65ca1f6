import type { Finding } from '../../plan/diagnostics';
import { planTokens, principalEdit, tokenLabel, tokensMeant } from '../tokenNames';
import { finding, type Rule } from './rule';

/** Tokens listed in a token-unknown message beyond a did-you-mean (the engine may list hundreds). */
const LISTED = 12;

/**
 * A swap token not in /quotes/v2/tokens: the token it most likely stands for (with a quick fix), else the
 * tokens a plan can name (contract principals of the plan's network).
 */
export const tokenUnknown: Rule = {
  code: 'token-unknown',
  needsLive: true,
  run(ctx) {
    const tokens = ctx.live?.tokens;
    if (!tokens) return [];
    const known = new Set(tokens.map((t) => t.contract_address));
    const usable = planTokens(tokens, ctx.plan.network);
    const more = usable.length > LISTED ? `, and ${usable.length - LISTED} more` : '';
    const list = usable.length
      ? `tokens a plan can name: ${usable.slice(0, LISTED).map(tokenLabel).join(', ')}${more}`
      : `the engine lists no token of ${ctx.plan.network}`;
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'swap') return;
      for (const field of ['input_token', 'output_token'] as const) {
        if (known.has(op[field])) continue;
        const path = ['operations', i, field];
        const meant = tokensMeant(op[field], usable);
        const r = ctx.parsed.rangeOf(path);
        const fixes =
          meant.length === 1 && r ? principalEdit(ctx.parsed, r, meant[0]!.contract_address) : undefined;
        out.push(
          finding(
            ctx,
            'token-unknown',
            { op: i, path, ...(fixes ? { fixes } : {}) },
            meant.length > 0
              ? `${field} '${op[field]}' is not in /quotes/v2/tokens; did you mean ${meant.map(tokenLabel).join(' or ')}?`
              : `${field} '${op[field]}' is not in /quotes/v2/tokens; ${list}`,
          ),
        );
      }
    });
    return out;
  },
};
