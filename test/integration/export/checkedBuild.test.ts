/**
 * The export writes the check's build (issue #27 item 2): against the simulator over loopback with the real
 * API client, the transactions `buildTransactions` returns for a live analysis are copies of the analysis's
 * own executed transactions (`analysis.execution`), not a second build: their post-condition lists and
 * list arguments are the very objects the check built (a build makes new ones), for liquidity operations,
 * swaps (the export adds only the engine's swap-parameter lines) and `--op` of an operation no earlier one
 * touches. The export sends no node read and no quote: only the swap-parameters request a swap's attribution
 * needs. `--op` keeps its meaning: the operation alone on the state read (same bytes as a plan holding only
 * it), so an operation whose pool an earlier one changes is still built alone.
 */
import assert from 'node:assert/strict';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { POOL_SBTC_USDCX, SBTC, STX_WRAPPER, USDCX } from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { argsHex, txHexes } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import { PUBLIC_KEY, USER } from '../../unit/tx/fixtures';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from '../check/sim';

const HEAD = `version: 1\nsender: ${USER}\noperations:\n`;
const ADD = `  - id: asks\n    op: add\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { bin_id: 142, x_amount: 150000, y_amount: 0 }\n`;
const WITHDRAW = `  - id: out\n    op: withdraw\n    pool: ${POOL_SBTC_USDCX}\n    withdrawal_percentage: 50\n    bins: [136, 137]\n`;
/** A swap on the STX/USDCx pool, which the add and withdraw above do not touch. */
const BUY = `  - { id: buy, op: swap, input_token: ${STX_WRAPPER}, output_token: ${USDCX}, amount_in: 1000000 }\n`;
/** A swap on the sBTC/USDCx pool: it moves that pool's bins before a later add there. */
const SELL = `  - { id: sell, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 10000000 }\n`;
const SIGNING = { publicKey: PUBLIC_KEY, nonce: 3n, fee: 1000n };

describe("export writes the check's build (no second build)", function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let api: DlmmApi;
  before(async () => {
    sim = await startSimulator({ port: 0, world: worldForUser(USER, 'checked-build') });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  async function clean(text: string): Promise<Analysis> {
    const a = await analyzePlan(text, { api, fileName: 'reuse.dlmm.yaml' });
    assert.deepEqual(
      a.findings.filter((f) => f.severity === 'error'),
      [],
      'the plan checks clean',
    );
    assert.ok(a.execution, 'the check built and executed the transactions');
    return a;
  }

  /** The check's transactions of operation `opId`. */
  const checkedOf = (a: Analysis, opId: string): BuiltTransaction[] =>
    (a.execution?.transactions ?? []).filter((t) => t.opId === opId);

  /** `tx` is the check's transaction (same post-condition list and list argument objects), not rebuilt. */
  function sameBuild(tx: BuiltTransaction, checked: BuiltTransaction, what: string): void {
    assert.notEqual(tx, checked, `${what}: a copy (the analysis keeps its own transaction)`);
    assert.equal(
      tx.postConditions,
      checked.postConditions,
      `${what}: the check's post-conditions, not rebuilt`,
    );
    assert.equal(tx.functionArgs[0], checked.functionArgs[0], `${what}: the check's first argument`);
    assert.equal(tx.functionName, checked.functionName);
  }

  it("a plan of an add, a withdraw and a swap: every transaction is the check's, and the export reads nothing", async () => {
    const a = await clean(HEAD + ADD + WITHDRAW + BUY);
    const before = sim.requests();
    for (const signing of [{}, SIGNING]) {
      const r = await buildTransactions(a, { api, ...signing });
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(
        r.transactions.map((t) => t.opId),
        ['asks', 'out', 'buy'],
      );
      for (const tx of r.transactions) sameBuild(tx, checkedOf(a, tx.opId)[0]!, tx.opId);
      // The swap's summary has the engine's swap-parameter lines the check never asks for, after its fill lines.
      const swap = r.transactions[2]!;
      const checked = checkedOf(a, 'buy')[0]!;
      const engine = swap.notes.findIndex((n) =>
        n.startsWith('engine swap parameters (POST /quotes/v2/swap)'),
      );
      assert.ok(engine > 0, swap.notes.join('\n'));
      assert.deepEqual(swap.notes.slice(0, engine), checked.notes.slice(0, engine));
      assert.deepEqual(swap.notes.slice(engine + 1), checked.notes.slice(engine));
      assert.ok(!checked.notes.some((n) => n.startsWith('engine swap parameters')));
    }
    const after = sim.requests();
    // Two exports: one swap-parameters request each; no node read, no other read.
    assert.deepEqual([after.service - before.service, after.node - before.node], [2, 0]);
  });

  it("--op of an operation no earlier one touches is the check's transaction, executed alone on the state read", async () => {
    const a = await clean(HEAD + ADD + BUY);
    const r = await buildTransactions(a, { api, opId: 'buy', ...SIGNING });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.equal(r.transactions.length, 1);
    const checked = checkedOf(a, 'buy')[0]!;
    sameBuild(r.transactions[0]!, checked, 'buy');
    // Executed again, alone: its balances start from the state read with the fee taken, not after the add.
    assert.notEqual(r.transactions[0]!.execution, checked.execution);
    assert.equal(r.transactions[0]!.execution?.status, 'ok');
    // The same bytes as the plan holding only that operation.
    const alone = await buildTransactions(await clean(HEAD + BUY), { api, ...SIGNING });
    assert.ok(alone.ok);
    assert.deepEqual(await txHexes(r.transactions, SIGNING), await txHexes(alone.transactions, SIGNING));
  });

  it("without a node proxy, an add whose min-dlp fell back is the check's transaction: refused unless allowed", async () => {
    const noNode = clientFor(sim, { node: false });
    try {
      const text = HEAD + ADD.replace('bin_id: 142', 'bin_id: 150');
      const a = await analyzePlan(text, { api: noNode, fileName: 'reuse.dlmm.yaml' });
      assert.ok(a.findings.some((f) => f.code === 'min-dlp-unprotected'));
      assert.deepEqual(
        a.findings.filter((f) => f.severity === 'error'),
        [],
      );
      const refused = await buildTransactions(a, { api: noNode });
      assert.ok(!refused.ok && refused.error.code === 'bounds-unknown', JSON.stringify(refused));
      assert.match(refused.error.message, /bin\(s\) 150 could not be computed/);
      const before = sim.requests();
      const r = await buildTransactions(a, { api: noNode, allowUnprotected: true });
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(
        r.findings.map((f) => f.code),
        ['min-dlp-unprotected'],
      );
      sameBuild(r.transactions[0]!, checkedOf(a, 'asks')[0]!, 'asks');
      assert.equal(
        r.transactions[0]!.notes.filter((n) => n.startsWith('min-dlp fell back to 1')).length,
        1,
        r.transactions[0]!.notes.join('\n'),
      );
      assert.deepEqual(sim.requests(), before, 'the export reads nothing');
    } finally {
      await noNode.close?.();
    }
  });

  it('--op of an operation whose pool an earlier one changes is built alone on the state read, as before', async () => {
    const add = `  - id: top\n    op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { active_bin_offset: 1, x_amount: 1000, y_amount: 0 }\n`;
    const a = await clean(HEAD + SELL + add);
    const r = await buildTransactions(a, { api, opId: 'top', ...SIGNING });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const checked = checkedOf(a, 'top')[0]!;
    // The check built it after the swap moved the pool; alone its bounds come from the state read.
    assert.notEqual(r.transactions[0]!.postConditions, checked.postConditions);
    const alone = await buildTransactions(await clean(HEAD + add), { api, ...SIGNING });
    assert.ok(alone.ok);
    assert.deepEqual(await txHexes(r.transactions, SIGNING), await txHexes(alone.transactions, SIGNING));
    const args = (tx: BuiltTransaction) => argsHex(tx).filter((_, i) => tx.argNames[i] !== 'deadline');
    assert.notDeepEqual(
      args(r.transactions[0]!),
      args(checked),
      'the check built it on the state the swap leaves: another expected active bin',
    );
  });
});
