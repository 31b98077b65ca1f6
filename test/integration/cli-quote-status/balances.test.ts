/**
 * `dlmm balances --sender P`: a principal's balances of every listed token and STX, read from the
 * simulator's node over loopback HTTP as `check` reads them; a balance that cannot be read is listed with
 * why (never as 0) and the exit status says so.
 */
import assert from 'node:assert/strict';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { parseJsonExact } from '../../../core/api/json';
import { DEFAULT_USER, SBTC, STX_WRAPPER, USDCX } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

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

type Rec = Record<string, unknown>;

describe('dlmm balances', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0 });
  });
  after(async () => {
    await sim?.close();
  });

  it('lists the default user balances exactly (json), STX through its wrapper', async () => {
    const io = captureIO({ DLMM_NODE_URL: sim.nodeUrl });
    const code = await main(['balances', '--api', sim.url, '--sender', DEFAULT_USER, '--format', 'json'], io);
    assert.equal(code, 0, io.stderr);
    const doc = parseJsonExact(io.stdout) as { sender: string; balances: Rec[] };
    assert.equal(doc.sender, DEFAULT_USER);
    const by = new Map(doc.balances.map((b) => [b.token, b]));
    assert.equal(by.get(SBTC)?.amount, '1000000000');
    assert.equal(by.get(SBTC)?.human, '10');
    assert.equal(by.get(USDCX)?.amount, '1000000000000');
    assert.equal(by.get(STX_WRAPPER)?.symbol, 'STX');
    assert.equal(by.get(STX_WRAPPER)?.stx, true);
    assert.equal(by.get(STX_WRAPPER)?.amount, '10000000000000');
  });

  it('a principal the world does not name holds 0 of each (text)', async () => {
    const io = captureIO({ DLMM_NODE_URL: sim.nodeUrl });
    const nobody = 'SP000000000000000000002Q6VF78';
    assert.equal(await main(['balances', '--api', sim.url, '--sender', nobody], io), 0, io.stderr);
    assert.match(io.stdout, new RegExp(`^balances of ${nobody}$`, 'm'));
    assert.match(
      io.stdout,
      /^ {2}sBTC +0 \(0 base units\) +SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4\.sbtc-token$/m,
    );
  });

  it('without a node nothing is guessed: each balance says why it was not read (exit 1)', async () => {
    const io = captureIO();
    const code = await main(['balances', '--api', sim.url, '--sender', DEFAULT_USER, '--format', 'json'], io);
    assert.equal(code, 1, io.stderr);
    const doc = parseJsonExact(io.stdout) as { balances: Rec[] };
    assert.ok(doc.balances.length >= 3);
    for (const b of doc.balances) {
      assert.equal(b.amount, null);
      assert.match(String(b.unread), /no node proxy is configured/);
    }
  });

  it('refuses a missing or malformed --sender (exit 2)', async () => {
    const missing = captureIO();
    assert.equal(await main(['balances', '--api', sim.url], missing), 2);
    assert.match(missing.stderr, /balances needs --sender PRINCIPAL/);
    const bad = captureIO();
    assert.equal(await main(['balances', '--api', sim.url, '--sender', 'nope'], bad), 2);
    assert.match(bad.stderr, /--sender nope is not a valid Stacks address/);
  });
});
