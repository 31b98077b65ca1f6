/** The engine's state changes: heights bumped once per transaction, reverts rolled back. */
import assert from 'node:assert/strict';
import { SimEngine } from '../../../core/sim/engine';
import { defaultWorld } from '../../../core/sim/defaultWorld';

describe('sim engine', () => {
  it('rolls a transaction back when a step reverts, and bumps the height once when all apply', () => {
    const e = new SimEngine(defaultWorld());
    const pool = e.pool('dlmm_1')!;
    const h = e.status.state_height;
    const binsBefore = e.binsWithReserves(pool);
    const failed = e.transaction(() => {
      assert.ok(e.shiftActiveBin(pool, -2).ok);
      return e.shiftActiveBin(pool, 2000); // beyond the bin domain: reverts
    });
    assert.equal(failed.ok, false);
    assert.deepEqual(e.binsWithReserves(pool), binsBefore);
    assert.equal(pool.activeBinId, 139);
    assert.equal(e.status.state_height, h);

    const ok = e.transaction(() => {
      e.shiftActiveBin(pool, -1);
      return e.shiftActiveBin(pool, -1);
    });
    assert.ok(ok.ok);
    assert.equal(pool.activeBinId, 137);
    assert.equal(e.status.state_height, h + 1);
    assert.throws(
      () =>
        e.transaction(() => {
          e.shiftActiveBin(pool, 2);
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(pool.activeBinId, 137);
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
