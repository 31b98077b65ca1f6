/**
 * Credentials in service URLs never leave the process (issue 26 item 10; docs/guarantees.md "Credentials in
 * service URLs"): `http://user:pw@host/api` is redacted in CLI usage errors and messages, and in the language
 * server's `dlmm/engineStatus` notification and log; `file:`, `javascript:` and `data:` URLs are refused with
 * a message saying so, by the CLI and by the language server's settings. The real CLI in process and the real
 * language server over JSON-RPC (stdio).
 */
import assert from 'node:assert/strict';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { describeEngineStatus } from '../../../client/src/statusText';
import { redactDeep, redactUrlCredentials } from '../../../core/text/safe';
import { ROOT, startLsp, type LspSession } from '../lsp/harness';

const PW = 'hunter2-secret-pw';
const CRED_URL = `http://alice:${PW}@127.0.0.1:9/api`;
/** A key carried in a URL's query (issue 46). */
const QKEY = 'qk-0123456789-secret';

async function dlmm(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd: ROOT };
  const code = await main(args, io);
  return { code, out, err };
}

describe('credentials in service URLs', function () {
  this.timeout(60_000);

  it('core: the user information of any URL in a text is redacted (a password holding @ too)', () => {
    assert.equal(
      redactUrlCredentials(`got 'http://alice:pw@host:1/api' and https://bob@x.example/`),
      `got 'http://[redacted]@host:1/api' and https://[redacted]@x.example/`,
    );
    assert.equal(redactUrlCredentials('http://a:p@ss@host/api'), 'http://[redacted]@host/api');
    assert.equal(
      redactUrlCredentials('mail me at a@b.example; http://host/api'),
      'mail me at a@b.example; http://host/api',
    );
    assert.deepEqual(redactDeep({ s: [CRED_URL] }, []), { s: ['http://[redacted]@127.0.0.1:9/api'] });
  });

  it('CLI: usage errors and messages never show the password', async () => {
    for (const args of [
      ['check', '--api', `http://alice:${PW}@127.0.0.1:9/`, 'examples/swap.dlmm.json'], // not ending in /api
      ['check', '--api', CRED_URL, 'examples/swap.dlmm.json'], // unreachable
      ['status', '--api', CRED_URL],
    ]) {
      const r = await dlmm(args);
      assert.notEqual(r.code, 0);
      assert.ok(!(r.out + r.err).includes(PW), `${args.join(' ')}:\n${r.out}${r.err}`);
    }
    const env = await dlmm(['status'], { DLMM_API_URL: `http://alice:${PW}@127.0.0.1:9` });
    assert.equal(env.code, 2);
    assert.ok(!env.err.includes(PW), env.err);
    assert.match(env.err, /\[redacted\]@127\.0\.0\.1:9/);
  });

  it('CLI: a key in a URL query (?api_key=, ?key=, ?token=) is never in usage errors or messages', async () => {
    const runs: [string[], Record<string, string>][] = [
      [['check', '--api', `http://127.0.0.1:9/?api_key=${QKEY}`, 'examples/swap.dlmm.json'], {}], // not /api
      [['check', '--api', `http://127.0.0.1:9/api?key=${QKEY}`, 'examples/swap.dlmm.json'], {}], // unreachable
      [['status', '--api', `http://127.0.0.1:99999/api?token=${QKEY}`], {}], // no port
      [['export', 'examples/swap.dlmm.json', '--api', `http://127.0.0.1:9/x?apiKey=${QKEY}`], {}],
      [['status'], { DLMM_API_URL: `http://127.0.0.1:9/api?api_key=${QKEY}` }],
      [['check', 'examples/swap.dlmm.json'], { DLMM_API_URL: `http://127.0.0.1:9/api?key=${QKEY}` }],
      [['check', 'examples/swap.dlmm.json'], { DLMM_NODE_URL: `http://127.0.0.1:9?key=${QKEY}` }],
    ];
    for (const [args, env] of runs) {
      const r = await dlmm(args, env);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.ok(!(r.out + r.err).includes(QKEY), `${args.join(' ')}:\n${r.out}${r.err}`);
    }
    const shown = await dlmm(['status', '--api', `http://127.0.0.1:99999/api?api_key=${QKEY}`]);
    assert.match(shown.err, /api_key=\[redacted\]/);
  });

  it('CLI: file:, javascript: and data: URLs are refused with a message saying so', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x']) {
      const r = await dlmm(['status', '--api', url]);
      assert.equal(r.code, 2, url);
      assert.match(r.err, /expects an http\(s\) URL/, url);
    }
  });

  it('the status bar text never shows the password, even if a status carried it', () => {
    const view = describeEngineStatus({
      at: 0,
      state: 'error',
      apiUrl: CRED_URL,
      environment: 'custom',
      error: 'x',
    });
    assert.ok(!view.tooltip.includes(PW), view.tooltip);
  });

  describe('language server', () => {
    let lsp: LspSession | undefined;
    afterEach(async () => {
      await lsp?.close();
      lsp = undefined;
    });

    async function collect(opts: Parameters<typeof startLsp>[0]) {
      lsp = await startLsp(opts);
      const statuses: unknown[] = [];
      const logs: string[] = [];
      lsp.conn.onNotification('dlmm/engineStatus', (p: unknown) => void statuses.push(p));
      lsp.conn.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
      return { statuses, logs };
    }

    it('dlmm/engineStatus and the log never carry the password of a configured URL', async () => {
      const seen = await collect({
        env: { DLMM_API_URL: '' },
        configuration: (section) => (section === 'dlmm' ? { apiUrl: CRED_URL, environment: 'custom' } : null),
      });
      lsp!.open('file:///tmp/cred.dlmm.yaml', 'version: 1\noperations: []\n');
      const read = await lsp!.conn.sendRequest('dlmm/engineStatus/read');
      await new Promise((r) => setTimeout(r, 1500));
      const all = JSON.stringify([read, ...seen.statuses, ...seen.logs]);
      assert.ok(seen.statuses.length + (read ? 1 : 0) > 0, 'an engine status was read');
      assert.ok(!all.includes(PW), all);
      assert.ok(!lsp!.stderr().includes(PW), lsp!.stderr());
    });

    it('a key in the query of a configured URL is never in dlmm/engineStatus, the log or stderr', async () => {
      for (const opts of [
        {
          env: { DLMM_API_URL: '' },
          configuration: (section: string | undefined) =>
            section === 'dlmm'
              ? { apiUrl: `http://127.0.0.1:9/api?api_key=${QKEY}`, environment: 'custom' }
              : null,
        },
        { env: { DLMM_API_URL: `http://127.0.0.1:9/api?key=${QKEY}` } },
      ]) {
        const seen = await collect({ ...opts, initializationOptions: { statusPollMs: 200 } });
        const polled = new Promise<void>((resolve) =>
          lsp!.conn.onNotification('dlmm/engineStatus', (p: unknown) => {
            seen.statuses.push(p);
            resolve();
          }),
        );
        lsp!.open('file:///tmp/qkey.dlmm.yaml', 'version: 1\noperations: []\n');
        await lsp!.diagnostics('file:///tmp/qkey.dlmm.yaml', undefined, 15_000);
        const read = (await lsp!.conn.sendRequest('dlmm/engineStatus/read')) as { apiUrl?: string };
        await polled;
        assert.match(read.apiUrl ?? '', /\?(api_)?key=\[redacted\]/, JSON.stringify(read));
        const all = JSON.stringify([read, ...seen.statuses, ...seen.logs]);
        assert.ok(!all.includes(QKEY), all);
        assert.ok(!lsp!.stderr().includes(QKEY), lsp!.stderr());
        await lsp!.close();
        lsp = undefined;
      }
    });

    it('file:, javascript: and data: URLs in settings are refused, and the log says so', async () => {
      for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x']) {
        const seen = await collect({
          env: { DLMM_API_URL: '' },
          configuration: (section) => (section === 'dlmm' ? { apiUrl: url, environment: 'custom' } : null),
        });
        lsp!.open('file:///tmp/scheme.dlmm.yaml', 'version: 1\noperations: []\n');
        await lsp!.diagnostics('file:///tmp/scheme.dlmm.yaml', undefined, 15_000);
        const status = (await lsp!.conn.sendRequest('dlmm/engineStatus/read')) as { apiUrl?: string };
        assert.equal(status?.apiUrl, undefined, `${url} was used`);
        assert.ok(
          seen.logs.some((m) =>
            /apiUrl: must be an http\(s\) URL; file:, javascript:, data: and other schemes are refused/.test(
              m,
            ),
          ),
          `${url}: ${JSON.stringify(seen.logs)}`,
        );
        await lsp!.close();
        lsp = undefined;
      }
    });

    it('DLMM_API_URL of another scheme (dlmm lsp --stdio) is refused with a message as well', async () => {
      const seen = await collect({ env: { DLMM_API_URL: 'file:///etc/passwd' } });
      lsp!.open('file:///tmp/env.dlmm.yaml', 'version: 1\noperations: []\n');
      await lsp!.diagnostics('file:///tmp/env.dlmm.yaml', undefined, 15_000);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(
        seen.logs.some((m) => /DLMM_API_URL must be an http\(s\) URL/.test(m)),
        JSON.stringify(seen.logs),
      );
    });
  });
});
