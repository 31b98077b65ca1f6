/**
 * Export -> dry-run over real HTTP: a plan is analyzed with the real API client against the simulator on
 * loopback, exported as unsigned transactions (core/tx), and POSTed to /api/admin/apply. The answer and the
 * world's new state (public bins endpoint) are read as exact JSON. A 1-bin shift of the active bin makes
 * the strict add revert and leaves the simple (relative) add confirming: the interface document's table.
 */
import assert from 'node:assert/strict';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import { parseJsonExact } from '../../../core/api/json';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { DEFAULT_SIM_API_KEY, POOL_SBTC_USDCX, USDCX } from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { formatTxHex } from '../../../core/tx/formats';
import { renderExport } from '../../../client/src/export/pipeline';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from '../check/sim';

/** Not a secret: a fixed test key so the world's user can be the transaction's signer. */
const PUBLIC_KEY = privateKeyToPublic('22'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
/** Above 2^53 (JSON.parse would round it) and within u64 (post-condition amounts are u64). */
const BIG_Y = 12_345_678_901_234_567_891n;
const SMALL_X = 20_000n;

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

async function http(url: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'X-API-Key': DEFAULT_SIM_API_KEY,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, text, json: parseJsonExact(text) };
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => {
  assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v), `expected an object, got ${String(v)}`);
  return v as Rec;
};

/** Active bin and reserves of one bin, from the public bins endpoint (reserves are decimal strings). */
async function readBins(
  sim: RunningSimulator,
): Promise<{ active: number; reserves: Map<number, [bigint, bigint]> }> {
  const a = await http(`${sim.url}/quotes/v2/bins/${POOL_SBTC_USDCX}`);
  assert.equal(a.status, 200, a.text);
  const body = rec(a.json);
  const reserves = new Map<number, [bigint, bigint]>();
  for (const b of body.bins as Rec[])
    reserves.set(Number(b.bin_id), [BigInt(String(b.reserve_x)), BigInt(String(b.reserve_y))]);
  return { active: Number(body.active_bin_id), reserves };
}

/**
 * A plan with one of two adds at the active bin. One plan each: `check` executes a plan's operations in
 * order, and after an add of BIG_Y the next add's value x shares exceeds u128 (the chain would abort it).
 */
function planText(active: number, only: 'strict-at-active' | 'simple-at-active'): string {
  const op =
    only === 'strict-at-active'
      ? `  - id: strict-at-active
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { bin_id: ${active}, x_amount: ${SMALL_X}, y_amount: ${BIG_Y} }
`
      : `  - id: simple-at-active
    op: add
    mode: simple
    pool: ${POOL_SBTC_USDCX}
    bins:
      - { active_bin_offset: 0, x_amount: ${SMALL_X}, y_amount: ${BIG_Y} }
`;
  return `version: 1
sender: ${USER}
operations:
${op}`;
}

describe('export -> POST /api/admin/apply (real HTTP, exact JSON)', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    // The signer holds enough USDCx for BIG_Y (a transfer of more than is held reverts with (err u1)).
    sim = await startSimulator({
      port: 0,
      world: worldForUser(USER, 'export-apply-world', (input) => {
        for (const u of input.users ?? []) u.balances = { ...u.balances, [USDCX]: (BIG_Y * 4n).toString() };
      }),
    });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });
  beforeEach(async () => {
    assert.equal((await http(`${sim.url}/admin/reset`, {})).status, 200);
    api.clearCache();
  });

  /** Analyzes the plan live and exports one operation as a serialized unsigned transaction. */
  async function exportHex(text: string, opId: string, nonce: bigint): Promise<string> {
    const analysis = await analyzePlan(text, { api, fileName: 'apply.dlmm.yaml' });
    const errors = analysis.findings.filter((f) => f.severity === 'error');
    assert.deepEqual(errors, [], 'the plan checks clean');
    const built = await buildTransactions(analysis, { api, opId, publicKey: PUBLIC_KEY, nonce, fee: 1000n });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    assert.equal(built.transactions.length, 1);
    const lines = (await formatTxHex(built.transactions, { publicKey: PUBLIC_KEY, nonce, fee: 1000n }))
      .trim()
      .split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^[0-9a-f]+$/);
    return lines[0]!;
  }

  it('a strict add applies; the answer carries exact integers and the bins endpoint shows the new reserves', async () => {
    const before = await readBins(sim);
    const hex = await exportHex(planText(before.active, 'strict-at-active'), 'strict-at-active', 0n);
    const a = await http(`${sim.url}/admin/apply`, { tx_hex: hex });
    assert.equal(a.status, 200, a.text);
    const r = rec(a.json);
    assert.equal(r.ok, true, a.text);
    assert.equal(r.functionName, 'add-liquidity-multi');
    assert.equal(r.sender, USER);
    const moved = (r.movements as Rec[]).filter((m) => m.from === USER && typeof m.amount !== 'undefined');
    const yMove = moved.find((m) => String(m.asset).includes('usdcx'));
    // parseJsonExact keeps the amount exact (bigint); a float reader would have rounded it.
    assert.equal(yMove?.amount, BIG_Y);
    assert.notEqual(BigInt(Math.round(Number(JSON.parse(`${BIG_Y}`)))), BIG_Y);
    assert.equal(moved.find((m) => String(m.asset).includes('sbtc'))?.amount, Number(SMALL_X));

    const after = await readBins(sim);
    const [x0, y0] = before.reserves.get(before.active)!;
    const [x1, y1] = after.reserves.get(before.active)!;
    assert.equal(x1 - x0, SMALL_X);
    assert.equal(y1 - y0, BIG_Y);
    assert.equal(after.active, before.active);
  });

  it('after a 1-bin shift the strict add reverts (state unchanged) and the simple add confirms', async () => {
    const start = await readBins(sim);
    const strictHex = await exportHex(planText(start.active, 'strict-at-active'), 'strict-at-active', 0n);
    const simpleHex = await exportHex(planText(start.active, 'simple-at-active'), 'simple-at-active', 1n);

    const s = await http(`${sim.url}/admin/pools/${POOL_SBTC_USDCX}/shift`, { bins: 1 });
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(
      [rec(s.json).active_bin_before, rec(s.json).active_bin_after],
      [start.active, start.active + 1],
    );
    const shifted = await readBins(sim);

    const strict = await http(`${sim.url}/admin/apply`, { tx_hex: strictHex });
    assert.equal(strict.status, 200, strict.text);
    assert.equal(rec(strict.json).ok, false);
    assert.equal(rec(strict.json).error, 'ERR_INVALID_X_AMOUNT', strict.text);
    assert.deepEqual(await readBins(sim), shifted, 'a reverted transaction changes nothing');

    const simple = await http(`${sim.url}/admin/apply`, { tx_hex: simpleHex });
    assert.equal(simple.status, 200, simple.text);
    const r = rec(simple.json);
    assert.equal(r.ok, true, simple.text);
    assert.equal(r.functionName, 'add-relative-liquidity-same-multi');
    const after = await readBins(sim);
    const [x0, y0] = shifted.reserves.get(shifted.active)!;
    const [x1, y1] = after.reserves.get(shifted.active)!;
    assert.equal(x1 - x0, SMALL_X, 'the relative add lands in the new active bin');
    assert.equal(y1 - y0, BIG_Y);
    assert.deepEqual(after.reserves.get(start.active), shifted.reserves.get(start.active));
  });

  it("the editor's export pipeline renders the same tx hex as core and every format from one build", async () => {
    const start = await readBins(sim);
    const text = planText(start.active, 'strict-at-active');
    // Nonce 0: the account's next nonce after the reset (the simulator refuses any other).
    const hex = await exportHex(text, 'strict-at-active', 0n);
    const analysis = await analyzePlan(text, { api, fileName: 'apply.dlmm.yaml' });
    const signing = { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n };
    const built = await buildTransactions(analysis, { api, opId: 'strict-at-active', ...signing });
    assert.ok(built.ok);
    const out = await renderExport(built.transactions, 'tx-hex', signing);
    assert.equal(out.body.trim(), hex);
    const wallet = JSON.parse(out.walletRequest) as { method: string; params: { functionName: string } }[];
    assert.deepEqual(
      wallet.map((w) => [w.method, w.params.functionName]),
      [['stx_callContract', 'add-liquidity-multi']],
    );
    assert.match(out.summaryMarkdown, /add-liquidity-multi/);
    assert.match(out.summaryMarkdown, new RegExp(`${BIG_Y}`));
    // The preview shows what the transaction does executed on the state read; applying it does exactly that.
    const sent = /you send: ([^;]*);/.exec(out.summaryMarkdown)?.[1];
    assert.ok(sent, out.summaryMarkdown);
    const applied = await http(`${sim.url}/admin/apply`, { tx_hex: out.body.trim() });
    assert.equal(rec(applied.json).ok, true, applied.text);
    const moved = (rec(applied.json).movements as { from: string; asset: string; amount?: string }[])
      .filter((m) => m.from === USER && m.amount !== undefined && !m.asset.endsWith('::pool-token'))
      .map((m) => `(${m.amount})`);
    for (const m of moved) assert.ok(sent.includes(m), `preview says you send ${sent}; applied ${moved}`);
    assert.ok(moved.length > 0, applied.text);
    assert.equal((sent.match(/\(\d+\)/g) ?? []).length, moved.length);
  });
});
