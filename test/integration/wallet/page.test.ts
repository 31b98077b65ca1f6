/**
 * `dlmm wallet` end to end in Debian's Chromium: the real CLI (in-process, --sim over loopback HTTP) serves
 * the real page, which a real browser loads and drives. The one mock is the wallet: no real wallet
 * extension (Leather, Xverse) can run in this headless, offline browser, so a test provider is injected as
 * `window.LeatherProvider` / `window.wbip_providers` before the page's script runs. It records every
 * request and answers like a SIP-030 wallet (JSON-RPC envelopes). Expected requests come from
 * `dlmm export` of the same plan (the oracle), decoded with @stacks/transactions.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { Cl, getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import type { Browser, Page } from 'playwright-core';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { DEFAULT_USER, DEFAULT_WORLD_INPUT } from '../../../core/sim/defaultWorld';
import { startSimulator } from '../../../core/sim/server';
import { parseWorld } from '../../../core/sim/world';
import { chromiumMissingReason, launchChromium, ROOT, screenshot } from '../../webview/harness';
import { skipBecause } from '../../skip';

const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const OTHER = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
/** Not a secret: a fixed test key; an add needs no prior position, so any funded sender works. */
const PUBLIC_KEY = privateKeyToPublic('55'.repeat(32) + '01') as string;
const KEY_SENDER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');

const PLAN = `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: asks
    op: add
    pool: ${POOL}
    bins:
      - { bin_id: 142, x_amount: 150000, y_amount: 0 }
  - id: out
    op: withdraw
    pool: ${POOL}
    withdrawal_percentage: 50
    bins: [136, 137]
`;
const KEY_PLAN = `version: 1
sender: ${KEY_SENDER}
operations:
  - id: bid
    op: add
    pool: ${POOL}
    bins:
      - { bin_id: 136, x_amount: 0, y_amount: 2500000 }
`;

interface WalletRequest {
  method: string;
  params: Record<string, unknown>;
}

/** The test provider's behaviour, passed into the page before its script runs. */
interface Scenario {
  /** Where the provider appears: Leather's global, a wbip_providers entry, or nowhere. */
  install: 'leather' | 'wbip' | 'none';
  addresses: { symbol: string; address: string; publicKey?: string }[];
  /** Reject this transaction index with this code (thrown as a JSON-RPC error envelope). */
  reject?: { index: number; code: number; message: string };
}

/** Runs in the page (serialized by Playwright): the injected SIP-030 test provider. */
function installProvider(s: Scenario): void {
  const w = window as unknown as Record<string, unknown>;
  const calls: { method: string; params: unknown }[] = [];
  w.__walletCalls = calls;
  let txIndex = 0;
  let id = 0;
  const provider = {
    request(method: string, params?: unknown): Promise<unknown> {
      calls.push({ method, params: params === undefined ? null : JSON.parse(JSON.stringify(params)) });
      id++;
      if (method === 'stx_getAddresses') {
        return Promise.resolve({ jsonrpc: '2.0', id: String(id), result: { addresses: s.addresses } });
      }
      if (method === 'stx_callContract' || method === 'stx_signTransaction') {
        const i = txIndex++;
        if (s.reject && s.reject.index === i) {
          return Promise.reject({
            jsonrpc: '2.0',
            id: String(id),
            error: { code: s.reject.code, message: s.reject.message },
          });
        }
        const txid = (i + 1).toString(16).padStart(64, 'a');
        const p = params as { transaction?: string; broadcast?: boolean };
        const result =
          method === 'stx_callContract'
            ? { txid, transaction: 'c0ffee' + i }
            : p.broadcast
              ? { txid, transaction: 'signed' + p.transaction }
              : { transaction: 'ab' + (p.transaction ?? '') };
        return Promise.resolve({ jsonrpc: '2.0', id: String(id), result });
      }
      return Promise.reject({
        jsonrpc: '2.0',
        id: String(id),
        error: { code: -32601, message: 'no such method' },
      });
    },
  };
  if (s.install === 'leather') w.LeatherProvider = provider;
  if (s.install === 'wbip') {
    w.TestWallet = { Stacks: provider };
    w.wbip_providers = [
      { id: 'TestWallet.Stacks', name: 'Test wallet', icon: '', methods: ['stx_callContract'] },
    ];
  }
}

/** A CLI io whose stdout can be awaited for a line. */
function captureIO(cwd: string, env: Record<string, string> = {}) {
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const io: CliIO & { stdout: string; stderr: string; waitFor(re: RegExp): Promise<RegExpMatchArray> } = {
    stdout: '',
    stderr: '',
    env: { ...env },
    cwd,
    out: (t: string) => {
      io.stdout += t;
      for (const w of [...waiters]) {
        const m = io.stdout.match(w.re);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    },
    err: (t: string) => void (io.stderr += t),
    waitFor: (re) =>
      new Promise((resolve) => {
        const m = io.stdout.match(re);
        if (m) resolve(m);
        else waiters.push({ re, resolve });
      }),
  };
  return io;
}

/** HTTP status of a GET (or the connection error code when nothing listens). */
function status(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? 'error'));
    req.end();
  });
}

/** The service a command reads: the embedded simulator, or one whose world funds the key's sender. */
interface Source {
  args: string[];
  env: Record<string, string>;
}
const EMBEDDED: Source = { args: ['--sim'], env: {} };

async function exportOf(dir: string, file: string, args: string[], source = EMBEDDED): Promise<string> {
  const io = captureIO(dir, source.env);
  const code = await main(['export', file, ...source.args, ...args], io);
  assert.equal(code, 0, io.stderr);
  return io.stdout;
}

interface Session {
  io: ReturnType<typeof captureIO>;
  exit: Promise<number>;
  url: string;
  page: Page;
  close(): Promise<void>;
}

describe('dlmm wallet: the one-time page in Chromium with a test wallet provider', function () {
  this.timeout(60_000);
  const skip = chromiumMissingReason();
  let browser: Browser;
  let dir: string;
  let expected: WalletRequest[];
  let decoded: {
    contract: string;
    functionName: string;
    postConditionMode: string;
    network: string;
    args: { clarity: string; hex: string }[];
    postConditions: { hex: string; words: string }[];
    totals: { label: string; amount: string; symbol?: string; human?: string }[];
  }[];

  before(async function () {
    if (skip) {
      if (process.env.CI === 'true') throw new Error(skip);
      skipBecause(this, skip);
    }
    // The page's script as the build makes it (a single test run must not read a stale bundle).
    await esbuild.build({
      entryPoints: [join(ROOT, 'webview/src/wallet/page.ts')],
      outfile: join(ROOT, 'dist/wallet-page.js'),
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome114',
      logLevel: 'warning',
      legalComments: 'none',
    });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-wallet-'));
    await writeFile(join(dir, 'ladder.dlmm.yaml'), PLAN);
    await writeFile(join(dir, 'keyed.dlmm.yaml'), KEY_PLAN);
    expected = JSON.parse(
      await exportOf(dir, 'ladder.dlmm.yaml', ['--format', 'wallet-request']),
    ) as WalletRequest[];
    decoded = (
      JSON.parse(await exportOf(dir, 'ladder.dlmm.yaml', ['--format', 'json'])) as {
        transactions: typeof decoded;
      }
    ).transactions;
    assert.equal(expected.length, 2);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Starts `dlmm wallet`, then opens its page in a fresh context with the scenario's provider. */
  async function open(
    plan: string,
    scenario: Scenario,
    extra: string[] = [],
    source = EMBEDDED,
    viewport?: { width: number; height: number },
  ): Promise<Session> {
    const io = captureIO(dir, source.env);
    const exit = main(['wallet', plan, ...source.args, '--no-open', ...extra], io);
    const m = await Promise.race([
      io.waitFor(/^open (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)$/m),
      exit.then((code) => {
        throw new Error(`dlmm wallet exited ${code} before serving: ${io.stderr}`);
      }),
    ]);
    const url = m[1]!;
    const context = await browser.newContext(viewport ? { viewport } : {});
    await context.addInitScript(installProvider, scenario);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]');
    return {
      io,
      exit,
      url,
      page,
      close: async () => {
        assert.deepEqual(errors, [], 'the page logged errors (CSP or script)');
        await context.close();
      },
    };
  }

  const calls = (page: Page) =>
    page.evaluate(() => (window as unknown as { __walletCalls: WalletRequest[] }).__walletCalls);

  it('shows what the user approves (every post-condition, the totals) without scrolling at 1440×900', async () => {
    const s = await open(
      'ladder.dlmm.yaml',
      { install: 'leather', addresses: [{ symbol: 'STX', address: DEFAULT_USER }] },
      [],
      EMBEDDED,
      { width: 1440, height: 900 },
    );
    try {
      const approve = s.page.locator('[data-testid=approve]');
      const text = (await approve.innerText()).replace(/\s+/g, ' ');
      for (const tx of decoded) {
        for (const pc of tx.postConditions)
          assert.ok(text.includes(pc.words.replace(/\s+/g, ' ')), `post-condition shown: ${pc.words}`);
        for (const t of tx.totals)
          assert.ok(
            text.includes(`${t.label} ${t.human ?? t.amount}`),
            `total shown: ${t.label} ${t.human ?? t.amount}: ${text}`,
          );
      }
      // Above the fold, with the Send button: the page does not scroll to show them.
      const scrollY = await s.page.evaluate(() => window.scrollY);
      assert.equal(scrollY, 0);
      for (const el of [approve, s.page.locator('[data-testid=send]')]) {
        const box = await el.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= 900, `within 900 px: ${JSON.stringify(box)}`);
      }
      await screenshot(s.page, 'wallet-1440x900');
    } finally {
      await s.page.click('[data-testid=finish]');
      await s.page.waitForSelector('body[data-finished=true]');
      await s.exit;
      await s.close();
    }
  });

  it('sends exactly the exported requests in order; the txids come back to the CLI; then the server closes', async () => {
    const s = await open('ladder.dlmm.yaml', {
      install: 'leather',
      addresses: [
        { symbol: 'BTC', address: 'bc1qtest' },
        { symbol: 'STX', address: DEFAULT_USER, publicKey: '02' + '11'.repeat(32) },
      ],
    });
    // The page shows the same summary as `dlmm export --format summary`.
    const summary = await exportOf(dir, 'ladder.dlmm.yaml', ['--format', 'summary']);
    assert.equal((await s.page.textContent('[data-testid=summary]'))!.trim(), summary.trim());
    // A wrong token and any other path are 404 while the session runs.
    const origin = new URL(s.url).origin;
    const token = new URL(s.url).pathname.split('/')[1]!;
    assert.equal(await status(s.url), 200);
    // One character changed (to one it is not: a token may well end in 'x').
    const wrong = token.slice(0, -1) + (token.endsWith('x') ? 'y' : 'x');
    assert.equal(await status(`${origin}/${wrong}/`), 404);
    assert.equal(await status(`${origin}/`), 404);
    assert.equal(await status(`${origin}/${token}/answer`), 404, 'GET on an action');
    assert.equal(await status(`${origin}/${token}/../`), 404);

    await s.page.click('[data-testid=send]');
    await s.page.waitForSelector('body[data-finished=true]');
    await screenshot(s.page, 'wallet-sent');
    const got = await calls(s.page);
    assert.deepEqual(
      got.map((c) => c.method),
      ['stx_getAddresses', 'stx_callContract', 'stx_callContract'],
    );
    got.slice(1).forEach((c, i) => {
      // Exactly the export's request, plus the plan's sender as the account to use.
      assert.deepEqual(c.params, { ...expected[i]!.params, address: DEFAULT_USER });
      const d = decoded[i]!;
      const p = c.params as unknown as {
        contract: string;
        functionName: string;
        functionArgs: string[];
        postConditions: string[];
        postConditionMode: string;
        network: string;
      };
      assert.equal(p.contract, d.contract);
      assert.equal(p.functionName, d.functionName);
      assert.equal(p.postConditionMode, d.postConditionMode);
      assert.equal(p.network, d.network);
      assert.deepEqual(
        p.functionArgs.map((h) => Cl.prettyPrint(Cl.deserialize(h))),
        d.args.map((a) => a.clarity),
      );
      assert.deepEqual(
        p.postConditions,
        d.postConditions.map((pc) => pc.hex),
      );
    });
    assert.deepEqual(
      got.slice(1).map((c) => (c.params as { functionName: string; postConditionMode: string }).functionName),
      ['add-liquidity-multi', 'withdraw-liquidity-multi'],
    );
    assert.equal(await s.exit, 0, s.io.stderr);
    assert.match(s.io.stdout, new RegExp(`#1 operation asks: txid ${'1'.padStart(64, 'a')}`));
    assert.match(s.io.stdout, new RegExp(`#2 operation out: txid ${'2'.padStart(64, 'a')}`));
    assert.match((await s.page.textContent('[data-testid=answer-1]')) ?? '', /txid a+2/);
    const answers = JSON.parse(await readFile(join(dir, 'ladder.all.wallet-answers.json'), 'utf8')) as {
      complete: boolean;
      answers: { transaction_index: number; txid: string }[];
    };
    assert.equal(answers.complete, true);
    assert.deepEqual(
      answers.answers.map((a) => [a.transaction_index, a.txid]),
      [
        [1, '1'.padStart(64, 'a')],
        [2, '2'.padStart(64, 'a')],
      ],
    );
    // The server has closed: nothing listens on the port any more.
    assert.equal(await status(s.url), 'ECONNREFUSED');
    await s.close();
  });

  it('a rejection stops the sequence: the code reaches the page and the CLI, later transactions are not asked', async () => {
    const s = await open('ladder.dlmm.yaml', {
      install: 'wbip',
      addresses: [{ symbol: 'STX', address: DEFAULT_USER }],
      reject: { index: 0, code: -32000, message: 'User rejected the request' },
    });
    assert.match((await s.page.textContent('[data-testid=wallets]')) ?? '', /Test wallet/);
    await s.page.click('[data-testid=send]');
    await s.page.waitForSelector('[data-testid=state-0].err');
    assert.match(
      (await s.page.textContent('[data-testid=answer-0]')) ?? '',
      /rejected in the wallet \(-32000\)/,
    );
    await s.io.waitFor(/#1 operation asks: rejected in the wallet \(-32000\): User rejected the request/);
    assert.deepEqual(
      (await calls(s.page)).map((c) => c.method),
      ['stx_getAddresses', 'stx_callContract'],
    );
    assert.equal(await s.page.textContent('[data-testid=state-1]'), 'not sent');
    await s.page.click('[data-testid=finish]');
    assert.equal(await s.exit, 1);
    assert.equal(await status(s.url), 'ECONNREFUSED');
    const answers = JSON.parse(await readFile(join(dir, 'ladder.all.wallet-answers.json'), 'utf8')) as {
      complete: boolean;
      answers: { error?: { code: number } }[];
    };
    assert.equal(answers.complete, false);
    assert.equal(answers.answers[0]!.error!.code, -32000);
    await s.close();
  });

  it('a wallet on another account is an address mismatch before anything is asked', async () => {
    const s = await open(
      'ladder.dlmm.yaml',
      {
        install: 'leather',
        addresses: [{ symbol: 'STX', address: OTHER }],
      },
      ['--op', 'out'],
    );
    await s.page.click('[data-testid=send]');
    await s.page.waitForSelector('#status.err');
    const text = (await s.page.textContent('[data-testid=status]')) ?? '';
    assert.match(
      text,
      new RegExp(
        `Address mismatch: the wallet's account is ${OTHER}, but the plan's sender is ${DEFAULT_USER}`,
      ),
    );
    await s.io.waitFor(/wallet: the wallet's address is not the requested one \(-32001\)/);
    assert.deepEqual(
      (await calls(s.page)).map((c) => c.method),
      ['stx_getAddresses'],
    );
    await screenshot(s.page, 'wallet-mismatch');
    await s.page.click('[data-testid=finish]');
    assert.equal(await s.exit, 1);
    // One operation: the answers file is named for it.
    const answers = JSON.parse(await readFile(join(dir, 'ladder.op-out.wallet-answers.json'), 'utf8')) as {
      answers: { transaction_index: null; wallet_addresses: string[] }[];
    };
    assert.deepEqual(answers.answers[0]!.wallet_addresses, [OTHER]);
    await s.close();
  });

  it('without any provider the page names the wallets that work and asks nothing', async () => {
    const s = await open('ladder.dlmm.yaml', { install: 'none', addresses: [] });
    const text = (await s.page.textContent('[data-testid=no-provider]')) ?? '';
    assert.match(text, /No Stacks wallet was found in this browser/);
    assert.match(text, /Leather/);
    assert.match(text, /Xverse/);
    assert.equal(await s.page.isVisible('[data-testid=send]'), false);
    await screenshot(s.page, 'wallet-no-provider');
    await s.page.click('[data-testid=finish]');
    assert.equal(await s.exit, 1);
    assert.doesNotMatch(s.io.stdout, /operation/);
    await s.close();
  });

  it('exact nonces: stx_signTransaction with the unsigned hex of `dlmm export --format tx-hex` and broadcast stated', async () => {
    // The key's sender must hold what the plan spends: a simulator whose world gives it the default
    // user's balances (on the embedded one it holds nothing, and the plan is insufficient-balance).
    const input = structuredClone(DEFAULT_WORLD_INPUT);
    input.users = [...(input.users ?? []), { ...input.users![0]!, address: KEY_SENDER, positions: [] }];
    const keyed = await startSimulator({ port: 0, world: parseWorld(input, 'keyed-world') });
    const source: Source = { args: ['--api', keyed.url], env: { DLMM_NODE_URL: keyed.nodeUrl } };
    try {
      await keyedSignature(source);
    } finally {
      await keyed.close();
    }
  });

  async function keyedSignature(source: Source): Promise<void> {
    const hex = (
      await exportOf(
        dir,
        'keyed.dlmm.yaml',
        ['--format', 'tx-hex', '--public-key', PUBLIC_KEY, '--nonce', '7', '--fee', '3000'],
        source,
      )
    )
      .trim()
      .split('\n');
    const s = await open(
      'keyed.dlmm.yaml',
      {
        install: 'leather',
        addresses: [{ symbol: 'STX', address: KEY_SENDER, publicKey: PUBLIC_KEY }],
      },
      [],
      source,
    );
    await s.page.check('[data-testid=mode-sign]');
    await s.page.fill('[data-testid=nonce]', '7');
    await s.page.fill('[data-testid=fee]', '3000');
    await s.page.uncheck('[data-testid=broadcast]');
    await s.page.click('[data-testid=send]');
    await s.page.waitForSelector('body[data-finished=true]');
    const got = await calls(s.page);
    assert.deepEqual(
      got.map((c) => c.method),
      ['stx_getAddresses', 'stx_signTransaction'],
    );
    assert.deepEqual(got[1]!.params, { transaction: hex[0], broadcast: false, network: 'mainnet' });
    assert.equal(await s.exit, 0, s.io.stderr);
    assert.match(s.io.stdout, /#1 operation bid: signed transaction ab/);
    const answers = JSON.parse(await readFile(join(dir, 'keyed.all.wallet-answers.json'), 'utf8')) as {
      answers: { signed_transaction: string }[];
    };
    assert.equal(answers.answers[0]!.signed_transaction, 'ab' + hex[0]);
    await s.close();
  }
});
