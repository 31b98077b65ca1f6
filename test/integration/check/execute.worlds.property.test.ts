/**
 * Property over generated worlds: `check` reports `would-revert` on an operation exactly when the exported
 * transactions of the plan, serialized and applied in order on the simulator's dry-run (the chain model
 * behind POST /admin/apply), revert there; and every transaction does on the engine what the check's own
 * execution said (same revert error, or the same asset movements when it applies: the exported bounds hold
 * with the state as executed, since the contract asserts them).
 *
 * Worlds: the three default pools (sBTC/USDCx, STX/USDCx, STX/sBTC, the last one sometimes absent so STX <->
 * sBTC must route through USDCx) with explicit bins around the active bin: gaps (bins never written),
 * empty bins, one-sided active bins, random depths, and the signer's positions in random bins. Plans: 1-4
 * operations on one or several pools, strict and simple adds (some of dust), strict moves, strict withdrawals,
 * swaps between any two tokens (direct or multi-hop, as the engine routes them), at 0, 0.5 or 1% slippage.
 * Plans with other error findings, or that
 * could not be fully executed (execution-unchecked), are not exportable and are discarded; the number
 * compared is asserted. The fast-check seed is fixed (DLMM_PROPERTY_SEED overrides it) and printed on failure.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { getAddressFromPublicKey, privateKeyToPublic } from '@stacks/transactions';
import { analyzePlan } from '../../../core/check/analyze';
import { applyTransaction } from '../../../core/sim/apply';
import { DEFAULT_WORLD_INPUT, SBTC, STX_WRAPPER, USDCX } from '../../../core/sim/defaultWorld';
import { parseWorld, type WorldInput } from '../../../core/sim/world';
import { buildTransactions } from '../../../core/tx/build';
import { txHexes } from '../../../core/tx/formats';
import { clientFor, startSimulator } from './sim';

/** Not a secret: a fixed test key so the generated world's user can sign. */
const PUBLIC_KEY = privateKeyToPublic('55'.repeat(32) + '01') as string;
const USER = getAddressFromPublicKey(PUBLIC_KEY, 'mainnet');
const SEED = Number(process.env.DLMM_PROPERTY_SEED ?? 909);
const RUNS = Number(process.env.DLMM_PROPERTY_RUNS ?? 36);
const R = 7;

type PoolInput = WorldInput['pools'][number];
const DEFAULT_POOLS = DEFAULT_WORLD_INPUT.pools as PoolInput[];
const depth = (p: PoolInput) => p.liquidity as { x_per_bin: string | bigint; y_per_bin: string | bigint };

/** One bin of a generated pool: a gap, empty, or reserves on its side (the active bin: either or both). */
const binArb = fc.record({
  gap: fc.integer({ min: 0, max: 9 }),
  xPermille: fc.integer({ min: 0, max: 2000 }),
  yPermille: fc.integer({ min: 0, max: 2000 }),
  activeSides: fc.constantFrom('both', 'x', 'y', 'empty'),
});

const poolArb = fc.record({
  bins: fc.array(binArb, { minLength: 2 * R + 1, maxLength: 2 * R + 1 }),
  held: fc.uniqueArray(fc.integer({ min: -R, max: R }), { minLength: 1, maxLength: 4 }),
  percent: fc.integer({ min: 1, max: 60 }),
});

/** What the signer holds of a token: nothing, about what a plan spends (so some plans overspend), or plenty. */
const heldArb = (max: number) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max }) },
    { weight: 4, arbitrary: fc.constant(1e15) },
  );

const worldArb = fc.record({
  pools: fc.tuple(poolArb, poolArb, poolArb),
  withThird: fc.boolean(),
  // STX always covers the fees (the check executes without them): its shortfalls are unit-tested.
  balances: fc.record({ sbtc: heldArb(6_000_000), usdcx: heldArb(4_000_000_000) }),
});
type WorldSpec = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

function worldOf(spec: WorldSpec) {
  const input = structuredClone(DEFAULT_WORLD_INPUT) as WorldInput;
  const pools: PoolInput[] = [];
  const positions: { pool: string; bins: { bin_id: number; share_percent: number }[] }[] = [];
  spec.pools.forEach((g, n) => {
    if (n === 2 && !spec.withThird) return;
    const base = DEFAULT_POOLS[n]!;
    const a = Number(base.active_bin);
    const x = BigInt(depth(base).x_per_bin);
    const y = BigInt(depth(base).y_per_bin);
    const bins: { bin_id: number; reserve_x: string; reserve_y: string }[] = [];
    g.bins.forEach((b, i) => {
      const d = i - R;
      if (b.gap === 0 && d !== 0) return; // never written
      const bx = (x * BigInt(b.xPermille)) / 1000n;
      const by = (y * BigInt(b.yPermille)) / 1000n;
      const side = d === 0 ? b.activeSides : d > 0 ? 'x' : 'y';
      bins.push({
        bin_id: a + d,
        reserve_x: String(side === 'x' || side === 'both' ? bx : 0n),
        reserve_y: String(side === 'y' || side === 'both' ? by : 0n),
      });
    });
    const { liquidity: _drop, ...rest } = base;
    void _drop;
    pools.push({ ...rest, bins });
    const held = g.held
      .map((d) => a + d)
      .filter((id) => bins.some((b) => b.bin_id === id && (b.reserve_x !== '0' || b.reserve_y !== '0')));
    if (held.length > 0)
      positions.push({
        pool: base.alias,
        bins: held.map((id) => ({ bin_id: id, share_percent: g.percent })),
      });
  });
  // Node reads are remembered on disk per (pool, bin, state height), as on chain a height fixes the state;
  // generated worlds reuse the pools' ids, so each world gets its own height (a hash of its spec).
  input.status = { ...input.status, state_height: heightOf(JSON.stringify(spec)) };
  input.pools = pools;
  input.users = [
    {
      address: USER,
      positions,
      balances: {
        [SBTC]: String(spec.balances.sbtc),
        [USDCX]: String(spec.balances.usdcx),
        [STX_WRAPPER]: String(1e15),
      },
    },
  ];
  input.inventory_faults = [];
  return parseWorld(input, 'generated');
}

/** FNV-1a of the spec, as a state height far above the default world's. */
function heightOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return 10_000_000 + (h % 1_000_000_000);
}

const TOKENS = [SBTC, USDCX, STX_WRAPPER] as const;
const SWAP_SCALE: Record<string, [number, number]> = {
  [SBTC]: [1_000, 3_000_000],
  [USDCX]: [100_000, 3_000_000_000],
  [STX_WRAPPER]: [100_000, 3_000_000_000],
};

/** Token amounts: mostly real ones, sometimes dust (which can mint 0 shares: ERR_MINIMUM_LP_AMOUNT). */
const amountArb = (max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1000, max }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) },
  );

const opArb = fc.oneof(
  fc.record({
    kind: fc.constant('strict-add' as const),
    pool: fc.integer({ min: 0, max: 2 }),
    off: fc.integer({ min: -4, max: 4 }),
    x: amountArb(3_000_000),
    y: amountArb(2_000_000_000),
    activeSides: fc.constantFrom('both', 'x', 'y'),
  }),
  fc.record({
    kind: fc.constant('simple-add' as const),
    pool: fc.integer({ min: 0, max: 2 }),
    off: fc.integer({ min: -3, max: 3 }),
    x: amountArb(3_000_000),
    y: amountArb(2_000_000_000),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    pool: fc.integer({ min: 0, max: 2 }),
    from: fc.integer({ min: 0, max: 3 }),
    off: fc.integer({ min: -5, max: 5 }),
    permille: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    pool: fc.integer({ min: 0, max: 2 }),
    pct: fc.integer({ min: 1, max: 100 }),
    pick: fc.integer({ min: 1, max: 15 }),
  }),
  fc.record({
    kind: fc.constant('swap' as const),
    from: fc.integer({ min: 0, max: 2 }),
    to: fc.integer({ min: 1, max: 2 }),
    scale: fc.integer({ min: 0, max: 1000 }),
  }),
  fc.record({
    kind: fc.constant('swap' as const),
    from: fc.integer({ min: 0, max: 2 }),
    to: fc.integer({ min: 1, max: 2 }),
    scale: fc.integer({ min: 0, max: 1000 }),
  }),
);
type OpSpec = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

describe('check executes the plan (property over generated worlds: gaps, one-sided bins, several pools, multi-hop)', function () {
  this.timeout(120_000);

  it(`would-revert iff the exported transactions revert on the dry-run, and each does what the check executed (seed ${SEED})`, async () => {
    let compared = 0;
    let reverted = 0;
    let overspent = 0;
    let multiHop = 0;
    let pools = 0;
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        fc.array(opArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 0.5, 1),
        async (spec, ops, slippage) => {
          const world = worldOf(spec);
          const sim = await startSimulator({ port: 0, world });
          const api = clientFor(sim);
          try {
            const text = planText(
              sim,
              world.pools.map((p) => p.alias),
              ops,
              slippage,
            );
            if (!text) return;
            const a = await analyzePlan(text, { api, fileName: 'p.dlmm.yaml' });
            // insufficient-balance is would-revert's for a token transfer (the token's (err u1)).
            const other = a.findings.filter(
              (f) => f.severity === 'error' && f.code !== 'would-revert' && f.code !== 'insufficient-balance',
            );
            if (other.length > 0 || a.findings.some((f) => f.code === 'execution-unchecked')) return;
            const built = await buildTransactions(
              { ...a, findings: [] },
              { api, publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n, forCheck: true, allowUnprotected: true },
            );
            assert.ok(built.ok, built.ok ? '' : built.error.message);
            const checked = a.execution?.transactions ?? [];
            assert.deepEqual(
              built.transactions.map((t) => `${t.opId} ${t.functionName}`),
              checked.map((t) => `${t.opId} ${t.functionName}`),
              'the export builds the transactions the check executed',
            );
            const hexes = await txHexes(built.transactions, { publicKey: PUBLIC_KEY, nonce: 0n, fee: 1000n });
            const revertedOps = new Set<string>();
            hexes.forEach((h, i) => {
              const r = applyTransaction(sim.engine, h);
              const tx = built.transactions[i]!;
              const mine = checked[i]!.execution;
              const where = `${text}\ntransaction ${i + 1} (${tx.opId} ${tx.functionName})`;
              if (!r.ok) {
                revertedOps.add(tx.opId);
                assert.equal(
                  mine?.status,
                  'reverted',
                  `${where}: the dry-run reverts (${r.error}: ${r.detail})`,
                );
                if (mine?.status === 'reverted') assert.equal(mine.error, r.error, where);
              } else {
                assert.equal(
                  mine?.status,
                  'ok',
                  `${where}: the dry-run applies, the check said ${JSON.stringify(mine, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
                );
                if (mine?.status === 'ok') assert.deepEqual(r.movements, mine.movements, where);
              }
              if (
                tx.functionName === 'swap-multi' &&
                new Set(tx.rows.map((row) => row.label.split(' ')[0])).size > 1
              )
                multiHop++;
            });
            const flagged = new Set(
              a.findings
                .filter((f) => f.code === 'would-revert' || f.code === 'insufficient-balance')
                .map((f) => f.operation),
            );
            assert.deepEqual([...flagged].sort(), [...revertedOps].sort(), text);
            compared++;
            if (revertedOps.size > 0) reverted++;
            if (a.findings.some((f) => f.code === 'insufficient-balance')) overspent++;
            if (new Set(a.prepared.map((p) => (p.op === 'swap' ? 'swap' : p.pool.pool_id))).size > 1) pools++;
          } finally {
            await api.close?.();
            await sim.close();
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    assert.ok(compared >= RUNS / 3, `only ${compared} of ${RUNS} generated plans were comparable`);
    assert.ok(reverted > 0, 'no generated plan reverted: the generator lost its teeth');
    assert.ok(overspent > 0, 'no generated plan overspent a balance: the balances lost their teeth');
    console.log(
      `      compared ${compared} of ${RUNS}: ${reverted} with a revert (${overspent} overspending), ${pools} on several pools, ${multiHop} multi-hop swap transactions`,
    );
  });
});

/** The plan's text on the simulator's world (moves and withdrawals from the user's held bins). */
function planText(
  sim: Awaited<ReturnType<typeof startSimulator>>,
  aliases: string[],
  ops: OpSpec[],
  slippage: number,
): string | undefined {
  const lines: string[] = [];
  ops.forEach((o, i) => {
    if (o.kind === 'swap') {
      const from = TOKENS[o.from]!;
      const to = TOKENS[(o.from + o.to) % 3]!;
      const [lo, hi] = SWAP_SCALE[from]!;
      const amount = lo + Math.floor(((hi - lo) * o.scale) / 1000);
      lines.push(
        `  - { id: op${i}, op: swap, input_token: ${from}, output_token: ${to}, amount_in: ${amount} }`,
      );
      return;
    }
    const alias = aliases[o.pool % aliases.length]!;
    const pool = sim.engine.pool(alias)!;
    const a = pool.activeBinId;
    const held = sim.engine.userBins(pool, USER).filter((b) => b.shares > 0n);
    const head = `  - id: op${i}\n    pool: ${pool.id}\n`;
    switch (o.kind) {
      case 'strict-add': {
        const bin = a + o.off;
        const x = o.off > 0 || (o.off === 0 && o.activeSides !== 'y') ? o.x : 0;
        const y = o.off < 0 || (o.off === 0 && o.activeSides !== 'x') ? o.y : 0;
        lines.push(
          `${head}    op: add\n    mode: strict\n    bins:\n      - { bin_id: ${bin}, x_amount: ${x}, y_amount: ${y} }`,
        );
        return;
      }
      case 'simple-add': {
        const x = o.off >= 0 ? o.x : 0;
        const y = o.off <= 0 ? o.y : 0;
        lines.push(
          `${head}    op: add\n    mode: simple\n    bins:\n      - { active_bin_offset: ${o.off}, x_amount: ${x}, y_amount: ${y} }`,
        );
        return;
      }
      case 'move': {
        const from = held[o.from % Math.max(1, held.length)];
        if (!from) return;
        const to = a + o.off === from.binId ? a + o.off + 1 : a + o.off;
        const amount = (from.shares * BigInt(o.permille)) / 1000n;
        if (amount === 0n) return;
        lines.push(
          `${head}    op: move\n    mode: strict\n    moves:\n      - { from_bin_id: ${from.binId}, to_bin_id: ${to}, amount: ${amount} }`,
        );
        return;
      }
      case 'withdraw': {
        const bins = held.filter((_, j) => (o.pick >> j) & 1).map((b) => b.binId);
        if (bins.length === 0) return;
        lines.push(
          `${head}    op: withdraw\n    mode: strict\n    withdrawal_percentage: ${o.pct}\n    bins: [${bins.join(', ')}]`,
        );
        return;
      }
    }
  });
  if (lines.length === 0) return undefined;
  return `version: 1\nsender: ${USER}\npolicy: { slippage_tolerance: ${slippage} }\noperations:\n${lines.join('\n')}\n`;
}
