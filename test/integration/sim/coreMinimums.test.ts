/**
 * The core's minimum-bin-shares and minimum-burnt-shares are data-vars (`set-minimum-shares`): in a world
 * whose core holds other values than the launch ones, the simulator's node answers them, the chain model
 * under `POST /api/admin/apply` holds first deposits to them (a deposit minting fewer than the raised
 * minimum reverts, as the contract would), and a plan that makes a first deposit reads them with the pool's
 * facts (the real client over loopback HTTP) into the chain state it executes on; a plan that makes none
 * reads nothing, and its state never assumes the launch values.
 */
import assert from 'node:assert/strict';
import {
  Cl,
  cvToHex,
  getAddressFromPublicKey,
  hexToCV,
  makeUnsignedContractCall,
  privateKeyToPublic,
  type ClarityValue,
} from '@stacks/transactions';
import type { DlmmApi } from '../../../core/api/types';
import { CORE_CONTRACTS } from '../../../core/chain/deployments';
import { isqrt } from '../../../core/dlmm/math';
import { chainStateFromLive } from '../../../core/live/chainState';
import { createLiveSession, readLive } from '../../../core/live/live';
import { parsePlan } from '../../../core/plan/parse';
import { POOL_SBTC_USDCX, SBTC, USDCX } from '../../../core/sim/defaultWorld';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from '../check/sim';
import { call } from './helpers';

/** Not a secret: a fixed test key, the world's user. */
const PUBLIC_KEY = privateKeyToPublic('88'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const MIN_BIN = 50_000_000n;
const MIN_BURNT = 2_000n;
const CORE = CORE_CONTRACTS.mainnet!;
/** A bin of the sBTC/USDCx pool far below its active bin (139) and its liquidity (109..169): empty. */
const EMPTY_BIN = 100;

const principal = (id: string) => Cl.contractPrincipal(...(id.split('.') as [string, string]));

/** add-liquidity-multi (v-1-2) of `y` USDCx into the empty bin, min-dlp 1, allow mode. */
async function firstDepositHex(y: bigint, nonce: bigint): Promise<string> {
  const tx = await makeUnsignedContractCall({
    contractAddress: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD',
    contractName: 'dlmm-liquidity-router-v-1-2',
    functionName: 'add-liquidity-multi',
    functionArgs: [
      Cl.list([
        Cl.tuple({
          'pool-trait': principal(POOL_SBTC_USDCX),
          'x-token-trait': principal(SBTC),
          'y-token-trait': principal(USDCX),
          'bin-id': Cl.int(EMPTY_BIN),
          'x-amount': Cl.uint(0),
          'y-amount': Cl.uint(y),
          'min-dlp': Cl.uint(1),
          'max-x-liquidity-fee': Cl.uint(0),
          'max-y-liquidity-fee': Cl.uint(0),
        }),
      ]),
      Cl.none(),
    ],
    publicKey: PUBLIC_KEY,
    nonce,
    fee: 1000n,
    network: 'mainnet',
    postConditionMode: 'allow',
  });
  return tx.serialize();
}

describe('core minimum shares: read from the core, held by the chain model', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    const world = worldForUser(USER, 'raised-minimums world', (input) => {
      input.core = { minimum_bin_shares: MIN_BIN.toString(), minimum_burnt_shares: MIN_BURNT.toString() };
    });
    sim = await startSimulator({ port: 0, world });
    api = clientFor(sim, { inventory: false });
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });
  beforeEach(async () => {
    assert.equal((await call(`${sim.url}/admin/reset`, { body: {} })).status, 200);
    api.clearCache();
  });

  async function readOnly(contract: string, fn: string, args: ClarityValue[] = []): Promise<ClarityValue> {
    const [addr, name] = contract.split('.') as [string, string];
    const r = await call(`${sim.nodeUrl}/v2/contracts/call-read/${addr}/${name}/${fn}`, {
      body: { sender: USER, arguments: args.map((a) => cvToHex(a)) },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.okay, true, r.text);
    return hexToCV(r.json.result);
  }

  it("the node answers the core's get-minimum-bin-shares / get-minimum-burnt-shares as (ok uint)", async () => {
    assert.deepEqual(await readOnly(CORE, 'get-minimum-bin-shares'), Cl.ok(Cl.uint(MIN_BIN)));
    assert.deepEqual(await readOnly(CORE, 'get-minimum-burnt-shares'), Cl.ok(Cl.uint(MIN_BURNT)));
  });

  it('a first deposit below the raised minimum reverts; one above it burns the raised burnt shares', async () => {
    // isqrt(1e6 * 1e8) = 1e7: above the launch minimum (1e4), below the raised one (5e7).
    const small = 1_000_000n;
    assert.ok(isqrt(small * 100_000_000n) < MIN_BIN && isqrt(small * 100_000_000n) >= 10_000n);
    const r = await call(`${sim.url}/admin/apply`, { body: { tx_hex: await firstDepositHex(small, 0n) } });
    assert.equal(r.json.ok, false, r.text);
    assert.equal(r.json.error, 'ERR_MINIMUM_LP_AMOUNT', r.text);
    assert.match(r.json.detail, /at least 50000000 \(minimum-bin-shares\)/);

    const big = 100_000_000n;
    const intended = isqrt(big * 100_000_000n);
    const ok = await call(`${sim.url}/admin/apply`, { body: { tx_hex: await firstDepositHex(big, 1n) } });
    assert.equal(ok.json.ok, true, ok.text);
    const unsigned = Cl.uint(EMPTY_BIN + 500);
    const balances = await readOnly(POOL_SBTC_USDCX, 'get-bin-balances', [unsigned]);
    assert.deepEqual(
      balances,
      Cl.ok(
        Cl.tuple({ 'bin-shares': Cl.uint(intended), 'x-balance': Cl.uint(0), 'y-balance': Cl.uint(big) }),
      ),
    );
    const mine = await readOnly(POOL_SBTC_USDCX, 'get-balance', [unsigned, Cl.standardPrincipal(USER)]);
    assert.deepEqual(mine, Cl.ok(Cl.uint(intended - MIN_BURNT)));
  });

  it('a plan making a first deposit reads the minimums with the pool; the chain state holds what was read', async () => {
    const text = `version: 1\nsender: ${USER}\noperations:\n  - op: add\n    mode: strict\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { bin_id: ${EMPTY_BIN}, x_amount: 0, y_amount: 1000000 }\n`;
    const plan = parsePlan(text).plan!;
    const live = await readLive(plan, api, { session: createLiveSession() });
    assert.deepEqual(live.coreMinimums, { value: { binShares: MIN_BIN, burntShares: MIN_BURNT } });
    const state = chainStateFromLive(live, USER);
    assert.deepEqual(state.pool(POOL_SBTC_USDCX)?.minimumShares, {
      binShares: MIN_BIN,
      burntShares: MIN_BURNT,
    });
  });

  it('a plan making no first deposit reads no minimum; its state marks them unread, never the launch values', async () => {
    const active = (await api.pool(POOL_SBTC_USDCX)).active_bin;
    const text = `version: 1\nsender: ${USER}\noperations:\n  - op: add\n    mode: strict\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { bin_id: ${active - 1}, x_amount: 0, y_amount: 1000000 }\n`;
    const before = sim.requests().node;
    const plan = parsePlan(text).plan!;
    const live = await readLive(plan, api, { session: createLiveSession() });
    assert.equal(live.coreMinimums, undefined);
    const state = chainStateFromLive(live, USER);
    const m = state.pool(POOL_SBTC_USDCX)?.minimumShares;
    assert.ok(m && 'unread' in m, JSON.stringify(m));
    assert.ok(sim.requests().node - before >= 1, 'the bin read went to the node');
  });

  it('without a node the minimums are unread, with the reason', async () => {
    const noNode = clientFor(sim, { inventory: false, node: false });
    try {
      const text = `version: 1\nsender: ${USER}\noperations:\n  - op: add\n    mode: strict\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n      - { bin_id: ${EMPTY_BIN}, x_amount: 0, y_amount: 1000000 }\n`;
      const live = await readLive(parsePlan(text).plan!, noNode, { session: createLiveSession() });
      assert.match(live.coreMinimums?.unread ?? '', /no node proxy is configured/);
      const m = chainStateFromLive(live, USER).pool(POOL_SBTC_USDCX)?.minimumShares;
      assert.ok(m && 'unread' in m && /no node proxy/.test(m.unread));
    } finally {
      await noNode.close?.();
    }
  });
});
