/** The ladder model and the drift what-if, as tables (pure functions, no DOM). */
import { strict as assert } from 'node:assert';
import { buildLadderModel, driftWhatIf, placementViolation, xValueInY } from '../../../webview/src/model';
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
  };
}

describe('webview ladder model', () => {
  it('placement rule at an active bin', () => {
    const table: [number, number, bigint, bigint, boolean][] = [
      [99, 100, 1n, 0n, true], // X below
      [99, 100, 0n, 1n, false],
      [101, 100, 0n, 1n, true], // Y above
      [101, 100, 1n, 0n, false],
      [100, 100, 0n, 0n, true], // nothing at the active bin
      [100, 100, 1n, 1n, false],
    ];
    for (const [bin, a, x, y, bad] of table)
      assert.equal(placementViolation(bin, a, x, y) !== undefined, bad, `bin ${bin} at ${a} x=${x} y=${y}`);
  });

  it('drift: strict items revert when placement flips; simple items follow the active bin', () => {
    const ops = [
      op('strict', 'add', [
        item({ kind: 'add', bin_id: 101, x_amount: '5' }),
        item({ kind: 'add', bin_id: 99, y_amount: '5' }),
        item({ kind: 'add', bin_id: 104, x_amount: '5' }),
      ]),
      op('simple', 'add', [item({ kind: 'add', bin_id: 102, active_bin_offset: 2, x_amount: '5' })]),
      op('simple', 'withdraw', [
        item({ kind: 'withdraw', bin_id: 98, active_bin_offset: -2, y_amount: '5' }),
      ]),
      op('strict', 'withdraw', [item({ kind: 'withdraw', bin_id: 101, x_amount: '5' })]),
    ];
    const listed = new Set(Array.from({ length: 40 }, (_, i) => 80 + i));
    const up2 = driftWhatIf(ops, 2, 1, new Set([98]), listed);
    assert.deepEqual(
      up2.map((o) => [o.op_id, o.landing_bin, o.status]),
      [
        ['add-strict', 101, 'reverts'], // X now below 102
        ['add-strict', 99, 'ok'],
        ['add-strict', 104, 'ok'],
        ['add-simple', 104, 'reverts'], // |2| > tolerance 1
        ['withdraw-simple', 100, 'reverts'], // no shares at 100
        ['withdraw-strict', 101, 'at-risk'], // swapped through
      ],
    );
    const up1 = driftWhatIf(ops, 1, 1, new Set([99]), listed);
    assert.equal(up1[0]!.status, 'at-risk', 'bin 101 becomes the active bin: fee applies');
    assert.deepEqual([up1[3]!.landing_bin, up1[3]!.status], [103, 'ok']);
    assert.deepEqual([up1[4]!.landing_bin, up1[4]!.status], [99, 'ok']);
    const none = driftWhatIf(ops, 0, 1, new Set([98]), listed);
    assert.equal(none[0]!.status, 'at-risk', 'k = 0 flags strict items next to the active bin');
    assert.equal(none[2]!.status, 'ok');
    assert.equal(
      driftWhatIf(
        [op('simple', 'add', [item({ kind: 'add', bin_id: 499, active_bin_offset: 1 })], 498)],
        3,
        5,
        new Set(),
        listed,
      )[0]!.status,
      'reverts',
      'outside -500..500',
    );
  });

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
