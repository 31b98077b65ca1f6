import type { Finding } from '../../plan/diagnostics';
import type { PlanPath } from '../../plan/parse';
import { slippagePlausible, SLIPPAGE_PLAUSIBLE } from '../../dlmm/bounds';
import { percentToPpm } from '../../dlmm/percent';
import { finding, type Rule } from './rule';

/** Slippage is percent (1 = 1%); 0.01 is the client library's fraction style, 100 is likely a typo. */
export const slippageUnit: Rule = {
  code: 'slippage-unit',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    const check = (value: number | undefined, path: PlanPath, op?: number): void => {
      if (value === undefined) return;
      const ppm = percentToPpm(value);
      if (ppm === undefined || slippagePlausible(ppm)) return;
      const { low, high } = SLIPPAGE_PLAUSIBLE;
      const pct = Number((value * 100).toFixed(4));
      const hint = value < low ? ` (if you meant a fraction, ${value} is ${pct}%: write ${pct})` : '';
      out.push(
        finding(
          ctx,
          'slippage-unit',
          op === undefined ? { path } : { op, path },
          `slippage_tolerance ${value} is percent here (1 means 1%); values below ${low} or above ${high} are likely a fraction or a typo${hint}`,
        ),
      );
    };
    if (ctx.parsed.rangeOf(['policy', 'slippage_tolerance']))
      check(ctx.plan.policy.slippage_tolerance, ['policy', 'slippage_tolerance']);
    ctx.plan.operations.forEach((op, i) => {
      if (op.op === 'swap') check(op.slippage_tolerance, ['operations', i, 'slippage_tolerance'], i);
    });
    return out;
  },
};
