/** The plain language service: per-document debounce, stale versions dropped, requests flush the debounce. */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeOffline, type Analysis } from '../../../core/plan/analyze';
import { editorAnalysis, PlanService, type AnalysisResult } from '../../../server/src/planService';

const GOOD =
  'version: 1\noperations:\n  - op: swap\n    input_token: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token\n    output_token: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx\n    amount_in: 1\n';
const BAD = 'version: 1\noperations: [\n';

function service(debounceMs: number) {
  const published: { uri: string; version: number; codes: string[] }[] = [];
  const svc = new PlanService({
    settings: async () => ({}),
    api: () => undefined,
    publish: (uri, r: AnalysisResult) =>
      published.push({ uri, version: r.version, codes: r.analysis.findings.map((f) => f.code) }),
    log: () => undefined,
    debounceMs,
  });
  return { svc, published };
}

function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () =>
      cond() ? resolve() : Date.now() - t0 > ms ? reject(new Error('timed out')) : setTimeout(tick, 5);
    tick();
  });
}

describe('PlanService', () => {
  it('publishes only the last of quick changes (debounced per document)', async () => {
    const { svc, published } = service(30);
    const uri = 'file:///a.dlmm.yaml';
    svc.update(TextDocument.create(uri, 'yaml', 1, BAD));
    svc.update(TextDocument.create(uri, 'yaml', 2, BAD));
    svc.update(TextDocument.create(uri, 'yaml', 3, GOOD));
    await waitFor(() => published.length > 0);
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(
      published.map((p) => p.version),
      [3],
    );
    assert.ok(!published[0]?.codes.includes('syntax'));
  });

  it('a request flushes the debounce and answers for the current version', async () => {
    const { svc, published } = service(10_000);
    const uri = 'file:///b.dlmm.yaml';
    const doc = TextDocument.create(uri, 'yaml', 7, BAD);
    svc.update(doc);
    const r = await svc.current(doc);
    assert.equal(r.version, 7);
    assert.ok(r.analysis.findings.some((f) => f.code === 'syntax'));
    assert.deepEqual(
      published.map((p) => p.version),
      [7],
    );
    svc.close(uri);
  });

  it('drops results of closed documents', async () => {
    const { svc, published } = service(20);
    const uri = 'file:///c.dlmm.yaml';
    svc.update(TextDocument.create(uri, 'yaml', 1, GOOD));
    svc.close(uri);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(published.length, 0);
    assert.deepEqual(svc.openUris(), []);
  });

  it('keeps an analysis without its parse tree and pool states, and reads the same tree again', () => {
    const json =
      '{"version": 1, "operations": [{"id": "s", "op": "swap", "input_token": "a.b", "output_token": "c.d", "amount_in": 1}]}';
    for (const [text, fileName] of [
      [GOOD, 'a.dlmm.yaml'],
      [json, 'a.dlmm.json'],
    ] as const) {
      const full = analyzeOffline(text, { fileName });
      const tx = { opId: 's', opIndex: 0, op: 'swap', mode: 'swap', part: 1, parts: 1, functionName: 'f' };
      const pools = [{ id: 'pool' }];
      const withRun = {
        ...full,
        execution: {
          transactions: [
            { ...tx, functionArgs: [], execution: { status: 'ok', movements: [1], effects: [2], pools } },
            { ...tx, execution: { status: 'unknown', detail: 'shares not read' } },
          ],
        },
      } as unknown as Analysis;
      const kept = editorAnalysis(withRun);
      const runs = kept.execution?.transactions ?? [];
      assert.deepEqual(runs[0]?.execution, { status: 'ok' });
      assert.equal('functionArgs' in (runs[0] ?? {}), false);
      assert.deepEqual(runs[1]?.execution, { status: 'unknown', detail: 'shares not read' });
      assert.deepEqual(kept.findings, full.findings);
      const again = kept.parsed;
      assert.notEqual(again, full.parsed);
      assert.equal(again.format, full.parsed.format);
      assert.deepEqual(again.value, full.parsed.value);
      assert.equal(again.operationCount, full.parsed.operationCount);
      for (const path of [['operations', 0], ['operations', 0, 'amount_in'], ['version']] as const)
        assert.deepEqual(again.rangeOf([...path]), full.parsed.rangeOf([...path]));
      // Read again only once while it is among the last few asked for.
      assert.equal(kept.parsed, again);
    }
  });
});
