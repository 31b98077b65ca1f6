/**
 * Attribution and the aggregator in the swap export, against the simulator over loopback HTTP: `provider`
 * (the operation's, else the export's default from dlmm.provider / BITFLOW_PROVIDER_ADDRESS) is sent on
 * /quotes/v2/swap and /quotes/v2/agg/swap and shown in the summary; `aggregator: true` uses
 * /quotes/v2/agg/swap, falling back to /quotes/v2/swap when the engine does not offer it (a forwarder in
 * front of the simulator answers 404 there, as an engine without the aggregator would).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { buildTransactions } from '../../../core/tx/build';
import { summaryText } from '../../../core/tx/summary';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { plan, SBTC, USDCX } from '../../unit/plan/helpers';
import { clientFor, startSimulator, type RunningSimulator } from '../check/sim';

const PROVIDER = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const OTHER = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4';
const swap = (extra = ''): string =>
  `  - { id: s, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 10000000${extra} }\n`;

/** Forwards to the simulator, recording POST bodies; answers 404 on /agg/swap when `noAgg`. */
async function forwarder(target: string, noAgg: boolean) {
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/api/, '');
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') posts.push({ path, body: JSON.parse(body.toString() || '{}') });
      if (noAgg && path === '/quotes/v2/agg/swap') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"no endpoint"}');
        return;
      }
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const key = req.headers['x-api-key'];
      if (typeof key === 'string') headers['x-api-key'] = key;
      void fetch(target + path, {
        method: req.method,
        headers,
        ...(req.method === 'POST' ? { body } : {}),
      }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    posts,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('swap export: provider attribution and the aggregator', function () {
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

  it('aggregator: true asks /quotes/v2/agg/swap with the provider; the summary shows it', async () => {
    const fw = await forwarder(sim.url, false);
    const viaFw = createApiClient({ baseUrl: fw.url, apiKey: DEFAULT_SIM_API_KEY });
    try {
      const a = await analyzePlan(plan(swap(`, aggregator: true, provider: ${PROVIDER}`)), { api: viaFw });
      const built = await buildTransactions(a, { api: viaFw, provider: OTHER });
      assert.ok(built.ok, built.ok ? '' : built.error.message);
      const agg = fw.posts.filter((p) => p.path === '/quotes/v2/agg/swap');
      assert.equal(agg.length, 1);
      assert.equal(agg[0]!.body.provider, PROVIDER, "the operation's provider wins over the default");
      assert.equal(fw.posts.filter((p) => p.path === '/quotes/v2/swap').length, 0);
      const text = summaryText(built.transactions);
      assert.match(text, /aggregator swap parameters \(POST \/quotes\/v2\/agg\/swap\)/);
      assert.match(
        text,
        new RegExp(
          `provider ${PROVIDER} \\(attribution only: no revenue sharing runs from it\\), sent to /quotes/v2/agg/swap`,
        ),
      );
    } finally {
      await viaFw.close?.();
      await fw.close();
    }
  });

  it('an engine without the aggregator: /quotes/v2/swap is used and said; the default provider is sent', async () => {
    const fw = await forwarder(sim.url, true);
    const viaFw = createApiClient({ baseUrl: fw.url, apiKey: DEFAULT_SIM_API_KEY, maxRetries: 0 });
    try {
      const a = await analyzePlan(plan(swap(', aggregator: true')), { api: viaFw });
      const built = await buildTransactions(a, { api: viaFw, provider: OTHER });
      assert.ok(built.ok, built.ok ? '' : built.error.message);
      const swapPosts = fw.posts.filter((p) => p.path === '/quotes/v2/swap');
      assert.equal(swapPosts.length, 1);
      assert.equal(swapPosts[0]!.body.provider, OTHER);
      const text = summaryText(built.transactions);
      assert.match(
        text,
        /the engine does not offer the aggregator \(POST \/quotes\/v2\/agg\/swap\): \/quotes\/v2\/swap used/,
      );
      assert.match(text, new RegExp(`provider ${OTHER} .*sent to /quotes/v2/swap`));
    } finally {
      await viaFw.close?.();
      await fw.close();
    }
  });

  it('a provider that is not a principal is a schema error in the plan, and a usage error from the environment', async () => {
    const a = await analyzePlan(plan(swap(', provider: not-a-principal')), { api });
    assert.ok(a.findings.some((f) => f.code === 'schema' && /principal/.test(f.message)));
    let err = '';
    const io: CliIO = {
      out: () => {},
      err: (t) => void (err += t),
      env: { BITFLOW_PROVIDER_ADDRESS: 'nope' },
      cwd: process.cwd(),
    };
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-provider-'));
    const file = join(dir, 'swap.dlmm.yaml');
    writeFileSync(file, plan(swap()));
    const code = await main(['export', file, '--api', sim.url, '--api-key-env', 'K'], {
      ...io,
      env: { ...io.env, K: DEFAULT_SIM_API_KEY },
    });
    assert.equal(code, 2, err);
    assert.match(err, /BITFLOW_PROVIDER_ADDRESS is not a principal/);
  });
});
