/** Liquidity shapes: hand-checked golden tables per shape, then properties (fast-check). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import {
  expandShape,
  fitToReserves,
  shapeWeight,
  splitExact,
  SHAPES,
  type ShapeName,
  type ShapeRequest,
} from '../../../core/dlmm/shapes';
import { addLiquidity } from '../../../core/dlmm/liquidity';

const E8 = 100_000_000n;

/** Request with prices 1e8 * 2^(bin/step-ish) given as a table, active 0 unless said. */
function req(
  shape: ShapeName,
  lo: number,
  hi: number,
  x: bigint,
  y: bigint,
  prices: Record<number, bigint> = {},
  reserves: [bigint, bigint] = [0n, 0n],
  active = 0,
): ShapeRequest {
  return {
    shape,
    lo,
    hi,
    active,
    x_total: x,
    y_total: y,
    priceOf: (b) => prices[b] ?? E8,
    active_reserve_x: reserves[0],
    active_reserve_y: reserves[1],
  };
}

/** bin -> [x, y] of an expansion (only non-empty bins). */
function table(r: ReturnType<typeof expandShape>): Record<number, [number, number]> {
  assert.ok(
    r.ok,
    JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  );
  const out: Record<number, [number, number]> = {};
  for (const b of r.bins) out[b.bin_id] = [Number(b.x_amount), Number(b.y_amount)];
  return out;
}

describe('liquidity shapes: golden tables (hand-checked)', () => {
  it('weights: spot 1, curve D+1-d, bid-ask d+1', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((d) => shapeWeight('spot', d, 3)),
      [1n, 1n, 1n, 1n],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((d) => shapeWeight('curve', d, 3)),
      [4n, 3n, 2n, 1n],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((d) => shapeWeight('bid-ask', d, 3)),
      [1n, 2n, 3n, 4n],
    );
  });

  it('largest remainder: 10 over three equal bins, the leftover unit to the bin nearest the active one', () => {
    assert.deepEqual(splitExact(10n, [1n, 1n, 1n]), [4n, 3n, 3n]);
    assert.deepEqual(table(expandShape(req('spot', -3, -1, 0n, 10n))), {
      '-3': [0, 3],
      '-2': [0, 3],
      '-1': [0, 4],
    });
  });

  it('spot: 3 units over 5 bins, two round to nothing and are dropped', () => {
    const r = expandShape(req('spot', -5, -1, 0n, 3n));
    assert.deepEqual(table(r), { '-3': [0, 1], '-2': [0, 1], '-1': [0, 1] });
    assert.ok(r.ok);
    assert.deepEqual(r.dropped, [-5, -4]);
  });

  it('curve, Y only over -3..0: the active bin gets no Y without X (ratio of its reserves), 3:2:1 below', () => {
    // nominal active share 100*4/10 = 40, but X is 0 and the bin holds both tokens: it takes nothing.
    const r = expandShape(req('curve', -3, 0, 0n, 100n, {}, [1000n, 1000n]));
    assert.deepEqual(table(r), { '-3': [0, 17], '-2': [0, 33], '-1': [0, 50] });
    assert.ok(r.ok);
    assert.deepEqual(r.dropped, [0]);
  });

  it('spot X side puts equal value, not equal amounts: prices 2 and 4 -> 200 and 100', () => {
    const prices = { 1: 2n * E8, 2: 4n * E8 };
    assert.deepEqual(table(expandShape(req('spot', 1, 2, 300n, 0n, prices))), {
      1: [200, 0],
      2: [100, 0],
    });
  });

  it('bid-ask over -2..2: active bin in the 1:1 reserve ratio, values rising to the edges', () => {
    // Y: weights 1,2,3 (bins 0,-1,-2): nominal active y = 1000/6 = 166.
    // X: value weights 1,2,3 at prices 1,2,4 -> amount weights 1, 1, 0.75: nominal active x = 363.
    // Ratio 10:10 shrinks x to 166; the rest 834 goes 4:3 over bins 1, 2 -> 477, 357 (value 954 : 1428 = 2:3).
    // Y rest 834 goes 2:3 over -1, -2 -> 334, 500.
    const prices = { 0: E8, 1: 2n * E8, 2: 4n * E8 };
    assert.deepEqual(table(expandShape(req('bid-ask', -2, 2, 1000n, 1000n, prices, [10n, 10n]))), {
      '-2': [0, 500],
      '-1': [0, 334],
      0: [166, 166],
      1: [477, 0],
      2: [357, 0],
    });
  });

  it('curve over -2..2 with equal prices: 3:2:1 on each side, active shared', () => {
    // Y weights 3,2,1 (0,-1,-2): nominal 600*3/6 = 300; X the same: 300; reserves 1:2 -> x 150, y 300.
    // X rest 450 over 2:1 -> 300, 150; Y rest 300 over 2:1 -> 200, 100.
    assert.deepEqual(table(expandShape(req('curve', -2, 2, 600n, 600n, {}, [1n, 2n]))), {
      '-2': [0, 100],
      '-1': [0, 200],
      0: [150, 300],
      1: [300, 0],
      2: [150, 0],
    });
  });

  it('empty active bin keeps its nominal shares (no ratio, no fee on a first deposit)', () => {
    assert.deepEqual(table(expandShape(req('spot', -1, 1, 10n, 10n))), {
      '-1': [0, 5],
      0: [5, 5],
      1: [5, 0],
    });
  });

  it('active bin holding only Y takes only Y', () => {
    assert.deepEqual(table(expandShape(req('spot', -1, 1, 10n, 10n, {}, [0n, 7n]))), {
      '-1': [0, 5],
      0: [0, 5],
      1: [10, 0],
    });
  });

  it('a one-bin range on the active bin keeps both totals (exact totals win over the ratio)', () => {
    assert.deepEqual(table(expandShape(req('spot', 0, 0, 7n, 9n, {}, [1n, 1n]))), { 0: [7, 9] });
  });

  it('problems are values: empty range, a total with no side, a bin without price', () => {
    assert.deepEqual(expandShape(req('spot', 2, 1, 1n, 0n)), { ok: false, problem: { kind: 'empty-range' } });
    assert.deepEqual(expandShape(req('spot', -3, -1, 5n, 0n)), {
      ok: false,
      problem: { kind: 'no-x-side', x_total: 5n },
    });
    assert.deepEqual(expandShape(req('spot', 1, 3, 0n, 5n)), {
      ok: false,
      problem: { kind: 'no-y-side', y_total: 5n },
    });
    const r = expandShape({ ...req('spot', 0, 2, 5n, 0n), priceOf: (b) => (b === 2 ? undefined : E8) });
    assert.deepEqual(r, { ok: false, problem: { kind: 'no-price', bins: [2] } });
  });

  it('ratio fit: the larger side shrinks to the reserve ratio', () => {
    assert.deepEqual(fitToReserves(100n, 100n, 1n, 3n), { x: 33n, y: 100n });
    assert.deepEqual(fitToReserves(100n, 100n, 3n, 1n), { x: 100n, y: 33n });
    assert.deepEqual(fitToReserves(100n, 100n, 5n, 0n), { x: 100n, y: 0n });
    assert.deepEqual(fitToReserves(100n, 100n, 0n, 0n), { x: 100n, y: 100n });
  });

  it('the active bin in the reserve ratio pays no liquidity fee (core math)', () => {
    const fees = {
      x_protocol: 10n,
      x_provider: 20n,
      x_variable: 30n,
      y_protocol: 10n,
      y_provider: 20n,
      y_variable: 30n,
    };
    const bin = {
      price: 76_060_388_561n,
      reserve_x: 150_000_000n,
      reserve_y: 98_000_000_000n,
      shares: 1_000_000_000n,
    };
    const r = expandShape({
      ...req('curve', -10, 10, 100_000_000n, 76_000_000_000n, {}, [bin.reserve_x, bin.reserve_y]),
      priceOf: () => bin.price,
    });
    assert.ok(r.ok);
    const a = r.bins.find((b) => b.bin_id === 0);
    assert.ok(a && a.x_amount > 0n && a.y_amount > 0n);
    const add = addLiquidity(bin, a.x_amount, a.y_amount, { binId: 0, activeBinId: 0, fees });
    assert.ok(add.ok);
    assert.equal(add.value.fee_x, 0n);
    assert.equal(add.value.fee_y, 0n);
  });
});

const RUNS = { numRuns: 300 };
const shape = fc.constantFrom<ShapeName>(...SHAPES);
const total = fc.oneof(
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.bigInt({ min: 0n, max: 10n ** 24n }),
  fc.constant(MAX_UINT128),
);
const request = fc
  .record({
    shape,
    active: fc.integer({ min: -500, max: 500 }),
    a: fc.integer({ min: -200, max: 200 }),
    b: fc.integer({ min: -200, max: 200 }),
    x: total,
    y: total,
    rx: fc.bigInt({ min: 0n, max: 10n ** 20n }),
    ry: fc.bigInt({ min: 0n, max: 10n ** 20n }),
    base: fc.bigInt({ min: 1n, max: 10n ** 14n }),
    step: fc.integer({ min: 1, max: 100 }),
  })
  .map((r): ShapeRequest => {
    const lo = Math.max(-500, Math.min(500, r.active + Math.min(r.a, r.b)));
    const hi = Math.max(-500, Math.min(500, r.active + Math.max(r.a, r.b)));
    // Prices rise with the bin id (geometric-ish, exact integers).
    const priceOf = (bin: number): bigint =>
      r.base + BigInt(bin + 500) * BigInt(r.step) * (r.base / 100n + 1n);
    return {
      shape: r.shape,
      lo,
      hi,
      active: r.active,
      x_total: hi >= r.active ? r.x : 0n,
      y_total: lo <= r.active ? r.y : 0n,
      priceOf,
      active_reserve_x: r.rx,
      active_reserve_y: r.ry,
    };
  });

describe('liquidity shapes: properties', () => {
  it('splitExact adds up to the total, each part within one unit of its exact share', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX_UINT128 }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 30n }), { minLength: 1, maxLength: 50 }),
        (t, w) => {
          const parts = splitExact(t, w);
          const sum = w.reduce((s, v) => s + v, 0n);
          if (sum === 0n) return parts.every((p) => p === 0n);
          assert.equal(
            parts.reduce((s, v) => s + v, 0n),
            t,
          );
          parts.forEach((p, i) => {
            const exact = t * (w[i] as bigint); // compare p*sum with t*w within one sum
            assert.ok(p * sum <= exact + sum && p * sum >= exact - sum);
          });
          return true;
        },
      ),
      RUNS,
    );
  });

  it('totals exact to the unit, placement by construction, ids in range and ascending, nothing above uint128', () => {
    fc.assert(
      fc.property(request, (r) => {
        const out = expandShape(r);
        assert.ok(out.ok);
        let sx = 0n;
        let sy = 0n;
        let prev = -Infinity;
        for (const b of out.bins) {
          assert.ok(b.bin_id > prev && b.bin_id >= r.lo && b.bin_id <= r.hi);
          prev = b.bin_id;
          if (b.bin_id < r.active) assert.equal(b.x_amount, 0n);
          if (b.bin_id > r.active) assert.equal(b.y_amount, 0n);
          assert.ok(b.x_amount + b.y_amount > 0n, 'empty bins are dropped');
          assert.ok(b.x_amount >= 0n && b.x_amount <= MAX_UINT128);
          assert.ok(b.y_amount >= 0n && b.y_amount <= MAX_UINT128);
          sx += b.x_amount;
          sy += b.y_amount;
        }
        assert.equal(sx, r.x_total);
        assert.equal(sy, r.y_total);
        assert.equal(out.bins.length + out.dropped.length, r.hi - r.lo + 1);
        return true;
      }),
      RUNS,
    );
  });

  it('monotone weights: curve falls and bid-ask rises with the distance, spot is flat', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), (edge) => {
        for (let d = 0; d < edge; d++) {
          assert.ok(shapeWeight('curve', d, edge) > shapeWeight('curve', d + 1, edge));
          assert.ok(shapeWeight('bid-ask', d, edge) < shapeWeight('bid-ask', d + 1, edge));
          assert.equal(shapeWeight('spot', d, edge), shapeWeight('spot', d + 1, edge));
        }
        assert.equal(shapeWeight('curve', edge, edge), 1n);
        assert.equal(shapeWeight('bid-ask', 0, edge), 1n);
        return true;
      }),
      RUNS,
    );
  });

  it('monotone amounts on the Y side away from the active bin (within the one rounding unit)', () => {
    fc.assert(
      fc.property(request, (r) => {
        const out = expandShape(r);
        assert.ok(out.ok);
        const y = new Map(out.bins.map((b) => [b.bin_id, b.y_amount]));
        const from = Math.min(r.hi, r.active - 1);
        for (let b = from; b > r.lo; b--) {
          const near = y.get(b) ?? 0n;
          const far = y.get(b - 1) ?? 0n;
          if (r.shape === 'curve') assert.ok(near + 1n >= far, `curve ${b}: ${near} < ${far}`);
          if (r.shape === 'bid-ask') assert.ok(far + 1n >= near, `bid-ask ${b}: ${far} < ${near}`);
          if (r.shape === 'spot') assert.ok(near - far <= 1n && far - near <= 1n);
        }
        return true;
      }),
      RUNS,
    );
  });
});
