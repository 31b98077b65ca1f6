/**
 * Property: `check` reports `would-revert` on an operation exactly when executing the exported transactions
 * of the plan, serialized and applied in order on the simulator (POST /admin/apply's dry-run), reverts
 * there; transactions that apply met their exported bounds (the contract asserts them). Generated plans of
 * 1-4 operations on the default world: strict and simple adds (right side, wrong side, dust), strict
 * moves into held and unheld bins, withdrawals, direct swaps both ways. Plans with other error findings
 * are not exported, so they are discarded.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import type { DlmmApi } from '../../../core/api/types';
import { analyzePlan } from '../../../core/check/analyze';
import { applyTransaction } from '../../../core/sim/apply';
import { buildTransactions } from '../../../core/tx/build';
import { txHexes } from '../../../core/tx/formats';
import { clientFor, startSimulator, worldForUser, type RunningSimulator } from './sim';

const PUBLIC_KEY = privateKeyToPublic('44'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token';
const USDCX = 'SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx';
const POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const HELD = [136, 137, 138, 139, 140, 141];

const side = (bin: number, x: number, y: number) =>
  bin > 139
    ? `x_amount: ${x}, y_amount: 0`
    : bin < 139
      ? `x_amount: 0, y_amount: ${y}`
      : `x_amount: ${x}, y_amount: ${y}`;

const opArb = fc.oneof(
  fc
    .record({
      bin: fc.integer({ min: 128, max: 150 }),
      x: fc.integer({ min: 1, max: 5_000_000 }),
      y: fc.integer({ min: 1, max: 500_000_000 }),
      wrong: fc.boolean(),
    })
    .map(
      (o) =>
        `  - op: add\n    pool: ${POOL}\n    mode: strict\n    bins:\n      - { bin_id: ${o.bin}, ${o.wrong ? `x_amount: ${o.x}, y_amount: ${o.y}` : side(o.bin, o.x, o.y)} }\n`,
    ),
  fc
    .record({
      off: fc.integer({ min: -3, max: 3 }),
      x: fc.integer({ min: 1, max: 5_000_000 }),
      y: fc.integer({ min: 1, max: 500_000_000 }),
    })
    .map(
      (o) =>
        `  - op: add\n    pool: ${POOL}\n    mode: simple\n    bins:\n      - { active_bin_offset: ${o.off}, ${o.off > 0 ? `x_amount: ${o.x}, y_amount: 0` : o.off < 0 ? `x_amount: 0, y_amount: ${o.y}` : `x_amount: ${o.x}, y_amount: ${o.y}`} }\n`,
    ),
  fc
    .record({
      from: fc.constantFrom(136, 137, 138),
      to: fc.integer({ min: 125, max: 138 }),
      permille: fc.integer({ min: 1, max: 400 }),
    })
    .filter((o) => o.from !== o.to)
    .map((o) => ({ ...o, text: '' })),
  fc
    .record({ pct: fc.integer({ min: 1, max: 100 }), bins: fc.subarray(HELD, { minLength: 1 }) })
    .map(
      (o) =>
        `  - op: withdraw\n    pool: ${POOL}\n    mode: strict\n    withdrawal_percentage: ${o.pct}\n    bins: [${o.bins.join(', ')}]\n`,
    ),
  fc
    .record({ buy: fc.boolean(), amount: fc.integer({ min: 1000, max: 30_000_000_000 }) })
    .map(
      (o) =>
        `  - op: swap\n    input_token: ${o.buy ? USDCX : SBTC}\n    output_token: ${o.buy ? SBTC : USDCX}\n    amount_in: ${o.buy ? o.amount : Math.max(1000, Math.floor(o.amount / 100_000))}\n`,
    ),
);

describe('check executes the plan (property: would-revert iff the exported transactions revert)', function () {
  this.timeout(300_000);
  let sim: RunningSimulator;
  let api: DlmmApi;

  before(async () => {
    sim = await startSimulator({ port: 0, world: worldForUser(USER, 'property-world') });
    api = clientFor(sim);
  });
  after(async () => {
    await api?.close?.();
    await sim?.close();
  });

  it('holds for generated plans of 1-4 operations', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 4 }), async (ops) => {
        sim.engine.reset();
        api.clearCache();
        const held = (bin: number) => sim.engine.userShares(sim.engine.pool('dlmm_1')!, USER, bin);
        const text =
          `version: 1\nsender: ${USER}\noperations:\n` +
          ops
            .map((o) =>
              typeof o === 'string'
                ? o
                : `  - op: move\n    pool: ${POOL}\n    mode: strict\n    moves:\n      - { from_bin_id: ${o.from}, to_bin_id: ${o.to}, amount: ${(held(o.from) * BigInt(o.permille)) / 1000n} }\n`,
            )
            .join('');
        const a = await analyzePlan(text, { api, fileName: 'p.dlmm.yaml' });
        const other = a.findings.filter((f) => f.severity === 'error' && f.code !== 'would-revert');
        if (other.length > 0 || a.findings.some((f) => f.code === 'execution-unchecked')) return;
        const built = await buildTransactions(
          { ...a, findings: [] },
          { api, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n, forCheck: true, allowUnprotected: true },
        );
        assert.ok(built.ok, built.ok ? '' : built.error.message);
        const hexes = await txHexes(built.transactions, { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
        const revertedOps = new Set<string>();
        hexes.forEach((h, i) => {
          const r = applyTransaction(sim.engine, h);
          if (!r.ok) revertedOps.add(built.transactions[i]!.opId);
        });
        const flagged = new Set(a.findings.filter((f) => f.code === 'would-revert').map((f) => f.operation));
        assert.deepEqual([...flagged].sort(), [...revertedOps].sort(), text);
        compared++;
      }),
      { numRuns: 30, seed: 9 },
    );
    assert.ok(compared > 5, `only ${compared} generated plans were comparable`);
  });
});
