/**
 * Many plans open at once, over real JSON-RPC against the simulated engine: each open is analysed once
 * (the live publish, after the offline one unless the live result was ready in the same event-loop turn; no
 * second run of the same version), and the live reads of all the
 * documents are shared (status, readiness, pools and bins read once, not once per document).
 */
import assert from 'node:assert/strict';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { scalePlan } from '../../bench/lspScale.bench';
import { startLsp, type LspSession } from './harness';

const PLANS = 30;

describe('language server with many plans open (simulated engine)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let lsp: LspSession;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, recordRequests: true });
    lsp = await startLsp({
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      // Debounce 0: a second analysis of the opened version would run at once and show in the events.
      initializationOptions: { debounceMs: 0, statusPollMs: 600_000, analysisEvents: true },
    });
  });

  after(async () => {
    await lsp?.close();
    await sim?.close();
  });

  it('analyses each opened plan once and shares the live reads across documents', async () => {
    const uris = Array.from({ length: PLANS }, (_, i) => `file:///work/many/plan-${i}.dlmm.yaml`);
    const before = sim.requests();
    await Promise.all(
      uris.map((uri, i) => {
        lsp.open(uri, scalePlan(i));
        return lsp.live(uri, 1, 30_000);
      }),
    );
    for (const uri of uris) {
      // Every publish of the opened version comes from the document's first analysis (a second run would
      // have thrown the first one's live result away and published its own), and the live publish is the
      // last: an offline one before it, or none when the live result was ready in the same turn.
      assert.deepEqual(
        lsp.runs(uri, 1).filter((run) => run !== 1),
        [],
        `${uri}: runs ${lsp.runs(uri, 1).join(', ')}`,
      );
      const events = lsp.analyses(uri, 1);
      assert.ok(
        events.length === 1 ? events[0] === true : events.length === 2 && !events[0] && events[1],
        `${uri}: ${events.join(', ')}`,
      );
    }
    const after = sim.requests();
    // Per document the analysis needs status, two readiness checks, tokens, pools, the pool, its bins, the
    // sender's positions and a quote: read per document that is at least 2 x PLANS requests. Shared, the
    // three pools and five distinct swaps of these plans need far fewer distinct requests than documents.
    // Only the reads that are asked again by design per live session (1 s, so their number depends on how
    // the opens spread over time) may repeat: the tip-pinned current-bins gate and the status.
    const log = sim.requestLog().filter((r) => r.cls === 'service');
    const times = new Map<string, number>();
    for (const r of log) times.set(r.key, (times.get(r.key) ?? 0) + 1);
    assert.equal(log.length, after.service - before.service, 'every service request is in the log');
    assert.ok(times.size < PLANS, `${times.size} distinct service requests for ${PLANS} plans`);
    const repeated = [...times].filter(([key, n]) => n > 1 && !/\/current-bins$|\/status$/.test(key));
    assert.deepEqual(repeated, [], 'no read but the current-bins gate and the status is asked twice');
    assert.equal(after.rateLimited, before.rateLimited);
  });
});
