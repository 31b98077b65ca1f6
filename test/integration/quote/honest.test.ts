/**
 * Honest quotes against the simulated engine over loopback HTTP with the real client: the exact
 * recomputation from the bins read (core/quote/exact.ts), the plan rules swap-partial-fill, price-impact and
 * quote-mismatch, the export's refusal of a partial fill and its summary lines, and `dlmm quote` text/JSON.
 * The mismatch world is made with the simulator's admin quote skew (the engine reports a skewed output).
 */
import assert from 'node:assert/strict';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { checkRouteLive } from '../../../core/quote/exact';
import { buildTransactions } from '../../../core/tx/build';
import { summaryText } from '../../../core/tx/summary';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { assertFindings, plan, SBTC, USDCX } from '../../unit/plan/helpers';
import { admin, clientFor, startSimulator, type RunningSimulator } from '../check/sim';

const swapOf = (a: string, b: string, amount: string): string =>
  `  - { id: s, op: swap, input_token: ${a}, output_token: ${b}, amount_in: ${amount} }\n`;
const SWAP_CODES = ['swap-partial-fill', 'price-impact', 'quote-mismatch', 'swap-no-route'];

async function dlmm(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('honest quotes (exact recomputation against the simulator)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi;
  before(async () => {
    sim = await startSimulator({ port: 0 });
    api = clientFor(sim);
  });
  after(async () => {
    await api.close?.();
    await sim.close();
  });
  beforeEach(async () => {
    await admin(sim, '/reset', {});
    api.clearCache();
  });

  const req = (amount: bigint) => ({
    input_token: SBTC,
    output_token: USDCX,
    amount_in: amount,
    slippage_tolerance: 1,
    amm_strategy: 'best',
  });

  it('a complete route: the exact walk on the bins read agrees with the engine', async () => {
    const route = await api.quote(req(10_000_000n));
    const c = await checkRouteLive(api, route, 10_000_000n);
    assert.equal(c.verified, true, c.unverified_reason);
    assert.equal(c.complete, true);
    assert.equal(c.amount_in_used, 10_000_000n);
    assert.equal(c.amount_out, route.amount_out);
    assert.equal(c.mismatch, false);
    assert.equal(c.price_impact_bps, route.price_impact_bps);
    assert.deepEqual(
      c.hops,
      route.hops.map((h) => h.pool_id),
    );
  });

  it('1000 sBTC: only the part that finds liquidity is used, and the check says so', async () => {
    const amount = 1000n * 10n ** 8n;
    const route = await api.quote(req(amount));
    const c = await checkRouteLive(api, route, amount);
    assert.equal(c.verified, true);
    assert.equal(c.complete, false);
    assert.ok(c.amount_in_used > 0n && c.amount_in_used < amount);
    // The engine's per-bin steps (its input summed) agree with our recomputation in an honest world.
    assert.equal(route.hops[0]!.amount_in, c.amount_in_used);
    assert.ok(c.checked_hops[0]!.bins_walked <= 350, 'the core walk stops at 350 bins');
  });

  it('a skewed engine: the check names both figures and keeps the exact one', async () => {
    await admin(sim, '/state', { quote_skew_bps: 150 });
    api.clearCache();
    const route = await api.quote(req(10_000_000n));
    const c = await checkRouteLive(api, route, 10_000_000n);
    assert.equal(c.mismatch, true);
    assert.equal(c.engine_amount_out, route.amount_out);
    assert.equal(c.amount_out, 7_560_486_106n, 'the exact walk, as in an honest world');
    assert.equal(
      route.amount_out,
      (7_560_486_106n * 10_150n) / 10_000n,
      'the engine reports the skewed figure',
    );
  });

  it('plan rules: swap-partial-fill (error, with the amount that fits)', async () => {
    const text = plan(swapOf(SBTC, USDCX, '100000000000'));
    const a = await analyzePlan(text, { api });
    assertFindings(a, [['swap-partial-fill', 'error', '100000000000']], SWAP_CODES);
    const f = a.findings.find((x) => x.code === 'swap-partial-fill')!;
    const check = a.prepared.find((p) => p.op === 'swap');
    assert.ok(check?.op === 'swap' && check.swap.check);
    const used = check.swap.check.amount_in_used;
    assert.match(f.message, new RegExp(`the most that fits is ${used}`));
    assert.match(f.message, /0\.86136991 sBTC/);
  });

  it('plan rules: price-impact warning above policy.max_price_impact, error above 10%', async () => {
    const warn = plan(swapOf(SBTC, USDCX, '50000000'), `policy:\n  max_price_impact: 0.5\n`);
    const a = await analyzePlan(warn, { api });
    assertFindings(a, [['price-impact', 'warning', '50000000']], SWAP_CODES);
    assert.match(
      a.findings.find((f) => f.code === 'price-impact')!.message,
      /0\.54% is above policy\.max_price_impact 0\.5%/,
    );
    const quiet = await analyzePlan(plan(swapOf(SBTC, USDCX, '50000000')), { api });
    assertFindings(quiet, [], SWAP_CODES);
    // 100,000 USDCx into sBTC moves the price by about 34%: an error whatever the policy.
    const big = plan(swapOf(USDCX, SBTC, '100000000000'), `policy:\n  max_price_impact: 50\n`);
    const b = await analyzePlan(big, { api });
    const codes = b.findings.filter((f) => SWAP_CODES.includes(f.code)).map((f) => [f.code, f.severity]);
    assert.deepEqual(
      codes.find(([c]) => c === 'price-impact'),
      ['price-impact', 'error'],
    );
  });

  it('plan rules: quote-mismatch names the engine figure and the exact one', async () => {
    await admin(sim, '/state', { quote_skew_bps: -40 });
    api.clearCache();
    const a = await analyzePlan(plan(swapOf(SBTC, USDCX, '10000000')), { api });
    assertFindings(a, [['quote-mismatch', 'warning', '10000000']], SWAP_CODES);
    const m = a.findings.find((f) => f.code === 'quote-mismatch')!.message;
    assert.match(
      m,
      /the engine quotes 7530\.244161 USDCx \(7530244161\) but the exact walk on the bins read gives 7560\.486106 USDCx \(7560486106\)/,
    );
  });

  it('export refuses a partial fill; a complete swap states the input used in its summary', async () => {
    const partial = await analyzePlan(plan(swapOf(SBTC, USDCX, '100000000000')), { api });
    const refused = await buildTransactions(partial, { api });
    assert.equal(refused.ok, false);
    // Refused also without the analysis' error list (the exporter's own check).
    const again = await buildTransactions({ ...partial, findings: [] }, { api });
    assert.ok(!again.ok && again.error.code === 'swap-partial-fill', again.ok ? '' : again.error.message);
    assert.match(again.error.message, /lower amount_in to at most 86136991/);

    await admin(sim, '/state', { quote_skew_bps: 100 });
    api.clearCache();
    const ok = await analyzePlan(plan(swapOf(SBTC, USDCX, '10000000')), { api });
    const built = await buildTransactions(ok, { api });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    const text = summaryText(built.transactions);
    assert.match(text, /fills the whole amount: 0\.1 sBTC \(10000000\) used/);
    assert.match(text, /input used \(whole amount\) 0\.1 sBTC \(10000000\)/);
    assert.match(
      text,
      /engine says 7636\.\d+ USDCx \(\d+\), the bins read give 7560\.486106 USDCx \(7560486106\)/,
    );
    // The bound is on the exact output, never on the engine's higher figure.
    assert.match(
      text,
      /min-dy 7484\.881244 USDCx \(7484881244\) — exact output on the bins read 7560486106 less 1% slippage/,
    );
  });

  it('dlmm quote: text marks a partial fill in words; json carries the per-route fields', async () => {
    const t = await dlmm(['quote', '--api', sim.url, '--in', 'sBTC', '--out', 'USDCx', '--amount', '1000']);
    assert.equal(t.code, 1, 'only a partial fill: exit 1');
    assert.match(t.out, /fill\s+PARTIAL: only 0\.86136991 sBTC of 1000 sBTC finds liquidity/);
    assert.match(
      t.out,
      /amount out\s+64568\.170132 USDCx for the 0\.86136991 sBTC used \(not for the whole amount\)/,
    );

    await admin(sim, '/state', { quote_skew_bps: 25 });
    const j = await dlmm([
      'quote',
      '--api',
      sim.url,
      '--in',
      'sBTC',
      '--out',
      'USDCx',
      '--amount',
      '0.1',
      '--format',
      'json',
      '--multi',
    ]);
    assert.equal(j.code, 0, j.err);
    const doc = JSON.parse(j.out) as { routes: Record<string, unknown>[] };
    assert.ok(doc.routes.length >= 2);
    for (const r of doc.routes) {
      for (const k of ['amount_in', 'amount_in_used', 'amount_out', 'min_received', 'engine_amount_out'])
        assert.match(String(r[k]), /^\d+$/, `${k} is a decimal string of base units`);
      assert.equal(typeof r.complete, 'boolean');
      assert.equal(typeof r.price_impact_bps, 'number');
      assert.ok(Array.isArray(r.hops) && (r.hops as unknown[]).every((h) => typeof h === 'string'));
      assert.notEqual(r.engine_amount_out, r.amount_out);
    }
    const best = doc.routes[0]!;
    assert.equal(best.amount_in, '10000000');
    assert.equal(best.amount_in_used, '10000000');
    assert.equal(best.complete, true);
    assert.equal(best.amount_out, '7560486106');
    assert.equal(best.min_received, '7484881244');
  });
});
