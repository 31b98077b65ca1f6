/**
 * The export's deadline against the service's clock (issue 26: with the local clock 24 h behind,
 * `policy.deadline_seconds: 600` gave a deadline already 85,800 s past by the service's clock, and export
 * exited 0). The simulator over loopback HTTP sends its real `Date` header; the local clock is injected into
 * the client and the export (the least machinery: no clock of the machine or the simulator is changed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { analyzePlan } from '../../../core/check/analyze';
import { buildTransactions } from '../../../core/tx/build';
import type { ExportOutcome } from '../../../core/tx/types';
import { clientFor, startSimulator, type RunningSimulator } from '../check/sim';

const ROOT = join(__dirname, '../../..');
const PLAN = readFileSync(join(ROOT, 'examples', 'add-ladder.dlmm.yaml'), 'utf8').replace(
  'operations:',
  'policy:\n  deadline_seconds: 600\noperations:',
);
const DAY = 86_400_000;

describe('export: the deadline against the service clock (its Date header)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => sim?.close());

  /** Check and export the plan on a machine whose clock is `offsetMs` off (negative: behind). */
  async function exportWithClock(offsetMs: number): Promise<ExportOutcome> {
    const now = () => Date.now() + offsetMs;
    const api = clientFor(sim, { now });
    try {
      const analysis = await analyzePlan(PLAN, { api, fileName: 'plan.dlmm.yaml', now });
      assert.deepEqual(
        analysis.findings.filter((f) => f.severity === 'error'),
        [],
        'the plan itself is clean',
      );
      return await buildTransactions(analysis, { api, now });
    } finally {
      await api.close?.();
    }
  }

  it('the simulator sends a real Date header, as any HTTP server does', async () => {
    const res = await request(`${sim.url}/quotes/v2/ready`);
    await res.body.text();
    const date = res.headers.date;
    assert.equal(typeof date, 'string');
    const at = Date.parse(date as string);
    assert.ok(Number.isFinite(at), `Date: ${String(date)}`);
    assert.ok(Math.abs(at - Date.now()) < DAY, 'the simulator answers with the machine clock');
  });

  it('refuses a deadline already past by the service clock (local clock a day behind): deadline-passed', async () => {
    const out = await exportWithClock(-DAY);
    assert.equal(out.ok, false);
    if (out.ok) return;
    assert.equal(out.error.code, 'deadline-passed');
    assert.match(out.error.message, /already past by the service's clock/);
    assert.match(out.error.message, /your clock is 86(39|40)\d s behind the service's/);
  });

  it('warns when the clocks differ by more than a minute, and exports (five minutes behind; a day ahead)', async () => {
    for (const [offset, words] of [
      [-5 * 60_000, /your clock is (29|30)\d s behind .* ends (29|30)\d s sooner/],
      [DAY, /your clock is 86(39|40)\d s ahead of .* ends 86(39|40)\d s later/],
    ] as const) {
      const out = await exportWithClock(offset);
      assert.equal(out.ok, true, out.ok ? '' : out.error.message);
      if (!out.ok) return;
      const skew = out.findings.filter((f) => f.code === 'clock-skew');
      assert.equal(skew.length, 1, JSON.stringify(out.findings));
      assert.equal(skew[0]!.severity, 'warning');
      assert.match(skew[0]!.message, words);
    }
  });

  it('says nothing when the clocks agree', async () => {
    const out = await exportWithClock(0);
    assert.equal(out.ok, true, out.ok ? '' : out.error.message);
    if (out.ok)
      assert.deepEqual(
        out.findings.filter((f) => f.code === 'clock-skew'),
        [],
      );
  });
});
