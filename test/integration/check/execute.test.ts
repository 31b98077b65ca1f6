/**
 * `check` executes the plan's exact transactions on the state it read (core/check/execute.ts), and the
 * export builds transactions that execute: the six cases of issue 9 as fixed regression tests. Each case
 * runs the real simulator over loopback HTTP, analyzes live, exports with the same build and applies the
 * serialized transactions, in order, on the simulator's engine (the chain model behind POST /admin/apply).
 */
import { strict as assert } from 'node:assert';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { applyTransaction } from '../../../core/sim/apply';
import { buildTransactions } from '../../../core/tx/build';
import { txHexes } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import { DEFAULT_WORLD_INPUT } from '../../../core/sim/defaultWorld';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from './sim';

/** Not a secret: a fixed test key so the world's user can sign. */
const PUBLIC_KEY = privateKeyToPublic('33'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';

type WorldInput = typeof DEFAULT_WORLD_INPUT;

function world(edit: (w: WorldInput) => void = () => undefined) {
  return worldForUser(USER, 'execute-world', edit);
}

describe('check executes the plan (issue 9 regressions)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  async function start(w = world()): Promise<void> {
    await api?.close?.();
    await sim?.close();
    sim = await startSimulator({ port: 0, world: w });
    api = clientFor(sim);
  }
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  const plan = (ops: string, policy = '') => `version: 1\nsender: ${USER}\n${policy}operations:\n${ops}`;
  const analyze = (text: string) => analyzePlan(text, { api, fileName: 'x.dlmm.yaml' });
  /** Errors and the execution's own findings (warnings such as duplicate-bin are not the point here). */
  const codes = (a: Analysis) =>
    a.findings
      .filter((f) => f.severity === 'error' || f.code === 'execution-unchecked')
      .map((f) => `${f.code}: ${f.message}`);

  /** Exports every operation and applies the transactions in order; the first failure, or 'ok'. */
  async function exportAndApply(a: Analysis): Promise<{ txs: BuiltTransaction[]; applied: string[] }> {
    const built = await buildTransactions(a, { api, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    const hexes = await txHexes(built.transactions, { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    const applied = hexes.map((h) => {
      const r = applyTransaction(sim.engine, h);
      return r.ok ? 'ok' : `${r.error}: ${r.detail}`;
    });
    return { txs: built.transactions, applied };
  }

  it('case 5: a strict add that mints 0 shares is red, with the contract error', async () => {
    await start();
    const a = await analyze(
      plan(
        `  - op: add\n    pool: dlmm_1\n    mode: strict\n    bins:\n      - { bin_id: 132, x_amount: 0, y_amount: 1 }\n`,
      ),
    );
    const f = a.findings.find((x) => x.code === 'would-revert');
    assert.ok(f, JSON.stringify(a.findings));
    assert.equal(f.severity, 'error');
    assert.match(f.message, /ERR_MINIMUM_LP_AMOUNT u1024/);
    const built = await buildTransactions(a, { api });
    assert.equal(built.ok, false, 'the export refuses a plan that would revert');
  });

  it('case 4: a failing element other than the last reports ERR_NO_RESULT_DATA u5001 and the cause, on the item', async () => {
    await start();
    const text = plan(
      `  - op: add\n    pool: dlmm_1\n    mode: strict\n    bins:\n      - { bin_id: 132, x_amount: 0, y_amount: 1 }\n      - { bin_id: 133, x_amount: 0, y_amount: 50000000 }\n`,
    );
    const a = await analyze(text);
    const f = a.findings.find((x) => x.code === 'would-revert');
    assert.ok(f, JSON.stringify(a.findings));
    assert.match(
      f.message,
      /ERR_NO_RESULT_DATA u5001: list element 1 failed with ERR_MINIMUM_LP_AMOUNT u1024/,
    );
    assert.equal(text.slice(f.offset, f.offset + f.length), '{ bin_id: 132, x_amount: 0, y_amount: 1 }');
  });

  it('case 2: several strict moves into a bin the sender does not hold export and apply (NFT re-tag, sequential shares)', async () => {
    await start();
    const held = sim.engine.userBins(sim.engine.pool('dlmm_1')!, USER);
    const share = (bin: number) => (held.find((b) => b.binId === bin)!.shares * 3n) / 10n;
    const moves = [136, 137, 138]
      .map((b) => `      - { from_bin_id: ${b}, to_bin_id: 130, amount: ${share(b)} }`)
      .join('\n');
    const a = await analyze(
      plan(
        `  - op: move\n    pool: ${sim.engine.pool('dlmm_1')!.id}\n    mode: strict\n    moves:\n${moves}\n`,
        'policy: { slippage_tolerance: 0 }\n',
      ),
    );
    assert.deepEqual(codes(a), []);
    const exec = a.execution?.transactions[0]?.execution;
    assert.equal(exec?.status, 'ok');
    const { txs, applied } = await exportAndApply(a);
    assert.deepEqual(applied, ['ok']);
    const words = txs[0]!.postConditionWords.join('\n');
    assert.match(words, /position NFT pool-token-id for bin 130/);
    // Exported min-dlp of each move is what the contract minted (0% slippage): sequential within the tx.
    if (exec?.status === 'ok') {
      const minted = exec.effects.map((e) => (e.kind === 'move' ? e.minted : -1n));
      const mins = txs[0]!.rows.map((r) => r.bounds.find((b) => b.label === 'min-dlp')!.amount);
      assert.deepEqual(mins, minted);
    }
  });

  it('case 3: a swap then a strict add on the same pool: the add is checked on the state the swap leaves', async () => {
    await start();
    const a = await analyze(
      plan(
        `  - op: swap\n    input_token: ${USDCX}\n    output_token: ${SBTC}\n    amount_in: 20000000000\n  - op: add\n    pool: dlmm_1\n    mode: strict\n    bins:\n      - { bin_id: 140, x_amount: 1000, y_amount: 0 }\n`,
      ),
    );
    const f = a.findings.find((x) => x.code === 'would-revert');
    assert.ok(f, `the swap moves the active bin above 140: ${JSON.stringify(a.findings)}`);
    assert.equal(f.operation, '1');
    assert.match(f.message, /ERR_INVALID_X_AMOUNT/);
  });

  it('case 3: two swaps on one pool: the second is bounded on the state the first leaves, and both apply', async () => {
    await start();
    const swap = `  - op: swap\n    input_token: ${USDCX}\n    output_token: ${SBTC}\n    amount_in: 3000000000\n`;
    const a = await analyze(plan(swap + swap, 'policy: { slippage_tolerance: 0 }\n'));
    assert.deepEqual(codes(a), []);
    const { applied } = await exportAndApply(a);
    assert.deepEqual(applied, ['ok', 'ok']);
  });

  it('case 1: a multi-hop swap whose hop starts in a bin holding only the input token exports a step per crossed bin and applies', async () => {
    // Without dlmm_1, sBTC -> USDCx routes through dlmm_3 (sBTC is y: y for x) then dlmm_2 (STX is x).
    await start(
      world((w) => {
        w.pools = w.pools.filter((p) => p.alias !== 'dlmm_1');
        for (const u of w.users ?? []) u.positions = (u.positions ?? []).filter((p) => p.pool !== 'dlmm_1');
      }),
    );
    // An x-for-y trade leaves dlmm_3's active bin holding only y (sBTC, the input of the next trade).
    assert.ok(sim.engine.shiftActiveBin(sim.engine.pool('dlmm_3')!, -1).ok);
    const a = await analyze(
      plan(`  - op: swap\n    input_token: ${SBTC}\n    output_token: ${USDCX}\n    amount_in: 200000\n`),
    );
    assert.deepEqual(codes(a), []);
    const { txs, applied } = await exportAndApply(a);
    assert.equal(txs[0]!.functionName, 'swap-multi');
    assert.ok(
      txs[0]!.rows.some((r) => /crossed/.test(r.label)),
      `a step for the crossed bin: ${txs[0]!.rows.map((r) => r.label).join('; ')}`,
    );
    assert.deepEqual(applied, ['ok']);
  });
});
