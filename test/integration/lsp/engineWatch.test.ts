/**
 * Diagnostics follow the engine's state even when it moved before the engine watch's first read: the plan
 * service and the engine watch, wired as the language server wires them (server/src/handlers.ts), against
 * the simulated engine over loopback HTTP with the real client. The watch never polls by itself here
 * (its interval is an hour): each test calls pollOnce() at the point of the interleaving it is about.
 */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DlmmApi } from '../../../core/api/types';
import { POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { EngineWatch } from '../../../server/src/engineWatch';
import { PlanService, type AnalysisResult } from '../../../server/src/planService';
import { admin, clientFor, startSimulator, type RunningSimulator } from '../check/sim';

// Bin 137 holds only x: wrong while the active bin is 139 (below it), right once it is 136 (above it).
const PLAN = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: asks
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 137, x_amount: 1000, y_amount: 0 }
  - id: sell
    op: swap
    input_token: ${SBTC}
    output_token: ${USDCX}
    amount_in: 100000
`;
const URI = 'file:///work/plans/asks.dlmm.yaml';

interface Shown {
  live: boolean;
  codes: string[];
  height: number | null | undefined;
}

/** The service and the watch over `api`, as handlers.ts wires them; `changes` counts onStateChange calls. */
function serverParts(sim: RunningSimulator, api: DlmmApi) {
  const shown: Shown[] = [];
  const waiters: { pred: (s: Shown) => boolean; resolve: (s: Shown) => void }[] = [];
  const service = new PlanService({
    settings: async () => ({ apiUrl: sim.url }),
    api: () => api,
    publish: (_uri, r: AnalysisResult) => {
      const s: Shown = {
        live: r.live,
        codes: r.analysis.findings.map((f) => f.code),
        height: r.analysis.live?.status?.state_height,
      };
      shown.push(s);
      for (const w of [...waiters])
        if (w.pred(s)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(s);
        }
    },
    log: () => undefined,
    debounceMs: 0,
  });
  let changes = 0;
  const watch = new EngineWatch({
    intervalMs: 3_600_000,
    targets: async () => service.openUris().map(() => ({ api, settings: { apiUrl: sim.url } })),
    onStatus: () => undefined,
    onStateChange: (a) => {
      changes++;
      a.clearCache();
      service.revalidateAll();
    },
    analysedOnOtherState: (a, status) => service.analysedOnOtherState(a, status),
  });
  /** The next publish (from now on) that satisfies `pred`. */
  const next = (pred: (s: Shown) => boolean): Promise<Shown> =>
    new Promise((resolve) => waiters.push({ pred, resolve }));
  return { service, watch, shown, next, changes: () => changes };
}

const liveWith = (code: string) => (s: Shown) => s.live && s.codes.includes(code);
const liveWithout = (code: string) => (s: Shown) => s.live && !s.codes.includes(code);

describe('engine watch: documents analysed on an older state than its read are revalidated', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi | undefined;

  beforeEach(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await api?.close?.();
    await sim?.close();
  });

  it('the state moved after the analysis read it and before the watch first read it', async () => {
    // The status answer is reused until the watch reads it again (as the server's client does).
    api = clientFor(sim, { statusTtlMs: 60_000 });
    const { service, watch, next, changes } = serverParts(sim, api);
    const first = next(liveWith('wrong-token-side'));
    service.update(TextDocument.create(URI, 'yaml', 1, PLAN), true);
    assert.equal((await first).height, 1000);

    await admin(sim, `/pools/${POOL_SBTC_USDCX}/shift`, { bins: -3 });
    const after = next(liveWithout('wrong-token-side'));
    // The watch's first read: its baseline is 1001 already, the document's findings are of 1000.
    await watch.pollOnce();
    assert.equal(changes(), 1, 'the document analysed at 1000 is revalidated');
    const s = await after;
    assert.equal(s.height, 1001);

    // Nothing moved since: the next read revalidates nothing.
    await watch.pollOnce();
    assert.equal(changes(), 1);
    service.close(URI);
  });

  it('an analysis that read the state before the watch first read it, and ended after that read', async () => {
    const client = clientFor(sim, { statusTtlMs: 60_000 });
    api = client;
    // The first analysis's pool record and bin list: answered before the shift, and held until released,
    // so it ends after the watch's first read.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answered = new Set<string>();
    let bothAnswered!: () => void;
    const readBeforeShift = new Promise<void>((resolve) => (bothAnswered = resolve));
    let holding = true;
    const hold = async <T>(what: string, id: string, answer: Promise<T>): Promise<T> => {
      if (!holding || id !== POOL_SBTC_USDCX) return answer;
      const value = await answer;
      answered.add(what);
      if (answered.size === 2) bothAnswered();
      await gate;
      return value;
    };
    const holdingPool = (inner: DlmmApi): DlmmApi => ({
      ...inner,
      pool: (id) => hold('pool', id, inner.pool(id)),
      bins: (id) => hold('bins', id, inner.bins(id)),
      withSignal: (signal) => holdingPool(inner.withSignal?.(signal) ?? inner),
    });
    const { service, watch, next, changes } = serverParts(sim, holdingPool(client));
    const stale = next((s) => s.live);
    service.update(TextDocument.create(URI, 'yaml', 1, PLAN), true);
    await readBeforeShift;

    await admin(sim, `/pools/${POOL_SBTC_USDCX}/shift`, { bins: -3 });
    // The watch's first read (1001): no live finding is shown yet, so there is nothing to revalidate.
    await watch.pollOnce();
    assert.equal(changes(), 0);
    holding = false;
    release();
    const s1 = await stale;
    assert.equal(s1.height, 1000, 'the analysis read the status before the shift');
    assert.ok(s1.codes.includes('wrong-token-side'));

    // The watch's next read sees no change of its own, but the shown findings are of 1000.
    const after = next(liveWithout('wrong-token-side'));
    await watch.pollOnce();
    assert.equal(changes(), 1, 'the document shown at 1000 is revalidated');
    assert.equal((await after).height, 1001);
    service.close(URI);
  });
});
