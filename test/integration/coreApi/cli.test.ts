/** `dlmm tokens`, `dlmm routes` and `dlmm quote --source core` through main() against the simulator. */
import assert from 'node:assert/strict';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

async function dlmm(argv: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('dlmm tokens / routes / quote --source core', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let env: Record<string, string>;
  before(async () => {
    sim = await startSimulator({ port: 0 });
    env = { BITFLOW_API_HOST: sim.coreUrl, READONLY_CALL_API_HOST: sim.nodeUrl };
  });
  after(async () => {
    await sim.close();
  });

  it('dlmm tokens: text and json from the core swap API, one request', async () => {
    const t = await dlmm(['tokens'], env);
    assert.equal(t.code, 0, t.err);
    assert.match(t.out, /^token id\s+symbol\s+decimals\s+contract\n/);
    assert.match(t.out, /token-sbtc\s+sBTC\s+8\s+SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4\.sbtc-token/);
    assert.match(t.err, /core swap API and node: 1 request\(s\)/);
    const j = await dlmm(['tokens', '--format', 'json', '--sim']);
    assert.equal(j.code, 0, j.err);
    const doc = JSON.parse(j.out) as {
      tokens: { token_id: string; decimals: number; asset_name: string | null }[];
    };
    assert.deepEqual(doc.tokens.map((x) => x.token_id).sort(), ['token-sbtc', 'token-stx', 'token-usdcx']);
    assert.equal(doc.tokens.find((x) => x.token_id === 'token-stx')?.asset_name, null);
  });

  it('dlmm routes: every token reachable, or the routes to one; no route is exit 1', async () => {
    const all = await dlmm(['routes', '--in', 'sBTC'], env);
    assert.equal(all.code, 0, all.err);
    assert.match(all.out, /sBTC \(token-sbtc\) can be swapped into 2 token\(s\)/);
    assert.match(all.out, /USDCx \(token-usdcx\): 1 route\(s\)/);
    assert.match(all.err, /2 request\(s\)/);
    const one = await dlmm(['routes', '--in', 'token-sbtc', '--out', 'USDCx', '--format', 'json'], env);
    assert.equal(one.code, 0, one.err);
    const doc = JSON.parse(one.out) as { routes: Record<string, { swap_call: string; pools: string[] }[]> };
    assert.deepEqual(Object.keys(doc.routes), ['token-usdcx']);
    assert.match(doc.routes['token-usdcx']![0]!.swap_call, /swap-x-for-y-simple-multi$/);
    const bad = await dlmm(['routes', '--in', 'DOGE'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /'DOGE' is not a token of the core swap API/);
    const none = await dlmm(['routes'], env);
    assert.equal(none.code, 2);
    const unconfigured = await dlmm(['tokens'], {});
    assert.equal(unconfigured.code, 2);
    assert.match(unconfigured.err, /apiHost \(BITFLOW_API_HOST\) is required/);
  });

  it('dlmm quote --source core: the core quote, checked on the bins through the engine', async () => {
    const r = await dlmm([
      'quote',
      '--sim',
      '--source',
      'core',
      '--in',
      'sBTC',
      '--out',
      'USDCx',
      '--amount',
      '0.1',
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.err);
    const best = (JSON.parse(r.out) as { routes: Record<string, unknown>[] }).routes[0]!;
    assert.equal(best.amount_in, '10000000');
    assert.equal(best.amount_in_used, '10000000');
    assert.equal(best.amount_out, '7560486106');
    assert.equal(best.complete, true);
    assert.equal(best.verified, true);
    const e = await dlmm([
      'quote',
      '--sim',
      '--in',
      'sBTC',
      '--out',
      'USDCx',
      '--amount',
      '0.1',
      '--format',
      'json',
    ]);
    assert.equal(
      (JSON.parse(e.out) as { routes: Record<string, unknown>[] }).routes[0]!.amount_out,
      best.amount_out,
    );
    const partial = await dlmm([
      'quote',
      '--sim',
      '--source',
      'core',
      '--in',
      'sBTC',
      '--out',
      'STX',
      '--amount',
      '1000',
    ]);
    assert.equal(partial.code, 1);
    assert.match(partial.out, /PARTIAL: only 0\.86136991 sBTC of 1000 sBTC finds liquidity/);
    const bad = await dlmm([
      'quote',
      '--sim',
      '--source',
      'chain',
      '--in',
      'sBTC',
      '--out',
      'STX',
      '--amount',
      '1',
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--source expects engine \(the quote engine\) or core \(the core swap API\)/);
  });
});
