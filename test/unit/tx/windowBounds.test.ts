/**
 * Simple-mode bounds over the active-bin window (core/tx/windowBounds.ts, callBounds.ts windowAddBounds):
 * each position's min-dlp is the fewest shares it mints at any active bin of the window, recomputed here by
 * brute force with the core math on every landing, less slippage; its fee caps the largest fee plus
 * slippage. Executed on the chain model (the simulated engine): a drift within the tolerance confirms, an
 * unknown bin of the window makes the bound 1 and the export says which bin.
 */
import assert from 'node:assert/strict';
import type { ClarityValue } from '@stacks/transactions';
import { addLiquidity, moveLiquidity, type BinBalances } from '../../../core/dlmm/math';
import { activeWindow, windowBinsAmong } from '../../../core/dlmm/bins';
import { maxAfterSlippage, minAfterSlippage } from '../../../core/dlmm/percent';
import type { PreparedOperation } from '../../../core/prepare/prepared';
import { applyTransaction } from '../../../core/sim/apply';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import type { SimEngine, SimPool } from '../../../core/sim/engine';
import { buildTransactions } from '../../../core/tx/build';
import { txHexes } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import {
  addItem,
  analysisOf,
  moveItem,
  plan,
  PUBLIC_KEY,
  snapshot,
  stateOf,
  testEngine,
  USER,
} from './fixtures';

// The fixtures' user's next nonce is 7 (the engine mines only the sender's next nonce).
const SIGNING = { publicKey: PUBLIC_KEY, nonce: 7n, fee: 1000n };
const PPM = 10_000n; // the fixtures' plan: 1% slippage

/** The positions list of a built call, as plain numbers per element. */
function positions(tx: BuiltTransaction): Record<string, bigint>[] {
  const list = tx.functionArgs[0] as { type: 'list'; value: { value: Record<string, ClarityValue> }[] };
  return list.value.map((t) => {
    const out: Record<string, bigint> = {};
    for (const [k, v] of Object.entries(t.value))
      if (v.type === 'uint' || v.type === 'int') out[k] = BigInt(v.value);
    return out;
  });
}

async function exportOps(
  engine: SimEngine,
  ops: PreparedOperation[],
  policy: Parameters<typeof plan>[0] = {},
  state = stateOf(engine),
) {
  return buildTransactions(analysisOf(engine, ops, plan(policy)), { ...SIGNING, state });
}

function pool(engine: SimEngine): SimPool {
  return engine.poolByPrincipal(POOL_SBTC_USDCX)!;
}

/** Brute force: the add at every active bin of the window, each on the engine's bins as they are. */
function addOverWindow(engine: SimEngine, p: SimPool, offset: number, x: bigint, y: bigint, tol: number) {
  let fewest: bigint | undefined;
  let feeX = 0n;
  let feeY = 0n;
  for (let active = p.activeBinId - tol; active <= p.activeBinId + tol; active++) {
    const binId = active + offset;
    const r = addLiquidity(engine.bin(p, binId), x, y, { binId, activeBinId: active, fees: p.fees });
    assert.ok(r.ok, r.ok ? '' : r.detail);
    if (fewest === undefined || r.value.minted < fewest) fewest = r.value.minted;
    if (r.value.fee_x > feeX) feeX = r.value.fee_x;
    if (r.value.fee_y > feeY) feeY = r.value.fee_y;
  }
  return { fewest: fewest as bigint, feeX, feeY };
}

const ITEMS: [number, bigint, bigint][] = [
  [-2, 0n, 3_000_000n],
  [0, 20_000n, 15_000_000n],
  [1, 30_000n, 0n],
];

function simpleAdd(engine: SimEngine): PreparedOperation {
  const p = pool(engine);
  const a = p.activeBinId;
  return {
    id: 'curve',
    index: 0,
    op: 'add',
    mode: 'simple',
    pool: snapshot(engine, p),
    items: ITEMS.map(([o, x, y], i) => addItem(engine, p, i, a + o, x, y, true)),
  };
}

describe('simple-mode bounds over the active-bin window', () => {
  for (const tol of [0, 1, 3]) {
    it(`min-dlp is the fewest shares over ${2 * tol + 1} active bin(s) less slippage; fee caps the largest fee`, async () => {
      const engine = testEngine();
      const p = pool(engine);
      const r = await exportOps(engine, [simpleAdd(engine)], { active_bin_tolerance: tol });
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      const [tx] = r.transactions;
      assert.equal(tx!.functionName, 'add-relative-liquidity-same-multi');
      const list = positions(tx!);
      ITEMS.forEach(([offset, x, y], i) => {
        const want = addOverWindow(engine, p, offset, x, y, tol);
        const got = list[i]!;
        assert.equal(got['min-dlp'], minAfterSlippage(want.fewest, PPM), `offset ${offset}`);
        assert.ok(got['min-dlp']! > 1n);
        // Only offset 0 ever lands on the active bin: the others accept no liquidity fee.
        const total = p.fees.x_protocol + p.fees.x_provider + p.fees.x_variable;
        const cap = (fee: bigint, amount: bigint) => {
          const c = maxAfterSlippage(fee, PPM);
          const ceiling = (amount * total) / 10_000n;
          return fee === 0n ? 0n : c < ceiling ? c : ceiling;
        };
        assert.equal(got['max-x-liquidity-fee'], offset === 0 ? cap(want.feeX, x) : 0n);
        assert.equal(got['max-y-liquidity-fee'], offset === 0 ? cap(want.feeY, y) : 0n);
      });
      // The summary states each bound's basis: the window and where the fewest shares mint.
      const row = tx!.rows[1]!;
      const basis = row.bounds.find((b) => b.label === 'min-dlp')!.basis;
      assert.match(
        basis,
        tol === 0
          ? new RegExp(`active bin ${p.activeBinId} \\(no deviation allowed\\)`)
          : new RegExp(`active bins ${p.activeBinId - tol}\\.\\.${p.activeBinId + tol}`),
      );
      assert.match(basis, /less 1% slippage/);
      assert.equal(r.weakBounds, undefined, 'no position is left at min-dlp 1');
    });
  }

  for (const shift of [-1, 1]) {
    it(`a drift of ${shift} bin within the tolerance executes on the chain model, minting at least min-dlp`, async () => {
      const engine = testEngine();
      const p = pool(engine);
      const r = await exportOps(engine, [simpleAdd(engine)]);
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      const [hex] = await txHexes(r.transactions, SIGNING);
      const bounds = positions(r.transactions[0]!).map((e) => e['min-dlp']!);
      const before = ITEMS.map(([o]) => engine.userShares(p, USER, p.activeBinId + shift + o));
      assert.ok(engine.shiftActiveBin(p, shift).ok);
      const applied = applyTransaction(engine, hex!);
      assert.ok(applied.ok, applied.ok ? '' : `${applied.error}: ${applied.detail}`);
      ITEMS.forEach(([o], i) => {
        const minted = engine.userShares(p, USER, p.activeBinId + o) - before[i]!;
        assert.ok(minted >= bounds[i]!, `offset ${o}: minted ${minted} >= min-dlp ${bounds[i]}`);
      });
    });
  }

  it('a drift beyond the tolerance reverts with ERR_ACTIVE_BIN_TOLERANCE', async () => {
    const engine = testEngine();
    const p = pool(engine);
    const r = await exportOps(engine, [simpleAdd(engine)]);
    assert.ok(r.ok);
    const [hex] = await txHexes(r.transactions, SIGNING);
    assert.ok(engine.shiftActiveBin(p, 2).ok);
    const applied = applyTransaction(engine, hex!);
    assert.equal(applied.ok ? 'ok' : applied.error, 'ERR_ACTIVE_BIN_TOLERANCE');
  });

  it('a relative move: min-dlp is the fewest shares the burned shares mint over the window', async () => {
    const engine = testEngine();
    const p = pool(engine);
    const a = p.activeBinId;
    const amount = engine.userShares(p, USER, a + 1) / 3n;
    const op: PreparedOperation = {
      id: 'm',
      index: 0,
      op: 'move',
      mode: 'simple',
      pool: snapshot(engine, p),
      items: [moveItem(engine, p, 0, a + 1, a + 4, amount, true)],
    };
    const r = await exportOps(engine, [op]);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    let fewest: bigint | undefined;
    for (let active = a - 1; active <= a + 1; active++) {
      const to = active + 4;
      const m = moveLiquidity(engine.bin(p, a + 1), engine.bin(p, to), amount, {
        binId: to,
        fromBinId: a + 1,
        activeBinId: active,
        fees: p.fees,
      });
      assert.ok(m.ok, m.ok ? '' : m.detail);
      if (fewest === undefined || m.value.add.minted < fewest) fewest = m.value.add.minted;
    }
    const [element] = positions(r.transactions[0]!);
    assert.equal(element!['min-dlp'], minAfterSlippage(fewest!, PPM));
    const basis = r.transactions[0]!.rows[0]!.bounds[0]!.basis;
    assert.match(basis, /a relative move takes no tolerance/);
  });

  it('a bin of the window whose shares were not read: min-dlp 1, refused unless allowed, naming the bin', async () => {
    const engine = testEngine();
    const p = pool(engine);
    const a = p.activeBinId;
    const state = stateOf(engine);
    // Bin a + 2 is where offset 1 lands if the active bin moves up by one.
    state.pool(p.id)!.unknownShares = new Set([a + 2]);
    const refused = await exportOps(engine, [simpleAdd(engine)], {}, state);
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? '' : refused.error.code, 'bounds-unknown');
    assert.match(refused.ok ? '' : refused.error.message, new RegExp(`bin\\(s\\) ${a + 2}\\b`));

    const state2 = stateOf(engine);
    state2.pool(p.id)!.unknownShares = new Set([a + 2]);
    const allowed = await buildTransactions(analysisOf(engine, [simpleAdd(engine)]), {
      ...SIGNING,
      state: state2,
      allowUnprotected: true,
    });
    assert.ok(allowed.ok, allowed.ok ? '' : allowed.error.message);
    const list = positions(allowed.transactions[0]!);
    assert.equal(list[2]!['min-dlp'], 1n, 'offset 1 falls back');
    assert.ok(list[0]!['min-dlp']! > 1n && list[1]!['min-dlp']! > 1n, 'the others keep their bounds');
    assert.deepEqual(
      allowed.weakBounds?.map((w) => [w.label, w.bin]),
      [[`offset 1 (bin ${a + 1} at the expected active bin)`, a + 1]],
    );
    assert.match(allowed.weakBounds![0]!.why, new RegExp(`bin ${a + 2} .*at active ${a + 1}.*not read`));
    const basis = allowed.transactions[0]!.rows[2]!.bounds[0]!.basis;
    assert.match(basis, /min-dlp falls back to 1/);
  });

  it('without the state read a simple position cannot be bounded: min-dlp 1, refused unless allowed', async () => {
    const engine = testEngine();
    const r = await buildTransactions(analysisOf(engine, [simpleAdd(engine)]), SIGNING);
    assert.equal(r.ok ? 'ok' : r.error.code, 'bounds-unknown');
  });

  it('two positions at one offset: the second is bounded on the bin the first leaves, at every active bin', async () => {
    const engine = testEngine();
    const p = pool(engine);
    const a = p.activeBinId;
    const op: PreparedOperation = {
      id: 'twice',
      index: 0,
      op: 'add',
      mode: 'simple',
      pool: snapshot(engine, p),
      items: [
        addItem(engine, p, 0, a, 20_000n, 15_000_000n, true),
        addItem(engine, p, 1, a, 0n, 9_000_000n, true),
      ],
    };
    const r = await exportOps(engine, [op]);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    let fewest: bigint | undefined;
    for (let active = a - 1; active <= a + 1; active++) {
      const first = addLiquidity(engine.bin(p, active), 20_000n, 15_000_000n, {
        binId: active,
        activeBinId: active,
        fees: p.fees,
      });
      assert.ok(first.ok);
      const bin: BinBalances = first.value.bin_after;
      const second = addLiquidity(bin, 0n, 9_000_000n, { binId: active, activeBinId: active, fees: p.fees });
      assert.ok(second.ok);
      if (fewest === undefined || second.value.minted < fewest) fewest = second.value.minted;
    }
    assert.equal(positions(r.transactions[0]!)[1]!['min-dlp'], minAfterSlippage(fewest!, PPM));
  });

  it('a strict position whose expected shares less slippage are below 1 is named too (min-dlp 1)', async () => {
    const engine = testEngine();
    const p = pool(engine);
    const bin = p.activeBinId - 2;
    // The fewest USDCx units that mint one share in this bin: slippage then leaves nothing above 0.
    const mint = (y: bigint) => {
      const r = addLiquidity(engine.bin(p, bin), 0n, y, {
        binId: bin,
        activeBinId: p.activeBinId,
        fees: p.fees,
      });
      return r.ok ? r.value.minted : 0n;
    };
    let y = 1n;
    while (mint(y) < 1n) y++;
    const op: PreparedOperation = {
      id: 'dust',
      index: 0,
      op: 'add',
      mode: 'strict',
      pool: snapshot(engine, p),
      items: [addItem(engine, p, 0, bin, 0n, y)],
    };
    const r = await exportOps(engine, [op]);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.equal(positions(r.transactions[0]!)[0]!['min-dlp'], 1n);
    assert.deepEqual(
      r.weakBounds?.map((w) => [w.label, w.item]),
      [[`bin ${bin}`, 0]],
    );
    assert.match(r.weakBounds![0]!.why, /expected 1 shares .* less 1% slippage is below 1/);
  });

  it('windows: clipped to the signed domain; the bins some offset may land on', () => {
    assert.deepEqual(activeWindow(499, 3), { expected: 499, lo: 496, hi: 500 });
    assert.deepEqual(activeWindow(-10, 0), { expected: -10, lo: -10, hi: -10 });
    const w = activeWindow(100, 1);
    assert.deepEqual(windowBinsAmong([95, 96, 97, 100, 104, 105, 106], [-3, 5], w), [96, 97, 104, 105, 106]);
    assert.deepEqual(windowBinsAmong([1, 2], [], w), []);
  });
});
