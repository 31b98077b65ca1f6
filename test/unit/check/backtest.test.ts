/** The backtest's replay (core/check/backtest.ts): series reading, window cut, counts, re-centres, shares. */
import assert from 'node:assert/strict';
import { historySeries, replayRange, sharePercent } from '../../../core/check/backtest';

const pts = (bins: number[], t0 = 1_000_000, step = 60) =>
  bins.map((bin_id, i) => ({ timestamp: t0 + i * step, bin_id, price: 1n }));

describe('backtest replay', () => {
  it('a range that always held the active bin: all in, no stretch out, no re-centre', () => {
    const s = historySeries(pts([5, 6, 5, 4]), () => undefined, 86_400);
    assert.ok(s.ok);
    if (!s.ok) return;
    const r = replayRange(s.steps, { lo: 4, hi: 6, anchor: 5 }, 1);
    assert.deepEqual(r, { points: 4, inRange: 4, longestOut: null, recentres: [] });
  });

  it('re-centres with N = 1 at every point out of range, keeping the offsets from the anchor', () => {
    const s = historySeries(pts([0, 3, 4, 10]), () => undefined, 86_400);
    assert.ok(s.ok);
    if (!s.ok) return;
    // 0..1 around anchor 0: 3 out -> 3..4; 4 in; 10 out -> 10..11.
    const r = replayRange(s.steps, { lo: 0, hi: 1, anchor: 0 }, 1);
    assert.equal(r.inRange, 1);
    assert.deepEqual(r.recentres, [1_000_060, 1_000_180]);
    assert.deepEqual(r.longestOut, { points: 3, from: 1_000_060, to: 1_000_180 });
  });

  it('cuts the window back from the newest point', () => {
    const s = historySeries(pts([1, 2, 3, 4], 0, 100), () => undefined, 250);
    assert.ok(s.ok);
    if (s.ok)
      assert.deepEqual(
        s.steps.map((x) => x.bin),
        [2, 3, 4],
      );
  });

  it('refuses mixed seconds and milliseconds, and a bin outside -500..500', () => {
    const mixed = historySeries(
      [
        { timestamp: 1_700_000_000, bin_id: 1, price: 1n },
        { timestamp: 1_700_000_000_000, bin_id: 1, price: 1n },
      ],
      () => undefined,
      86_400,
    );
    assert.deepEqual(mixed.ok, false);
    if (!mixed.ok) assert.match(mixed.why, /mixes timestamps in seconds and in milliseconds/);
    const far = historySeries([{ timestamp: 1, price: 5n }], () => 900, 86_400);
    assert.deepEqual(far, { ok: false, why: 'history point 0 has bin 900, outside -500..500' });
  });

  it('a history with each point twice (same time, same bin) is merged into one each, and the note says so', () => {
    const once = pts([1, 9, 9, 2, 1]);
    const twice = once.flatMap((p) => [p, { ...p }]);
    const a = historySeries(once, () => undefined, 86_400);
    const b = historySeries(twice, () => undefined, 86_400);
    assert.ok(a.ok && b.ok);
    if (!a.ok || !b.ok) return;
    assert.deepEqual(b.steps, a.steps);
    assert.deepEqual(a.notes, []);
    assert.deepEqual(b.notes, ['5 duplicate point(s) (same timestamp, same bin) merged into one each']);
    const range = { lo: 1, hi: 2, anchor: 1 };
    assert.deepEqual(replayRange(b.steps, range, 6), replayRange(a.steps, range, 6));
  });

  it('two points at one time with different bins: refused, never the last one wins (issue 46)', () => {
    const points = [...pts([1, 2, 3]), { timestamp: 1_000_060, bin_id: 40, price: 1n }];
    const s = historySeries(points, () => undefined, 86_400);
    assert.deepEqual(s, {
      ok: false,
      why: 'the history gives two active bins at timestamp 1000060 (2 and 40): which one held then cannot be told, so it is not replayed',
    });
  });

  it('points out of order and repeated: sorted, merged, both noted', () => {
    const [p0, p1, p2] = pts([1, 2, 3]) as [
      ReturnType<typeof pts>[number],
      ReturnType<typeof pts>[number],
      ReturnType<typeof pts>[number],
    ];
    const s = historySeries([p2, p0, p1, p0], () => undefined, 86_400);
    assert.ok(s.ok);
    if (!s.ok) return;
    assert.deepEqual(
      s.steps.map((x) => x.bin),
      [1, 2, 3],
    );
    assert.equal(s.notes.length, 2);
  });

  it('a timestamp beyond any date is refused (not a crash printing it)', () => {
    const s = historySeries(
      [{ timestamp: 9_000_000_000_000_000, bin_id: 1, price: 1n }],
      () => undefined,
      86_400,
    );
    assert.deepEqual(s, {
      ok: false,
      why: 'history point 0 has timestamp 9000000000000000, beyond any date',
    });
  });

  it('shares in tenths of a percent, rounded half up, from integers', () => {
    assert.equal(sharePercent(5, 12), '41.7');
    assert.equal(sharePercent(1, 8), '12.5');
    assert.equal(sharePercent(1, 3), '33.3');
    assert.equal(sharePercent(2, 3), '66.7');
    assert.equal(sharePercent(0, 0), '0.0');
    assert.equal(sharePercent(7, 7), '100.0');
  });
});
