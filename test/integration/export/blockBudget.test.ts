/**
 * Issue 41: a transaction must fit one Stacks block. Against the simulator over loopback HTTP with the real
 * API client, on a world with a wide 1-bps pool (840 bins of liquidity, the sender holding 350 of them),
 * the four plans a new user would write that used to check clean and export as ONE transaction each:
 * - a simple add of 340 positions (distribution 1..340), a simple move of 300 and a simple withdraw of 350
 *   now check clean and export split, every part within the safe budget, the summary saying why;
 * - a swap whose walk takes ~300 bins of the pool checks with `exceeds-block-budget` (an error: above a
 *   block's limit) and its export is refused under that code with the largest amount that fits, which
 *   itself checks clean and exports.
 * The summary, the json and the dashboard's plan preview show each transaction's share of a block.
 * Expected figures come from the cost table (core/chain/costs.ts), never from hard-coded counts.
 */
import assert from 'node:assert/strict';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { blockShare, callCost, maxUnitsWithin, SAFE_BLOCK_SHARE } from '../../../core/chain/costs';
import { SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { blockCostDetail, costVerdict } from '../../../core/tx/cost';
import { buildPlanPreview } from '../../../client/src/dashboard/feed';
import { formatExport } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import { USER } from '../../unit/tx/fixtures';
import { clientFor, startSimulator, type RunningSimulator } from '../check/sim';
import { WIDE, wideWorld } from './wideWorld';

const VERSION = 'v-1-2' as const;

const HEAD = `version: 1\nsender: ${USER}\npolicy: { max_price_impact: 5 }\noperations:\n`;

describe('a transaction fits a block (issue 41)', function () {
  this.timeout(120_000);
  let sim: RunningSimulator;
  let api: DlmmApi;
  before(async () => {
    sim = await startSimulator({ port: 0, world: wideWorld(USER) });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  async function check(text: string): Promise<Analysis> {
    return analyzePlan(text, { api, fileName: 'budget.dlmm.yaml' });
  }

  /** The plan's transactions of the check and of the export, both split within the safe budget. */
  async function splitWithinBudget(text: string, fn: string, positions: number): Promise<void> {
    const a = await check(text);
    assert.deepEqual(
      a.findings.filter((f) => f.severity === 'error' || f.code === 'exceeds-block-budget'),
      [],
      'the plan checks clean and within the budget',
    );
    const version = a.execution?.routers?.version ?? VERSION;
    // Each part at its costliest (every position into a bin with no shares, moving both tokens).
    const perTx = maxUnitsWithin(fn, SAFE_BLOCK_SHARE, version, { newBins: true, bothTokens: true })!;
    assert.ok(perTx < positions, `the table says ${positions} positions of ${fn} do not fit the safe budget`);
    const txs = a.execution?.transactions ?? [];
    assert.equal(txs.length, Math.ceil(positions / perTx), `split into parts of at most ${perTx}`);
    const units = txs.map((t) => t.blockCost?.units ?? -1);
    assert.deepEqual(
      units.slice(0, -1),
      units.slice(0, -1).map(() => perTx),
    );
    assert.equal(
      units.reduce((x, y) => x + y, 0),
      positions,
    );
    for (const tx of txs) assertPart(tx, fn, version);
    // The dashboard's plan preview (the host's feed) lists each part with its share of a block.
    const preview = buildPlanPreview(
      { uri: 'file:///budget.dlmm.yaml', fileName: 'budget.dlmm.yaml', analysis: a },
      new Set([WIDE]),
    );
    assert.equal(preview.state, 'ok');
    if (preview.state === 'ok')
      assert.deepEqual(
        preview.ops[0]?.costs,
        txs.map((t) => `${fn} (${t.part} of ${t.parts}): ${blockCostDetail(t.blockCost!)}`),
      );
    const r = await buildTransactions(a, { api });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.equal(r.transactions.length, txs.length);
    const summary = await formatExport(r.transactions, 'summary');
    for (const tx of r.transactions) {
      assertPart(tx, fn, version);
      const pct = Math.ceil(tx.blockCost!.share * 100 - 1e-9);
      assert.ok(
        summary.includes(`  cost:      cost ${pct}% of a block (`),
        `the summary shows each transaction's cost:\n${summary}`,
      );
    }
    assert.ok(
      summary.includes(
        `split to stay within 80% of a block's execution budget (at most ${perTx} positions of ${fn} per transaction`,
      ),
      `the summary says why it split:\n${summary}`,
    );
  }

  function assertPart(tx: BuiltTransaction, fn: string, version: 'v-1-1' | 'v-1-2'): void {
    assert.equal(tx.functionName, fn);
    const c = tx.blockCost;
    assert.ok(c, 'every built transaction has its cost');
    assert.deepEqual(c.cost, callCost(fn, c.units, version, { newBins: c.units, bothTokens: c.units }));
    assert.equal(c.share, blockShare(c.cost).share);
    assert.ok(c.share <= SAFE_BLOCK_SHARE, `${c.share} of a block is within the safe budget`);
    assert.equal(tx.execution?.status, 'ok', 'each part executes on the state read');
  }

  it('a simple add of 340 positions (distribution 1..340) is split within the safe budget', async () => {
    await splitWithinBudget(
      `${HEAD}  - id: wide-add\n    op: add\n    mode: simple\n    pool: ${WIDE}\n    distribution: { shape: spot, from: 1, to: 340, x_amount: 340000000, y_amount: 0 }\n`,
      'add-relative-liquidity-same-multi',
      340,
    );
  });

  it('a simple move of 300 positions is split within the safe budget', async () => {
    const moves = Array.from(
      { length: 300 },
      (_, k) => `      - { from_bin_id: ${-1 - k}, active_bin_offset: ${-51 - k}, amount: 1000000 }\n`,
    ).join('');
    await splitWithinBudget(
      `${HEAD}  - id: wide-move\n    op: move\n    mode: simple\n    pool: ${WIDE}\n    moves:\n${moves}`,
      'move-relative-liquidity-multi',
      300,
    );
  });

  it('a simple withdraw of 350 positions is split within the safe budget', async () => {
    await splitWithinBudget(
      `${HEAD}  - id: wide-out\n    op: withdraw\n    mode: simple\n    pool: ${WIDE}\n    withdrawal_percentage: 50\n`,
      'withdraw-relative-liquidity-multi',
      350,
    );
  });

  const swap = (amount: bigint | string) =>
    `${HEAD}  - { id: sell, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: ${amount} }\n`;

  it('a swap walking more bins than a block takes is an error, refused by the export with the largest amount that fits', async () => {
    const a = await check(swap('390000000'));
    const tx = a.execution?.transactions[0];
    assert.equal(tx?.functionName, 'swap-x-for-y-simple-multi');
    assert.equal(tx.execution?.status, 'ok');
    const used = tx.execution.status === 'ok' ? tx.execution.units : 0;
    const version = a.execution?.routers?.version ?? VERSION;
    const limit = maxUnitsWithin('swap-x-for-y-simple-multi', 1, version)!;
    assert.ok(
      used > limit,
      `the walk on the state read takes ${used} bins, above the ${limit} a block takes`,
    );
    const c = tx.blockCost;
    assert.ok(c?.walk, 'the swap counts the bins of its walk');
    assert.equal(c.walk.used, used);
    assert.equal(c.units, c.walk.used + c.walk.extra);
    assert.equal(costVerdict(c), 'over-limit');
    const hits = a.findings.filter((f) => f.code === 'exceeds-block-budget');
    assert.equal(hits.length, 1, JSON.stringify(a.findings));
    const f = hits[0]!;
    assert.equal(f.severity, 'error');
    assert.equal(f.operation, 'sell');
    const largest = c.largestAmount;
    assert.ok(largest !== undefined && largest > 0n && largest < 390000000n);
    assert.match(f.message, /would cost \d+% of a block \([\d,]+ of 15,000 reads\)/);
    assert.ok(f.message.includes("above a block's limit"), f.message);
    assert.ok(f.message.includes(`lower amount_in to at most ${largest} (`), f.message);
    assert.equal(f.fixes?.[0]?.edits[0]?.newText, String(largest), 'the quick fix sets the largest amount');

    const r = await buildTransactions(a, { api });
    assert.equal(r.ok, false, 'nothing over budget is written');
    if (r.ok) return;
    assert.equal(r.error.code, 'exceeds-block-budget');
    assert.ok(r.error.message.includes(`lower amount_in to at most ${largest} (`), r.error.message);

    // The largest amount is exact: it checks within the safe budget and exports; one unit more does not.
    const fits = await check(swap(largest));
    assert.deepEqual(
      fits.findings.filter((x) => x.severity === 'error' || x.code === 'exceeds-block-budget'),
      [],
    );
    const fc = fits.execution?.transactions[0]?.blockCost;
    assert.ok(fc && costVerdict(fc) === 'fits', JSON.stringify(fc));
    const exported = await buildTransactions(fits, { api });
    assert.ok(exported.ok, exported.ok ? '' : exported.error.message);
    assert.equal(exported.transactions.length, 1);
    assert.match(await formatExport(exported.transactions, 'summary'), /cost:\s+cost \d+% of a block/);

    const over = await check(swap(largest + 1n));
    const warn = over.findings.filter((x) => x.code === 'exceeds-block-budget');
    assert.equal(warn.length, 1, JSON.stringify(over.findings.map((x) => x.code)));
    assert.equal(warn[0]!.severity, 'warning', 'above the safe budget but within the block: a warning');
    // Check and export give one verdict: a warning is written, with the problem as a note.
    const written = await buildTransactions(over, { api });
    assert.ok(written.ok, written.ok ? '' : written.error.message);
    assert.ok(
      written.transactions[0]!.notes.some(
        (n) => n.startsWith('COST: ') && n.includes('above the safe budget'),
      ),
      JSON.stringify(written.transactions[0]!.notes),
    );
  });
});
