/**
 * Node reads of bin shares are not capped: an add over far more than 64 bins whose shares the v2 list does
 * not carry is executed by `check` when the node answers (the simulator's node proxy over loopback), its
 * export applies on the engine, and the same check again at the same state height sends no node request
 * (each (pool, bin) is read once per height). No inventory here, so every bin's shares come from the node
 * or from the sender's own positions.
 */
import { positionsPerTx } from '../../../core/tx/cost';
import assert from 'node:assert/strict';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import { parseJsonExact } from '../../../core/api/json';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan, type Analysis } from '../../../core/check/analyze';
import { createLiveSession } from '../../../core/live/live';
import { POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { buildTransactions } from '../../../core/tx/build';
import { formatTxHex } from '../../../core/tx/formats';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from './sim';

/** Not a secret: a fixed test key so the world's user can be the transaction's signer. */
const PUBLIC_KEY = privateKeyToPublic('33'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');

const head = `version: 1\nsender: ${USER}\noperations:\n`;

/** Findings that would mean some bin was not executed or not bounded. */
const unchecked = (a: Analysis) =>
  a.findings
    .filter((f) => f.severity === 'error' || ['execution-unchecked', 'min-dlp-unprotected'].includes(f.code))
    .map((f) => `${f.code}: ${f.message}`);

describe('check reads the node for every target bin (no 64-bin cap)', function () {
  this.timeout(120_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    // The sBTC/USDCx pool with liquidity over ±200 bins around its active bin: every bin below is listed.
    const world = worldForUser(USER, 'wide-node-world', (input) => {
      const pools = input.pools as Array<{
        id: string;
        liquidity: { bins_below: number; bins_above: number };
      }>;
      const p = pools.find((x) => x.id === POOL_SBTC_USDCX)!;
      p.liquidity.bins_below = 200;
      p.liquidity.bins_above = 200;
    });
    sim = await startSimulator({ port: 0, world });
    api = clientFor(sim, { inventory: false });
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  /**
   * The router's widest list: more than a block carries, so the export splits it within the safe share of a
   * block (the simulator, like the chain, refuses a transaction over a block's limits) and every part applies.
   */
  const width = 350;
  const from = -Math.floor(width / 2);

  it('a distribution over far more than 64 bins is executed, exports and applies; the same check again sends no node read', async () => {
    const text = `${head}  - id: wide\n    op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    distribution: { shape: curve, from: ${from}, to: ${from + width - 1}, x_amount: 100000000, y_amount: 76000000000 }\n`;
    const before = sim.requests();
    const a = await analyzePlan(text, { api, session: createLiveSession() });
    const nodeReads = sim.requests().node - before.node;
    assert.deepEqual(unchecked(a), []);
    assert.deepEqual(a.internalErrors, []);
    const op = a.prepared[0];
    assert.ok(op?.op === 'add' && op.items.length === width, `the distribution expands to ${width} items`);
    // Bins whose shares the sender's positions state are not read again: everything else is.
    const fromPositions = a.live?.byPool.get(POOL_SBTC_USDCX)?.positions?.length ?? 0;
    assert.ok(nodeReads > 64, `${nodeReads} node reads`);
    assert.ok(nodeReads <= width && nodeReads >= width - fromPositions, `${nodeReads} node reads`);
    assert.equal(sim.requests().rateLimited, 0);
    // Split within the safe share of a block's execution budget (core/tx/cost.ts), every part executed.
    const txs = a.execution?.transactions ?? [];
    const perTx = positionsPerTx('add-relative-liquidity-same-multi', width, a.execution!.routers!.version);
    assert.equal(txs.length, Math.ceil(width / perTx));
    let added = 0;
    for (const tx of txs) {
      const ex = tx.execution;
      assert.equal(
        ex?.status,
        'ok',
        JSON.stringify(ex, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)),
      );
      added += ex.status === 'ok' ? ex.effects.filter((e) => e.kind === 'add').length : 0;
    }
    assert.equal(added, width);

    // The same check at the same state height, in a new session: every bin fact is known already.
    const again = sim.requests().node;
    const b = await analyzePlan(text, { api, session: createLiveSession() });
    assert.equal(sim.requests().node - again, 0, 'no node read for a bin already read at this height');
    assert.deepEqual(unchecked(b), []);

    // What check executed is what the chain does: the export applies on the engine.
    const signing = { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n };
    const built = await buildTransactions(a, { api, ...signing });
    assert.ok(built.ok, built.ok ? '' : built.error.message);
    const hex = (await formatTxHex(built.transactions, signing)).trim().split('\n');
    assert.equal(hex.length, txs.length);
    for (const tx of hex) {
      const res = await fetch(`${sim.url}/admin/apply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx_hex: tx }),
      });
      const body = parseJsonExact(await res.text()) as { ok: boolean; error?: string };
      assert.equal(body.ok, true, JSON.stringify(body));
    }
    await fetch(`${sim.url}/admin/reset`, { method: 'POST', body: '{}' });
    api.clearCache();
  });

  it('a strict 100-bin add is executed bin by bin (would-revert names the failing bin beyond the 64th)', async () => {
    const active = (await api.pool(POOL_SBTC_USDCX)).active_bin;
    const bins: string[] = [];
    for (let id = active - 50; id < active + 50; id++) {
      const x = id >= active ? 1000 : 0;
      // One bin far from the active one adds the wrong token: the chain reverts on that element.
      const y = id <= active || id === active + 40 ? 1_000_000 : 0;
      bins.push(`      - { bin_id: ${id}, x_amount: ${x}, y_amount: ${y} }`);
    }
    const text = `${head}  - id: strict\n    op: add\n    mode: strict\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n${bins.join('\n')}\n`;
    const a = await analyzePlan(text, { api, session: createLiveSession() });
    assert.equal(
      a.findings.filter((f) => ['execution-unchecked', 'min-dlp-unprotected'].includes(f.code)).length,
      0,
      a.findings.map((f) => `${f.code}: ${f.message}`).join('\n'),
    );
    const ex = a.execution?.transactions[0]?.execution;
    assert.equal(ex?.status, 'reverted');
    assert.equal(ex.status === 'reverted' && ex.item, 90, 'element 91 (bin active+40) fails');
    assert.equal(ex.status === 'reverted' && ex.cause, 'ERR_INVALID_Y_AMOUNT');
  });
});
