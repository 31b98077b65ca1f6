/** Operation lenses: "Send to wallet" beside "Export unsigned transaction", only when the client has it. */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeOffline } from '../../../core/check/analyze';
import { codeLenses } from '../../../server/src/features/codeLens';
import type { AnalysisResult } from '../../../server/src/planService';

const TEXT = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    pool: SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10
    bins:
      - { bin_id: 142, x_amount: 150000, y_amount: 0 }
`;

function lenses(commands: string[]) {
  const doc = TextDocument.create('file:///w/p.dlmm.yaml', 'yaml', 1, TEXT);
  const analysis = analyzeOffline(TEXT, { fileName: 'p.dlmm.yaml' });
  const result = { version: 1, analysis, live: false } as unknown as AnalysisResult;
  return codeLenses(doc, result, new Set(commands));
}

describe('code lenses: Send to wallet', () => {
  it('sits after the export lens with the same operation argument', () => {
    const got = lenses(['dlmm.exportUnsigned', 'dlmm.sendToWallet']);
    assert.deepEqual(
      got.map((l) => [l.command?.title, l.command?.command]),
      [
        ['Export unsigned transaction', 'dlmm.exportUnsigned'],
        ['Send to wallet', 'dlmm.sendToWallet'],
      ],
    );
    assert.deepEqual(got[1]!.command?.arguments, [{ uri: 'file:///w/p.dlmm.yaml', operation: 'asks' }]);
  });

  it('is absent when the client did not register the command', () => {
    assert.deepEqual(
      lenses(['dlmm.exportUnsigned']).map((l) => l.command?.command),
      ['dlmm.exportUnsigned'],
    );
  });
});
