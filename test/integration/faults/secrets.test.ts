/**
 * Never a key in output, never a raw control character: the real CLI and language server against the hostile
 * service (hostile.ts), whose error bodies echo the X-API-Key the client sent and whose token symbols carry
 * terminal escape sequences, and plans whose ids and keys carry them too.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { escapeControl } from '../../../core/text/safe';
import { startLsp, type LspSession } from '../lsp/harness';
import { envFor, patchJson, startHostile, type Fault, type HostileService } from './hostile';

const KEY = 'sk-SECRET-4f9a2c71e0b3d5';
const ESC_TITLE = '\u001b]0;pwned\u0007\u001b[2J';
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const SBTC_POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';

/** A fault that answers with an error body quoting the key the client sent (and an escape sequence). */
const echoKey = (match: string | RegExp, status = 401): Fault => ({
  match,
  answer: {
    status,
    body: (_real, req) =>
      JSON.stringify({ error: `invalid key ${String(req.headers['x-api-key'])} ${ESC_TITLE}` }),
  },
});

function captureIO(cwd: string, env: Record<string, string | undefined>) {
  const io = {
    stdout: '',
    stderr: '',
    env,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io satisfies CliIO;
}

function assertSafe(text: string, what: string): void {
  assert.ok(!text.includes(KEY), `${what} shows the key:\n${text}`);
  assert.ok(!text.includes('4f9a2c71'), `${what} shows part of the key`);
  assert.equal(escapeControl(text), text, `${what} has a raw control character:\n${JSON.stringify(text)}`);
}

describe('secrets and terminals: no key and no raw control character in anything we print', function () {
  this.timeout(60_000);
  let h: HostileService;
  let dir: string;
  const env = (): Record<string, string | undefined> => ({ ...envFor(h, { apiKey: KEY }) });
  before(async () => {
    h = await startHostile();
    dir = await mkdtemp(join(tmpdir(), 'dlmm-secrets-'));
    for (const f of ['add-ladder.dlmm.yaml', 'swap.dlmm.json'])
      await writeFile(join(dir, f), await readFile(join('examples', f), 'utf8'));
  });
  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const runs: Array<[string, string[], Fault[]]> = [
    ...(['text', 'json', 'sarif'] as const).map((format): [string, string[], Fault[]] => [
      `check --format ${format}, bins answer 401 quoting the key`,
      ['check', 'add-ladder.dlmm.yaml', '--format', format],
      [echoKey(`GET /api/quotes/v2/bins/${SBTC_POOL}`)],
    ]),
    [
      'check, status answers 500 quoting the key',
      ['check', 'add-ladder.dlmm.yaml'],
      [echoKey('GET /api/quotes/v2/status', 500)],
    ],
    [
      'export, quote answers 401 quoting the key',
      ['export', 'swap.dlmm.json', '--format', 'summary'],
      [echoKey('POST /api/quotes/v2/quote')],
    ],
    ['status (text), ready answers 401 quoting the key', ['status'], [echoKey('GET /api/quotes/v2/ready')]],
    ['status --format json', ['status', '--format', 'json'], [echoKey('GET /api/quotes/v2/ready')]],
    [
      'quote, the engine answers 401 quoting the key',
      ['quote', '--in', 'sBTC', '--out', 'USDCx', '--amount', '0.001'],
      [echoKey('POST /api/quotes/v2/quote')],
    ],
    [
      'quote, a token symbol carries an escape sequence',
      [
        'quote',
        '--in',
        SBTC,
        '--out',
        'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx',
        '--amount',
        '0.001',
      ],
      [
        {
          match: 'GET /api/quotes/v2/tokens',
          answer: {
            body: patchJson((v) => {
              const list = (Array.isArray(v) ? v : (v as { tokens: unknown[] }).tokens) as Array<
                Record<string, unknown>
              >;
              for (const t of list) t.symbol = `${String(t.symbol)}${ESC_TITLE}`;
            }),
          },
        },
      ],
    ],
  ];
  for (const [name, argv, faults] of runs) {
    it(name, async () => {
      h.setFaults(faults);
      const io = captureIO(dir, env());
      await main([...argv, '--api', h.url], io);
      assert.ok(
        h.seen.some((s) => s.apiKey === KEY),
        'the client sent the configured key (so the echo had something to echo)',
      );
      assertSafe(io.stdout, 'stdout');
      assertSafe(io.stderr, 'stderr');
      assert.match(
        io.stdout + io.stderr,
        /\[redacted\]|\\u001b/,
        'the hostile text did reach the output, made safe',
      );
    });
  }

  it('a key read through --api-key-env is redacted too, wherever it appears (a plan op id)', async () => {
    const plan = (await readFile(join(dir, 'add-ladder.dlmm.yaml'), 'utf8'))
      .replace('id: asks-and-bids', `id: "${KEY}"`)
      .replace('bin_id: 145, x_amount: 150000', 'bin_id: 130, x_amount: 150000');
    await writeFile(join(dir, 'keyed.dlmm.yaml'), plan);
    h.setFaults([]);
    const io = captureIO(dir, { ...envFor(h), DLMM_API_KEY: undefined, MY_KEY: KEY });
    const code = await main(
      ['check', 'keyed.dlmm.yaml', '--api', h.url, '--api-key-env', 'MY_KEY', '--format', 'json'],
      io,
    );
    assert.equal(code, 1);
    assertSafe(io.stdout + io.stderr, 'output');
    assert.match(io.stdout, /\[redacted\]/);
  });

  it('plan keys and operation ids with escape sequences are printed escaped', async () => {
    const plan = `version: 1
sender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR
operations:
  - id: "evil\\e]0;pwned\\a"
    op: add
    pool: ${SBTC_POOL}
    "\\e[2Jwipe": 1
    bins:
      - { bin_id: 130, x_amount: 150000, y_amount: 0 }
`;
    await writeFile(join(dir, 'evil.dlmm.yaml'), plan);
    for (const format of ['text', 'json', 'sarif']) {
      const io = captureIO(dir, {});
      const code = await main(['check', 'evil.dlmm.yaml', '--offline', '--format', format], io);
      assert.equal(code, 1);
      assertSafe(io.stdout + io.stderr, `check --format ${format}`);
      assert.match(io.stdout, /\\u001b/, 'the escape is shown, not swallowed');
    }
  });

  describe('language server', () => {
    let lsp: LspSession;
    before(async () => {
      lsp = await startLsp({ env: { DLMM_API_URL: h.url, DLMM_NODE_URL: h.nodeUrl, DLMM_API_KEY: KEY } });
    });
    after(async () => lsp.close());

    it('diagnostics and hover carry no key and no raw control character', async () => {
      h.setFaults([echoKey(`GET /api/quotes/v2/bins/${SBTC_POOL}`)]);
      const uri = pathToFileURL(join(dir, 'lsp.dlmm.yaml')).href;
      const text = (await readFile(join(dir, 'add-ladder.dlmm.yaml'), 'utf8')).replace(
        'id: asks-and-bids',
        'id: "ladder\\e[2J"',
      );
      lsp.open(uri, text);
      const diags = await lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'api-unreachable'), 30_000);
      for (const d of diags) assertSafe(d.message, `diagnostic ${String(d.code)}`);
      assert.ok(
        diags.some((d) => d.message.includes('[redacted]')),
        'the echoed key reached a message, redacted',
      );
      const line = text.split('\n').findIndex((l) => l.includes('pool:'));
      for (const character of [6, 12, 40]) {
        const hv = (await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: { line, character },
        })) as { contents: { value: string } } | null;
        if (hv) assertSafe(JSON.stringify(hv.contents), 'hover');
      }
      const idLine = text.split('\n').findIndex((l) => l.includes('id: "ladder'));
      const hv = (await lsp.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: { line: idLine, character: 8 },
      })) as { contents: { value: string } } | null;
      if (hv) assertSafe(hv.contents.value, 'hover on the op id');
    });
  });

  describe('language server with the core swap API keys in its environment', () => {
    // The keys of the client library's variables (the one list in core/text/safe.ts), never sent to the
    // quote engine: the hostile engine echoes them anyway (a shared proxy that saw them elsewhere).
    const CORE_KEYS = {
      BITFLOW_API_KEY: 'bf-core-SECRET-91c3e7d2a0',
      READONLY_CALL_API_KEY: 'bf-node-SECRET-2a6f0b9e54',
      KEEPER_API_KEY: 'bf-keeper-SECRET-7e1d4c8b36',
    };
    let lsp: LspSession;
    before(async () => {
      lsp = await startLsp({ env: { DLMM_API_URL: h.url, DLMM_NODE_URL: h.nodeUrl, ...CORE_KEYS } });
    });
    after(async () => lsp.close());

    it('diagnostics and hover redact BITFLOW_API_KEY, READONLY_CALL_API_KEY and KEEPER_API_KEY', async () => {
      const echoed = Object.values(CORE_KEYS).join(' ');
      h.setFaults([
        {
          match: `GET /api/quotes/v2/bins/${SBTC_POOL}`,
          answer: { status: 401, body: JSON.stringify({ error: `invalid key; seen ${echoed}` }) },
        },
        {
          match: 'GET /api/quotes/v2/pools',
          answer: {
            body: patchJson((v) => {
              const list = (Array.isArray(v) ? v : (v as { pools: unknown[] }).pools) as Array<
                Record<string, unknown>
              >;
              for (const p of list) if (p.pool_id === SBTC_POOL) p.pool_alias = `sbtc ${echoed}`;
            }),
          },
        },
      ]);
      const uri = pathToFileURL(join(dir, 'lsp-core.dlmm.yaml')).href;
      const text = await readFile(join(dir, 'add-ladder.dlmm.yaml'), 'utf8');
      lsp.open(uri, text);
      const diags = await lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'api-unreachable'), 30_000);
      const assertNoCoreKey = (t: string, what: string): void => {
        for (const [name, k] of Object.entries(CORE_KEYS))
          assert.ok(!t.includes(k) && !t.includes(k.slice(-10)), `${what} shows ${name}:\n${t}`);
        assert.equal(escapeControl(t), t, `${what} has a raw control character`);
      };
      for (const d of diags) assertNoCoreKey(d.message, `diagnostic ${String(d.code)}`);
      assert.ok(
        diags.some((d) => /seen \[redacted\] \[redacted\] \[redacted\]/.test(d.message)),
        `the echoed keys reached a message, redacted: ${diags.map((d) => d.message).join(' | ')}`,
      );
      const line = text.split('\n').findIndex((l) => l.includes('pool:'));
      let hovered = 0;
      for (const character of [6, 12, 40]) {
        const hv = (await lsp.conn.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: { line, character },
        })) as { contents: { value: string } } | null;
        if (!hv) continue;
        hovered++;
        assertNoCoreKey(JSON.stringify(hv.contents), 'hover');
      }
      assert.ok(hovered > 0, 'the pool line has a hover');
    });
  });
});
