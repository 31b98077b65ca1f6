/**
 * `dlmm positions` against the simulator over loopback HTTP: with its inventory (tip-pinned) every position
 * is valued; without it, app v2 current-bins where the pool is in its cohort and app v2 position bins (display
 * data) for the one that is not (dlmm_2), which says it may lag.
 */
import assert from 'node:assert/strict';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { parseJsonExact } from '../../../core/api/json';
import { DEFAULT_USER } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

type Rec = Record<string, unknown>;

function captureIO(env: Record<string, string> = {}): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env: { ...env } as Record<string, string | undefined>,
    cwd: process.cwd(),
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

describe('dlmm positions (simulator)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0 });
  });
  after(async () => {
    await sim?.close();
  });

  it('with the inventory: every pool of the default user valued, k = 0 equal to holding', async () => {
    const io = captureIO({ DLMM_NODE_URL: sim.nodeUrl, DLMM_INVENTORY_URL: sim.inventoryUrl });
    const code = await main(
      ['positions', '--api', sim.url, '--sender', DEFAULT_USER, '--what-if', '-1..1', '--format', 'json'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const doc = parseJsonExact(io.stdout) as { positions: Rec[] };
    assert.equal(doc.positions.length, 3);
    for (const p of doc.positions) {
      assert.equal(p.source, 'inventory');
      assert.equal(p.unknown, undefined);
      assert.equal(p.in_range, true);
      const bins = p.bins as Rec[];
      const sum = (k: string) => bins.reduce((s, b) => s + BigInt(b[k] as string), 0n);
      assert.equal(p.x_total, sum('x_amount').toString());
      assert.equal(p.y_total, sum('y_amount').toString());
      const zero = (p.what_if as Rec[]).find((w) => w.shift === 0) as Rec;
      assert.equal(zero.value_in_y, p.value_in_y);
      assert.equal(zero.hold_value_in_y, p.value_in_y);
    }
  });

  it('without the inventory: the pool outside the current-bins cohort is read from app v2 positions and says it may lag', async () => {
    const io = captureIO({ DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(
      ['positions', '--api', sim.url, '--sender', DEFAULT_USER, '--pool', 'dlmm_2', '--format', 'json'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const p = (parseJsonExact(io.stdout) as { positions: Rec[] }).positions[0] as Rec;
    assert.equal(p.source, 'app');
    assert.match(p.may_lag as string, /display data that may lag/);
    const text = captureIO({ DLMM_NODE_URL: sim.nodeUrl });
    await main(['positions', '--api', sim.url, '--sender', DEFAULT_USER, '--pool', 'dlmm_2'], text);
    assert.match(text.stdout, /may lag: read from app v2 position bins/);
  });

  it('a principal holding nothing: no positions, the pools listed as without shares', async () => {
    const io = captureIO({ DLMM_NODE_URL: sim.nodeUrl, DLMM_INVENTORY_URL: sim.inventoryUrl });
    const nobody = 'SP000000000000000000002Q6VF78';
    assert.equal(await main(['positions', '--api', sim.url, '--sender', nobody], io), 0, io.stderr);
    assert.match(io.stdout, new RegExp(`^positions of ${nobody}: 0 positions$`, 'm'));
    assert.match(io.stdout, /^no shares in: /m);
  });
});
