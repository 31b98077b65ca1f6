/**
 * Exporter end to end on the simulated engine (no HTTP): every operation kind is built, serialized,
 * decoded (round trip equal) and dry-run; the world's new state must equal the prepared preview.
 */
import assert from 'node:assert/strict';
import {
  cvToHex,
  deserializeTransaction,
  postConditionToHex,
  wireToPostCondition,
  PayloadType,
} from '@stacks/transactions';
import { QuoteResponseSchema } from '../../../core/api/schemas';
import type { Finding } from '../../../core/plan/diagnostics';
import type { PreparedOperation } from '../../../core/prepare/prepared';
import { POOL_SBTC_USDCX, POOL_STX_USDCX } from '../../../core/sim/defaultWorld';
import { applyTransaction } from '../../../core/sim/apply';
import type { SimEngine } from '../../../core/sim/engine';
import { quotePool } from '../../../core/chain/index';
import { buildTransactions } from '../../../core/tx/build';
import { positionsPerTx } from '../../../core/tx/cost';
import {
  argsHex,
  formatSummary,
  postConditionsHex,
  formatWalletRequest,
  txHexes,
  unsignedTransaction,
} from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import {
  addItem,
  analysisOf,
  expectedMint,
  moveItem,
  plan,
  PUBLIC_KEY,
  snapshot,
  stateOf,
  testEngine,
  USER,
  withdrawItem,
} from './fixtures';

const SIGNING = { publicKey: PUBLIC_KEY, nonce: 7n, fee: 3000n };
/** `tx` serialized at the signer's next nonce on `engine` (the engine refuses any other, as the chain does). */
async function atNextNonce(engine: SimEngine, tx: BuiltTransaction): Promise<string> {
  return (await txHexes([{ ...tx, nonce: engine.nonceOf(USER) }], SIGNING))[0]!;
}

async function build(engine: SimEngine, ops: PreparedOperation[], p = plan()): Promise<BuiltTransaction[]> {
  // Simple-mode bounds cover the active-bin window: they need the state read (the engine's, copied).
  const simple = ops.some((op) => op.op !== 'swap' && op.mode === 'simple');
  const r = await buildTransactions(analysisOf(engine, ops, p), {
    publicKey: PUBLIC_KEY,
    nonce: 7n,
    fee: 3000n,
    now: () => 1_800_000_000_000,
    ...(simple ? { state: stateOf(engine) } : {}),
  });
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  for (const tx of r.transactions)
    assert.deepEqual(
      argsHex(tx),
      tx.functionArgs.map((a) => cvToHex(a).slice(2)),
      'fast serializer equals cvToHex',
    );
  for (const tx of r.transactions)
    assert.deepEqual(
      postConditionsHex(tx),
      tx.postConditions.map((pc) => postConditionToHex(pc).replace(/^0x/, '')),
      'fast post-condition serializer equals postConditionToHex',
    );
  const hexes = await txHexes(r.transactions, SIGNING);
  for (const [i, tx] of r.transactions.entries())
    assert.equal(
      hexes[i],
      (await unsignedTransaction(tx, tx.nonce ?? SIGNING.nonce + BigInt(i), SIGNING)).serialize(),
      'the spliced transaction equals stacks.js serialization',
    );
  return r.transactions;
}

function pool1(engine: SimEngine) {
  return engine.poolByPrincipal(POOL_SBTC_USDCX)!;
}

function strictAdd(engine: SimEngine): PreparedOperation {
  const p = pool1(engine);
  const a = p.activeBinId;
  return {
    id: 'add',
    index: 0,
    op: 'add',
    mode: 'strict',
    pool: snapshot(engine, p),
    items: [addItem(engine, p, 0, a + 2, 150_000n, 0n), addItem(engine, p, 1, a - 3, 0n, 2_500_000n)],
  };
}

function simpleAdd(engine: SimEngine): PreparedOperation {
  const p = pool1(engine);
  const a = p.activeBinId;
  return {
    id: 'simple-add',
    index: 1,
    op: 'add',
    mode: 'simple',
    pool: snapshot(engine, p),
    items: [
      addItem(engine, p, 0, a - 1, 0n, 1_000_000n, true),
      addItem(engine, p, 1, a + 2, 20_000n, 0n, true),
    ],
  };
}

describe('tx export: build, serialize, decode, dry-run', () => {
  it('round-trips a strict add through tx-hex and wallet-request', async () => {
    const engine = testEngine();
    const [tx] = await build(engine, [strictAdd(engine)]);
    assert.ok(tx);
    assert.equal(tx.functionName, 'add-liquidity-multi');
    assert.equal(tx.postConditionMode, 'deny');
    assert.equal(tx.nonce, 7n);
    const [hex] = await txHexes([tx], SIGNING);
    assert.ok(hex && /^[0-9a-f]+$/.test(hex));
    assert.equal(
      hex,
      (await unsignedTransaction(tx, 7n, SIGNING)).serialize(),
      'the appended arguments equal stacks.js serialization',
    );
    const back = deserializeTransaction(hex);
    assert.equal(back.payload.payloadType, PayloadType.ContractCall);
    const payload = back.payload as Extract<typeof back.payload, { payloadType: PayloadType.ContractCall }>;
    assert.equal(payload.functionName.content, 'add-liquidity-multi');
    assert.deepEqual(payload.functionArgs.map(cvToHex), tx.functionArgs.map(cvToHex));
    assert.deepEqual(
      back.postConditions.values.map((w) =>
        postConditionToHex(wireToPostCondition(w as Parameters<typeof wireToPostCondition>[0])),
      ),
      tx.postConditions.map(postConditionToHex),
    );
    assert.equal(back.auth.spendingCondition.nonce, 7n);
    const wr = JSON.parse(formatWalletRequest([tx])) as {
      method: string;
      params: {
        functionArgs: string[];
        postConditions: string[];
        postConditionMode: string;
        network: string;
        contract: string;
      };
    }[];
    assert.equal(wr[0]!.method, 'stx_callContract');
    assert.equal(
      wr[0]!.params.contract,
      'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
    );
    assert.ok(wr[0]!.params.functionArgs.every((h) => !h.startsWith('0x')));
    assert.deepEqual(
      wr[0]!.params.functionArgs,
      tx.functionArgs.map((a) => cvToHex(a).slice(2)),
    );
    assert.equal(wr[0]!.params.postConditionMode, 'deny');
    assert.equal(wr[0]!.params.network, 'mainnet');
    const text = formatSummary([tx]);
    assert.match(text, /add-liquidity-multi/);
    assert.match(text, /sends at most 0\.0015 sBTC/);
    assert.match(text, /less 1% slippage/);
  });

  it('dry-runs a strict add and the new state equals the preview', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const op = strictAdd(engine);
    const items = (op as Extract<PreparedOperation, { op: 'add' }>).items;
    const expected = items.map((i) => ({
      bin: i.bin_id,
      before: engine.userShares(p, USER, i.bin_id),
      mint: expectedMint(engine, p, i.bin_id, i.x_amount, i.y_amount),
      rx: i.reserve_x + i.x_amount,
      ry: i.reserve_y + i.y_amount,
    }));
    const [tx] = await build(engine, [op]);
    const [hex] = await txHexes([tx!], SIGNING);
    const r = applyTransaction(engine, hex!);
    assert.ok(r.ok, r.ok ? '' : `${r.error}: ${r.detail}`);
    for (const e of expected) {
      assert.equal(engine.userShares(p, USER, e.bin), e.before + e.mint);
      assert.equal(engine.bin(p, e.bin).reserve_x, e.rx);
      assert.equal(engine.bin(p, e.bin).reserve_y, e.ry);
    }
  });

  it('dry-runs strict withdraw and move, and a simple move, matching the preview', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const a = p.activeBinId;
    const w = withdrawItem(engine, p, a - 2, 50);
    const withdraw: PreparedOperation = {
      id: 'w',
      index: 0,
      op: 'withdraw',
      mode: 'strict',
      pool: snapshot(engine, p),
      items: [w],
    };
    const before = engine.userShares(p, USER, a - 2);
    let [tx] = await build(engine, [withdraw]);
    assert.equal(tx!.functionName, 'withdraw-liquidity-multi');
    let r = applyTransaction(engine, await atNextNonce(engine, tx!));
    assert.ok(r.ok, r.ok ? '' : `${r.error}: ${r.detail}`);
    assert.equal(engine.userShares(p, USER, a - 2), before - w.amount);
    assert.equal(engine.bin(p, a - 2).reserve_y, w.reserve_y - w.y_amount);

    const m = moveItem(engine, p, 0, a - 3, a - 5, engine.userShares(p, USER, a - 3) / 2n);
    const mint = expectedMint(engine, p, a - 5, m.x_amount, m.y_amount);
    const toBefore = engine.userShares(p, USER, a - 5);
    [tx] = await build(engine, [
      { id: 'm', index: 0, op: 'move', mode: 'strict', pool: snapshot(engine, p), items: [m] },
    ]);
    assert.equal(tx!.functionName, 'move-liquidity-multi');
    r = applyTransaction(engine, await atNextNonce(engine, tx!));
    assert.ok(r.ok, r.ok ? '' : `${r.error}: ${r.detail}`);
    assert.equal(engine.userShares(p, USER, a - 5), toBefore + mint);

    const sm = moveItem(engine, p, 0, a + 1, a + 4, engine.userShares(p, USER, a + 1) / 3n, true);
    [tx] = await build(engine, [
      { id: 'sm', index: 0, op: 'move', mode: 'simple', pool: snapshot(engine, p), items: [sm] },
    ]);
    assert.equal(tx!.functionName, 'move-relative-liquidity-multi');
    assert.equal(tx!.postConditionMode, 'allow');
    r = applyTransaction(engine, await atNextNonce(engine, tx!));
    assert.ok(r.ok, r.ok ? '' : `${r.error}: ${r.detail}`);
  });

  it('dry-runs a single-pool swap built from the engine route', async () => {
    const engine = testEngine();
    const p = engine.poolByPrincipal(POOL_STX_USDCX)!;
    const walk = quotePool(p, true, 50_000_000_000n);
    // The engine's route in the published QuoteResponse shape: one step per bin the walk crosses.
    const route = QuoteResponseSchema.parse({
      success: true,
      execution_path: walk.steps.map((s) => ({
        pool_trait: p.id,
        x_token_trait: p.tokenX,
        y_token_trait: p.tokenY,
        expected_bin_id: s.bin_id,
        function_name: 'swap-x-for-y',
        x_in: String(s.amount_in),
        y_out: String(s.amount_out),
        is_empty_swap: s.amount_in === 0n,
      })),
      amount_out: String(walk.amount_out),
      min_amount_out: String(walk.amount_out),
      slippage_tolerance: 1,
      route_path: [p.tokenX, p.tokenY],
      fee: '0',
      price_impact_bps: 0,
      price_impact_tokens: '0',
      input_token_decimals: 6,
      output_token_decimals: 6,
    });
    const op: PreparedOperation = {
      id: 's',
      index: 0,
      op: 'swap',
      swap: {
        input_token: p.tokenX,
        output_token: p.tokenY,
        amount_in: 50_000_000_000n,
        amm_strategy: 'best',
        slippage_tolerance: 1,
        route,
      },
    };
    const [tx] = await build(engine, [op]);
    assert.equal(tx!.functionName, 'swap-x-for-y-simple-multi');
    assert.equal(tx!.postConditions[0]!.type, 'stx-postcondition');
    const r = applyTransaction(engine, await atNextNonce(engine, tx!));
    assert.ok(r.ok, r.ok ? '' : `${r.error}: ${r.detail}`);
    assert.equal(p.activeBinId, walk.active_bin_after);
  });

  it('strict vs simple: after a 1-bin shift the strict add reverts and the simple add confirms', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const a = p.activeBinId;
    // The interface's table: an add at the active bin; a 1-bin shift moves it below the active bin.
    const strictOp: PreparedOperation = {
      id: 'strict',
      index: 0,
      op: 'add',
      mode: 'strict',
      pool: snapshot(engine, p),
      items: [addItem(engine, p, 0, a, 20_000n, 15_000_000n)],
    };
    const simpleOp: PreparedOperation = {
      id: 'simple',
      index: 1,
      op: 'add',
      mode: 'simple',
      pool: snapshot(engine, p),
      items: [
        addItem(engine, p, 0, a, 20_000n, 15_000_000n, true),
        ...(simpleAdd(engine) as { items: ReturnType<typeof addItem>[] }).items,
      ],
    };
    const [strictTx, simpleTx] = await build(engine, [strictOp, simpleOp]);
    assert.equal(strictTx!.functionName, 'add-liquidity-multi');
    assert.equal(simpleTx!.functionName, 'add-relative-liquidity-same-multi');
    assert.equal(simpleTx!.postConditionMode, 'allow');
    assert.equal(simpleTx!.nonce, 8n);
    const [h1, h2] = await txHexes([strictTx!, simpleTx!], SIGNING);
    const shifted = engine.shiftActiveBin(p, 1);
    assert.ok(shifted.ok);
    const bins = [...p.bins.entries()];
    const strict = applyTransaction(engine, h1!);
    assert.equal(strict.ok, false);
    assert.equal(strict.ok ? '' : strict.error, 'ERR_INVALID_X_AMOUNT');
    // Mined as an abort: its nonce is used, and nothing of its call stays.
    assert.equal(engine.nonceOf(USER), 8n);
    assert.deepEqual([...p.bins.entries()], bins, 'a reverted call changes no bin');
    const simple = applyTransaction(engine, h2!);
    assert.ok(simple.ok, simple.ok ? '' : `${simple.error}: ${simple.detail}`);
  });

  it('a tampered min-dlp or a missing post-condition makes the dry-run fail', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const op = strictAdd(engine);
    const [tx] = await build(engine, [op]);
    const item = (op as Extract<PreparedOperation, { op: 'add' }>).items[0]!;
    const mint = expectedMint(engine, p, item.bin_id, item.x_amount, item.y_amount);
    const tampered = structuredClone(tx!);
    const list = tampered.functionArgs[0] as {
      type: 'list';
      value: { type: 'tuple'; value: Record<string, unknown> }[];
    };
    list.value[0]!.value['min-dlp'] = { type: 'uint', value: mint + 1n };
    let r = applyTransaction(engine, await atNextNonce(engine, tampered!));
    // The first of several elements fails: the router's next fold step reports ERR_NO_RESULT_DATA (u5001).
    const n = list.value.length;
    if (n > 1) {
      assert.deepEqual(r.ok ? 'ok' : [r.error, r.code, r.cause, r.cause_code, r.item], [
        'ERR_NO_RESULT_DATA',
        5001,
        'ERR_MINIMUM_LP_AMOUNT',
        1024,
        0,
      ]);
    } else assert.equal(r.ok ? 'ok' : r.error, 'ERR_MINIMUM_LP_AMOUNT');
    const missing = { ...tx!, postConditions: tx!.postConditions.slice(1) };
    r = applyTransaction(engine, await atNextNonce(engine, missing!));
    assert.equal(r.ok ? 'ok' : r.error, 'POST_CONDITION_FAILED');
    r = applyTransaction(engine, await atNextNonce(engine, tx!));
    assert.ok(r.ok, 'the untampered transaction still applies');
  });

  it('splits more than 350 positions into transactions with consecutive nonces', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const items = Array.from({ length: 400 }, (_, i) =>
      addItem(engine, p, i, p.activeBinId + 1 + (i % 300), 1000n + BigInt(i), 0n),
    );
    const txs = await build(engine, [
      { id: 'big', index: 0, op: 'add', mode: 'simple', pool: snapshot(engine, p), items },
    ]);
    // Split by the list limit (350) and by cost: each part within the safe share of a block (core/tx/cost.ts).
    const perTx = positionsPerTx('add-relative-liquidity-same-multi', 350, 'v-1-2');
    const parts = Math.ceil(400 / perTx);
    assert.ok(perTx < 350 && parts >= 2, `${perTx} positions per transaction`);
    assert.deepEqual(
      txs.map((t) => [t.part, t.parts, t.nonce]),
      Array.from({ length: parts }, (_, i) => [i + 1, parts, 7n + BigInt(i)]),
    );
    assert.equal(
      txs.reduce((n, t) => n + t.rows.length, 0),
      400,
    );
  });

  it('computes the export-only fields (words, rows, totals) on first read, once, split parts included', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const items = Array.from({ length: 400 }, (_, i) =>
      addItem(engine, p, i, p.activeBinId + 1 + (i % 300), 1000n + BigInt(i), 0n),
    );
    // buildTransactions alone: build() also serializes, which reads every field.
    const r = await buildTransactions(
      analysisOf(engine, [
        { id: 'big', index: 0, op: 'add', mode: 'simple', pool: snapshot(engine, p), items },
      ]),
      { nonce: 7n, state: stateOf(engine) },
    );
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const txs = r.transactions;
    assert.equal(
      txs.length,
      Math.ceil(400 / positionsPerTx('add-relative-liquidity-same-multi', 350, 'v-1-2')),
    );
    for (const tx of txs) {
      for (const key of ['postConditionWords', 'rows', 'totals'] as const) {
        assert.equal(typeof Object.getOwnPropertyDescriptor(tx, key)?.get, 'function', `${key} unread`);
        const value = tx[key];
        assert.equal(Object.getOwnPropertyDescriptor(tx, key)?.value, value, `${key} held after a read`);
        assert.equal(tx[key], value);
      }
      assert.equal(tx.postConditionWords.length, tx.postConditions.length);
      assert.equal(tx.rows.length, tx.itemIndexes?.length);
      assert.deepEqual(
        tx.totals.map((t) => t.label),
        ['total x', 'total y'],
      );
    }
  });

  it('refuses a plan with error findings, listing them', async () => {
    const engine = testEngine();
    const a = analysisOf(engine, [strictAdd(engine)]);
    a.findings.push({
      code: 'wrong-token-side',
      severity: 'error',
      message: 'bin 138 is below the active bin 139 with x_amount 5',
      offset: 10,
      length: 3,
      operation: '0',
    });
    const r = await buildTransactions(a, {});
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error.code, 'plan-has-errors');
    assert.match(r.ok ? '' : r.error.message, /wrong-token-side \(operation 0\): bin 138/);
  });

  /** The analysis of an add whose bin shares are unknown, with the check's min-dlp-unprotected finding. */
  const unprotectedAdd = (engine: SimEngine) => {
    const op = strictAdd(engine) as Extract<PreparedOperation, { op: 'add' }>;
    for (const i of op.items) delete i.bin_shares_known;
    const a = analysisOf(engine, [op]);
    const check: Finding = {
      code: 'min-dlp-unprotected',
      severity: 'warning',
      message: 'bin shares are unknown for 2 of 2 bins',
      offset: 20,
      length: 4,
      operation: op.id,
    };
    a.findings.push(check);
    return { op, a, check };
  };

  it('refuses an operation whose min-dlp cannot be computed, naming the bins and the check finding', async () => {
    const engine = testEngine();
    const { op, a, check } = unprotectedAdd(engine);
    const r = await buildTransactions(a, {});
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error.code, 'bounds-unknown');
    const bins = op.items.map((i) => i.bin_id).join(', ');
    assert.match(r.ok ? '' : r.error.message, new RegExp(`operation '${op.id}'.*bin\\(s\\) ${bins}`));
    assert.match(r.ok ? '' : r.error.message, /--allow-unprotected/);
    assert.deepEqual(r.ok ? [] : r.error.findings, [check]);
  });

  it('falls back to min-dlp 1 only when allowed, and says so with the check finding and in the notes', async () => {
    const engine = testEngine();
    const { a, check } = unprotectedAdd(engine);
    const r = await buildTransactions(a, { allowUnprotected: true });
    assert.ok(r.ok);
    // The rule's finding, once: the export writes no min-dlp-unprotected of its own.
    assert.deepEqual(
      r.findings.filter((f) => f.code === 'min-dlp-unprotected'),
      [check],
    );
    assert.ok(r.transactions[0]!.notes.some((n) => /min-dlp fell back to 1/.test(n)));
    const list = r.transactions[0]!.functionArgs[0] as {
      value: { value: Record<string, { value: bigint }> }[];
    };
    assert.equal(BigInt(list.value[0]!.value['min-dlp']!.value), 1n);
  });

  it('rejects a public key that is not the sender', async () => {
    const engine = testEngine();
    const r = await buildTransactions(analysisOf(engine, [strictAdd(engine)]), {
      publicKey: '02' + 'ab'.repeat(32),
    });
    assert.equal(r.ok ? '' : r.error.code, 'public-key-mismatch');
  });

  it('adds the v-1-2 deadline from policy.deadline_seconds with the injected clock', async () => {
    const engine = testEngine();
    const [tx] = await build(engine, [strictAdd(engine)], plan({ deadline_seconds: 600 }));
    assert.equal(tx!.deadline, 1_800_000_600n);
    const last = tx!.functionArgs[tx!.functionArgs.length - 1]!;
    assert.equal(last.type, 'some');
  });

  it('refuses, with a clear error, an amount a u64 post-condition cannot state (plans allow uint128)', async () => {
    const engine = testEngine();
    const p = pool1(engine);
    const a = p.activeBinId;
    const huge = (1n << 64n) + 5n;
    const op: PreparedOperation = {
      id: 'huge',
      index: 0,
      op: 'add',
      mode: 'strict',
      pool: snapshot(engine, p),
      items: [addItem(engine, p, 0, a + 2, huge, 0n)],
    };
    const r = await buildTransactions(analysisOf(engine, [op]), {});
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.error.code, 'amount-exceeds-post-condition');
    assert.match(r.error.message, /operation 'huge'.*18446744073709551615/);
  });
});
