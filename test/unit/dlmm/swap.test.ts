import assert from 'node:assert/strict';
import {
  routeWalk,
  swapWalk,
  swapXForYInBin,
  swapYForXInBin,
  type BinBalances,
  type PoolFees,
} from '../../../core/dlmm/math';
import { FEES, NO_FEES, P } from './fixtures';

const bin = (price: bigint, reserve_x: bigint, reserve_y: bigint, shares = 1n): BinBalances => ({
  price,
  reserve_x,
  reserve_y,
  shares,
});

describe('dlmm math: swap in one bin (vectors from the contract formulas)', () => {
  const cases: {
    name: string;
    fn: typeof swapXForYInBin;
    bin: BinBalances;
    amount: bigint;
    fees: PoolFees;
    expect: {
      amount_in: bigint;
      fee: bigint;
      protocol_fee: bigint;
      amount_out: bigint;
      x: bigint;
      y: bigint;
      exhausted: boolean;
    };
  }[] = [
    {
      name: 'x->y partial: fee 500 of 100000, protocol 250 set aside',
      fn: swapXForYInBin,
      bin: bin(P, 0n, 1_000_000_000n),
      amount: 100_000n,
      fees: FEES,
      expect: {
        amount_in: 100_000n,
        fee: 500n,
        protocol_fee: 250n,
        amount_out: 75_680_086n,
        x: 99_750n,
        y: 924_319_914n,
        exhausted: false,
      },
    },
    {
      name: 'x->y exact depletion: input capped at ceil(by*1e8/p)*10000/9950',
      fn: swapXForYInBin,
      bin: bin(P, 0n, 1_000_000_000n),
      amount: 1_000_000_000n,
      fees: FEES,
      expect: {
        amount_in: 1_321_351n,
        fee: 6_606n,
        protocol_fee: 3_303n,
        amount_out: 1_000_000_000n,
        x: 1_318_048n,
        y: 0n,
        exhausted: true,
      },
    },
    {
      name: 'x->y fee rounding: 399 * 50 bps floors to 1, protocol part floors to 0 (provider keeps it)',
      fn: swapXForYInBin,
      bin: bin(P, 0n, 1_000_000_000n),
      amount: 399n,
      fees: FEES,
      expect: {
        amount_in: 399n,
        fee: 1n,
        protocol_fee: 0n,
        amount_out: 302_720n,
        x: 399n,
        y: 999_697_280n,
        exhausted: false,
      },
    },
    {
      name: 'x->y with variable fee: provider = total - protocol - variable',
      fn: swapXForYInBin,
      bin: bin(P, 0n, 1_000_000_000n),
      amount: 12_345n,
      fees: { ...FEES, x_protocol: 20n, x_provider: 25n, x_variable: 10n },
      expect: {
        amount_in: 12_345n,
        fee: 67n,
        protocol_fee: 24n,
        amount_out: 9_338_694n,
        x: 12_321n,
        y: 990_661_306n,
        exhausted: false,
      },
    },
    {
      name: 'y->x partial',
      fn: swapYForXInBin,
      bin: bin(P, 5_000_000n, 0n),
      amount: 100_000_000n,
      fees: FEES,
      expect: {
        amount_in: 100_000_000n,
        fee: 500_000n,
        protocol_fee: 250_000n,
        amount_out: 130_817n,
        x: 4_869_183n,
        y: 99_750_000n,
        exhausted: false,
      },
    },
    {
      name: 'y->x exact depletion',
      fn: swapYForXInBin,
      bin: bin(P, 5_000_000n, 0n),
      amount: 1_000_000_000_000n,
      fees: FEES,
      expect: {
        amount_in: 3_822_130_079n,
        fee: 19_110_650n,
        protocol_fee: 9_555_325n,
        amount_out: 5_000_000n,
        x: 0n,
        y: 3_812_574_754n,
        exhausted: true,
      },
    },
    {
      name: 'x->y in an empty bin takes nothing and is exhausted',
      fn: swapXForYInBin,
      bin: bin(P, 0n, 0n),
      amount: 1_000n,
      fees: FEES,
      expect: { amount_in: 0n, fee: 0n, protocol_fee: 0n, amount_out: 0n, x: 0n, y: 0n, exhausted: true },
    },
    {
      name: 'x->y in a bin holding only x takes nothing and is exhausted',
      fn: swapXForYInBin,
      bin: bin(P, 777n, 0n),
      amount: 1_000n,
      fees: FEES,
      expect: { amount_in: 0n, fee: 0n, protocol_fee: 0n, amount_out: 0n, x: 777n, y: 0n, exhausted: true },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = c.fn(c.bin, c.amount, c.fees);
      assert.deepEqual(
        {
          amount_in: r.amount_in,
          fee: r.fee,
          protocol_fee: r.protocol_fee,
          amount_out: r.amount_out,
          x: r.bin_after.reserve_x,
          y: r.bin_after.reserve_y,
          exhausted: r.exhausted,
        },
        c.expect,
      );
      assert.equal(r.bin_after.price, c.bin.price);
      assert.equal(r.bin_after.shares, c.bin.shares);
    });
  }

  it('bin keeps the input minus the protocol part', () => {
    const b = bin(P, 10n, 1_000_000_000n);
    const r = swapXForYInBin(b, 54_321n, FEES);
    assert.equal(r.bin_after.reserve_x - b.reserve_x, r.amount_in - r.protocol_fee);
  });

  it('rejects a zero amount, a zero price and fees of 100%', () => {
    assert.throws(() => swapXForYInBin(bin(P, 0n, 10n), 0n, FEES), RangeError);
    assert.throws(() => swapYForXInBin(bin(0n, 10n, 0n), 5n, FEES), RangeError);
    assert.throws(() => swapXForYInBin(bin(P, 0n, 10n), 5n, { ...FEES, x_provider: 9975n }), RangeError);
  });

  it('aborts (U128RangeError) where the contract arithmetic overflows', () => {
    assert.throws(() => swapXForYInBin(bin(P, 0n, 1n << 127n), 1n << 100n, FEES), /exceeds u128/);
  });
});

describe('dlmm math: swap walk', () => {
  // bins 0 and -1 hold 1000 y each, -2 is missing (empty), -3 is deep.
  const bins = new Map<number, BinBalances>([
    [0, bin(100_000_000n, 0n, 1_000n)],
    [-1, bin(99_900_000n, 7n, 1_000n)],
    [-3, bin(99_700_299n, 0n, 1_000_000n)],
  ]);
  const get = (id: number) => bins.get(id);

  it('depletes bins, crosses an empty bin and stops in the deep bin', () => {
    const r = swapWalk(get, 0, true, 5_000n, FEES);
    assert.deepEqual(
      r.steps.map((s) => [s.bin_id, s.amount_in, s.amount_out, s.fee, s.protocol_fee]),
      [
        [0, 1_005n, 1_000n, 5n, 2n],
        [-1, 1_007n, 1_000n, 5n, 2n],
        [-2, 0n, 0n, 0n, 0n],
        [-3, 2_988n, 2_965n, 14n, 7n],
      ],
    );
    assert.equal(r.amount_out, 4_965n);
    assert.equal(r.amount_in_used, 5_000n);
    assert.equal(r.unspent, 0n);
    assert.equal(r.fees, 24n);
    assert.equal(r.protocol_fees, 11n);
    assert.equal(r.active_bin_before, 0);
    assert.equal(r.active_bin_after, -3);
    assert.deepEqual(r.bins_after.get(0), bin(100_000_000n, 1_003n, 0n));
    assert.deepEqual(r.bins_after.get(-1), bin(99_900_000n, 1_012n, 0n));
    assert.deepEqual(r.bins_after.get(-3), bin(99_700_299n, 2_981n, 997_035n));
    assert.equal(r.bins_after.has(-2), false);
    // the inputs are never mutated
    assert.deepEqual(bins.get(0), bin(100_000_000n, 0n, 1_000n));
  });

  it('an exact depletion still moves the active bin', () => {
    const r = swapWalk(get, 0, true, 1_005n, FEES);
    assert.equal(r.unspent, 0n);
    assert.equal(r.amount_out, 1_000n);
    assert.equal(r.active_bin_after, -1);
  });

  it('starting in an empty bin moves before swapping', () => {
    const r = swapWalk(get, -2, true, 100n, FEES);
    assert.equal(r.steps[0]?.amount_in, 0n);
    assert.equal(r.steps[1]?.bin_id, -3);
    assert.equal(r.active_bin_after, -3);
    assert.ok(r.amount_out > 0n);
  });

  it('stops at -500 with input left over', () => {
    const edge = new Map([[-500, bin(100_000_000n, 0n, 10n)]]);
    const r = swapWalk((id) => edge.get(id), -500, true, 1_000n, NO_FEES);
    assert.equal(r.amount_out, 10n);
    assert.equal(r.amount_in_used, 10n);
    assert.equal(r.unspent, 990n);
    assert.equal(r.active_bin_after, -500);
  });

  it('stops at 500 going up (y for x)', () => {
    const edge = new Map([[500, bin(100_000_000n, 10n, 0n)]]);
    const r = swapWalk((id) => edge.get(id), 499, false, 1_000n, NO_FEES);
    assert.deepEqual(
      r.steps.map((s) => s.bin_id),
      [499, 500],
    );
    assert.equal(r.amount_out, 10n);
    assert.equal(r.unspent, 990n);
    assert.equal(r.active_bin_after, 500);
  });

  it('makes at most maxBins swap calls', () => {
    const r = swapWalk(() => undefined, 0, false, 1_000n, FEES, 350);
    assert.equal(r.steps.length, 350);
    assert.equal(r.active_bin_after, 350);
    assert.equal(r.unspent, 1_000n);
    const r2 = swapWalk(get, 0, true, 5_000n, FEES, 2);
    assert.equal(r2.steps.length, 2);
    assert.equal(r2.unspent, 5_000n - 1_005n - 1_007n);
  });

  it('a zero amount walks nothing', () => {
    const r = swapWalk(get, 0, true, 0n, FEES);
    assert.equal(r.steps.length, 0);
    assert.equal(r.active_bin_after, 0);
  });

  it('rejects an active bin outside -500..500', () => {
    assert.throws(() => swapWalk(get, 501, true, 1n, FEES), RangeError);
  });

  it('routeWalk feeds each hop the previous output', () => {
    const other = new Map([[10, bin(200_000_000n, 1_000_000n, 0n)]]);
    const r = routeWalk(
      [
        { getBin: get, activeBinId: 0, xForY: true, fees: FEES },
        { getBin: (id) => other.get(id), activeBinId: 10, xForY: false, fees: NO_FEES },
      ],
      5_000n,
    );
    assert.equal(r.hops.length, 2);
    assert.equal(r.hops[1]?.amount_in_used, 4_965n);
    // y->x at price 2: 4965 * 1e8 / 2e8 = 2482 (floor)
    assert.equal(r.amount_out, 2_482n);
  });
});
