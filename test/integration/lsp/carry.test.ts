/**
 * No flicker while typing: the offline result published for a changed document keeps the last live findings
 * of the operations whose text did not change (moved with them), drops those of the edited operation, and
 * the new live analysis then replaces them. The plan service runs against the simulated engine over
 * loopback HTTP with the real client.
 */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DlmmApi } from '../../../core/api/types';
import type { Finding } from '../../../core/plan/diagnostics';
import { PlanService, type AnalysisResult } from '../../../server/src/planService';
import { POOL1, SENDER } from '../../unit/plan/helpers';
import { clientFor, startSimulator, type RunningSimulator } from '../check/sim';

const HEAD = `version: 1\nsender: ${SENDER}\noperations:\n`;
const ASKS = `  - id: asks\n    op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 135, x_amount: 150000, y_amount: 0 }\n`;
const SHIFT = `  - id: shift\n    op: move\n    pool: ${POOL1}\n    moves:\n      - { from_bin_id: 136, to_bin_id: 125, amount: 999999999999999999999 }\n`;
const EXTRA = `  - id: extra\n    op: add\n    pool: ${POOL1}\n    bins:\n      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n`;

interface Published {
  version: number;
  live: boolean;
  findings: Finding[];
}

describe('language service: live findings stay for untouched operations while typing', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let api: DlmmApi;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  it('keeps, moves and drops the previous live findings, then shows the new live ones', async () => {
    const published: Published[] = [];
    const svc = new PlanService({
      settings: async () => ({}),
      api: () => api,
      publish: (_uri, r: AnalysisResult) =>
        published.push({ version: r.version, live: r.live, findings: r.analysis.findings }),
      log: () => undefined,
      debounceMs: 0,
    });
    const uri = 'file:///carry.dlmm.yaml';
    const first = (version: number, live: boolean) =>
      published.find((p) => p.version === version && p.live === live);
    const liveOf = async (version: number): Promise<Published> => {
      const doc = TextDocument.create(uri, 'yaml', version, texts[version]!);
      svc.update(doc, true);
      const r = await svc.current(doc);
      assert.ok(r.live, 'live result');
      return first(version, true)!;
    };
    const at = (text: string, f: Finding) => text.slice(f.offset, f.offset + f.length);
    const codesAt = (p: Published, text: string) => p.findings.map((f) => `${f.code}@${at(text, f)}`);

    const texts: Record<number, string> = {
      1: HEAD + ASKS + SHIFT,
      // The move is being edited: its amount is half-typed (a schema error), the add is untouched.
      2: HEAD + ASKS + SHIFT.replace('999999999999999999999', '99x'),
      // A new operation typed above the add: the add's text moves down.
      3: HEAD + EXTRA + ASKS + SHIFT,
    };

    const live1 = await liveOf(1);
    assert.deepEqual(
      codesAt(live1, texts[1]!).filter((c) => !c.startsWith('strict-drift')),
      ['wrong-token-side@150000', 'amount-exceeds-user-liquidity@999999999999999999999'],
    );

    await liveOf(2);
    const offline2 = first(2, false)!;
    assert.ok(
      codesAt(offline2, texts[2]!).includes('wrong-token-side@150000'),
      `the add's live finding stays: ${codesAt(offline2, texts[2]!).join(', ')}`,
    );
    assert.ok(
      !offline2.findings.some((f) => f.code === 'amount-exceeds-user-liquidity'),
      "the edited move's live finding is dropped",
    );
    assert.ok(
      offline2.findings.some((f) => f.code === 'schema'),
      "the edit's own schema finding shows",
    );

    const live3 = await liveOf(3);
    const offline3 = first(3, false)!;
    const carried = offline3.findings.find((f) => f.code === 'wrong-token-side');
    assert.ok(carried, 'carried across the insertion');
    assert.equal(at(texts[3]!, carried), '150000', 'moved with its operation');
    assert.equal(carried.offset, texts[3]!.indexOf('150000'));
    // The new live analysis is the truth: what it says replaces what was carried.
    assert.deepEqual(
      live3.findings.filter((f) => f.code === 'wrong-token-side'),
      [carried],
    );
    svc.close(uri);
  });
});
