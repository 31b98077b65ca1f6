/**
 * The plain language service: a change analysed at once, its publish held for the per-document debounce,
 * stale versions dropped, requests end the debounce;
 * live sessions shared by analyses at the same applied state height.
 */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeOffline, type Analysis } from '../../../core/check/analyze';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { editorAnalysis, PlanService, type AnalysisResult } from '../../../server/src/planService';
import { scalePlan } from '../../bench/lspScale.bench';

const GOOD =
  'version: 1\noperations:\n  - op: swap\n    input_token: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token\n    output_token: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx\n    amount_in: 1\n';
const BAD = 'version: 1\noperations: [\n';

function service(debounceMs: number) {
  const published: { uri: string; version: number; codes: string[]; run?: number }[] = [];
  const svc = new PlanService({
    settings: async () => ({}),
    api: () => undefined,
    publish: (uri, r: AnalysisResult) =>
      published.push({ uri, version: r.version, codes: r.analysis.findings.map((f) => f.code), run: r.run }),
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

  it('analyses the changes of one turn once, at once, and holds the result until the debounce ends', async () => {
    const { svc, published } = service(600_000);
    const uri = 'file:///d.dlmm.yaml';
    svc.update(TextDocument.create(uri, 'yaml', 1, GOOD));
    svc.update(TextDocument.create(uri, 'yaml', 2, BAD));
    const doc = TextDocument.create(uri, 'yaml', 3, BAD);
    svc.update(doc);
    // Analysed without a request ending the debounce: nothing published yet.
    assert.deepEqual(await svc.analysed(uri, 3), { live: false, published: false });
    assert.equal(published.length, 0);
    // A request ends the debounce: the result it waited for is published, from the one run of the turn.
    const r = await svc.current(doc);
    assert.equal(r.version, 3);
    assert.deepEqual(
      published.map((p) => [p.version, p.run]),
      [[3, 1]],
    );
    assert.ok(published[0]?.codes.includes('syntax'));
    assert.deepEqual(await svc.analysed(uri, 3), { live: false, published: true });
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

describe('PlanService live sessions (simulated engine over loopback)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await sim?.close();
  });

  /** A real client on the simulator, counting the bin-list reads the analyses ask it for. */
  function liveService(statusTtlMs = 0, debounceMs = 0) {
    // statusTtlMs 0: every status() asks the engine, so a height change is seen at once.
    const client = createApiClient({ baseUrl: sim.url, nodeUrl: sim.nodeUrl, statusTtlMs });
    let binReads = 0;
    const counting = (api: DlmmApi): DlmmApi => ({
      ...api,
      bins: (id) => (binReads++, api.bins(id)),
      withSignal: (signal) => counting(api.withSignal?.(signal) ?? api),
      withGate: (gate) => counting(api.withGate?.(gate) ?? api),
    });
    const api = counting(client);
    const live: string[] = [];
    const events: string[] = [];
    const svc = new PlanService({
      settings: async () => ({}),
      api: () => api,
      publish: (uri, r: AnalysisResult) => {
        events.push(`${uri} ${r.live ? 'live' : 'offline'}`);
        if (r.live) live.push(uri);
      },
      log: () => undefined,
      debounceMs,
      // Long enough that a slow machine's first analysis never outlives the session it started.
      sharedSessionMs: 60_000,
    });
    return { svc, live, events, binReads: () => binReads, api };
  }

  it('counts a live result held by the debounce beside the one shown when the engine watch asks', async () => {
    // Status answers reused for a minute: a held analysis reads only what is in memory (it sends nothing
    // while its debounce holds), so the new state is read for it by the watch and another document.
    const { svc, live, api } = liveService(60_000, 600_000);
    const uri = 'file:///w.dlmm.yaml';
    const plan = scalePlan(0);
    svc.update(TextDocument.create(uri, 'yaml', 1, plan), true);
    await waitFor(() => live.includes(uri), 10_000);
    const read = async () => {
      const s = await api.status();
      return { ready: s.ready, stateHeight: s.state_height, tipLag: s.tip_lag };
    };
    const before = await read();
    assert.equal(svc.analysedOnOtherState(api, before), false);
    // The engine moves; the watch reads its status, and a plan opened then (analysed and published at
    // once) reads the new state into the client's cache.
    sim.engine.bumpHeight(1);
    await api.refreshStatus?.();
    const other = 'file:///w-other.dlmm.yaml';
    svc.update(TextDocument.create(other, 'yaml', 1, plan), true);
    await waitFor(() => live.includes(other), 10_000);
    // A change is analysed on the new state from memory and held: the shown one is on the old.
    svc.update(TextDocument.create(uri, 'yaml', 2, plan.replace('x_amount: 1000,', 'x_amount: 10001,')));
    assert.deepEqual(await svc.analysed(uri, 2), { live: true, published: false });
    svc.close(other);
    const after = await read();
    assert.notEqual(after.stateHeight, before.stateHeight);
    assert.equal(svc.analysedOnOtherState(api, after), true, 'the analysis shown was made on the old state');
    // Read against the old state, the held one (shown at the debounce's end) is the one made elsewhere.
    assert.equal(svc.analysedOnOtherState(api, before), true, 'the held analysis was made on the new state');
    assert.deepEqual(live, [uri, other]);
    svc.close(uri);
  });

  it('shares one session between analyses one after the other at the same state height', async () => {
    const { svc, live, binReads } = liveService();
    for (const i of [0, 3]) {
      const uri = `file:///s${i}.dlmm.yaml`;
      svc.update(TextDocument.create(uri, 'yaml', 1, scalePlan(i)));
      await waitFor(() => live.includes(uri), 10_000);
    }
    // Plans 0 and 3 are on the same pool: the second, started after the first had finished, read its bin
    // list from the first one's session.
    assert.equal(binReads(), 1);
    for (const uri of svc.openUris()) svc.close(uri);
  });

  it('publishes the offline result first while reads are under way, only the live one when it is ready at once', async () => {
    // Status answers reused for a minute: once the session holds every read, an analysis needs no I/O.
    const { svc, live, events } = liveService(60_000);
    svc.update(TextDocument.create('file:///o1.dlmm.yaml', 'yaml', 1, scalePlan(0)));
    await waitFor(() => live.includes('file:///o1.dlmm.yaml'), 10_000);
    // The same reads again (the same plan in another file): all answered from the session, in this turn.
    svc.update(TextDocument.create('file:///o2.dlmm.yaml', 'yaml', 1, scalePlan(0)));
    await waitFor(() => live.includes('file:///o2.dlmm.yaml'), 10_000);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events, [
      'file:///o1.dlmm.yaml offline',
      'file:///o1.dlmm.yaml live',
      'file:///o2.dlmm.yaml live',
    ]);
    for (const uri of svc.openUris()) svc.close(uri);
  });

  it('starts a new session when the applied state height moved', async () => {
    const { svc, live, binReads } = liveService();
    svc.update(TextDocument.create('file:///h0.dlmm.yaml', 'yaml', 1, scalePlan(0)));
    await waitFor(() => live.includes('file:///h0.dlmm.yaml'), 10_000);
    sim.engine.bumpHeight(1);
    svc.update(TextDocument.create('file:///h3.dlmm.yaml', 'yaml', 1, scalePlan(3)));
    await waitFor(() => live.includes('file:///h3.dlmm.yaml'), 10_000);
    assert.equal(binReads(), 2);
    for (const uri of svc.openUris()) svc.close(uri);
  });
});
