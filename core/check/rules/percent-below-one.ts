import type { Finding } from '../../plan/diagnostics';
import { finding, replaceScalar, type Rule } from './rule';

/**
 * `withdrawal_percentage` is a percent (50 means 50%): a value below 1 is most likely a fraction
 * (`0.5` for half), which withdraws less than 1% of each bin.
 */
export const percentBelowOne: Rule = {
  code: 'percent-below-one',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    ctx.plan.operations.forEach((op, i) => {
      if (op.op !== 'withdraw' || op.withdrawal_percentage >= 1) return;
      const path = ['operations', i, 'withdrawal_percentage'];
      if (!ctx.parsed.rangeOf(path)) return;
      const meant = asPercent(String(op.withdrawal_percentage));
      const edit = meant !== undefined ? replaceScalar(ctx.parsed, path, meant) : undefined;
      out.push(
        finding(
          ctx,
          'percent-below-one',
          {
            op: i,
            path,
            ...(edit
              ? { fixes: [{ title: `Withdraw ${meant}% (the fraction as a percent)`, edits: [edit] }] }
              : {}),
          },
          `withdrawal_percentage ${op.withdrawal_percentage} is a percent here (50 means 50%), so this withdraws ${op.withdrawal_percentage}% of each bin; if you meant the fraction ${op.withdrawal_percentage} of each bin, write ${meant ?? 'it times 100'}`,
        ),
      );
    });
    return out;
  },
};

/** A fraction's text times 100, exactly (`0.5` -> `50`, `0.125` -> `12.5`); undefined beyond 4 decimals. */
export function asPercent(fraction: string): string | undefined {
  const m = /^0?\.(\d+)$|^0$/.exec(fraction);
  if (!m) return undefined;
  const digits = (m[1] ?? '').padEnd(2, '0');
  const whole = digits.slice(0, 2).replace(/^0/, '') || '0';
  const rest = digits.slice(2).replace(/0+$/, '');
  if (rest.length > 4) return undefined;
  return rest ? `${whole}.${rest}` : whole;
}
