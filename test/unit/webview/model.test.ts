/** The ladder model and the drift what-if, as tables (pure functions, no DOM). */
import { strict as assert } from 'node:assert';
import { buildLadderModel, xValueInY } from '../../../webview/src/model';
import type { PoolView, PreviewItem, PreviewOp } from '../../../webview/src/protocol';

function item(p: Partial<PreviewItem> & Pick<PreviewItem, 'kind' | 'bin_id'>): PreviewItem {
  return {
    label: `${p.kind} bin ${p.bin_id}`,
    from_bin_id: null,
    active_bin_offset: null,
    x_amount: '0',
    y_amount: '0',
    effects: [],
    range: null,
    findings: [],
    ...p,
  };
}

function op(mode: 'strict' | 'simple', kind: PreviewOp['op'], items: PreviewItem[], active = 100): PreviewOp {
  return {
    id: `${kind}-${mode}`,
    index: 0,
    op: kind,
    mode,
    active_bin_id: active,
    range: { offset: 0, length: 1 },
    items,
    findings: [],
    costs: [],
  };
}

describe('webview ladder model', () => {
  it('values X in Y at the bin price so the bars compare, and applies plan deltas', () => {
    const view: PoolView = {
      header: {
        pool_id: 'P',
        alias: null,
        token_x: { contract: 'X', symbol: 'X', decimals: 8 },
        token_y: { contract: 'Y', symbol: 'Y', decimals: 6 },
        bin_step: 10,
        fees: { x_protocol: 0, x_provider: 0, x_variable: 0, y_protocol: 0, y_provider: 0, y_variable: 0 },
        active: true,
        quotable: true,
        pool_status: null,
        active_bin: 0,
        active_price: '200000000',
      },
      status: { ready: true, state_height: 1, chain_tip: 1, tip_lag: 0, pool_count: 1 },
      bins: [
        { bin_id: 0, price: '200000000', reserve_x: '10', reserve_y: '7' },
        { bin_id: 1, price: '300000000', reserve_x: '4', reserve_y: '0' },
      ],
      positions: {
        state: 'ok',
        sender: 'S',
        source: 'setting',
        bins: [{ bin_id: 1, user_liquidity: '1', liquidity: '2', reserve_x: '4', reserve_y: '0' }],
      },
    };
    const preview = {
      state: 'ok' as const,
      uri: 'u',
      file_name: 'f',
      sender: null,
      active_bin_tolerance: 1,
      other_pool_ops: 0,
      file_findings: [],
      drift: { available: false, reason: 'not executed in this unit test', steps: [] },
      ops: [
        op(
          'strict',
          'add',
          [
            item({
              kind: 'add',
              bin_id: 1,
              x_amount: '2',
              effects: [{ bin_id: 1, dx: '2', dy: '0' }],
              findings: [{ code: 'c', severity: 'warning', message: 'm', offset: 0, length: 1 }],
            }),
          ],
          0,
        ),
      ],
    };
    const m = buildLadderModel(view, preview);
    assert.equal(xValueInY(10n, 200000000n), 20n);
    assert.equal(m.valueX[500], 20);
    assert.equal(m.valueY[500], 7);
    assert.equal(m.valueX[501], 12);
    assert.equal(m.userValue[501], 6, 'half the shares of a bin worth 12');
    assert.equal(m.afterX[501], 18, '(4 + 2) * 3');
    assert.equal(m.findingRank[501], 2);
    assert.equal(m.hasEffect[500], 0);
  });
});
