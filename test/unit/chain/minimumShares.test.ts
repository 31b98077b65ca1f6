/**
 * The core's minimum-bin-shares and minimum-burnt-shares are data-vars: a first deposit meets the values the
 * state holds (read from the core), the launch values only where a model state read nothing, and is unknown
 * state where an analysis could not read them. Expected figures come from the contract's rule: intended =
 * isqrt(value), intended >= minimum-bin-shares, the caller gets intended - minimum-burnt-shares.
 */
import assert from 'node:assert/strict';
import { addToPool, moveInPool, UnknownState } from '../../../core/chain/pool';
import {
  LAUNCH_MINIMUMS,
  addLiquidity,
  isqrt,
  type BinBalances,
  type LiquidityResult,
} from '../../../core/dlmm/math';
import { FEES } from '../dlmm/fixtures';
import { bin, price, testPool } from './pools';

const USER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const NO_CAP = { minDlp: 1n, maxFeeX: 10n ** 30n, maxFeeY: 10n ** 30n };
const EMPTY = (id: number): BinBalances => ({ price: price(id), reserve_x: 0n, reserve_y: 0n, shares: 0n });
/** y into an empty bin below the active one: value = y * 1e8, intended = isqrt(y * 1e8). */
const Y = 4_000_000n;
const INTENDED = isqrt(Y * 100_000_000n);

function outcome<T>(r: LiquidityResult<T>): T | string {
  return r.ok ? r.value : r.error;
}

describe('core minimum shares (first deposits)', () => {
  it('the launch values are u10000 and u1000', () => {
    assert.deepEqual(LAUNCH_MINIMUMS, { binShares: 10_000n, burntShares: 1_000n });
  });

  it('the math meets the minimums given: raised bin minimum reverts, burnt minimum is what is burned', () => {
    const at = { binId: -5, activeBinId: 0, fees: FEES };
    const launch = addLiquidity(EMPTY(-5), 0n, Y, at);
    assert.ok(launch.ok);
    assert.equal(launch.value.minted, INTENDED - 1_000n);
    assert.equal(launch.value.burned, 1_000n);

    const burnt = addLiquidity(EMPTY(-5), 0n, Y, {
      ...at,
      minimums: { binShares: 10_000n, burntShares: 5_000n },
    });
    assert.ok(burnt.ok);
    assert.equal(burnt.value.minted, INTENDED - 5_000n);
    assert.equal(burnt.value.bin_after.shares, INTENDED);

    const raised = addLiquidity(EMPTY(-5), 0n, Y, {
      ...at,
      minimums: { binShares: INTENDED + 1n, burntShares: 1_000n },
    });
    assert.equal(outcome(raised), 'ERR_MINIMUM_LP_AMOUNT');
    assert.match(
      raised.ok ? '' : raised.detail,
      new RegExp(`at least ${INTENDED + 1n} \\(minimum-bin-shares\\)`),
    );
    // Exactly at the raised minimum passes.
    assert.ok(
      addLiquidity(EMPTY(-5), 0n, Y, { ...at, minimums: { binShares: INTENDED, burntShares: 1n } }).ok,
    );
    // A bin with shares is no first deposit: the minimums do not apply.
    assert.ok(
      addLiquidity(bin(-5, 0n, 10n), 0n, 1n, { ...at, minimums: { binShares: 10n ** 20n, burntShares: 1n } })
        .ok,
    );
  });

  it('a chain pool meets its minimumShares; unread, a first deposit is unknown state and a funded bin is not', () => {
    const bins = () =>
      new Map([
        [-1, bin(-1, 0n, 5_000_000n)],
        [0, bin(0, 1_000n, 1_000n)],
      ]);
    const raised = testPool(FEES, bins(), 0, {
      minimumShares: { binShares: INTENDED + 1n, burntShares: 1_000n },
    });
    assert.equal(outcome(addToPool(raised, USER, -5, 0n, Y, NO_CAP)), 'ERR_MINIMUM_LP_AMOUNT');
    assert.equal(raised.bins.has(-5), false, 'a revert changes nothing');

    const launch = testPool(FEES, bins(), 0);
    const r = addToPool(launch, USER, -5, 0n, Y, NO_CAP);
    assert.ok(r.ok);
    assert.equal(r.value.minted, INTENDED - 1_000n);

    const unread = testPool(FEES, bins(), 0, { minimumShares: { unread: 'the node read failed' } });
    assert.throws(
      () => addToPool(unread, USER, -5, 0n, Y, NO_CAP),
      (e: unknown) =>
        e instanceof UnknownState && /first deposit into an empty bin.*the node read failed/.test(e.detail),
    );
    assert.throws(
      () => moveInPool(unread, USER, -1, -5, 1n, NO_CAP),
      (e: unknown) => e instanceof UnknownState && /the move into bin -5 is a first deposit/.test(e.detail),
    );
    // A bin that has shares needs no minimum: the add runs.
    assert.ok(addToPool(unread, USER, -1, 0n, 1_000_000n, NO_CAP).ok);
  });
});
