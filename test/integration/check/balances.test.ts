/**
 * The sender's balances through the plan (issue 25), over loopback HTTP with the real client: balances are
 * read from the simulator's node (each token's SIP-010 get-balance), followed through the plan in order as
 * the transactions move tokens, and a transaction spending more than is held at its point is
 * `insufficient-balance` (the export refuses it); the exported transactions are applied on the simulator's
 * engine, which enforces the same balances.
 */
import { strict as assert } from 'node:assert';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { applyTransaction } from '../../../core/sim/apply';
import { DEFAULT_WORLD_INPUT, STX_WRAPPER } from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { txHexes } from '../../../core/tx/formats';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from './sim';

/** Not a secret: a fixed test key so the world's user can sign. */
const PUBLIC_KEY = privateKeyToPublic('55'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';

type WorldInput = typeof DEFAULT_WORLD_INPUT;

describe('check follows the sender balances through the plan', function () {
  this.timeout(60_000);
  let sim: RunningSimulator | undefined;
  let api: DlmmApi | undefined;

  async function start(edit: (w: WorldInput) => void = () => undefined, node = true): Promise<DlmmApi> {
    await api?.close?.();
    await sim?.close();
    sim = await startSimulator({ port: 0, world: worldForUser(USER, 'balances-world', edit) });
    api = clientFor(sim, { node });
    return api;
  }
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  const plan = (ops: string) => `version: 1\nsender: ${USER}\noperations:\n${ops}`;
  const add = (id: string, bin: number, x: bigint | number, y: bigint | number) =>
    `  - id: ${id}\n    op: add\n    pool: ${POOL}\n    mode: strict\n    bins:\n      - { bin_id: ${bin}, x_amount: ${x}, y_amount: ${y} }\n`;
  const of = (a: Analysis, code: string) => a.findings.filter((f) => f.code === code);

  async function exportAndApply(a: Analysis): Promise<string[]> {
    const built = await buildTransactions(a, { api: api!, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    const hexes = await txHexes(built.transactions, { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    return hexes.map((h) => {
      const r = applyTransaction(sim!.engine, h);
      return r.ok ? 'ok' : `${r.error}: ${r.detail}`;
    });
  }

  it('a strict add of 1,000,000 sBTC on the default balances is an error naming token, need and holding; export refuses', async () => {
    const client = await start();
    const a = await analyzePlan(plan(add('big', 145, 100_000_000_000_000n, 0)), { api: client });
    const f = of(a, 'insufficient-balance');
    assert.equal(f.length, 1, JSON.stringify(a.findings));
    assert.equal(f[0]!.severity, 'error');
    assert.equal(f[0]!.operation, 'big');
    assert.match(
      f[0]!.message,
      /holds 1000000000 \(10 sBTC\) of sBTC \(SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4\.sbtc-token\)/,
    );
    assert.match(f[0]!.message, /needs 100000000000000 \(1000000 sBTC\)/);
    assert.match(f[0]!.message, /\(err u1\)/);
    const built = await buildTransactions(a, { api: client });
    assert.equal(built.ok, false);
    if (!built.ok) assert.equal(built.error.code, 'plan-has-errors');
  });

  it('a plan that overspends in its second operation only: the second is red, the first is not', async () => {
    const client = await start();
    // 10 sBTC held: 6 then 5.
    const a = await analyzePlan(
      plan(add('first', 145, 600_000_000n, 0) + add('second', 146, 500_000_000n, 0)),
      { api: client },
    );
    const f = of(a, 'insufficient-balance');
    assert.deepEqual(
      f.map((x) => x.operation),
      ['second'],
      JSON.stringify(a.findings),
    );
    assert.match(
      f[0]!.message,
      /holds 400000000 \(4 sBTC\) .* at this point of the plan and the transaction needs 500000000/,
    );
    assert.equal(a.findings.filter((x) => x.severity === 'error').length, 1);
    // Each alone fits: the second's own plan is clean.
    const alone = await analyzePlan(plan(add('second', 146, 500_000_000n, 0)), { api: client });
    assert.deepEqual(of(alone, 'insufficient-balance'), []);
  });

  it('a withdraw followed by an add of exactly what it returns is clean (and applies); one unit more is red', async () => {
    // The signer holds STX for fees and no USDCx at all: only the withdraw funds the add.
    const client = await start((w) => {
      for (const u of w.users ?? []) u.balances = { [STX_WRAPPER]: '1000000000' };
    });
    const engine = sim!.engine;
    const pool = engine.pool('dlmm_1')!;
    const bin = engine.bin(pool, 136);
    const mine = engine.userShares(pool, USER, 136);
    assert.ok(mine > 0n && bin.reserve_x === 0n);
    const returned = (mine * bin.reserve_y) / bin.shares;
    const withdraw = `  - id: out\n    op: withdraw\n    pool: ${POOL}\n    mode: strict\n    withdrawal_percentage: 100\n    bins: [136]\n`;

    const funded = await analyzePlan(plan(withdraw + add('back', 130, 0, returned)), { api: client });
    assert.deepEqual(
      funded.findings.filter((f) => f.severity !== 'info').map((f) => `${f.code}: ${f.message}`),
      [],
    );
    assert.deepEqual(await exportAndApply(funded), ['ok', 'ok']);
    assert.equal(engine.balanceOf(USER, 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx'), 0n);

    const client2 = await start((w) => {
      for (const u of w.users ?? []) u.balances = { [STX_WRAPPER]: '1000000000' };
    });
    const over = await analyzePlan(plan(withdraw + add('back', 130, 0, returned + 1n)), { api: client2 });
    const f = of(over, 'insufficient-balance');
    assert.deepEqual(
      f.map((x) => x.operation),
      ['back'],
      JSON.stringify(over.findings),
    );
    assert.match(f[0]!.message, new RegExp(`holds ${returned} .* needs ${returned + 1n}`));
  });

  it('export --fee: each transaction takes its fee from the STX held first; a fee not covered is a warning', async () => {
    // 1,500 micro-STX: the first transaction's fee of 1,000 is covered, the second's is not.
    const client = await start((w) => {
      for (const u of w.users ?? []) u.balances = { [SBTC]: '1000000000', [STX_WRAPPER]: '1500' };
    });
    const a = await analyzePlan(plan(add('first', 145, 1000n, 0) + add('second', 146, 1000n, 0)), {
      api: client,
    });
    assert.deepEqual(
      a.findings.filter((f) => f.severity !== 'info').map((f) => f.code),
      [],
      'check does not know the fee',
    );
    const built = await buildTransactions(a, { api: client, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    const fee = built.findings.filter((f) => f.code === 'fee-not-covered');
    assert.deepEqual(
      fee.map((f) => [f.operation, f.severity]),
      [['second', 'warning']],
    );
    assert.match(fee[0]!.message, /fee of 1000 micro-STX and the sender holds 500 micro-STX/);
    const applied = await txHexes(built.transactions, { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    assert.equal(applyTransaction(sim!.engine, applied[0]!).ok, true);
    const second = applyTransaction(sim!.engine, applied[1]!);
    assert.equal(second.ok, false);
    if (!second.ok) assert.equal(second.error, 'NOT_ENOUGH_FUNDS');
  });

  it('without a node the balance is not read: a warning names it, nothing is guessed', async () => {
    const client = await start(undefined, false);
    const a = await analyzePlan(
      plan(
        `  - id: sell\n    op: swap\n    input_token: ${SBTC}\n    output_token: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx\n    amount_in: 100000\n`,
      ),
      { api: client },
    );
    const f = of(a, 'balance-unchecked');
    assert.equal(f.length, 1, JSON.stringify(a.findings));
    assert.equal(f[0]!.severity, 'warning');
    assert.match(f[0]!.message, /balance of sBTC .* could not be read \(no node proxy is configured/);
    assert.match(f[0]!.message, /holds the 100000 \(0\.001 sBTC\) this transaction spends is unknown/);
    assert.deepEqual(of(a, 'insufficient-balance'), []);
  });

  it('reads each balance once per state height (cached like bin shares)', async () => {
    const client = await start();
    const text = plan(add('first', 145, 1000n, 0));
    const start0 = sim!.requests().node;
    const a = await analyzePlan(text, { api: client });
    // sBTC, USDCx (the add's tokens), STX (fees), and the target bin's shares.
    assert.equal(sim!.requests().node - start0, 4);
    assert.deepEqual(
      [...(a.live?.balances.values() ?? [])].map((b) => [b.token.split('.')[1], b.amount]),
      [
        ['sbtc-token', 1_000_000_000n],
        ['usdcx', 1_000_000_000_000n],
        ['token-stx-v-1-2', 10_000_000_000_000n],
      ],
    );
    const again = sim!.requests().node;
    await analyzePlan(text, { api: client });
    assert.equal(sim!.requests().node - again, 0, 'no node read again at the same state height');
  });
});
