import assert from 'node:assert/strict';
import {
  addLiquidity,
  checkAddBounds,
  moveLiquidity,
  withdrawLiquidity,
  type AddOutcome,
  type BinBalances,
  type LiquidityResult,
} from '../../../core/dlmm/math';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import { FEES, P } from './fixtures';

const EMPTY = (price: bigint): BinBalances => ({ price, reserve_x: 0n, reserve_y: 0n, shares: 0n });
/** An active bin holding about half its value in each token. */
const ACTIVE: BinBalances = {
  price: P,
  reserve_x: 1_000_000n,
  reserve_y: 760_603_885n,
  shares: 50_000_000_000n,
};

function ok<T>(r: LiquidityResult<T>): T {
  if (!r.ok) assert.fail(`expected ok, got ${r.error}: ${r.detail}`);
  return r.value;
}
function err<T>(r: LiquidityResult<T>): string {
  if (r.ok) assert.fail('expected an error');
  assert.ok(r.detail.length > 0);
  return r.error;
}
const pick = (o: AddOutcome) => ({
  minted: o.minted,
  intended: o.intended,
  burned: o.burned,
  fee_x: o.fee_x,
  fee_y: o.fee_y,
  bin_after: o.bin_after,
});

describe('dlmm math: add liquidity (vectors from the contract formulas)', () => {
  const cases: {
    name: string;
    bin: BinBalances;
    x: bigint;
    y: bigint;
    binId: number;
    active: number;
    expect: ReturnType<typeof pick>;
  }[] = [
    {
      name: 'first deposit of y below the active bin: isqrt(1e14) = 1e7, 1000 burned',
      bin: EMPTY(P),
      x: 0n,
      y: 1_000_000n,
      binId: -1,
      active: 0,
      expect: {
        minted: 9_999_000n,
        intended: 10_000_000n,
        burned: 1_000n,
        fee_x: 0n,
        fee_y: 0n,
        bin_after: { price: P, reserve_x: 0n, reserve_y: 1_000_000n, shares: 10_000_000n },
      },
    },
    {
      name: 'first deposit of x above the active bin',
      bin: EMPTY(P),
      x: 150_000n,
      y: 0n,
      binId: 140,
      active: 139,
      expect: {
        minted: 106_812_193n,
        intended: 106_813_193n,
        burned: 1_000n,
        fee_x: 0n,
        fee_y: 0n,
        bin_after: { price: P, reserve_x: 150_000n, reserve_y: 0n, shares: 106_813_193n },
      },
    },
    {
      name: 'first deposit exactly at minimum-bin-shares (isqrt(1e8) = 10000)',
      bin: EMPTY(100_000_000n),
      x: 1n,
      y: 0n,
      binId: 500,
      active: 0,
      expect: {
        minted: 9_000n,
        intended: 10_000n,
        burned: 1_000n,
        fee_x: 0n,
        fee_y: 0n,
        bin_after: { price: 100_000_000n, reserve_x: 1n, reserve_y: 0n, shares: 10_000n },
      },
    },
    {
      name: 'x-heavy add to the active bin pays fee_x = floor((x - wx) * 50 / 10000)',
      bin: ACTIVE,
      x: 1_000_000n,
      y: 0n,
      binId: 139,
      active: 139,
      expect: {
        minted: 24_937_577_008n,
        intended: 24_937_577_008n,
        burned: 0n,
        fee_x: 1_666n,
        fee_y: 0n,
        bin_after: { price: P, reserve_x: 2_000_000n, reserve_y: 760_603_885n, shares: 74_937_577_008n },
      },
    },
    {
      name: 'y-heavy add to the active bin pays fee_y',
      bin: ACTIVE,
      x: 0n,
      y: 500_000_000n,
      binId: 139,
      active: 139,
      expect: {
        minted: 16_393_249_609n,
        intended: 16_393_249_609n,
        burned: 0n,
        fee_x: 0n,
        fee_y: 940_778n,
        bin_after: { price: P, reserve_x: 1_000_000n, reserve_y: 1_260_603_885n, shares: 66_393_249_609n },
      },
    },
    {
      name: 'balanced add to the active bin pays no fee',
      bin: ACTIVE,
      x: 1_000n,
      y: 760_603n,
      binId: 139,
      active: 139,
      expect: {
        minted: 49_999_970n,
        intended: 49_999_970n,
        burned: 0n,
        fee_x: 0n,
        fee_y: 0n,
        bin_after: { price: P, reserve_x: 1_001_000n, reserve_y: 761_364_488n, shares: 50_049_999_970n },
      },
    },
    {
      name: 'same x-heavy amounts one bin above the active bin pay no fee',
      bin: { price: P, reserve_x: 2_000_000n, reserve_y: 0n, shares: 123_456_789n },
      x: 777_777n,
      y: 0n,
      binId: 140,
      active: 139,
      expect: {
        minted: 48_010_925n,
        intended: 48_010_925n,
        burned: 0n,
        fee_x: 0n,
        fee_y: 0n,
        bin_after: { price: P, reserve_x: 2_777_777n, reserve_y: 0n, shares: 171_467_714n },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(
        pick(ok(addLiquidity(c.bin, c.x, c.y, { binId: c.binId, activeBinId: c.active, fees: FEES }))),
        c.expect,
      );
    });
  }

  it('a first deposit into the active bin pays no fee', () => {
    const o = ok(addLiquidity(EMPTY(P), 1_000_000n, 0n, { binId: 0, activeBinId: 0, fees: FEES }));
    assert.equal(o.fee_x, 0n);
    assert.equal(o.burned, 1_000n);
  });

  const errors: {
    name: string;
    bin: BinBalances;
    x: bigint;
    y: bigint;
    binId: number;
    active: number;
    error: string;
  }[] = [
    {
      name: 'first deposit below minimum-bin-shares (isqrt(99999999) = 9999)',
      bin: EMPTY(99_999_999n),
      x: 1n,
      y: 0n,
      binId: 1,
      active: 0,
      error: 'ERR_MINIMUM_LP_AMOUNT',
    },
    {
      name: 'x + y = 0 in a bin with shares',
      bin: ACTIVE,
      x: 0n,
      y: 0n,
      binId: 139,
      active: 139,
      error: 'ERR_INVALID_AMOUNT',
    },
    {
      name: 'x + y = 0 in an empty bin fails first on the first-deposit minimum',
      bin: EMPTY(P),
      x: 0n,
      y: 0n,
      binId: 139,
      active: 139,
      error: 'ERR_MINIMUM_LP_AMOUNT',
    },
    {
      name: 'x below the active bin',
      bin: ACTIVE,
      x: 5n,
      y: 5_000_000n,
      binId: 138,
      active: 139,
      error: 'ERR_INVALID_X_AMOUNT',
    },
    {
      name: 'y above the active bin',
      bin: ACTIVE,
      x: 5_000n,
      y: 5n,
      binId: 140,
      active: 139,
      error: 'ERR_INVALID_Y_AMOUNT',
    },
    { name: 'bin id 501', bin: ACTIVE, x: 5n, y: 0n, binId: 501, active: 0, error: 'ERR_INVALID_BIN_ID' },
    { name: 'bin id -501', bin: ACTIVE, x: 0n, y: 5n, binId: -501, active: 0, error: 'ERR_INVALID_BIN_ID' },
    {
      name: 'zero price',
      bin: EMPTY(0n),
      x: 0n,
      y: 5n,
      binId: -1,
      active: 0,
      error: 'ERR_INVALID_BIN_PRICE',
    },
    {
      name: 'dust that mints 0 shares',
      bin: { price: 100_000_000n, reserve_x: 0n, reserve_y: 1_000_000n, shares: 1n },
      x: 0n,
      y: 1n,
      binId: -3,
      active: 0,
      error: 'ERR_MINIMUM_LP_AMOUNT',
    },
    {
      name: 'y * 1e8 above u128 aborts',
      bin: ACTIVE,
      x: 0n,
      y: MAX_UINT128,
      binId: 100,
      active: 139,
      error: 'RUNTIME_OVERFLOW',
    },
  ];
  for (const c of errors) {
    it(`reverts: ${c.name}`, () => {
      assert.equal(
        err(addLiquidity(c.bin, c.x, c.y, { binId: c.binId, activeBinId: c.active, fees: FEES })),
        c.error,
      );
    });
  }

  it('accepts the edge bins -500 and 500', () => {
    assert.equal(
      ok(addLiquidity(EMPTY(1_000_000n), 0n, 10_000_000n, { binId: -500, activeBinId: 0, fees: FEES }))
        .minted,
      31_621_776n,
    ); // isqrt(1e15) - 1000
    assert.ok(
      ok(addLiquidity(EMPTY(10n ** 16n), 1n, 0n, { binId: 500, activeBinId: 0, fees: FEES })).minted > 0n,
    );
  });

  it('checks min-dlp and fee caps in contract order', () => {
    const o = ok(addLiquidity(ACTIVE, 1_000_000n, 0n, { binId: 139, activeBinId: 139, fees: FEES }));
    assert.equal(err(checkAddBounds(o, 0n, 0n, 0n)), 'ERR_INVALID_MIN_DLP_AMOUNT');
    assert.equal(err(checkAddBounds(o, o.minted + 1n, 0n, 0n)), 'ERR_MINIMUM_LP_AMOUNT');
    assert.equal(err(checkAddBounds(o, o.minted, 1_665n, 0n)), 'ERR_MAXIMUM_X_LIQUIDITY_FEE');
    assert.equal(ok(checkAddBounds(o, o.minted, 1_666n, 0n)).minted, o.minted);
    const p = { binId: 139, activeBinId: 139, fees: FEES };
    assert.equal(
      err(addLiquidity(ACTIVE, 0n, 500_000_000n, { ...p, minDlp: 1n, maxFeeX: 0n, maxFeeY: 940_777n })),
      'ERR_MAXIMUM_Y_LIQUIDITY_FEE',
    );
    assert.equal(
      err(addLiquidity(ACTIVE, 0n, 500_000_000n, { ...p, minDlp: 0n })),
      'ERR_INVALID_MIN_DLP_AMOUNT',
    );
    // placement fails before the bounds
    assert.equal(err(addLiquidity(ACTIVE, 1n, 0n, { ...p, binId: 100, minDlp: 0n })), 'ERR_INVALID_X_AMOUNT');
  });
});

describe('dlmm math: withdraw liquidity', () => {
  const BIN: BinBalances = {
    price: P,
    reserve_x: 1_000_003n,
    reserve_y: 760_603_885n,
    shares: 50_000_000_007n,
  };

  it('floors both sides: amount * reserve / shares', () => {
    const w = ok(withdrawLiquidity(BIN, 12_345_678_901n, 1n, 0n));
    assert.deepEqual(w, {
      x: 246_914n,
      y: 187_803_426n,
      bin_after: {
        price: P,
        reserve_x: 1_000_003n - 246_914n,
        reserve_y: 760_603_885n - 187_803_426n,
        shares: 50_000_000_007n - 12_345_678_901n,
      },
    });
  });

  it('all shares return exactly the reserves', () => {
    const w = ok(withdrawLiquidity(BIN, BIN.shares));
    assert.deepEqual(
      [w.x, w.y, w.bin_after.reserve_x, w.bin_after.reserve_y, w.bin_after.shares],
      [BIN.reserve_x, BIN.reserve_y, 0n, 0n, 0n],
    );
  });

  const errors: {
    name: string;
    bin: BinBalances;
    amount: bigint;
    minX?: bigint;
    minY?: bigint;
    error: string;
  }[] = [
    { name: 'no shares', bin: EMPTY(P), amount: 1n, error: 'ERR_NO_BIN_SHARES' },
    { name: 'amount 0', bin: BIN, amount: 0n, error: 'ERR_INVALID_AMOUNT' },
    {
      name: 'min-x + min-y = 0',
      bin: BIN,
      amount: 1_000_000n,
      minX: 0n,
      minY: 0n,
      error: 'ERR_INVALID_AMOUNT',
    },
    {
      name: 'amount floors to 0 x and 0 y',
      bin: BIN,
      amount: 1n,
      minX: 1n,
      minY: 0n,
      error: 'ERR_INVALID_AMOUNT',
    },
    {
      name: 'x below min-x',
      bin: BIN,
      amount: 12_345_678_901n,
      minX: 246_915n,
      minY: 0n,
      error: 'ERR_MINIMUM_X_AMOUNT',
    },
    {
      name: 'y below min-y',
      bin: BIN,
      amount: 12_345_678_901n,
      minX: 246_914n,
      minY: 187_803_427n,
      error: 'ERR_MINIMUM_Y_AMOUNT',
    },
    {
      name: 'amount twice the bin shares (balance underflow)',
      bin: BIN,
      amount: BIN.shares * 2n,
      error: 'RUNTIME_UNDERFLOW',
    },
    {
      name: 'amount just above the bin shares (the pool burn check)',
      bin: BIN,
      amount: BIN.shares + 1n,
      error: 'ERR_INVALID_AMOUNT',
    },
  ];
  for (const c of errors) {
    it(`reverts: ${c.name}`, () => {
      assert.equal(err(withdrawLiquidity(c.bin, c.amount, c.minX, c.minY)), c.error);
    });
  }
});

describe('dlmm math: move liquidity', () => {
  const FROM: BinBalances = {
    price: 80_000_000_000n,
    reserve_x: 7_777_770n,
    reserve_y: 0n,
    shares: 10_000_000_000n,
  };
  const TO: BinBalances = { price: P, reserve_x: 2_000_000n, reserve_y: 0n, shares: 123_456_789n };

  it('withdraws with the floor and adds with the add rules', () => {
    const m = ok(
      moveLiquidity(FROM, TO, 1_000_000_000n, { fromBinId: 145, binId: 140, activeBinId: 139, fees: FEES }),
    );
    assert.deepEqual([m.x, m.y], [777_777n, 0n]);
    assert.deepEqual(m.withdrawn_from, { ...FROM, reserve_x: 7_777_770n - 777_777n, shares: 9_000_000_000n });
    assert.equal(m.add.minted, 48_010_925n);
    assert.deepEqual(m.add.bin_after, {
      price: P,
      reserve_x: 2_777_777n,
      reserve_y: 0n,
      shares: 171_467_714n,
    });
  });

  it('pays the liquidity fee when the to bin is active', () => {
    const from: BinBalances = {
      price: 80_000_000_000n,
      reserve_x: 3_000_000n,
      reserve_y: 0n,
      shares: 3_000_000_000n,
    };
    const m = ok(
      moveLiquidity(from, ACTIVE, 1_000_000_000n, {
        fromBinId: 141,
        binId: 139,
        activeBinId: 139,
        fees: FEES,
      }),
    );
    assert.equal(m.add.fee_x, 1_666n);
    assert.equal(m.add.minted, 24_937_577_008n);
  });

  const dust: BinBalances = { price: P, reserve_x: 10n, reserve_y: 0n, shares: 1_000_000_000_000n };
  const errors: {
    name: string;
    from: BinBalances;
    to: BinBalances;
    amount: bigint;
    fromBinId: number;
    binId: number;
    error: string;
  }[] = [
    {
      name: 'amounts floor to zero (x + y = 0)',
      from: dust,
      to: TO,
      amount: 1_000n,
      fromBinId: 145,
      binId: 140,
      error: 'ERR_INVALID_AMOUNT',
    },
    {
      name: 'amounts floor to zero into an empty bin: first-deposit minimum fails first',
      from: dust,
      to: EMPTY(P),
      amount: 1_000n,
      fromBinId: 145,
      binId: 141,
      error: 'ERR_MINIMUM_LP_AMOUNT',
    },
    {
      name: 'same bin',
      from: FROM,
      to: FROM,
      amount: 1_000_000_000n,
      fromBinId: 145,
      binId: 145,
      error: 'ERR_MATCHING_BIN_ID',
    },
    {
      name: 'x moved below the active bin',
      from: FROM,
      to: TO,
      amount: 1_000_000_000n,
      fromBinId: 145,
      binId: 138,
      error: 'ERR_INVALID_X_AMOUNT',
    },
    {
      name: 'from bin without shares',
      from: EMPTY(P),
      to: TO,
      amount: 1n,
      fromBinId: 145,
      binId: 140,
      error: 'ERR_NO_BIN_SHARES',
    },
    {
      name: 'amount 0',
      from: FROM,
      to: TO,
      amount: 0n,
      fromBinId: 145,
      binId: 140,
      error: 'ERR_INVALID_AMOUNT',
    },
    {
      name: 'to bin 501',
      from: FROM,
      to: TO,
      amount: 1n,
      fromBinId: 145,
      binId: 501,
      error: 'ERR_INVALID_BIN_ID',
    },
  ];
  for (const c of errors) {
    it(`reverts: ${c.name}`, () => {
      assert.equal(
        err(
          moveLiquidity(c.from, c.to, c.amount, {
            fromBinId: c.fromBinId,
            binId: c.binId,
            activeBinId: 139,
            fees: FEES,
          }),
        ),
        c.error,
      );
    });
  }
});
