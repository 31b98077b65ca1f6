/**
 * Cancelled reads against the simulated engine over loopback: a read queued behind the node's per-minute
 * limit leaves the queue as soon as every caller waiting for it has given up (it never reaches the engine
 * and never waits for the pacing), while a caller still waiting keeps a shared read alive.
 */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import { isCancelled } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';
import { DEFAULT_USER, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { createLiveSession } from '../../../core/live/live';
import { analyzePlan } from '../../../core/check/analyze';

/** The unsigned bin id argument of get-bin-balances for signed `id`, as hex without 0x. */
const binArg = (id: number): string => '01' + (id + 500).toString(16).padStart(32, '0');

/** Whether `p` is still pending once every callback already queued has run. */
async function isPending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const settled = p.then(
    () => 'settled',
    () => 'settled',
  );
  return (await Promise.race([settled, new Promise((r) => setImmediate(() => r(marker)))])) === marker;
}

describe('cancelled reads (simulated engine)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  beforeEach(() => {
    // Two node reads a minute: the third waits for the window, unless cancelled. (Deaf to the server's
    // grant of 500, which would otherwise replace the 2; and allowed to wait the minute, which a read
    // otherwise refuses at once as longer than the 15 s it waits at most.)
    api = createApiClient({
      baseUrl: sim.url,
      nodeUrl: sim.nodeUrl,
      nodeRatePerMinute: 2,
      followRateHeaders: false,
      maxPacingWaitMs: 120_000,
    });
  });
  afterEach(async () => {
    await api.close?.();
  });
  after(async () => {
    await sim?.close();
  });

  it('ends a queued node read when its last caller gives up, without sending it', async () => {
    await api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]);
    await api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(140)]);
    const nodeBefore = sim.requests().node;
    const a = new AbortController();
    const b = new AbortController();
    const read = (c: AbortController) =>
      api.withSignal!(c.signal).callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(141)]);
    const first = read(a);
    const second = read(b);
    // Both callers have joined the one read, queued behind the limit (every pending callback has run).
    assert.equal(await isPending(second), true);
    // Handlers first: a rejection is expected, never unhandled.
    const firstOutcome = first.then(
      () => 'resolved',
      (e: unknown) => (isCancelled(e) ? 'cancelled' : String(e)),
    );
    a.abort();
    assert.equal(await firstOutcome, 'cancelled');
    assert.equal(await isPending(second), true, 'the other caller still waits for the shared read');
    b.abort();
    await assert.rejects(second, (e: unknown) => isCancelled(e));
    assert.equal(sim.requests().node, nodeBefore, 'the cancelled read never reached the engine');
    assert.equal(api.stats().requests, 2, 'the two reads before it, nothing more');
  });

  it('an analysis whose caller gives up rejects as cancelled; one sharing its reads keeps them', async () => {
    // The add needs node reads of bins 145..147: the limit lets two through, the third queues.
    const plan = `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: ladder
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: 145, x_amount: 1000, y_amount: 0 }
      - { bin_id: 146, x_amount: 1000, y_amount: 0 }
      - { bin_id: 147, x_amount: 1000, y_amount: 0 }
`;
    const session = createLiveSession();
    const gone = new AbortController();
    const stays = new AbortController();
    // The first analysis starts every read; the second joins them.
    const cancelled = analyzePlan(plan, { api, session, fileName: 'a.dlmm.yaml', signal: gone.signal });
    const outcome = cancelled.then(
      () => 'finished',
      (e: unknown) => (isCancelled(e) ? 'cancelled' : String(e)),
    );
    const kept = analyzePlan(plan, { api, session, fileName: 'b.dlmm.yaml', signal: stays.signal });
    const keptOutcome = kept.then(
      (a) => a.findings.map((f) => f.code).join(','),
      (e: unknown) => (isCancelled(e) ? 'cancelled' : String(e)),
    );
    // Wait (on a condition) until two node reads were answered: the third is queued for both analyses.
    while (sim.requests().node < 2) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await isPending(kept), true);
    gone.abort();
    assert.equal(await outcome, 'cancelled');
    assert.equal(
      await isPending(kept),
      true,
      'the read the other analysis waits for goes on (cancelled, it would finish at once with a finding)',
    );
    stays.abort();
    assert.equal(await keptOutcome, 'cancelled');
    assert.equal(sim.requests().node, 2, 'the queued read never reached the engine');
  });

  it("a view's methods carry its signal also when the view is copied with spread; the client's never give up", async () => {
    await api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(139)]);
    await api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(140)]);
    const nodeBefore = sim.requests().node;
    const c = new AbortController();
    const view = api.withSignal!(c.signal);
    assert.equal(api.withSignal!(c.signal), view, 'one view per signal');
    // A wrapper that copies the view (as tests counting reads do) reads under the view's signal.
    const copy: DlmmApi = { ...view };
    const queued = copy.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(142)]);
    // The client itself (no signal) reads the same bin: its read must outlive the view's caller.
    const own = api.callReadOnly(POOL_SBTC_USDCX, 'get-bin-balances', [binArg(143)]);
    own.catch(() => undefined); // ended by close() after the test
    const outcome = queued.then(
      () => 'resolved',
      (e: unknown) => (isCancelled(e) ? 'cancelled' : String(e)),
    );
    c.abort();
    assert.equal(await outcome, 'cancelled');
    assert.equal(await isPending(own), true, "the client's own read still waits for the window");
    assert.equal(sim.requests().node, nodeBefore);
  });
});
