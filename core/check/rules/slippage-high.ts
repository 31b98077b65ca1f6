import type { Finding } from '../../plan/diagnostics';
import type { PlanPath } from '../../plan/parse';
import { SLIPPAGE_PLAUSIBLE } from '../../dlmm/bounds';
import { finding, type Rule } from './rule';

/**
 * Slippage above 10% (and up to 50%, beyond which `slippage-unit` speaks): a swap or liquidity bound that
 * accepts losing that much is rarely meant, and a bot or a sandwich takes all of it.
 */
export const SLIPPAGE_HIGH = 10;

export const slippageHigh: Rule = {
  code: 'slippage-high',
  needsLive: false,
  run(ctx) {
    const out: Finding[] = [];
    const check = (value: number | undefined, path: PlanPath, op?: number): void => {
      if (value === undefined || value <= SLIPPAGE_HIGH || value > SLIPPAGE_PLAUSIBLE.high) return;
      out.push(
        finding(
          ctx,
          'slippage-high',
          op === undefined ? { path } : { op, path },
          `slippage_tolerance ${value} accepts up to ${value}% less than quoted (1 means 1%); above ${SLIPPAGE_HIGH}% a price move or a sandwich can take that much: write the most you accept to lose (the default is 1)`,
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
