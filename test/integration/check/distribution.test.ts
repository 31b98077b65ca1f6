/**
 * Distributions end to end against the simulated engine over loopback HTTP (real client, no fakes): a shape
 * is expanded at preparation, checked by every rule, exported as an unsigned transaction and dry-run by the
 * simulator's /api/admin/apply; problems of a distribution are findings on it, never a crash.
 */
import assert from 'node:assert/strict';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import { createApiClient } from '../../../core/api/client';
import { parseJsonExact } from '../../../core/api/json';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { DEFAULT_SIM_API_KEY, DEFAULT_WORLD_INPUT, POOL_SBTC_USDCX } from '../../../core/sim/defaultWorld';
import { parseWorld } from '../../../core/sim/world';
import { buildTransactions } from '../../../core/tx/build';
import { formatTxHex } from '../../../core/tx/formats';
import { assertFindings, plan, POOL1 } from '../../unit/plan/helpers';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from './sim';

/** Not a secret: a fixed test key so the world's user can be the transaction's signer. */
const PUBLIC_KEY = privateKeyToPublic('33'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');

const dist = (body: string, mode = 'simple', pool = POOL1, extra = ''): string =>
  `  - id: shape\n    op: add\n    mode: ${mode}\n    pool: ${pool}\n${extra}    distribution: { ${body} }\n`;

describe('distributions against the simulator (expand, check, export, dry-run)', function () {
  this.timeout(60_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    sim = await startSimulator({ port: 0, world: worldForUser(USER, 'distribution-world') });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  for (const shape of ['spot', 'curve', 'bid-ask'] as const)
    it(`${shape} over -20..20: exact totals, placement, checks clean, exports and applies`, async () => {
      const x = 100_000_000n;
      const y = 76_000_000_000n;
      const text = plan(
        dist(`shape: ${shape}, from: -20, to: 20, x_amount: ${x}, y_amount: ${y}`),
        `sender: ${USER}\n`,
      );
      const a = await analyzePlan(text, { api, fileName: 'shape.dlmm.yaml' });
      assert.deepEqual(
        a.findings.filter((f) => f.severity !== 'info'),
        [],
      );
      assert.deepEqual(a.internalErrors, []);
      const op = a.prepared[0];
      assert.ok(op?.op === 'add' && op.distribution?.ok);
      const active = op.pool.active_bin_id;
      assert.equal(
        op.items.reduce((s, i) => s + i.x_amount, 0n),
        x,
      );
      assert.equal(
        op.items.reduce((s, i) => s + i.y_amount, 0n),
        y,
      );
      for (const it of op.items) {
        assert.ok(it.from_distribution);
        assert.equal(it.active_bin_offset, it.bin_id - active);
        if (it.bin_id < active) assert.equal(it.x_amount, 0n);
        if (it.bin_id > active) assert.equal(it.y_amount, 0n);
      }
      const signing = { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n };
      const built = await buildTransactions(a, { api, opId: 'shape', ...signing });
      assert.ok(built.ok, built.ok ? '' : built.error.message);
      const hex = (await formatTxHex(built.transactions, signing)).trim().split('\n');
      assert.equal(hex.length, 1);
      const res = await fetch(`${sim.url}/admin/apply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx_hex: hex[0] }),
      });
      const body = parseJsonExact(await res.text()) as { ok: boolean; error?: string; functionName?: string };
      assert.equal(
        body.ok,
        true,
        JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      );
      assert.equal(body.functionName, 'add-relative-liquidity-same-multi');
      api.clearCache();
      await fetch(`${sim.url}/admin/reset`, { method: 'POST', body: '{}' });
    });

  it('explicit bins besides a distribution: both prepared, an overlap is a duplicate-bin warning', async () => {
    const extra = `    bins:\n      - { active_bin_offset: 25, x_amount: 1000, y_amount: 0 }\n      - { active_bin_offset: 3, x_amount: 1000, y_amount: 0 }\n`;
    const text = plan(
      dist('shape: spot, from: 0, to: 5, x_amount: 6000, y_amount: 0', 'simple', POOL1, extra),
    );
    const a = await analyzePlan(text, { api });
    assertFindings(a, [['duplicate-bin', 'warning', '3']], ['duplicate-bin']);
    const op = a.prepared[0];
    assert.ok(op?.op === 'add');
    assert.equal(op.items.filter((i) => !i.from_distribution).length, 2);
    assert.equal(
      op.items.filter((i) => i.from_distribution).reduce((s, i) => s + i.x_amount, 0n),
      6000n,
    );
  });

  const findingCases: Array<{
    name: string;
    text: string;
    codes: string[];
    expect: [string, string, string][];
  }> = [
    {
      name: 'from > to (offline rule)',
      text: plan(dist('shape: spot, from: 5, to: -5, x_amount: 1, y_amount: 1')),
      codes: ['invalid-distribution'],
      expect: [['invalid-distribution', 'error', '5']],
    },
    {
      name: 'strict range crossing +500',
      text: plan(dist('shape: curve, from: 450, to: 520, x_amount: 1, y_amount: 0', 'strict')),
      codes: ['bin-out-of-range'],
      expect: [['bin-out-of-range', 'error', '520']],
    },
    {
      name: 'simple range crossing -500 from the active bin 139',
      text: plan(dist('shape: curve, from: -700, to: 0, x_amount: 0, y_amount: 5', 'simple')),
      codes: ['bin-out-of-range'],
      expect: [['bin-out-of-range', 'error', '-700']],
    },
    {
      name: 'bins outside the pool list',
      text: plan(dist('shape: spot, from: 0, to: 40, x_amount: 1000, y_amount: 0')),
      codes: ['bin-not-found'],
      expect: [['bin-not-found', 'error', 'distribution']],
    },
    {
      name: 'y_amount with no bin at or below the active bin',
      text: plan(dist('shape: spot, from: 1, to: 4, x_amount: 1000, y_amount: 7')),
      codes: ['invalid-distribution'],
      expect: [['invalid-distribution', 'error', '7']],
    },
    {
      name: 'both totals 0',
      text: plan(dist('shape: spot, from: -4, to: 4, x_amount: 0, y_amount: 0')),
      codes: ['zero-amount'],
      expect: [['zero-amount', 'error', '0']],
    },
    {
      name: 'strict distribution over the active bin',
      // The world's funded signer: the add must be able to pay for its tokens to be executed at all.
      text: plan(
        dist('shape: spot, from: 130, to: 150, x_amount: 100000, y_amount: 100000000', 'strict'),
        `sender: ${USER}\n`,
      ),
      codes: ['strict-drift-risk'],
      expect: [['strict-drift-risk', 'info', 'distribution']],
    },
  ];
  for (const c of findingCases)
    it(`finding on the distribution: ${c.name}`, async () => {
      const a = await analyzePlan(c.text, { api });
      assertFindings(a, c.expect, c.codes);
    });

  it('more than 350 positions: too-many-positions on the distribution (a wide world)', async () => {
    const input = structuredClone(DEFAULT_WORLD_INPUT);
    const pools = input.pools as Array<{ id: string; liquidity: { bins_below: number; bins_above: number } }>;
    const p = pools.find((x) => x.id === POOL_SBTC_USDCX)!;
    p.liquidity.bins_below = 200;
    p.liquidity.bins_above = 200;
    const wide = await startSimulator({ port: 0, world: parseWorld(input, 'wide-world') });
    const wideApi = createApiClient({ baseUrl: wide.url, apiKey: DEFAULT_SIM_API_KEY });
    try {
      const text = plan(dist('shape: spot, from: -180, to: 180, x_amount: 1000000, y_amount: 1000000'));
      const a = await analyzePlan(text, { api: wideApi });
      assertFindings(a, [['too-many-positions', 'error', 'distribution']], ['too-many-positions']);
    } finally {
      await wideApi.close?.();
      await wide.close();
    }
  });

  it('out-of-range after the active bin moved; "Re-centre liquidity" writes a move that checks clean and applies', async () => {
    await fetch(`${sim.url}/admin/reset`, { method: 'POST', body: '{}' });
    const shift = await fetch(`${sim.url}/admin/pools/${POOL_SBTC_USDCX}/shift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bins: 15 }),
    });
    assert.equal(shift.status, 200);
    api.clearCache();
    try {
      const text = plan(
        `  - id: trim\n    op: withdraw\n    pool: ${POOL1}\n    withdrawal_percentage: 10\n    bins: [136]\n`,
        `sender: ${USER}\n`,
      );
      const a = await analyzePlan(text, { api });
      assertFindings(a, [['out-of-range', 'warning', POOL1]], ['out-of-range']);
      const f = a.findings.find((x) => x.code === 'out-of-range')!;
      assert.match(
        f.message,
        /sits in bins 136\.\.141 \(6 bins\); the active bin 154 has moved 13 bins above your highest bin, beyond policy\.range_alert_bins \(5\)/,
      );
      assert.deepEqual(
        f.fixes?.map((x) => x.title),
        ['spot', 'curve', 'bid-ask'].map(
          (s) => `Re-centre liquidity: move it as ${s} over ±6 bins around the active bin 154`,
        ),
      );
      const edit = f.fixes![0]!.edits[0]!;
      const fixed = text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length);
      assert.match(fixed, /- id: recentre\n {4}op: move\n {4}mode: simple\n/);
      const b = await analyzePlan(fixed, { api });
      assert.deepEqual(
        b.findings.filter((x) => x.severity !== 'info').map((x) => `${x.code}: ${x.message}`),
        [],
      );
      const move = b.prepared.find((p) => p.id === 'recentre');
      assert.ok(move?.op === 'move');
      assert.equal(move.items.length, 6);
      for (const it of move.items)
        assert.ok(it.to_bin_id < 154 && it.to_bin_id >= 148 && it.x_amount === 0n && it.y_amount > 0n);
      const signing = { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n };
      const built = await buildTransactions(b, { api, opId: 'recentre', ...signing });
      assert.ok(built.ok, built.ok ? '' : built.error.message);
      const hex = (await formatTxHex(built.transactions, signing)).trim().split('\n');
      const res = await fetch(`${sim.url}/admin/apply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx_hex: hex[0] }),
      });
      const body = parseJsonExact(await res.text()) as { ok: boolean };
      assert.equal(
        body.ok,
        true,
        JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      );
      api.clearCache();
      const c = await analyzePlan(text, { api });
      assertFindings(c, [], ['out-of-range']);
    } finally {
      await fetch(`${sim.url}/admin/reset`, { method: 'POST', body: '{}' });
      api.clearCache();
    }
  });
});
