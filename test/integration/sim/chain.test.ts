/**
 * The simulator is a chain for `POST /api/admin/apply` (over loopback HTTP): a transaction over a block's
 * limits is refused (CostBalanceExceeded, as miners drop it) and changes nothing; a reused or out-of-order
 * nonce is refused; a mined transaction pays its fee and moves the account nonce that the node route
 * `/v2/accounts/{principal}` reports, a reverted one too. Expectations come from core/chain/costs.ts.
 */
import assert from 'node:assert/strict';
import {
  Cl,
  getAddressFromPublicKey,
  makeUnsignedContractCall,
  privateKeyToPublic,
} from '@stacks/transactions';
import { BLOCK_LIMIT, blockShare, callCost } from '../../../core/chain/costs';
import { DEFAULT_WORLD_INPUT, POOL_STX_SBTC, SBTC, STX_WRAPPER } from '../../../core/sim/defaultWorld';
import { parseWorld, type World } from '../../../core/sim/world';
import { call, useSimulator } from './helpers';

/** Not a secret: a fixed test key, the world's user. */
const PUBLIC_KEY = privateKeyToPublic('77'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const FEE = 1000n;
const SWAP = 'swap-x-for-y-simple-multi';
/** sBTC per bin below the active bin of the wide pool (flat). */
const Y_PER_BIN = 10_000n;
const WIDE_BINS_BELOW = 400;

/** The default world with the STX/sBTC pool (bin step 1) made wide: 400 funded bins below the active bin. */
function wideWorld(): World {
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  const pool = input.pools.find((p) => p.id === POOL_STX_SBTC)!;
  pool.active_bin = 200;
  pool.liquidity = {
    bins_below: WIDE_BINS_BELOW,
    bins_above: 10,
    x_per_bin: '5000000000',
    y_per_bin: String(Y_PER_BIN),
    shape: 'flat',
  };
  input.users = [{ address: USER, balances: { [STX_WRAPPER]: '100000000000000', [SBTC]: '0' } }];
  return parseWorld(input, 'wide-pool world');
}

/** An unsigned STX -> sBTC simple swap on the wide pool (v-1-2: trailing deadline none). */
async function swapHex(amount: bigint, nonce: bigint, minDy = 1n): Promise<string> {
  const [poolAddr, poolName] = POOL_STX_SBTC.split('.') as [string, string];
  const [xAddr, xName] = STX_WRAPPER.split('.') as [string, string];
  const [yAddr, yName] = SBTC.split('.') as [string, string];
  const tx = await makeUnsignedContractCall({
    contractAddress: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD',
    contractName: 'dlmm-swap-router-v-1-2',
    functionName: SWAP,
    functionArgs: [
      Cl.contractPrincipal(poolAddr, poolName),
      Cl.contractPrincipal(xAddr, xName),
      Cl.contractPrincipal(yAddr, yName),
      Cl.uint(amount),
      Cl.uint(minDy),
      Cl.none(),
    ],
    publicKey: PUBLIC_KEY,
    nonce,
    fee: FEE,
    network: 'mainnet',
    postConditionMode: 'allow',
  });
  return tx.serialize();
}

/** The smallest walk (bins) whose cost the table puts over a block, within the router's 350 steps. */
function binsOverBudget(): number | undefined {
  for (let n = 1; n <= 350; n++) if (blockShare(callCost(SWAP, n, 'v-1-2')!).share > 1) return n;
  return undefined;
}

describe('simulator as a chain: block limits, nonces, fees (POST /api/admin/apply)', function () {
  this.timeout(30_000);
  const sim = useSimulator(wideWorld);

  beforeEach(async () => {
    assert.equal((await call(`${sim().url}/admin/reset`, { body: {} })).status, 200);
  });

  async function account(): Promise<{ balance: bigint; nonce: bigint }> {
    const a = await call(`${sim().nodeUrl}/v2/accounts/${USER}`);
    assert.equal(a.status, 200, a.text);
    assert.match(a.json.balance, /^0x[0-9a-f]{32}$/);
    assert.match(a.json.locked, /^0x[0-9a-f]{32}$/);
    assert.equal(typeof a.json.unlock_height, 'number');
    return { balance: BigInt(a.json.balance), nonce: BigInt(a.json.nonce) };
  }

  async function activeBin(): Promise<number> {
    const p = await call(`${sim().url}/quotes/v2/pools/${POOL_STX_SBTC}`);
    return Number(p.json.active_bin);
  }

  async function apply(hex: string) {
    const a = await call(`${sim().url}/admin/apply`, { body: { tx_hex: hex } });
    assert.equal(a.status, 200, a.text);
    return a.json;
  }

  /** micro-STX that drains `bins` bins of the wide pool from its active bin down (price ~81514 / 1e8). */
  const drainAmount = (bins: number): bigint =>
    (BigInt(bins) * Y_PER_BIN * 100_000_000n * 105n) / 81_514n / 100n;

  it('the node route answers the account: hex STX balance, nonce 0 at the start', async () => {
    assert.deepEqual(await account(), { balance: 100_000_000_000_000n, nonce: 0n });
    const bad = await call(`${sim().nodeUrl}/v2/accounts/not-a-principal`);
    assert.equal(bad.status, 400);
  });

  it('a swap walking more bins than a block holds is refused (CostBalanceExceeded) and changes nothing', async function () {
    const over = binsOverBudget();
    // Skipped only if the cost table put no walk of at most 350 bins over a block: no such transaction exists.
    if (over === undefined) this.skip();
    assert.ok(over < WIDE_BINS_BELOW - 10, `the wide pool has bins for a walk of ${over}`);
    const before = { account: await account(), active: await activeBin() };
    const r = await apply(await swapHex(drainAmount(over + 5), 0n));
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.error, 'COST_BALANCE_EXCEEDED');
    assert.equal(r.mined, false);
    assert.ok(
      r.cost.readCount > BLOCK_LIMIT.readCount || r.cost.runtime > BLOCK_LIMIT.runtime,
      JSON.stringify(r),
    );
    assert.ok(blockShare(r.cost).share > 1);
    assert.deepEqual(r.limit, { ...BLOCK_LIMIT });
    assert.match(r.detail, /CostBalanceExceeded/);
    // Not mined: no fee, the nonce still free, the pool as it was.
    assert.deepEqual(await account(), before.account);
    assert.equal(await activeBin(), before.active);

    // The same walk cut under the limit is mined, and reports the cost of the bins it used.
    const small = await apply(await swapHex(drainAmount(5), 0n));
    assert.equal(small.ok, true, JSON.stringify(small));
    assert.ok(small.units >= 5 && small.units < over, JSON.stringify(small));
    assert.deepEqual(small.cost, callCost(SWAP, Number(small.units), 'v-1-2'));
    assert.ok(blockShare(small.cost).share <= 1);
  });

  it('a mined transaction pays its fee and moves the nonce; the same nonce again is refused', async () => {
    const start = await account();
    const hex = await swapHex(drainAmount(2), 0n);
    const r = await apply(hex);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.fee, Number(FEE));
    assert.equal(r.nonce, 0);
    const spent = (r.movements as { from: string; asset: string; amount?: bigint | number }[])
      .filter((m) => m.from === USER && m.asset === 'stx')
      .reduce((t, m) => t + BigInt(m.amount ?? 0), 0n);
    const after = await account();
    assert.equal(after.nonce, 1n);
    assert.equal(after.balance, start.balance - FEE - spent);
    const active = await activeBin();

    const again = await apply(hex);
    assert.equal(again.ok, false);
    assert.equal(again.error, 'BAD_NONCE');
    assert.equal(again.mined, false);
    assert.equal(again.expected_nonce, 1);
    assert.equal(again.nonce, 0);
    assert.match(again.detail, /nonce 0 .* was already used: its next transaction must carry nonce 1/);
    assert.deepEqual(await account(), after);
    assert.equal(await activeBin(), active);
  });

  it('a nonce ahead of the next one is refused: the chain would hold it behind the gap', async () => {
    const r = await apply(await swapHex(drainAmount(2), 2n));
    assert.equal(r.error, 'BAD_NONCE');
    assert.equal(r.mined, false);
    assert.equal(r.expected_nonce, 0);
    assert.match(r.detail, /is ahead of its next nonce 0: the chain mines it only after nonces 0\.\.1/);
    assert.deepEqual(await account(), { balance: 100_000_000_000_000n, nonce: 0n });
  });

  it('a reverted call is mined: the fee is paid and the nonce used, nothing else stays', async () => {
    const active = await activeBin();
    const r = await apply(await swapHex(drainAmount(2), 0n, 10n ** 30n));
    assert.equal(r.ok, false);
    assert.equal(r.mined, true);
    assert.equal(r.error, 'ERR_MINIMUM_RECEIVED');
    assert.deepEqual(await account(), { balance: 100_000_000_000_000n - FEE, nonce: 1n });
    assert.equal(await activeBin(), active);
    // Its nonce is gone: the next transaction carries 1.
    const next = await apply(await swapHex(drainAmount(2), 1n));
    assert.equal(next.ok, true, JSON.stringify(next));
  });
});
