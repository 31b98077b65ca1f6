import type { Finding } from '../../plan/diagnostics';
import { poolFlagsOf } from '../../live/live';
import { finding, type Rule } from './rule';

/** Pool flag `quotable` false: an error for swaps and strict ops, a warning for simple ones. */
export const poolNotQuotable: Rule = {
  code: 'pool-not-quotable',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    const pools = ctx.live?.pools ?? [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') {
        const candidates = pools.filter(
          (p) =>
            (p.token_x === op.input_token && p.token_y === op.output_token) ||
            (p.token_y === op.input_token && p.token_x === op.output_token),
        );
        if (candidates.length === 0 || candidates.some((p) => p.quotable)) return;
        out.push(
          finding(
            ctx,
            'pool-not-quotable',
            { op: i, path: ['operations', i, 'output_token'], strict: true },
            `every pool between these tokens is not quotable (${candidates.map((p) => p.pool_alias ?? p.pool_id).join(', ')}); the engine will not route this swap`,
          ),
        );
        return;
      }
      // v1 records may not carry the flag: only an explicit `quotable: false` is reported.
      if (poolFlagsOf(ctx.live?.byPool.get(op.pool)).quotable !== false) return;
      out.push(
        finding(
          ctx,
          'pool-not-quotable',
          { op: i, path: ['operations', i, 'pool'], strict: op.mode === 'strict' },
          `pool '${op.pool}' is not quotable (flag quotable: false): its bins and prices may not reflect the chain`,
        ),
      );
    });
    return out;
  },
};
