/**
 * Client behaviour on answers no real part of this product produces: malformed bodies, a server that
 * never answers, plain 5xx failures, a closed port. The simulated engine always answers well-formed JSON
 * promptly, so these cases use tiny node:http servers on loopback written for the purpose.
 */
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../../core/api/client';
import { ApiError, isApiError } from '../../../core/api/errors';
import type { DlmmApi } from '../../../core/api/types';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; server: Server; hits: IncomingMessage[] }> {
  const hits: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    hits.push(req);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, server, hits };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isApiError(e), `expected an ApiError, got ${String(e)}`);
    return e as ApiError;
  }
  assert.fail('expected a rejection');
}

const STATUS = { ready: true, state_height: 10, chain_tip: 10, tip_lag: 0, pool_count: 1 };

describe('api client: faults no real part produces', () => {
  const clients: DlmmApi[] = [];
  const servers: Server[] = [];
  const client = (url: string, extra: Partial<Parameters<typeof createApiClient>[0]> = {}) => {
    const c = createApiClient({ baseUrl: url, retryBaseMs: 5, maxRetryDelayMs: 20, ...extra });
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close?.()));
    await Promise.all(servers.splice(0).map(close));
  });

  it('names endpoint and field when a body has the wrong shape', async () => {
    const s = await serve((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/quotes/v2/status') res.end(JSON.stringify({ ...STATUS, tip_lag: 'zero' }));
      else
        res.end(
          '{"active_bin_id":1,"bins":[{"bin_id":1,"price":"5","reserve_x":"1","reserve_y":"2"},' +
            '{"bin_id":2,"price":"5","reserve_x":-3,"reserve_y":"2"}]}',
        );
    });
    servers.push(s.server);
    const api = client(s.url);
    const e1 = await rejection(api.status());
    assert.equal(e1.code, 'unexpected-response');
    assert.equal(e1.context.endpoint, 'GET /quotes/v2/status');
    assert.equal(e1.context.field, 'tip_lag');
    assert.match(e1.message, /GET \/quotes\/v2\/status.*'tip_lag'/);
    const e2 = await rejection(api.bins('dlmm_1'));
    assert.equal(e2.code, 'unexpected-response');
    assert.equal(e2.context.field, 'bins.1.reserve_x');
    assert.match(e2.message, /GET \/quotes\/v2\/bins\/dlmm_1/);
  });

  it('reports a body that is not JSON with its position', async () => {
    const s = await serve((_req, res) => res.end('{"tokens": [1, 2,]}'));
    servers.push(s.server);
    const e = await rejection(client(s.url).tokens());
    assert.equal(e.code, 'unexpected-response');
    assert.match(e.message, /not valid JSON.*column 18/);
  });

  it('reads a uint128 reserve exactly (no float on the way)', async () => {
    const max = (1n << 128n) - 1n;
    const s = await serve((_req, res) =>
      res.end(
        `{"active_bin_id":0,"bins":[{"bin_id":0,"price":100000000,"reserve_x":${max},"reserve_y":0,"liquidity":null}]}`,
      ),
    );
    servers.push(s.server);
    const list = await client(s.url).bins('dlmm_1');
    assert.equal(list.bins[0]?.reserve_x, max);
    assert.equal(list.bins[0]?.price, 100_000_000n);
  });

  it('times out a server that never answers, within the bound', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    servers.push(s.server);
    const started = performance.now();
    const e = await rejection(client(s.url, { timeoutMs: 300 }).status());
    const elapsed = performance.now() - started;
    assert.equal(e.code, 'unreachable');
    assert.equal(e.context.detail, 'timeout');
    assert.match(e.message, /within 300 ms/);
    assert.ok(elapsed >= 280 && elapsed < 3000, `elapsed ${elapsed}`);
    assert.equal(s.hits.length, 1, 'a timeout is not retried');
  });

  it('reports a closed port as unreachable without retrying', async () => {
    const s = await serve(() => undefined);
    const url = s.url;
    await close(s.server);
    const api = client(url);
    const e = await rejection(api.quoteReady());
    assert.equal(e.code, 'unreachable');
    assert.match(e.message, /refused/);
    assert.equal(api.stats().requests, 1);
  });

  it('retries a 5xx with backoff, then reports http-error with the status', async () => {
    const s = await serve((_req, res) => {
      res.statusCode = 502;
      res.end('{"error":"upstream down"}');
    });
    servers.push(s.server);
    const api = client(s.url, { maxRetries: 2 });
    const e = await rejection(api.pools());
    assert.equal(e.code, 'http-error');
    assert.equal(e.context.status, 502);
    assert.match(e.message, /upstream down/);
    assert.equal(s.hits.length, 3);
    assert.equal(api.stats().retries, 2);
  });

  it('recovers when a 5xx is followed by a good answer', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      if (n++ === 0) {
        res.statusCode = 500;
        res.end('oops');
      } else res.end(JSON.stringify(STATUS));
    });
    servers.push(s.server);
    const status = await client(s.url).status();
    assert.equal(status.state_height, 10);
    assert.equal(n, 2);
  });

  it('sends X-API-Key to the service only, and never puts it in errors, logs or options output', async () => {
    const key = 'sekrit-key-123456';
    const lines: string[] = [];
    const s = await serve((req, res) => {
      res.statusCode = 418;
      res.end(JSON.stringify({ error: 'teapot', echo: req.headers['x-api-key'] ?? null }));
    });
    servers.push(s.server);
    const inv = await serve((req, res) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: 'inventory', saw_key: req.headers['x-api-key'] !== undefined }));
    });
    servers.push(inv.server);
    const api = client(s.url, {
      apiKey: key,
      log: (l) => lines.push(l),
      inventoryUrl: inv.url + '/mm/v1',
      maxRetries: 0,
    });
    const e = await rejection(api.pools());
    assert.equal(s.hits[0]?.headers['x-api-key'], key);
    await rejection(api.inventory('dlmm_1', 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR'));
    assert.equal(inv.hits[0]?.headers['x-api-key'], undefined);
    assert.ok(lines.length >= 2);
    for (const text of [e.message, JSON.stringify(e.context), ...lines, JSON.stringify(api.options)]) {
      assert.ok(!text.includes(key), `key leaked into: ${text}`);
    }
    assert.equal(api.options.apiKey, key);
  });

  it('sends amounts in request bodies as exact JSON integers', async () => {
    let posted = '';
    const s = await serve((_req, res, body) => {
      posted = body;
      res.statusCode = 404;
      res.end(JSON.stringify({ success: false, error: 'no route found', code: 'NO_ROUTE' }));
    });
    servers.push(s.server);
    const amount = (1n << 128n) - 1n;
    const e = await rejection(
      client(s.url).quote({
        input_token: 'SP1.a',
        output_token: 'SP1.b',
        amount_in: amount,
        slippage_tolerance: 1,
      }),
    );
    assert.equal(e.code, 'no-route');
    assert.match(posted, new RegExp(`"amount_in":${amount}[,}]`));
  });

  it('trusts an inventory 200 only when clean is true (the simulated engine always answers clean books)', async () => {
    const book = { pool: 'SM1.pool', pool_alias: 'dlmm_1', tip_lag: 0, bin_id_domain: 'unsigned', bins: [] };
    let clean = false;
    const s = await serve((_req, res) => res.end(JSON.stringify({ ...book, clean })));
    servers.push(s.server);
    const api = client('http://127.0.0.1:1/api', { inventoryUrl: s.url + '/mm/v1' });
    const e = await rejection(api.inventory('dlmm_1', 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR'));
    assert.equal(e.code, 'inventory-unavailable');
    assert.equal(e.context.fault, 'RECONCILE_DIRTY');
    assert.match(e.message, /not an empty book/);
    clean = true;
    const inv = await api.inventory('dlmm_1', 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR');
    assert.deepEqual(inv.bins, []);
  });
});
