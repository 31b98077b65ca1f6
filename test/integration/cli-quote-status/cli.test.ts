/** `dlmm status` and `dlmm quote` through main() with a captured terminal, against the simulated engine. */
import { strict as assert } from 'node:assert';
import { createApiClient } from '../../../core/api/client';
import { minAfterSlippage, percentToPpm } from '../../../core/dlmm/percent';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { type World } from '../../../core/sim/world';
import { defaultWorld } from '../../../core/sim/defaultWorld';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function dlmm(argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';

function worldWith(status: Partial<World['status']>): World {
  const w = defaultWorld();
  return { ...w, status: { ...w.status, ...status } };
}

describe('dlmm status', function () {
  this.timeout(30_000);
  const sims: RunningSimulator[] = [];
  const sim = async (world?: World) => {
    const s = await startSimulator({ port: 0, world });
    sims.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  it('--sim: reports a caught-up engine and exits 0', async () => {
    const r = await dlmm(['status', '--sim']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /tip lag\s+0\n/);
    assert.match(r.out, /pools\s+3\n/);
    assert.match(r.out, /status: ok/);
    assert.match(r.err, /embedded simulator/, 'progress goes to stderr');
  });

  it('--format json prints one document with the snapshot', async () => {
    const s = await sim(worldWith({ state_height: 4242, tip_lag: 0 }));
    const r = await dlmm(['status', '--api', s.url, '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as Record<string, unknown>;
    assert.equal(doc.ok, true);
    assert.equal(doc.state_height, 4242);
    assert.equal(doc.chain_tip, 4242);
    assert.equal(doc.pool_count, 3);
    assert.equal(doc.quote_ready, true);
    assert.equal(doc.app_ready, true);
  });

  it('an unknown tip (null lag) is never caught up: exit 1', async () => {
    const s = await sim(worldWith({ tip_lag: null }));
    const r = await dlmm(['status'], { DLMM_API_URL: s.url });
    assert.equal(r.code, 1);
    assert.match(r.out, /tip lag\s+unknown — not caught up/);
    assert.match(r.out, /not usable/);
    const j = await dlmm(['status', '--format', 'json'], { DLMM_API_URL: s.url });
    assert.equal(JSON.parse(j.out).tip_lag, null);
    assert.equal(j.code, 1);
  });

  it('lagging or not ready: exit 1 with the reason', async () => {
    const lag = await sim(worldWith({ tip_lag: 4 }));
    const r1 = await dlmm(['status', '--api', lag.url]);
    assert.equal(r1.code, 1);
    assert.match(r1.out, /lags the chain tip by 4 block/);
    const down = await sim(worldWith({ ready: false, app_ready: false }));
    const r2 = await dlmm(['status', '--api', down.url, '--format', 'json']);
    assert.equal(r2.code, 1);
    const doc = JSON.parse(r2.out) as { quote_ready: boolean; app_ready: boolean; app_detail: string | null };
    assert.equal(doc.quote_ready, false);
    assert.equal(doc.app_ready, false);
    assert.ok(doc.app_detail);
  });

  it('unreachable service: exit 2 with a message on stderr', async () => {
    const s = await sim();
    const url = s.url;
    await s.close();
    sims.splice(0);
    const r = await dlmm(['status', '--api', url]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /refused.*\[unreachable\]/);
  });

  it('a URL with a wrong path (status answers 404): says it does not look like the service and what it should end in', async () => {
    const s = await sim();
    const r = await dlmm(['status', '--api', s.url.replace(/\/api$/, '/v2/api')]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /\/v2\/api does not look like the DLMM service/);
    assert.match(r.err, /ending in \/api just before \/quotes\/v2\/.*\[http-error\]/);
  });

  it('takes the key from --api-key-env or DLMM_API_KEY, never from argv, and never prints it', async () => {
    const s = await sim();
    const ok = await dlmm(['status', '--api', s.url, '--api-key-env', 'MY_KEY'], {
      MY_KEY: DEFAULT_SIM_API_KEY,
    });
    assert.equal(ok.code, 0, ok.err);
    const bad = 'wrong-key-value-123';
    const rejected = await dlmm(['status', '--api', s.url], { DLMM_API_KEY: bad });
    assert.equal(rejected.code, 2, 'the engine refuses an unknown key (401)');
    assert.ok(!rejected.err.includes(bad) && !rejected.out.includes(bad));
    const simIgnoresEnvKey = await dlmm(['status', '--sim'], { DLMM_API_KEY: bad });
    assert.equal(simIgnoresEnvKey.code, 0, 'a production key in the environment is not sent to --sim');
    const unset = await dlmm(['status', '--api', s.url, '--api-key-env', 'NOT_SET']);
    assert.equal(unset.code, 2);
    assert.match(unset.err, /NOT_SET.*not set/);
    for (const arg of [['--api-key', 'secret-in-argv'], ['--api-key=secret-in-argv']]) {
      const r = await dlmm(['status', '--api', s.url, ...arg]);
      assert.equal(r.code, 2);
      assert.match(r.err, /never taken as command-line arguments/);
      assert.ok(!r.err.includes('secret-in-argv'));
    }
  });

  it('usage errors exit 2: no service, both --api and --sim, bad format', async () => {
    assert.match((await dlmm(['status'])).err, /no service configured/);
    const both = await dlmm(['status', '--sim', '--api', 'http://127.0.0.1:1/api']);
    assert.equal(both.code, 2);
    const fmt = await dlmm(['status', '--sim', '--format', 'sarif']);
    assert.equal(fmt.code, 2);
    assert.match(fmt.err, /--format 'sarif'.*text, json/);
  });
});

describe('dlmm quote', function () {
  this.timeout(30_000);
  let s: RunningSimulator;
  /** `dlmm quote --api <sim> --in sBTC --out USDCx --amount AMOUNT [...extra]`. */
  const quoteSbtcUsdcx = (amount: string, ...extra: string[]) =>
    dlmm(['quote', '--api', s.url, '--in', 'sBTC', '--out', 'USDCx', '--amount', amount, ...extra]);
  before(async () => {
    s = await startSimulator({ port: 0 });
  });
  after(async () => {
    await s.close();
  });

  /** The engine's own answer for comparison (read through the client, not hard-coded). */
  async function engineRoutes(amountIn: bigint) {
    const api = createApiClient({ baseUrl: s.url });
    try {
      return await api.quoteMulti({ input_token: SBTC, output_token: USDCX, amount_in: amountIn });
    } finally {
      await api.close?.();
    }
  }

  it('prints the best route with human amounts and the minimum received', async () => {
    const r = await dlmm(['quote', '--api', s.url, '--in', 'sbtc', '--out', 'USDCx', '--amount', '0.001']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^quote: 0\.001 sBTC -> USDCx\n/);
    assert.match(r.out, /route 1 \(best\): sBTC -> USDCx/);
    assert.doesNotMatch(r.out, /route 2/);
    assert.match(r.out, /minimum received\s+\d+\.\d+ USDCx at 1% slippage/);
    assert.match(r.out, /price impact\s+\d+\.\d\d%/);
    assert.match(r.out, /bins crossed\s+\d+/);
  });

  it('--format json gives exact integer strings; min received follows the slippage exactly', async () => {
    const r = await dlmm([
      'quote',
      '--api',
      s.url,
      '--in',
      SBTC,
      '--out',
      USDCX,
      '--amount',
      '0.00123456',
      '--slippage',
      '0.5',
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as {
      amount_in: string;
      routes: Array<{ amount_out: string; min_received: string; amount_out_human: string; path: unknown[] }>;
    };
    assert.equal(doc.amount_in, '123456');
    assert.equal(doc.routes.length, 1);
    const route = doc.routes[0]!;
    const best = (await engineRoutes(123456n)).reduce((a, b) => (b.amount_out > a.amount_out ? b : a));
    assert.equal(route.amount_out, best.amount_out.toString());
    assert.equal(route.min_received, minAfterSlippage(best.amount_out, percentToPpm('0.5')!).toString());
    assert.match(route.amount_out_human, /^\d+\.\d+$/);
  });

  it('--multi lists every route, best first', async () => {
    const r = await quoteSbtcUsdcx('0.01', '--multi', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    const routes = (JSON.parse(r.out) as { routes: Array<{ amount_out: string; path: unknown[] }> }).routes;
    const expected = await engineRoutes(1_000_000n);
    assert.equal(routes.length, expected.length);
    assert.ok(routes.length >= 2, 'the default world has a direct and a two-hop route');
    for (let i = 1; i < routes.length; i++)
      assert.ok(BigInt(routes[i - 1]!.amount_out) >= BigInt(routes[i]!.amount_out));
    const text = await quoteSbtcUsdcx('0.01', '--multi');
    assert.match(text.out, /route 2: sBTC -> \w+ \(dlmm_\d\) -> USDCx/);
  });

  it('rejects more decimals than the token has, and non-positive amounts', async () => {
    const r = await quoteSbtcUsdcx('0.000000001');
    assert.equal(r.code, 2);
    assert.match(r.err, /9 decimals but sBTC has 8/);
    const neg = await quoteSbtcUsdcx('-1');
    assert.equal(neg.code, 2);
    const zero = await quoteSbtcUsdcx('0');
    assert.match(zero.err, /greater than 0/);
    // 1e41 sBTC is 1e49 base units: no contract call can carry it (uint128), so no quote is asked for.
    const huge = await quoteSbtcUsdcx('1' + '0'.repeat(41));
    assert.equal(huge.code, 2);
    assert.equal(huge.out, '');
    assert.match(huge.err, /above uint128 \(340282366920938463463374607431768211455\)/);
  });

  it('unknown token: exit 2 (a bad argument, like a bad amount) naming the known ones; missing options: exit 2', async () => {
    const r = await dlmm(['quote', '--api', s.url, '--in', 'DOGE', '--out', 'USDCx', '--amount', '1']);
    assert.equal(r.code, 2);
    assert.match(r.err, /'DOGE' is not a token.*sBTC/);
    const missing = await dlmm(['quote', '--api', s.url, '--in', 'sBTC', '--out', 'USDCx']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /missing --amount/);
    const same = await dlmm(['quote', '--api', s.url, '--in', 'sBTC', '--out', SBTC, '--amount', '1']);
    assert.equal(same.code, 2);
    const slip = await quoteSbtcUsdcx('1', '--slippage', '150');
    assert.equal(slip.code, 2);
    assert.match(slip.err, /percent from 0 to below 100/);
  });

  it('warns when the slippage looks like a fraction (library style)', async () => {
    const r = await quoteSbtcUsdcx('0.001', '--slippage', '0.01');
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /warning: --slippage 0\.01 means 0\.01%/);
  });
});
