/**
 * `exceeds-block-budget` (core/check/rules/exceeds-block-budget.ts) as a table: a plan, the cost of each
 * of its built transactions (from the cost table, core/chain/costs.ts), and the findings expected as
 * (code, severity, the source text under the finding). The transactions are built here: the rule reads
 * only their cost, operation and part (the integration test builds the real ones on the simulator).
 */
import assert from 'node:assert/strict';
import { maxUnitsWithin, SAFE_BLOCK_SHARE } from '../../../core/chain/costs';
import { blockBudgetFindings } from '../../../core/check/rules/exceeds-block-budget';
import type { RuleContext } from '../../../core/check/rules/rule';
import { parsePlan } from '../../../core/plan/parse';
import { blockCostOf, type BlockCost } from '../../../core/tx/cost';
import type { BuiltTransaction } from '../../../core/tx/types';
import { plan, POOL1, SBTC, summarize, USDCX, type Expect } from '../plan/helpers';

const V = 'v-1-2' as const;
const ADD = 'add-liquidity-multi';
const SWAP = 'swap-x-for-y-simple-multi';
const safe = (fn: string) => maxUnitsWithin(fn, SAFE_BLOCK_SHARE, V)!;
const limit = (fn: string) => maxUnitsWithin(fn, 1, V)!;

const TEXT = plan(
  `  - { id: a, op: add, pool: ${POOL1}, bins: [{ bin_id: 140, x_amount: 1, y_amount: 0 }] }\n` +
    `  - { id: s, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 390000000 }\n`,
);

function tx(opIndex: number, cost: BlockCost, part = 1, parts = 1): BuiltTransaction {
  return {
    opIndex,
    opId: String(opIndex),
    functionName: cost.functionName,
    part,
    parts,
    blockCost: cost,
  } as BuiltTransaction;
}

const swapCost = (bins: number, largest?: bigint): BlockCost => ({
  ...blockCostOf(SWAP, bins, V)!,
  walk: { used: bins - 10, extra: 10 },
  ...(largest !== undefined ? { largestAmount: largest } : {}),
});

function run(txs: BuiltTransaction[]) {
  const parsed = parsePlan(TEXT);
  assert.ok(parsed.plan);
  const ctx: RuleContext = { parsed, plan: parsed.plan, live: undefined, prepared: [], maxTipLag: 0 };
  const findings = blockBudgetFindings(ctx, txs, () => (a) => `${a} sats`);
  return { findings, got: summarize(TEXT, findings) };
}

describe('exceeds-block-budget', () => {
  const table: [string, () => BuiltTransaction[], Expect[]][] = [
    ['within the safe budget: nothing', () => [tx(0, blockCostOf(ADD, safe(ADD), V)!)], []],
    [
      'a liquidity call above the safe budget: a warning on the operation',
      () => [tx(0, blockCostOf(ADD, safe(ADD) + 1, V)!)],
      [['exceeds-block-budget', 'warning', 'add']],
    ],
    [
      "a liquidity call above the block's limit (e.g. a configured list limit): an error",
      () => [tx(0, blockCostOf(ADD, safe(ADD), V)!, 1, 2), tx(0, blockCostOf(ADD, limit(ADD) + 1, V)!, 2, 2)],
      [['exceeds-block-budget', 'error', 'add']],
    ],
    [
      "a swap above the block's limit: an error on amount_in",
      () => [tx(1, swapCost(limit(SWAP) + 1, 1234n))],
      [['exceeds-block-budget', 'error', '390000000']],
    ],
    [
      'a swap above the safe budget: a warning',
      () => [tx(1, swapCost(safe(SWAP) + 1, 1234n))],
      [['exceeds-block-budget', 'warning', '390000000']],
    ],
  ];
  for (const [name, txs, expected] of table)
    it(name, () => {
      assert.deepEqual(run(txs()).got, expected);
    });

  it('names the figure, the limit and the fix; a swap gets the largest amount and a quick fix setting it', () => {
    const { findings } = run([tx(1, swapCost(limit(SWAP) + 1, 1234n))]);
    const f = findings[0]!;
    assert.match(
      f.message,
      /^swap-x-for-y-simple-multi would cost \d+% of a block \([\d,]+ of 15,000 reads\)/,
    );
    assert.ok(f.message.includes("above a block's limit: it would never be mined"), f.message);
    assert.ok(f.message.includes('lower amount_in to at most 1234 sats,'), f.message);
    assert.equal(f.operation, 's');
    assert.equal(f.fixes?.[0]?.title, 'Lower amount_in to 1234');
    const edit = f.fixes![0]!.edits[0]!;
    assert.equal(TEXT.slice(edit.offset, edit.offset + edit.length), '390000000');
    assert.equal(edit.newText, '1234');
    const part = run([tx(0, blockCostOf(ADD, limit(ADD) + 1, V)!, 2, 3)]).findings[0]!;
    assert.match(part.message, /^add-liquidity-multi \(transaction 2 of 3\) would cost/);
    assert.ok(part.message.includes('split the operation into smaller operations'), part.message);
    assert.deepEqual(part.fixes, undefined);
  });
});
