/**
 * Simple-mode bounds on the simulator over loopback HTTP: a plan is checked and exported with the real API
 * client, and the exported transaction is executed two ways after the world changes: by the check's chain
 * model on a fresh read (core/live chainStateFromLive + core/chain executeCall) and by the simulator's
 * dry-run (POST /api/admin/apply). A drift of the active bin within the tolerance executes; another LP's
 * deposit that makes the bin mint fewer shares than the bound reverts with ERR_MINIMUM_LP_AMOUNT in both.
 */
import assert from 'node:assert/strict';
import { getAddressFromPublicKey, privateKeyToPublic, type ClarityValue } from '@stacks/transactions';
import { parseJsonExact } from '../../../core/api/json';
import type { DlmmApi } from '../../../core/api/types';
import { executeCall } from '../../../core/chain/index';
import { routerConfigFor } from '../../../core/chain/deployments';
import { analyzePlan } from '../../../core/check/analyze';
import { chainStateFromLive } from '../../../core/live/chainState';
import { readLive } from '../../../core/live/live';
import { parsePlan } from '../../../core/plan/parse';
import {
  DEFAULT_SIM_API_KEY,
  POOL_SBTC_USDCX,
  SBTC,
  STX_WRAPPER,
  USDCX,
} from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { chainCallOf } from '../../../core/tx/context';
import { formatTxHex } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from '../check/sim';

/** Not secrets: fixed test keys, the plan's signer and another liquidity provider. */
const PUBLIC_KEY = privateKeyToPublic('44'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const OTHER_KEY = privateKeyToPublic('55'.repeat(32) + '01') as string;
const OTHER = getAddressFromPublicKey(OTHER_KEY, 'mainnet');

type Rec = Record<string, unknown>;

async function post(url: string, body: unknown): Promise<Rec> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'X-API-Key': DEFAULT_SIM_API_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return parseJsonExact(text) as Rec;
}

async function activeBin(sim: RunningSimulator): Promise<{ active: number; listed: number[] }> {
  const res = await fetch(`${sim.url}/quotes/v2/bins/${POOL_SBTC_USDCX}`, {
    headers: { 'X-API-Key': DEFAULT_SIM_API_KEY },
  });
  const body = parseJsonExact(await res.text()) as { active_bin_id: number; bins: { bin_id: number }[] };
  return { active: Number(body.active_bin_id), listed: body.bins.map((b) => Number(b.bin_id)) };
}

/** min-dlp of every element of a built liquidity call. */
function minDlps(tx: BuiltTransaction): bigint[] {
  const list = tx.functionArgs[0] as { value: { value: Record<string, ClarityValue> }[] };
  return list.value.map((t) => BigInt((t.value['min-dlp'] as { value: bigint | string }).value));
}

describe('simple-mode bounds: the exported transaction on the simulator (loopback HTTP)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    sim = await startSimulator({
      port: 0,
      world: worldForUser(USER, 'simple-bounds-world', (input) => {
        input.users = [
          ...(input.users ?? []),
          {
            address: OTHER,
            positions: [],
            balances: { [SBTC]: '100000000', [USDCX]: '500000000000', [STX_WRAPPER]: '1000000000' },
          },
        ];
      }),
    });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });
  beforeEach(async () => {
    await post(`${sim.url}/admin/reset`, {});
    api.clearCache();
  });

  /** Checks `text` (clean: no error, no min-dlp-unprotected) and exports it for `key` as one tx hex. */
  async function exportPlan(text: string, key: string): Promise<{ tx: BuiltTransaction; hex: string }> {
    const analysis = await analyzePlan(text, { api, fileName: 'simple.dlmm.yaml' });
    const bad = analysis.findings.filter((f) => f.severity === 'error' || f.code === 'min-dlp-unprotected');
    assert.deepEqual(bad, [], 'the plan checks clean and every bound is computed');
    const signing = { publicKey: key, nonce: 0n, fee: 1000n };
    const built = await buildTransactions(analysis, { api, ...signing });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    assert.equal(built.transactions.length, 1);
    const hex = (await formatTxHex(built.transactions, signing)).trim();
    assert.match(hex, /^[0-9a-f]+$/);
    return { tx: built.transactions[0]!, hex };
  }

  /** The exported transaction executed by the check's chain model on a fresh read of the pool. */
  async function onFreshRead(text: string, tx: BuiltTransaction) {
    api.clearCache();
    const plan = parsePlan(text).plan!;
    const live = await readLive(plan, api);
    return executeCall(chainStateFromLive(live, USER), chainCallOf(tx, USER), {
      routers: routerConfigFor('mainnet')!,
    });
  }

  it('a curve within the tolerance: every position bounded; a drift of one bin executes in both', async () => {
    // What `dlmm plan add` writes for a curve: 11 offsets around the active bin.
    const text = `version: 1
sender: ${USER}
operations:
  - id: curve
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    distribution: { shape: curve, from: -5, to: 5, x_amount: 500000, y_amount: 400000000 }
`;
    const { tx, hex } = await exportPlan(text, PUBLIC_KEY);
    assert.equal(tx.functionName, 'add-relative-liquidity-same-multi');
    const bounds = minDlps(tx);
    assert.equal(bounds.length, 11);
    assert.ok(
      bounds.every((b) => b > 1n),
      `every position has a real bound: ${bounds}`,
    );
    for (const r of tx.rows) assert.match(r.bounds[0]!.basis, /fewest \d+ shares over active bins/);

    for (const shift of [1, -1]) {
      await post(`${sim.url}/admin/reset`, {});
      await post(`${sim.url}/admin/pools/${POOL_SBTC_USDCX}/shift`, { bins: shift });
      const model = await onFreshRead(text, tx);
      assert.equal(
        model.status,
        'ok',
        JSON.stringify(model, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
      );
      const applied = await post(`${sim.url}/admin/apply`, { tx_hex: hex });
      assert.equal(applied.ok, true, JSON.stringify(applied));
    }
  });

  it('another LP deposit that makes the bin mint fewer shares than min-dlp reverts in both with ERR_MINIMUM_LP_AMOUNT', async () => {
    const { active } = await activeBin(sim);
    // No deviation allowed and the smallest slippage without a slippage-unit warning: the bound is the
    // shares the active bin mints today less 0.05%.
    const text = `version: 1
sender: ${USER}
policy: { slippage_tolerance: 0.05, active_bin_tolerance: 0 }
operations:
  - id: at-price
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { active_bin_offset: 0, x_amount: 20000, y_amount: 15000000 }
`;
    const { tx, hex } = await exportPlan(text, PUBLIC_KEY);
    const [bound] = minDlps(tx);
    assert.ok(bound! > 1n);
    const expected = tx.rows[0]!.amounts.find((a) => a.label === 'expected shares')!.amount;
    assert.equal(bound, expected - (expected * 500n + 999_999n) / 1_000_000n, 'expected less 0.05%');

    // Another LP adds 100,000 USDCx to the active bin: its liquidity fee stays in the bin, so each share
    // is worth more, and the bin leans to y, so the plan's x-heavy deposit pays a fee too.
    const other = await exportPlan(
      `version: 1
sender: ${OTHER}
operations:
  - id: big-bid
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: ${active}, x_amount: 0, y_amount: 100000000000 }
`,
      OTHER_KEY,
    );
    const deposit = await post(`${sim.url}/admin/apply`, { tx_hex: other.hex });
    assert.equal(deposit.ok, true, JSON.stringify(deposit));
    assert.equal((await activeBin(sim)).active, active, 'an add never moves the active bin');

    const model = await onFreshRead(text, tx);
    assert.equal(model.status, 'reverted');
    assert.equal(model.status === 'reverted' ? model.error : '', 'ERR_MINIMUM_LP_AMOUNT');
    const applied = await post(`${sim.url}/admin/apply`, { tx_hex: hex });
    assert.equal(applied.ok, false);
    assert.equal(applied.error, 'ERR_MINIMUM_LP_AMOUNT', JSON.stringify(applied));
    assert.equal(applied.code, model.status === 'reverted' ? model.code : -1, 'the same code');
  });

  it('a window bin not in the bin list: min-dlp-unprotected names it and the export refuses', async () => {
    const { active, listed } = await activeBin(sim);
    const lowest = Math.min(...listed);
    const text = `version: 1
sender: ${USER}
operations:
  - id: edge
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { active_bin_offset: ${lowest - active}, x_amount: 0, y_amount: 1000000 }
`;
    const analysis = await analyzePlan(text, { api, fileName: 'edge.dlmm.yaml' });
    const f = analysis.findings.find((x) => x.code === 'min-dlp-unprotected');
    assert.ok(f, `findings: ${analysis.findings.map((x) => x.code)}`);
    assert.match(
      f.message,
      new RegExp(`bin ${lowest - 1} \\(where offset ${lowest - active} lands at active ${active - 1}\\)`),
    );
    const built = await buildTransactions(analysis, { api, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
    assert.equal(built.ok ? 'ok' : built.error.code, 'bounds-unknown');
    assert.match(built.ok ? '' : built.error.message, new RegExp(`bin\\(s\\) ${lowest - 1}\\b`));
  });
});
