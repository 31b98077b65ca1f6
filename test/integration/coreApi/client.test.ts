/**
 * Our core swap API client (core/api/coreClient.ts) against the simulator over loopback HTTP: every operation,
 * configuration from the environment, each key only to its own host (two recording forwarders in front of
 * the simulator show what each host received), the library's slippage fraction converted exactly, exact
 * agreement with the quote engine, and swap parameters that serialize into an unsigned transaction.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serializeCV } from '@stacks/transactions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../../core/api/client';
import { openNodeStore } from '../../../core/api/nodeStore';
import { coreSwapConfig, createCoreSwapClient, fractionToPpm } from '../../../core/api/coreClient';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';
import { SBTC, USDCX } from '../../unit/plan/helpers';

const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

/** A loopback forwarder to `target` that records each request's path and headers. */
async function recorder(
  target: string,
): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const key = req.headers['x-api-key'];
      if (typeof key === 'string') headers['x-api-key'] = key;
      void fetch(target + (req.url ?? ''), {
        method: req.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('core swap API client (against the simulator)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0 });
  });
  after(async () => {
    await sim.close();
  });

  it('configuration: from the environment when not given; names the field and variable at fault', () => {
    const env = {
      BITFLOW_API_HOST: 'http://127.0.0.1:1/core/',
      READONLY_CALL_API_HOST: 'http://127.0.0.1:1/node',
      BITFLOW_PROVIDER_ADDRESS: SENDER,
      KEEPER_API_HOST: 'http://127.0.0.1:1/keeper',
    };
    const c = coreSwapConfig({}, env);
    assert.ok(typeof c !== 'string', String(c));
    assert.equal(c.apiHost, 'http://127.0.0.1:1/core');
    assert.equal(c.providerAddress, SENDER);
    assert.equal(c.ratePerMinute, 500, 'the default limit per host');
    assert.equal(
      coreSwapConfig({ apiHost: 'http://x.test' }, env) &&
        (coreSwapConfig({ apiHost: 'http://x.test' }, env) as { apiHost: string }).apiHost,
      'http://x.test',
    );
    assert.match(String(coreSwapConfig({}, {})), /apiHost \(BITFLOW_API_HOST\) is required/);
    assert.match(
      String(coreSwapConfig({}, { ...env, BITFLOW_PROVIDER_ADDRESS: 'not-a-principal' })),
      /providerAddress \(BITFLOW_PROVIDER_ADDRESS\)/,
    );
    const secret = 'sekrit-key-value';
    const msg = String(coreSwapConfig({ apiKey: secret }, {}));
    assert.ok(!msg.includes(secret), 'a key never appears in a message');
  });

  it("the library's slippage fraction converts exactly to parts per million", () => {
    assert.equal(fractionToPpm('0.01'), 10_000n);
    assert.equal(fractionToPpm('0.015'), 15_000n);
    assert.equal(fractionToPpm('0'), 0n);
    assert.equal(fractionToPpm('1'), 1_000_000n);
    assert.equal(fractionToPpm('1.5'), undefined, 'above 100%');
    assert.equal(fractionToPpm('1%'), undefined);
    assert.equal(fractionToPpm('0.00000001'), undefined, 'finer than 1 ppm');
  });

  it('every operation; each key only to its own host; routes cached (one request each when warm)', async () => {
    const coreRec = await recorder(sim.coreUrl);
    const nodeRec = await recorder(sim.nodeUrl);
    const c = createCoreSwapClient({
      apiHost: coreRec.url,
      apiKey: DEFAULT_SIM_API_KEY,
      readOnlyHost: nodeRec.url,
      keeperHost: 'http://127.0.0.1:9/keeper',
      keeperKey: 'keeper-key-never-sent-here',
    });
    try {
      const tokens = await c.getAvailableTokens();
      assert.deepEqual(tokens.map((t) => t.tokenId).sort(), ['token-sbtc', 'token-stx', 'token-usdcx']);
      const stx = tokens.find((t) => t.tokenId === 'token-stx')!;
      assert.equal(stx.assetName, null, 'the STX wrapper moves native STX');
      assert.deepEqual((await c.getAllPossibleTokenY('token-sbtc')).sort(), ['token-stx', 'token-usdcx']);
      const swaps = await c.getPossibleSwaps('token-sbtc');
      assert.equal(swaps['token-usdcx']?.length, 1);
      const r = await c.getAllPossibleTokenYRoutes('token-sbtc', 'token-usdcx');
      assert.equal(r[0]!.swapData.function, 'swap-x-for-y-simple-multi');
      assert.deepEqual(await c.getAllPossibleTokenYRoutes('token-sbtc', 'token-nope'), []);
      await c.getAvailableTokens();
      await c.getAllPossibleTokenY('token-sbtc');
      const corePaths = coreRec.seen.map((s) => s.path.replace(/\?.*/, ''));
      assert.deepEqual(
        corePaths,
        ['/getAllTokensAndPools', '/getAllRoutes'],
        'one request each, warm reads cached',
      );

      const q = await c.getQuoteForRoute('token-sbtc', 'token-usdcx', 10_000_000n);
      assert.ok(q.bestRoute);
      assert.equal(q.allRoutes.length, 1);
      const engine = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
      // The engine's one-hop route (the strategies best|preferred|pure do not pick the hop count).
      const routes = await engine.quoteMulti({
        input_token: SBTC,
        output_token: USDCX,
        amount_in: 10_000_000n,
        amm_strategy: 'best',
      });
      await engine.close?.();
      const direct = routes.find((r) => r.hops.length === 1);
      assert.ok(direct, 'a one-hop route');
      assert.equal(q.bestRoute.amountOut, direct.amount_out, 'the same exact walk as the quote engine');
      assert.equal(q.bestRoute.amountInUsed, 10_000_000n);

      const p = await c.getSwapParams(q.bestRoute, SENDER, '0.01');
      assert.equal(p.minOut, (direct.amount_out * 99n) / 100n);
      assert.equal(p.slippagePpm, 10_000n);
      assert.deepEqual(p.argNames, [
        'pool-trait',
        'x-token-trait',
        'y-token-trait',
        'x-amount',
        'min-dy',
        'deadline',
      ]);
      assert.equal(p.functionArgs.length, 6);
      for (const a of p.functionArgs) assert.match(serializeCV(a), /^[0-9a-f]+$/);
      assert.equal(p.postConditions.length, 2);
      assert.equal(p.postConditionMode, 'deny');
      await assert.rejects(
        c.getSwapParams(q.bestRoute, SENDER, '1.5'),
        /fraction between 0 and 1 \(the library's unit: 0\.01 means 1%\)/,
      );

      // Keys: the API key reached the core host only; the node host got none; no keeper request was made.
      assert.ok(coreRec.seen.every((s) => s.headers['x-api-key'] === DEFAULT_SIM_API_KEY));
      assert.ok(nodeRec.seen.length >= 2);
      assert.ok(nodeRec.seen.every((s) => s.headers['x-api-key'] === undefined));
      assert.ok(
        [...coreRec.seen, ...nodeRec.seen].every(
          (s) => s.headers['x-api-key'] !== 'keeper-key-never-sent-here',
        ),
      );
    } finally {
      await c.close();
      await coreRec.close();
      await nodeRec.close();
    }
  });

  it('the read-only host is paced as the node, through the machine-wide store the engine client reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-pacing-'));
    try {
      const before = openNodeStore(dir, sim.nodeUrl).recentRequests(60_100, Date.now()).length;
      assert.equal(before, 0);
      const c = createCoreSwapClient(
        { apiHost: sim.coreUrl, readOnlyHost: sim.nodeUrl },
        { DLMM_CACHE_DIR: dir },
      );
      try {
        await c.getQuoteForRoute('token-sbtc', 'token-stx', 1_000_000n);
      } finally {
        await c.close();
      }
      // The quote engine client's node limiter starts from this same record (core/api/limiter.ts createNodeLimiter).
      const after = openNodeStore(dir, sim.nodeUrl).recentRequests(60_100, Date.now()).length;
      assert.ok(after > 0, `the core client's node requests are recorded for the other clients (${after})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a partial fill says how much input the quote call used', async () => {
    const c = createCoreSwapClient({ apiHost: sim.coreUrl, readOnlyHost: sim.nodeUrl });
    try {
      const q = await c.getQuoteForRoute('token-sbtc', 'token-stx', 100_000_000_000n);
      assert.ok(q.bestRoute);
      assert.ok(q.bestRoute.amountInUsed! < 100_000_000_000n);
    } finally {
      await c.close();
    }
  });

  it('an unknown token is an http error with the service message; a bad host is unreachable', async () => {
    const c = createCoreSwapClient({ apiHost: sim.coreUrl, readOnlyHost: sim.nodeUrl });
    await assert.rejects(c.getPossibleSwaps('token-nope'), /not a token id/);
    await c.close();
    const dead = createCoreSwapClient({
      apiHost: 'http://127.0.0.1:9',
      readOnlyHost: 'http://127.0.0.1:9',
      timeoutMs: 2000,
    });
    await assert.rejects(
      dead.getAvailableTokens(),
      (e: Error & { code?: string }) => e.code === 'unreachable',
    );
    await dead.close();
  });
});
