/**
 * Quick fixes for mistakes over real JSON-RPC (issue 45): a mistyped key renamed, a token written as its
 * symbol replaced by the principal the simulated engine lists, a tiny amount written in base units.
 */
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { POOL_SBTC_USDCX, USDCX } from '../../../core/sim/defaultWorld';
import { startSimLsp, type SimLsp } from './harness';

const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: ladder
    op: add
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 139, x_amount: 1, y_amount: 2500 }
      - { bin_id: 138, x_amount: 0, y_ammount: 2500 }
  - id: sell
    op: swap
    input_token: sBTC
    output_token: ${USDCX}
    amount_in: 100000
`;

describe('language server: quick fixes for mistakes (simulated engine)', function () {
  this.timeout(30_000);
  const uri = 'file:///work/plans/mistakes.dlmm.yaml';
  let fixture: SimLsp | undefined;

  before(async () => {
    fixture = await startSimLsp(uri, PLAN, {});
  });
  after(async () => {
    await fixture?.close();
  });

  async function fixFor(pred: (d: Diagnostic) => boolean): Promise<{ d: Diagnostic; newText: string[] }> {
    const lsp = fixture!.lsp;
    const diags = await lsp.diagnostics(uri, (ds) => ds.some(pred));
    const d = diags.find(pred)!;
    const actions = (await lsp.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    })) as CodeAction[];
    return { d, newText: actions.flatMap((a) => a.edit?.changes?.[uri] ?? []).map((e) => e.newText) };
  }

  it('renames a mistyped key', async () => {
    const { d, newText } = await fixFor((x) => x.code === 'schema' && /y_ammount/.test(x.message));
    assert.match(d.message, /did you mean 'y_amount'\?/);
    assert.deepEqual(newText, ['y_amount']);
  });

  it('replaces a token symbol with the principal the engine lists', async () => {
    const { d, newText } = await fixFor((x) => x.code === 'schema' && /engine lists 'sBTC'/.test(x.message));
    assert.match(d.message, /SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4\.sbtc-token/);
    assert.deepEqual(newText, ['SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token']);
  });

  it('offers base units for an amount below a millionth of a token', async () => {
    const { d, newText } = await fixFor((x) => x.code === 'amount-tiny');
    assert.match(d.message, /x_amount 1 is 0\.00000001 sBTC/);
    assert.deepEqual(newText, ['100000000']);
  });
});
