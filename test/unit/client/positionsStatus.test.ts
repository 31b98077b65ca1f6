/** The positions status bar's words and its leave-range detection (client/src/positionsStatus.ts). */
import assert from 'node:assert/strict';
import { describePositions, leftRangeMessage, RangeTracker } from '../../../client/src/positionsStatus';
import type { PositionsReport, PositionView } from '../../../core/check/positions';

const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

function view(pool: string, inRange: boolean | undefined, extra: Partial<PositionView> = {}): PositionView {
  return {
    pool,
    alias: pool,
    bins: [],
    active_bin_id: 10,
    value_in_y: 100n,
    ...(inRange === undefined
      ? { unknown: 'the owned-bin inventory could not be read' }
      : { in_range: inRange }),
    ...(inRange === false ? { distance: 3, side: 'above' as const } : {}),
    ...extra,
  };
}

const report = (...positions: PositionView[]): PositionsReport => ({
  sender: SENDER,
  positions,
  withoutShares: [],
});

describe('positions status bar', () => {
  it('says how many positions and how many are out of range, and the unknown ones', () => {
    assert.equal(
      describePositions(report(view('dlmm_1', true), view('dlmm_2', false))).text,
      '2 positions · 1 out of range',
    );
    assert.equal(describePositions(report(view('dlmm_1', true))).text, '1 position');
    const v = describePositions(report(view('dlmm_1', true), view('dlmm_2', undefined)));
    assert.equal(v.text, '1 position · 1 unknown');
    assert.equal(v.warning, true);
    assert.match(v.tooltip, /dlmm_2: unknown \(the owned-bin inventory could not be read\)/);
    assert.equal(describePositions(report(view('dlmm_1', true))).warning, false);
    assert.equal(describePositions(report()).text, '0 positions');
    assert.match(describePositions(undefined, 'GET /quotes/v2/pools: 503').tooltip, /could not be read: GET/);
  });

  it('announces a position once when it leaves its range, again only after it came back', () => {
    const t = new RangeTracker();
    assert.deepEqual(t.left(report(view('dlmm_1', true), view('dlmm_2', false))), []);
    const left = t.left(report(view('dlmm_1', false), view('dlmm_2', false)));
    assert.deepEqual(
      left.map((p) => p.pool),
      ['dlmm_1'],
    );
    assert.match(
      leftRangeMessage(left),
      /position in dlmm_1 \(the active bin is 3 bins above it\) left its range/,
    );
    assert.deepEqual(t.left(report(view('dlmm_1', false))), [], 'still out: not announced again');
    // Unknown changes nothing: it is neither in nor out.
    assert.deepEqual(t.left(report(view('dlmm_1', undefined))), []);
    assert.deepEqual(t.left(report(view('dlmm_1', true))), []);
    assert.equal(t.left(report(view('dlmm_1', false))).length, 1);
  });
});
