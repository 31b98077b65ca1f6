/**
 * getSwapParams as an unsigned export: `dlmm quote --source core ... --sender S --export FILE` through main()
 * against the simulator on loopback. The written transaction is the same export as a plan's (the four
 * formats of core/tx/formats.ts), it was executed on the chain model before it was written, and the
 * simulator's dry-run (POST /api/admin/apply, the engine around the same chain model) confirms it. A
 * transaction that could not be checked is never written: a partial fill, a core quote beyond the slippage
 * band of the exact recomputation (the admin's quote skew), an unreadable bin list (a hostile proxy).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deserializeTransaction,
  getAddressFromPublicKey,
  privateKeyToPublic,
  type ContractCallPayload,
} from '@stacks/transactions';
import type { CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { parseJsonExact } from '../../../core/api/json';
import { DEFAULT_SIM_API_KEY } from '../../../core/sim/defaultWorld';
import { SWAP_ROUTER } from '../../../core/sim/routes/quoteV2';
import { startSimulator, worldForUser, type RunningSimulator } from '../check/sim';
import { startHostile, type HostileService } from '../faults/hostile';
import { createApiClient } from '../../../core/api/client';
import { coreQuoteToRoute, createCoreSwapClient } from '../../../core/api/coreClient';
import { checkRouteLive } from '../../../core/quote/exact';
import { buildCoreSwapExport } from '../../../core/tx/coreSwapExport';
import { DEFAULT_ROUTERS } from '../../../core/chain/deployments';
import { SAFE_BLOCK_SHARE } from '../../../core/chain/costs';
import { formatUnits } from '../../../core/dlmm/bins';
import { wideWorld } from '../export/wideWorld';

/** Not a secret: a fixed test key, so the world's user can be the transaction's signer. */
const PUBLIC_KEY = privateKeyToPublic('33'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const SBTC_POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';

async function dlmm(argv: string[], env: Record<string, string | undefined>, cwd: string) {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => (out += t), err: (t) => (err += t), env, cwd };
  const code = await main(argv, io);
  return { code, out, err };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': DEFAULT_SIM_API_KEY },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: parseJsonExact(await res.text()) as Record<string, unknown> };
}

describe('dlmm quote --source core --export: getSwapParams as an unsigned, checked transaction', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let dir: string;
  let env: Record<string, string | undefined>;
  const quoteArgs = (amount: string, ...more: string[]) => [
    'quote',
    '--api',
    sim.url,
    '--source',
    'core',
    '--in',
    'sBTC',
    '--out',
    'USDCx',
    '--amount',
    amount,
    '--sender',
    USER,
    ...more,
  ];

  before(async () => {
    sim = await startSimulator({ port: 0, world: worldForUser(USER, 'core-export-world') });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-core-export-'));
    env = {
      DLMM_API_KEY: DEFAULT_SIM_API_KEY,
      BITFLOW_API_HOST: sim.coreUrl,
      READONLY_CALL_API_HOST: sim.nodeUrl,
    };
  });
  after(async () => {
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    assert.equal((await post(`${sim.url}/admin/reset`, {})).status, 200);
  });

  it('json: the router call, its arguments and deny-mode post-conditions, executed on the chain model', async () => {
    const r = await dlmm(
      quoteArgs('0.1', '--slippage', '1', '--export', 'swap.json', '--export-format', 'json'),
      env,
      dir,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /dlmm quote: wrote 1 transaction\(s\) to swap\.json/);
    const doc = JSON.parse(await readFile(join(dir, 'swap.json'), 'utf8')) as {
      transactions: Array<{
        contract: string;
        functionName: string;
        postConditionMode: string;
        args: { name: string; clarity: string }[];
        postConditions: { words: string }[];
        notes: string[];
        totals: { label: string; amount: string }[];
      }>;
    };
    assert.equal(doc.transactions.length, 1);
    const tx = doc.transactions[0]!;
    assert.equal(tx.contract, SWAP_ROUTER);
    assert.equal(tx.functionName, 'swap-x-for-y-simple-multi');
    assert.equal(tx.postConditionMode, 'deny');
    assert.deepEqual(
      tx.args.map((a) => a.name),
      ['pool-trait', 'x-token-trait', 'y-token-trait', 'x-amount', 'min-dy', 'deadline'],
    );
    assert.equal(tx.args[3]!.clarity, 'u10000000');
    assert.equal(tx.postConditions.length, 2);
    assert.match(tx.postConditions[0]!.words, /sends at most 0\.1 sBTC/);
    assert.match(tx.postConditions[1]!.words, /dlmm-pool-sbtc-usdcx-v-1-bps-10 sends at least/);
    assert.ok(tx.notes.some((n) => /executed on the chain model/.test(n)));
    assert.ok(tx.notes.some((n) => /the library's fraction 0\.01/.test(n)));
    // The minimum is the core quote less 1%, exactly.
    const q = await dlmm(quoteArgs('0.1', '--format', 'json'), env, dir);
    const best = (JSON.parse(q.out) as { routes: { amount_out: string }[] }).routes[0]!;
    const min = tx.totals.find((t) => t.label === 'min out')!.amount;
    assert.equal(BigInt(min), (BigInt(best.amount_out) * 99n) / 100n);
  });

  it('tx-hex: the simulator dry-run (the engine around the same chain model) confirms it', async () => {
    const r = await dlmm(
      quoteArgs(
        '0.05',
        '--export',
        'swap.hex',
        '--export-format',
        'tx-hex',
        '--public-key',
        PUBLIC_KEY,
        '--nonce',
        '0',
        '--fee',
        '1000',
      ),
      env,
      dir,
    );
    assert.equal(r.code, 0, r.err);
    const hex = (await readFile(join(dir, 'swap.hex'), 'utf8')).trim();
    assert.match(hex, /^[0-9a-f]+$/);
    const decoded = deserializeTransaction(hex);
    const payload = decoded.payload as ContractCallPayload;
    assert.equal(payload.functionName.content, 'swap-x-for-y-simple-multi');
    const applied = await post(`${sim.url}/admin/apply`, { tx_hex: hex });
    assert.equal(applied.status, 200, JSON.stringify(applied.json));
    assert.equal(applied.json.ok, true, JSON.stringify(applied.json));
  });

  it('summary and wallet-request go through the same writer; without --sender it is a usage error', async () => {
    const s = await dlmm(quoteArgs('0.05', '--export', 'swap.txt'), env, dir);
    assert.equal(s.code, 0, s.err);
    const text = await readFile(join(dir, 'swap.txt'), 'utf8');
    assert.match(text, /^1 unsigned transaction\(s\) to sign in your wallet \(nothing is broadcast/);
    assert.match(text, /operation core-swap \(swap\)/);
    const w = await dlmm(
      quoteArgs('0.05', '--export', 'swap.wallet.json', '--export-format', 'wallet-request'),
      env,
      dir,
    );
    assert.equal(w.code, 0, w.err);
    const reqs = JSON.parse(await readFile(join(dir, 'swap.wallet.json'), 'utf8')) as {
      method: string;
      params: { postConditionMode: string };
    }[];
    assert.equal(reqs[0]!.method, 'stx_callContract');
    assert.equal(reqs[0]!.params.postConditionMode, 'deny');
    const noSender = await dlmm(
      quoteArgs('0.05', '--export', 'x.json').filter(
        (a, i, all) => a !== '--sender' && all[i - 1] !== '--sender',
      ),
      env,
      dir,
    );
    assert.equal(noSender.code, 2);
    assert.match(noSender.err, /--export needs --sender/);
    const engine = await dlmm(
      ['quote', '--api', sim.url, '--in', 'sBTC', '--out', 'USDCx', '--amount', '1', '--export', 'y.json'],
      env,
      dir,
    );
    assert.equal(engine.code, 2);
    assert.match(engine.err, /--export .* --source core/);
  });

  it('refuses a partial fill: nothing is written', async () => {
    const r = await dlmm(quoteArgs('1000', '--export', 'partial.json', '--export-format', 'json'), env, dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /not exported: swap-partial-fill: .*only .* of 1000 sBTC finds liquidity/);
    assert.equal(await exists(join(dir, 'partial.json')), false);
  });

  it('refuses a core quote beyond the slippage band of the exact recomputation (admin quote skew)', async () => {
    assert.equal((await post(`${sim.url}/admin/state`, { quote_skew_bps: 300 })).status, 200);
    const r = await dlmm(
      quoteArgs('0.05', '--slippage', '1', '--export', 'skewed.json', '--export-format', 'json'),
      env,
      dir,
    );
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /not exported: quote-mismatch: .*core swap API quotes .* but the bins read give/);
    assert.equal(await exists(join(dir, 'skewed.json')), false);
    // Within the band (a skew smaller than the slippage) it is written, the difference stated.
    assert.equal((await post(`${sim.url}/admin/state`, { quote_skew_bps: 20 })).status, 200);
    const ok = await dlmm(
      quoteArgs('0.05', '--slippage', '1', '--export', 'small-skew.json', '--export-format', 'json'),
      env,
      dir,
    );
    assert.equal(ok.code, 0, ok.err);
    const notes = (
      JSON.parse(await readFile(join(dir, 'small-skew.json'), 'utf8')) as {
        transactions: { notes: string[] }[];
      }
    ).transactions[0]!.notes;
    assert.ok(
      notes.some((n) => /engine and exact recomputation differ/.test(n)),
      notes.join('\n'),
    );
  });

  it('the chain model has the last word: a disabled pool reverts, a contract it does not run is refused', async () => {
    const api = createApiClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_API_KEY });
    const core = createCoreSwapClient({ apiHost: sim.coreUrl, readOnlyHost: sim.nodeUrl });
    try {
      const q = await core.getQuoteForRoute('token-sbtc', 'token-usdcx', 5_000_000n);
      const quote = q.bestRoute!;
      const tokens = await core.getAvailableTokens();
      const c = (id: string) => tokens.find((t) => t.tokenId === id)!.contract!;
      const check = await checkRouteLive(
        api,
        coreQuoteToRoute(quote, c('token-sbtc'), c('token-usdcx'), 1),
        5_000_000n,
      );
      const params = await core.getSwapParams(quote, USER, '0.01');
      const pool = (await api.pools()).find((p) => p.pool_id === params.pool)!;
      const bins = await api.bins(params.pool);
      const routers = DEFAULT_ROUTERS.mainnet!;
      const base = { params, quote, check, bins, sender: USER, network: 'mainnet' as const, routers };
      const ok = buildCoreSwapExport({ ...base, pool });
      assert.ok(ok.ok, ok.ok ? '' : ok.error.message);
      assert.equal(ok.transactions[0]!.execution?.status, 'ok');

      // The pool as read says it is disabled: the call reverts on the chain model, nothing is written.
      const disabled = buildCoreSwapExport({ ...base, pool: { ...pool, active: false } });
      assert.equal(disabled.ok, false);
      if (!disabled.ok) {
        assert.equal(disabled.error.code, 'would-revert');
        assert.match(disabled.error.message, /ERR_POOL_DISABLED/);
      }
      // A route calling a contract other than the configured swap router cannot be checked: refused.
      const other = buildCoreSwapExport({
        ...base,
        pool,
        routers: { ...routers, swapRouter: `${routers.swapRouter}-other` },
      });
      assert.equal(other.ok, false);
      if (!other.ok) assert.equal(other.error.code, 'swap-route-unsupported');
      // No pool read: refused, never assumed.
      const unread = buildCoreSwapExport({ ...base, pool: undefined });
      assert.equal(unread.ok, false);
      if (!unread.ok) assert.equal(unread.error.code, 'live-data-unavailable');
    } finally {
      await core.close();
      await api.close?.();
    }
  });

  describe('unreadable state (hostile proxy in front of the engine)', () => {
    let h: HostileService;
    before(async () => {
      h = await startHostile();
    });
    after(async () => h?.close());

    it('refuses when the bin list cannot be read', async () => {
      h.setFaults([
        { match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: { status: 503, body: '<html>down</html>' } },
      ]);
      const r = await dlmm(
        [
          'quote',
          '--api',
          h.url,
          '--source',
          'core',
          '--core-api',
          h.sim.coreUrl,
          '--in',
          'sBTC',
          '--out',
          'USDCx',
          '--amount',
          '0.01',
          '--sender',
          USER,
          '--export',
          'unread.json',
        ],
        { DLMM_API_KEY: DEFAULT_SIM_API_KEY, READONLY_CALL_API_HOST: h.sim.nodeUrl },
        dir,
      );
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /not exported: operation-unchecked: .*could not be recomputed/);
      assert.equal(await exists(join(dir, 'unread.json')), false);
    });
  });
});

describe('dlmm quote --source core --export: a walk that does not fit a block is never written (issue 41)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let dir: string;
  let env: Record<string, string | undefined>;
  before(async () => {
    sim = await startSimulator({ port: 0, world: wideWorld(USER) });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-core-budget-'));
    env = {
      DLMM_API_KEY: DEFAULT_SIM_API_KEY,
      BITFLOW_API_HOST: sim.coreUrl,
      READONLY_CALL_API_HOST: sim.nodeUrl,
    };
  });
  after(async () => {
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const args = (amount: string, file: string) =>
    [
      'quote',
      '--api',
      sim.url,
      '--source',
      'core',
      '--in',
      'sBTC',
      '--out',
      'USDCx',
      '--amount',
      amount,
    ].concat(['--sender', USER, '--slippage', '1', '--export', file, '--export-format', 'json']);

  it('refuses a swap across ~300 bins of a 1-bps pool with the largest amount that fits, and writes that one', async () => {
    const r = await dlmm(args('3.9', 'over.json'), env, dir);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /exceeds-block-budget/);
    assert.match(r.err, /would cost \d+% of a block \([\d,]+ of 15,000 reads\)/);
    const largest = /lower amount_in to at most [\d.]+ sBTC \((\d+)\)/.exec(r.err)?.[1];
    assert.ok(largest, r.err);
    assert.equal(await exists(join(dir, 'over.json')), false, 'nothing is written');
    const ok = await dlmm(args(formatUnits(BigInt(largest), 8), 'fits.json'), env, dir);
    assert.equal(ok.code, 0, ok.err);
    const doc = JSON.parse(await readFile(join(dir, 'fits.json'), 'utf8')) as {
      transactions: { cost?: { share: number; text: string; walk?: { used: number; extra: number } } }[];
    };
    const cost = doc.transactions[0]?.cost;
    assert.ok(cost?.walk, JSON.stringify(doc.transactions[0]?.cost));
    assert.ok(cost.share <= SAFE_BLOCK_SHARE, cost.text);
  });
});
