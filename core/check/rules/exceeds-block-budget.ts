/**
 * `exceeds-block-budget`, on the plan's exact transactions (core/check/execute.ts): each one's cost as the
 * export builds it (core/tx/cost.ts: a liquidity call by its list elements, a simple swap by the bins its
 * walk may take at its slippage tolerance, swap-multi by its steps). Above a block's limit it is an error
 * (the transaction would never be mined, and the export refuses it); above the safe budget, 80% of a block, a
 * warning (the export writes it with the problem as a note). Each names the figure, the limit and the fix; a swap's gives the largest amount that fits
 * and a quick fix setting it.
 */
import type { BuiltTransaction } from '../../tx/types';
import type { Finding, QuickFix } from '../../plan/diagnostics';
import { costProblem, costVerdict } from '../../tx/cost';
import { finding, replaceScalar, type RuleContext } from './rule';

/** Findings for the transactions whose cost is above the safe budget or above a block's limit. */
export function blockBudgetFindings(
  ctx: RuleContext,
  txs: readonly BuiltTransaction[],
  /** An amount of a token (by contract) in words (execute.ts balanceTokenWords). */
  amountWords: (token: string) => (a: bigint) => string,
): Finding[] {
  const out: Finding[] = [];
  for (const tx of txs) {
    const c = tx.blockCost;
    if (!c) continue;
    const verdict = costVerdict(c);
    if (verdict === 'fits') continue;
    const op = ctx.plan.operations[tx.opIndex];
    const swap = op?.op === 'swap' ? op : undefined;
    const words = swap ? amountWords(swap.input_token) : String;
    const part = tx.parts > 1 ? ` (transaction ${tx.part} of ${tx.parts})` : '';
    const message = costProblem(c, `${tx.functionName}${part}`, words);
    if (message === undefined) continue;
    const fixes: QuickFix[] = [];
    const amountPath = ['operations', tx.opIndex, 'amount_in'];
    if (swap && c.largestAmount !== undefined && c.largestAmount > 0n) {
      const edit = replaceScalar(ctx.parsed, amountPath, c.largestAmount);
      if (edit) fixes.push({ title: `Lower amount_in to ${c.largestAmount}`, edits: [edit] });
    }
    out.push(
      finding(
        ctx,
        'exceeds-block-budget',
        {
          op: tx.opIndex,
          path: swap ? amountPath : ['operations', tx.opIndex, 'op'],
          severity: verdict === 'over-limit' ? 'error' : 'warning',
          fixes,
        },
        message,
      ),
    );
  }
  return out;
}
