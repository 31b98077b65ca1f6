import { finding, itemIndex, type Rule } from './rule';

/** An add item with x_amount and y_amount both 0 adds nothing; the contract asserts x + y > 0. */
export const zeroAmount: Rule = {
  code: 'zero-amount',
  needsLive: false,
  run(ctx) {
    const out = [];
    const ops = ctx.plan.operations;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op?.op !== 'add') continue;
      const d = op.distribution;
      if (d && d.x_amount === 0n && d.y_amount === 0n)
        out.push(
          finding(
            ctx,
            'zero-amount',
            { op: i, path: ['operations', i, 'distribution', 'x_amount'] },
            `the distribution has x_amount 0 and y_amount 0: give token X to spread above the active bin, token Y below it, or both`,
          ),
        );
      for (let j = 0; j < op.bins.length; j++) {
        const item = op.bins[j] as (typeof op.bins)[number];
        if (item.x_amount !== 0n || item.y_amount !== 0n) continue;
        out.push(
          finding(
            ctx,
            'zero-amount',
            { op: i, path: ['operations', i, 'bins', j, 'x_amount'] },
            `bins[${itemIndex(ctx, i, 'bins', j)}] has x_amount 0 and y_amount 0: at least one must be greater than 0 (token X above the active bin, token Y below it, either at the active bin)`,
          ),
        );
      }
    }
    return out;
  },
};
