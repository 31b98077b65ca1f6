/** The plan's range as a price band over the price history chart (webview/src/history.ts planBand). */
import { strict as assert } from 'node:assert';
import { planBand } from '../../../webview/src/history';
import type { LadderBin, PlanPreview, PreviewItem, PreviewOp } from '../../../webview/src/protocol';

const bin = (bin_id: number, price: string): LadderBin => ({ bin_id, price, reserve_x: '1', reserve_y: '1' });

function op(kind: PreviewOp['op'], ids: number[]): PreviewOp {
  return {
    id: kind,
    index: 0,
    op: kind,
    mode: 'strict',
    active_bin_id: 0,
    range: null,
    items: ids.map((bin_id): PreviewItem => ({
      kind,
      label: '',
      bin_id,
      from_bin_id: null,
      active_bin_offset: null,
      x_amount: '0',
      y_amount: '0',
      effects: [],
      range: null,
      findings: [],
    })),
    findings: [],
    costs: [],
  };
}

function preview(ops: PreviewOp[]): PlanPreview {
  return {
    state: 'ok',
    uri: 'file:///p.dlmm.yaml',
    file_name: 'p.dlmm.yaml',
    sender: null,
    active_bin_tolerance: 1,
    ops,
    other_pool_ops: 0,
    file_findings: [],
  } as unknown as PlanPreview;
}

describe('price history band', () => {
  const bins = [bin(-2, '98000000'), bin(-1, '99000000'), bin(0, '100000000'), bin(3, '103000000')];

  it("spans the adds' lowest to highest bin, priced by the listed bins inside it", () => {
    assert.deepEqual(planBand(preview([op('add', [3, -1]), op('add', [0])]), bins), {
      fromBin: -1,
      toBin: 3,
      lo: '99000000',
      hi: '103000000',
    });
  });

  it('none without adds, without a plan, or when no bin of the range is listed', () => {
    assert.equal(planBand(preview([op('withdraw', [0])]), bins), undefined);
    assert.equal(planBand(undefined, bins), undefined);
    assert.equal(planBand({ state: 'none', reason: 'no plan' }, bins), undefined);
    assert.equal(planBand(preview([op('add', [1, 2])]), bins), undefined);
  });
});
