/** The engine's state changes: exact math applied, shares tracked, heights bumped, reverts rolled back. */
import assert from 'node:assert/strict';
import { addLiquidity, swapWalk, withdrawLiquidity } from '../../../core/dlmm/math';
import { DEFAULT_USER } from '../../../core/sim/defaultWorld';
import { SimEngine } from '../../../core/sim/engine';
import { defaultWorld } from '../../../core/sim/defaultWorld';

const BOUNDS = { minDlp: 1n, maxFeeX: 10n ** 30n, maxFeeY: 10n ** 30n };

describe('sim engine', () => {
  it('applies a swap with the exact walk, moves the active bin and bumps the height once', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_1')!;
    const expected = swapWalk((id) => pool.bins.get(id), pool.activeBinId, true, 20_000_000n, pool.fees);
    const h = e.status.state_height;
    const r = e.swap(pool, true, 20_000_000n);
    assert.ok(r.ok);
    assert.equal(r.value.amount_out, expected.amount_out);
    assert.equal(pool.activeBinId, expected.active_bin_after);
    assert.ok(pool.activeBinId < 139);
    assert.equal(pool.protocolFeesX, expected.protocol_fees);
    assert.equal(e.status.state_height, h + 1);
  });

  it('adds, withdraws and moves with the math of core/dlmm and tracks the user shares', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_1')!;
    const before = e.bin(pool, 130);
    const add = e.addLiquidity(pool, DEFAULT_USER, 130, 0n, 1_000_000n, BOUNDS);
    assert.ok(add.ok);
    const expectedAdd = addLiquidity(before, 0n, 1_000_000n, {
      binId: 130,
      activeBinId: 139,
      fees: pool.fees,
    });
    assert.ok(expectedAdd.ok);
    assert.equal(add.value.minted, expectedAdd.value.minted);
    assert.equal(e.userShares(pool, DEFAULT_USER, 130), add.value.minted);

    const held = e.userShares(pool, DEFAULT_USER, 136);
    const binBefore = e.bin(pool, 136);
    const w = e.withdrawLiquidity(pool, DEFAULT_USER, 136, held / 2n, 0n, 1n);
    assert.ok(w.ok);
    assert.deepEqual(w.value, (withdrawLiquidity(binBefore, held / 2n, 0n, 1n) as { value: unknown }).value);
    assert.equal(e.userShares(pool, DEFAULT_USER, 136), held - held / 2n);

    const m = e.moveLiquidity(pool, DEFAULT_USER, 137, 120, e.userShares(pool, DEFAULT_USER, 137), BOUNDS);
    assert.ok(m.ok, !m.ok ? m.detail : '');
    assert.equal(
      e.userShares(pool, DEFAULT_USER, 137),
      0n,
      'the bin stays listed: the user once added to it',
    );
    assert.equal(e.userShares(pool, DEFAULT_USER, 120), m.value.add.minted);
  });

  it('refuses to burn more shares than the user holds', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_1')!;
    const held = e.userShares(pool, DEFAULT_USER, 138);
    const r = e.withdrawLiquidity(pool, DEFAULT_USER, 138, held + 1n, 0n, 1n);
    assert.equal(r.ok, false);
  });

  it('rolls a transaction back when a step reverts, and bumps the height once when all apply', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_1')!;
    const h = e.status.state_height;
    const binBefore = e.bin(pool, 130);
    const failed = e.transaction(() => {
      const a = e.addLiquidity(pool, DEFAULT_USER, 130, 0n, 1_000_000n, BOUNDS);
      assert.ok(a.ok);
      return e.addLiquidity(pool, DEFAULT_USER, 145, 0n, 5n, BOUNDS); // y above the active bin: reverts
    });
    assert.equal(failed.ok, false);
    assert.deepEqual(e.bin(pool, 130), binBefore);
    assert.equal(e.userShares(pool, DEFAULT_USER, 130), 0n);
    assert.equal(e.status.state_height, h);

    const ok = e.transaction(() => {
      e.addLiquidity(pool, DEFAULT_USER, 130, 0n, 1_000_000n, BOUNDS);
      return e.addLiquidity(pool, DEFAULT_USER, 145, 5_000n, 0n, BOUNDS);
    });
    assert.ok(ok.ok);
    assert.equal(e.status.state_height, h + 1);
    assert.throws(
      () =>
        e.transaction(() => {
          e.shiftActiveBin(pool, 2);
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(pool.activeBinId, 139);
  });

  it('shifts the active bin, draining the crossed bins, and resets to the world', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_2')!;
    const start = pool.activeBinId;
    assert.ok(e.shiftActiveBin(pool, -3).ok);
    assert.equal(pool.activeBinId, start - 3);
    for (let id = start - 2; id <= start; id++) assert.equal(e.bin(pool, id).reserve_y, 0n);
    assert.equal(e.shiftActiveBin(pool, 2000).ok, false);
    e.reset();
    assert.equal(e.pool('dlmm_2')!.activeBinId, start);
  });
});
