import type { Token } from '../../api/types';
import { formatUnits } from '../../dlmm/bins';
import type { Finding } from '../../plan/diagnostics';
import type { PlanPath } from '../../plan/parse';
import { finding, livePoolOf, replaceScalar, type Rule } from './rule';

/**
 * Below a millionth of one whole token an amount is most likely a whole-token figure written where base
 * units are meant (`x_amount: 1` for 1 sBTC is 0.00000001 sBTC). Said only when the same operation has an
 * amount that is not that small (the plan mixes the two scales), so a plan of small test amounts stays quiet;
 * tokens of 6 decimals or fewer have no amount this small but 0.
 */
const TINY_DIVISOR = 1_000_000n;

/** An add's amount (bins and distribution) far below one whole token of its side, beside a larger one. */
export const amountTiny: Rule = {
  code: 'amount-tiny',
  needsLive: true,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'add') return;
      const pool = livePoolOf(ctx, i);
      const tokens = { x: pool?.tokenX, y: pool?.tokenY };
      const amounts: { side: 'x' | 'y'; value: bigint; path: PlanPath }[] = [];
      const base: PlanPath = ['operations', i];
      op.bins.forEach((b, j) => {
        amounts.push({ side: 'x', value: b.x_amount, path: [...base, 'bins', j, 'x_amount'] });
        amounts.push({ side: 'y', value: b.y_amount, path: [...base, 'bins', j, 'y_amount'] });
      });
      if (op.distribution) {
        amounts.push({
          side: 'x',
          value: op.distribution.x_amount,
          path: [...base, 'distribution', 'x_amount'],
        });
        amounts.push({
          side: 'y',
          value: op.distribution.y_amount,
          path: [...base, 'distribution', 'y_amount'],
        });
      }
      const tiny = (a: (typeof amounts)[number]): boolean => {
        const t = tokens[a.side];
        return t !== undefined && a.value > 0n && a.value * TINY_DIVISOR < 10n ** BigInt(t.decimals);
      };
      const small = amounts.filter(tiny);
      if (small.length === 0 || !amounts.some((a) => a.value > 0n && tokens[a.side] && !tiny(a))) return;
      for (const a of small) out.push(tinyFinding(ctx, i, a.path, a.value, tokens[a.side]!));
    });
    return out;
  },
};

function tinyFinding(
  ctx: Parameters<Rule['run']>[0],
  op: number,
  path: PlanPath,
  value: bigint,
  token: Token,
): Finding {
  const field = String(path[path.length - 1]);
  const one = 10n ** BigInt(token.decimals);
  const meant = value * one;
  const edit = replaceScalar(ctx.parsed, path, meant);
  return finding(
    ctx,
    'amount-tiny',
    {
      op,
      path,
      ...(edit
        ? { fixes: [{ title: `Write ${value} ${token.symbol} in base units (${meant})`, edits: [edit] }] }
        : {}),
    },
    `${field} ${value} is ${formatUnits(value, token.decimals)} ${token.symbol}, less than a millionth of one ${token.symbol}, beside larger amounts in this operation: plan amounts are base units (1 ${token.symbol} is ${one}); if you meant ${value} ${token.symbol}, write ${meant}`,
  );
}
