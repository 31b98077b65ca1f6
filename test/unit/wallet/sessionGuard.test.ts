/**
 * The wallet page server's second door (issue 26 item 9; docs/guarantees.md "The wallet page"): besides the
 * random token, it answers only requests whose Host is the loopback address and port it serves (or the
 * address the editor handed to the browser) and whose Origin, when present, is its own; it refuses answers
 * once the session is complete, txids that are not 32-byte hex, and bodies above its limit.
 *
 * The code-server case is reproduced with a forwarding proxy that behaves as code-server's path proxy does
 * (coder/code-server src/node/routes/pathProxy.ts and src/node/proxy.ts, commits 0acbc64c / 1067507c:
 * `/proxy/PORT/rest` is forwarded to the port with the rest of the path, by http-proxy without
 * `changeOrigin`, so the browser's own Host and Origin reach the page server unchanged).
 */
import { strict as assert } from 'node:assert';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cl } from '@stacks/transactions';
import { MAX_BODY, startWalletSession, type WalletSession } from '../../../core/wallet/session';
import type { BuiltTransaction } from '../../../core/tx/types';
import { USER } from '../tx/fixtures';

const tx: BuiltTransaction = {
  opId: 'a',
  opIndex: 0,
  op: 'add',
  mode: 'strict',
  part: 1,
  parts: 1,
  network: 'mainnet',
  contract: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
  functionName: 'add-liquidity-multi',
  functionArgs: [Cl.uint(1)],
  argNames: ['x'],
  postConditions: [],
  postConditionWords: [],
  postConditionMode: 'deny',
  rows: [],
  totals: [],
  notes: [],
  deadline: null,
};

function http(
  url: string,
  opts: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number | string; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        agent: false,
        headers: { 'Content-Type': 'application/json', ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (e) => resolve({ status: (e as NodeJS.ErrnoException).code ?? 'error', text: '' }));
    req.end(opts.body);
  });
}

const answer = (txid: string) => JSON.stringify({ index: 0, method: 'stx_callContract', txid });

describe('wallet session server: Host, Origin, completeness, txids, body size', () => {
  let s: WalletSession | undefined;
  let proxy: Server | undefined;
  beforeEach(async () => {
    s = await startWalletSession({ transactions: [tx], sender: USER, plan: 'p.dlmm.yaml', script: '' });
  });
  afterEach(async () => {
    await s?.close();
    s = undefined;
    await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
    proxy = undefined;
  });

  it('DNS rebinding: a request naming another Host is refused (403), its own Host is served', async () => {
    assert.equal((await http(s!.url)).status, 200);
    for (const host of ['evil.example', `evil.example:${s!.port}`, '127.0.0.1', `127.0.0.1:${s!.port + 1}`]) {
      const r = await http(s!.url, { headers: { Host: host } });
      assert.equal(r.status, 403, host);
      assert.match(r.text, /only at its own address/);
      const a = await http(s!.url + 'answer', {
        method: 'POST',
        body: answer('ab'.repeat(32)),
        headers: { Host: host },
      });
      assert.equal(a.status, 403, host);
    }
  });

  it('a forged, null or cross-site Origin is refused; its own origin (or none) is taken', async () => {
    for (const origin of [
      'null',
      'http://evil.example',
      `http://localhost:${s!.port}`,
      'https://127.0.0.1',
    ]) {
      const r = await http(s!.url + 'answer', {
        method: 'POST',
        body: answer('ab'.repeat(32)),
        headers: { Origin: origin },
      });
      assert.equal(r.status, 403, origin);
      assert.match(r.text, /only requests from its own page/);
    }
    const own = await http(s!.url + 'answer', {
      method: 'POST',
      body: answer('ab'.repeat(32)),
      headers: { Origin: new URL(s!.url).origin },
    });
    assert.equal(own.status, 200, own.text);
  });

  it('no answer once every transaction is answered (409): the first txid stands', async () => {
    assert.equal(
      (await http(s!.url + 'answer', { method: 'POST', body: answer('0x' + 'cd'.repeat(32)) })).status,
      200,
    );
    const late = await http(s!.url + 'answer', { method: 'POST', body: answer('ef'.repeat(32)) });
    assert.equal(late.status, 409);
    assert.match(late.text, /the session is complete/);
    const end = await s!.close();
    assert.deepEqual(
      end.answers.map((a) => a.txid),
      ['0x' + 'cd'.repeat(32)],
    );
  });

  it('txids: 32-byte hex with or without 0x; 0x, 0xdeadbeef, 33 bytes and 1 MB refused', async () => {
    for (const bad of ['0x', '0xdeadbeef', 'ab'.repeat(33), 'zz'.repeat(32), 'a'.repeat(1_000_000)]) {
      const r = await http(s!.url + 'answer', { method: 'POST', body: answer(bad) });
      assert.ok(r.status === 400 || r.status === 413, `${bad.slice(0, 20)}: ${r.status}`);
    }
    assert.equal(
      (await http(s!.url + 'answer', { method: 'POST', body: answer('AB'.repeat(32)) })).status,
      200,
    );
  });

  it(`bodies above ${MAX_BODY} bytes are refused (413) unread`, async () => {
    const big = JSON.stringify({
      index: 0,
      method: 'stx_signTransaction',
      transaction: 'ab'.repeat(MAX_BODY),
    });
    const r = await http(s!.url + 'answer', { method: 'POST', body: big });
    assert.ok(r.status === 413 || r.status === 'ECONNRESET' || r.status === 'EPIPE', String(r.status));
    assert.deepEqual((await s!.close()).answers, []);
  });

  it("code-server's path proxy: refused until the editor allows its external address, then served", async () => {
    // A proxy like code-server's: /proxy/PORT/rest -> 127.0.0.1:PORT/rest, the browser's Host kept.
    proxy = createServer((req, res) => {
      const m = /^\/proxy\/(\d+)(\/.*)$/.exec(req.url ?? '');
      if (!m) {
        res.writeHead(404).end();
        return;
      }
      const fwd = request(
        { host: '127.0.0.1', port: Number(m[1]), path: m[2], method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(fwd);
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', () => r()));
    const proxyPort = (proxy.address() as AddressInfo).port;
    const csOrigin = `http://localhost:${proxyPort}`;
    const external = `${csOrigin}/proxy/${s!.port}${new URL(s!.url).pathname}`;
    // The browser, at the code-server origin: Host is code-server's, Origin is code-server's.
    const viaProxy = (path: string, method = 'GET', body?: string) =>
      http(`http://127.0.0.1:${proxyPort}/proxy/${s!.port}${new URL(s!.url).pathname}${path}`, {
        method,
        ...(body !== undefined ? { body } : {}),
        headers: { Host: `localhost:${proxyPort}`, ...(method === 'POST' ? { Origin: csOrigin } : {}) },
      });
    assert.equal((await viaProxy('')).status, 403);
    s!.allowExternal(external);
    assert.equal((await viaProxy('')).status, 200);
    assert.equal((await viaProxy('answer', 'POST', answer('ab'.repeat(32)))).status, 200);
    // Another site still cannot post through it.
    const forged = await http(
      `http://127.0.0.1:${proxyPort}/proxy/${s!.port}${new URL(s!.url).pathname}done`,
      {
        method: 'POST',
        body: '{}',
        headers: { Host: `localhost:${proxyPort}`, Origin: 'http://evil.example' },
      },
    );
    assert.equal(forged.status, 403);
  });
});
