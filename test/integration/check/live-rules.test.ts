/**
 * Live rules against the simulated engine over loopback HTTP with the real client (no fakes): one table,
 * input plan + world setup -> expected (code, severity, source under the range).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzePlan } from '../../../core/check/analyze';
import { formatWalletRequest } from '../../../core/tx/formats';
import { shiftActiveBin } from '../../../core/check/drift';
import { chainStateFromLive } from '../../../core/live/chainState';
import { createLiveSession } from '../../../core/live/live';
import { createApiClient } from '../../../core/api/client';
import type { DlmmApi } from '../../../core/api/types';
import { assertFindings, plan, POOL1, POOL2, SBTC, USDCX, type Expect } from '../../unit/plan/helpers';
import { admin, clientFor, startSimulator, worldWithFlags, type RunningSimulator } from './sim';

const addOn = (pool: string, bins: string, mode = 'strict'): string =>
  `  - op: add\n    mode: ${mode}\n    pool: ${pool}\n    bins:\n${bins}`;
const moveOn = (pool: string, moves: string, mode = 'strict'): string =>
  `  - op: move\n    mode: ${mode}\n    pool: ${pool}\n    moves:\n${moves}`;
const swapOf = (a: string, b: string, amount = '1000'): string =>
  `  - { op: swap, input_token: ${a}, output_token: ${b}, amount_in: ${amount} }\n`;

interface Case {
  name: string;
  text: string;
  codes: string[];
  expect: Expect[];
  setup?: (sim: RunningSimulator) => Promise<void>;
  client?: { inventory?: boolean; node?: boolean };
}

const cases: Case[] = [
  {
    name: 'clean add far from the active bin',
    text: plan(
      addOn(
        POOL1,
        '      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n      - { bin_id: 120, x_amount: 0, y_amount: 1000 }\n',
      ),
    ),
    codes: [],
    expect: [],
  },
  {
    name: 'bin-not-found (strict)',
    text: plan(addOn(POOL1, '      - { bin_id: 200, x_amount: 1000, y_amount: 0 }\n')),
    codes: ['bin-not-found'],
    expect: [['bin-not-found', 'error', '200']],
  },
  {
    name: 'bin-not-found (simple offset)',
    text: plan(addOn(POOL1, '      - { active_bin_offset: 45, x_amount: 1000, y_amount: 0 }\n', 'simple')),
    codes: ['bin-not-found'],
    expect: [['bin-not-found', 'error', '45']],
  },
  {
    name: 'bin-out-of-range (simple offset)',
    text: plan(addOn(POOL1, '      - { active_bin_offset: 400, x_amount: 1000, y_amount: 0 }\n', 'simple')),
    codes: ['bin-out-of-range'],
    expect: [['bin-out-of-range', 'error', '400']],
  },
  {
    name: 'wrong-token-side below and above',
    text: plan(
      addOn(
        POOL1,
        '      - { bin_id: 135, x_amount: 150000, y_amount: 0 }\n      - { bin_id: 145, x_amount: 5, y_amount: 777 }\n',
      ),
    ),
    codes: ['wrong-token-side'],
    expect: [
      ['wrong-token-side', 'error', '150000'],
      ['wrong-token-side', 'error', '777'],
    ],
  },
  {
    name: 'strict-drift-risk on the active bin and its neighbour',
    text: plan(
      addOn(
        POOL1,
        '      - { bin_id: 139, x_amount: 1000, y_amount: 1000 }\n      - { bin_id: 140, x_amount: 1000, y_amount: 0 }\n      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n',
      ),
    ),
    // Executed after a 1-bin shift each way: the first element (the active bin, both tokens) reverts the
    // transaction; bin 150 is untouched by a 1-bin shift.
    codes: ['strict-drift-risk'],
    expect: [['strict-drift-risk', 'info', '139']],
  },
  {
    name: 'strict-drift-risk: not when a 1-bin shift leaves the strict add executable',
    // Bin 140 becomes the active bin after a shift up, but it holds only X and the add brings only X: no
    // liquidity fee, the same shares; after a shift down it is 2 bins above the active bin.
    text: plan(addOn(POOL1, '      - { bin_id: 140, x_amount: 1000, y_amount: 0 }\n')),
    codes: ['strict-drift-risk'],
    expect: [],
  },
  {
    name: 'move-same-bin (simple)',
    text: plan(moveOn(POOL1, '      - { from_bin_id: 139, active_bin_offset: 0, amount: 10 }\n', 'simple')),
    codes: ['move-same-bin'],
    expect: [['move-same-bin', 'error', '0']],
  },
  {
    name: 'no-user-liquidity on a move',
    text: plan(moveOn(POOL1, '      - { from_bin_id: 150, to_bin_id: 120, amount: 10 }\n')),
    codes: ['no-user-liquidity'],
    expect: [['no-user-liquidity', 'error', '150']],
  },
  {
    name: 'amount-exceeds-user-liquidity',
    text: plan(
      moveOn(POOL1, '      - { from_bin_id: 136, to_bin_id: 120, amount: "999999999999999999999" }\n'),
    ),
    codes: ['amount-exceeds-user-liquidity'],
    expect: [['amount-exceeds-user-liquidity', 'error', '"999999999999999999999"']],
  },
  {
    name: 'move-dust',
    text: plan(moveOn(POOL1, '      - { from_bin_id: 140, to_bin_id: 150, amount: 1 }\n')),
    codes: ['move-dust'],
    expect: [['move-dust', 'error', '1']],
  },
  {
    name: 'wrong-token-side on a move (y to a bin above)',
    text: plan(moveOn(POOL1, '      - { from_bin_id: 136, to_bin_id: 150, amount: 1000000 }\n')),
    codes: ['wrong-token-side'],
    expect: [['wrong-token-side', 'error', '150']],
  },
  {
    name: 'withdraw-nothing and no-user-liquidity',
    text: plan(`  - op: withdraw\n    pool: ${POOL1}\n    bins: [120]\n`),
    codes: ['withdraw-nothing', 'no-user-liquidity'],
    expect: [
      ['withdraw-nothing', 'warning', '[120]'],
      ['no-user-liquidity', 'error', '120'],
    ],
  },
  {
    name: 'pool-not-found',
    text: plan(
      addOn(
        'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-nope-v-1-bps-5',
        '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n',
      ),
    ),
    codes: ['pool-not-found', 'mixed-generation'],
    expect: [
      ['pool-not-found', 'error', 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-nope-v-1-bps-5'],
    ],
  },
  {
    name: 'mixed-generation: a principal in a v1 file, alone',
    text: plan(addOn(POOL1, '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n'), 'api: v1\n'),
    codes: ['pool-not-found', 'mixed-generation'],
    expect: [['mixed-generation', 'error', POOL1]],
  },
  {
    name: 'mixed-generation: one pool written both ways',
    text: plan(
      addOn('dlmm_1', '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n') +
        addOn(POOL1, '      - { bin_id: 151, x_amount: 1, y_amount: 0 }\n'),
    ),
    codes: ['mixed-generation'],
    expect: [['mixed-generation', 'error', 'dlmm_1']],
  },
  {
    name: 'engine-not-ready',
    setup: (s) => admin(s, '/state', { ready: false }),
    text: plan(swapOf(SBTC, USDCX)),
    codes: ['engine-not-ready'],
    expect: [['engine-not-ready', 'error', 'version']],
  },
  {
    name: 'tip-lag (strict: error, on the policy value)',
    setup: (s) => admin(s, '/state', { tip_lag: 3 }),
    text: plan(
      addOn(POOL1, '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n'),
      'policy:\n  max_tip_lag: 2\n',
    ),
    codes: ['tip-lag'],
    expect: [['tip-lag', 'error', '2']],
  },
  {
    name: 'tip-lag (simple only: warning)',
    setup: (s) => admin(s, '/state', { tip_lag: 3 }),
    text: plan(addOn(POOL1, '      - { active_bin_offset: 5, x_amount: 1, y_amount: 0 }\n', 'simple')),
    codes: ['tip-lag'],
    expect: [['tip-lag', 'warning', 'version']],
  },
  {
    name: 'tip-unknown',
    setup: (s) => admin(s, '/state', { tip_lag: null }),
    text: plan(swapOf(SBTC, USDCX)),
    codes: ['tip-unknown', 'tip-lag'],
    expect: [['tip-unknown', 'error', 'version']],
  },
  {
    name: 'app-not-ready',
    setup: (s) => admin(s, '/state', { app_ready: false }),
    text: plan(addOn(POOL1, '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n')),
    codes: ['app-not-ready'],
    expect: [['app-not-ready', 'warning', 'version']],
  },
  {
    name: 'positions-may-lag without inventory, for a pool outside the current-bins cohort',
    client: { inventory: false },
    text: plan(`  - op: withdraw\n    pool: ${POOL2}\n`),
    codes: ['positions-may-lag'],
    expect: [['positions-may-lag', 'info', 'withdraw']],
  },
  {
    name: 'inventory-unavailable (TIP_LAG)',
    setup: (s) => admin(s, '/state', { inventory_faults: [{ pool: 'dlmm_1', code: 'TIP_LAG' }] }),
    text: plan(`  - op: withdraw\n    pool: ${POOL1}\n`),
    codes: ['inventory-unavailable', 'withdraw-nothing'],
    expect: [['inventory-unavailable', 'error', POOL1]],
  },
  {
    name: 'min-dlp-unprotected without node',
    client: { node: false },
    text: plan(addOn(POOL1, '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n')),
    codes: ['min-dlp-unprotected'],
    expect: [['min-dlp-unprotected', 'warning', 'bins']],
  },
  {
    name: 'token-unknown',
    text: plan(swapOf(SBTC, 'SP2XD7417HGPRTREMKF748VNEQPDRR0RMANB7X1NK.token-alex')),
    codes: ['token-unknown', 'swap-no-route'],
    expect: [['token-unknown', 'error', 'SP2XD7417HGPRTREMKF748VNEQPDRR0RMANB7X1NK.token-alex']],
  },
  {
    name: 'swap-no-route',
    text: plan(swapOf(SBTC, SBTC)),
    codes: ['swap-no-route'],
    expect: [['swap-no-route', 'error', '1000']],
  },
  {
    name: 'prefer-contract-id with the principal as fix',
    text: plan(addOn('dlmm_2', '      - { bin_id: -20, x_amount: 1, y_amount: 0 }\n')),
    codes: ['prefer-contract-id'],
    expect: [['prefer-contract-id', 'info', 'dlmm_2']],
  },
];

describe('live rules against the simulated engine', function () {
  this.timeout(30_000);
  let sim: RunningSimulator;
  let api: DlmmApi | undefined;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => sim?.close());
  beforeEach(async () => admin(sim, '/reset', {}));
  afterEach(async () => {
    await api?.close?.();
    api = undefined;
  });

  for (const c of cases) {
    it(c.name, async () => {
      await c.setup?.(sim);
      api = clientFor(sim, c.client);
      const a = await analyzePlan(c.text, { api });
      assertFindings(a, c.expect, c.codes.length ? c.codes : undefined);
      for (const f of a.findings)
        if (f.operation === undefined)
          assert.ok(
            [
              'engine-not-ready',
              'tip-lag',
              'tip-unknown',
              'app-not-ready',
              'slippage-unit',
              'sender-missing',
              'api-unreachable',
              'rate-limited',
              'unexpected-response',
            ].includes(f.code),
            f.code,
          );
    });
  }

  it('driftRisk: false reports every finding but strict-drift-risk, and the same execution', async () => {
    api = clientFor(sim, undefined);
    const text = plan(
      addOn(
        POOL1,
        '      - { bin_id: 139, x_amount: 1000, y_amount: 1000 }\n      - { bin_id: 140, x_amount: 1000, y_amount: 0 }\n',
      ),
    );
    const all = await analyzePlan(text, { api });
    const without = await analyzePlan(text, { api, driftRisk: false });
    assert.ok(all.findings.some((f) => f.code === 'strict-drift-risk'));
    assert.deepEqual(
      without.findings,
      all.findings.filter((f) => f.code !== 'strict-drift-risk'),
    );
    // The same transactions, as the export writes them.
    assert.ok(all.execution && without.execution);
    assert.equal(
      formatWalletRequest(without.execution.transactions),
      formatWalletRequest(all.execution.transactions),
    );
  });

  it('quick fixes: wrong-token-side zeroes, clamp, principal, strict -> simple', async () => {
    api = clientFor(sim);
    const apply = (text: string, edits: Array<{ offset: number; length: number; newText: string }>): string =>
      [...edits]
        .sort((a, b) => b.offset - a.offset)
        .reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), text);
    const text = plan(
      addOn(
        'dlmm_1',
        '      - { bin_id: 135, x_amount: 150000, y_amount: 5 }\n      - { bin_id: 140, x_amount: 1000, y_amount: 0 }\n',
      ) + moveOn(POOL1, '      - { from_bin_id: 136, to_bin_id: 120, amount: 999999999999 }\n'),
    );
    const a = await analyzePlan(text, { api });
    const fixOf = (code: string) => a.findings.find((f) => f.code === code)?.fixes?.[0];
    assert.match(
      apply(text, fixOf('wrong-token-side')?.edits ?? []),
      /bin_id: 135, x_amount: 0, y_amount: 5/,
    );
    assert.match(apply(text, fixOf('amount-exceeds-user-liquidity')?.edits ?? []), /amount: 119107794 \}/);
    assert.match(
      apply(text, fixOf('prefer-contract-id')?.edits ?? []),
      new RegExp(`pool: ${POOL1.replace('.', '\\.')}\\n    bins`),
    );
    // strict-drift-risk runs on the plan's execution: on the add once its errors are fixed.
    const fixed = text
      .replace(`pool: ${POOL1}`, 'pool: dlmm_1')
      .replace('x_amount: 150000, y_amount: 5', 'x_amount: 0, y_amount: 5000000')
      .replace('bin_id: 140, x_amount: 1000, y_amount: 0', 'bin_id: 139, x_amount: 1000, y_amount: 1000');
    const clean = await analyzePlan(fixed, { api });
    const drift = clean.findings.find((f) => f.code === 'strict-drift-risk' && f.operation === '0');
    assert.ok(drift, clean.findings.map((f) => f.message).join('\n'));
    assert.match(
      drift.message,
      /up 139 -> 140 .* reverts with ERR_INVALID_X_AMOUNT u1020 \(list element 2\)/,
    );
    assert.match(
      drift.message,
      /down 139 -> 138 .* reverts with ERR_INVALID_Y_AMOUNT u1021 \(list element 2\)/,
    );
    const simple = apply(fixed, drift.fixes?.[0]?.edits ?? []);
    assert.match(
      simple,
      /mode: simple\n {4}pool: dlmm_1\n {4}bins:\n {6}- \{ active_bin_offset: -4, x_amount: 0, y_amount: 5000000 \}\n {6}- \{ active_bin_offset: 0,/,
    );
    const after = await analyzePlan(simple, { api });
    assert.ok(
      !after.findings.some((f) => f.code === 'strict-drift-risk' || f.code === 'schema'),
      after.findings.map((f) => f.message).join('\n'),
    );
  });

  it('strict-drift-risk: the trade a later session reuses is the one an uncached search finds on its state, before and after the state moves', async () => {
    api = clientFor(sim);
    const sender = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
    /** A strict add on the active bin (both tokens) and the bin above (X only), with the amounts given. */
    const text = (active: number, x: number): string =>
      plan(
        addOn(
          POOL1,
          `      - { bin_id: ${active}, x_amount: ${x}, y_amount: 1000 }\n      - { bin_id: ${active + 1}, x_amount: 1000, y_amount: 0 }\n`,
        ),
      );
    /** The drift finding of a live analysis in a session of its own, and the trades an uncached search finds. */
    const check = async (t: string) => {
      const a = await analyzePlan(t, { api, session: createLiveSession() });
      const drift = a.findings.filter((f) => f.code === 'strict-drift-risk');
      assert.equal(drift.length, 1, a.findings.map((f) => `${f.code}: ${f.message}`).join('\n'));
      assert.ok(a.live);
      const trade = (k: number) => shiftActiveBin(chainStateFromLive(a.live!, sender), POOL1, k);
      return { message: drift[0]!.message, up: trade(1), down: trade(-1) };
    };
    const first = await check(text(139, 1000));
    assert.match(first.message, new RegExp(`up 139 -> 140 \\(as buying X with ${first.up.amountIn} Y`));
    assert.match(first.message, new RegExp(`down 139 -> 138 \\(as selling ${first.down.amountIn} X`));
    // A later session at the same height (the bins read into new objects), an amount typed: the same trades,
    // and the finding names the new amount (executed again, not reused).
    const again = await check(text(139, 1001));
    assert.deepEqual([again.up.amountIn, again.down.amountIn], [first.up.amountIn, first.down.amountIn]);
    assert.equal(again.message, first.message.replace('got x 1000', 'got x 1001'));
    assert.notEqual(again.message, first.message);
    // The state moves (a trade takes the active bin up one): the trades are those of the new state.
    await admin(sim, '/pools/dlmm_1/shift', { bins: 1 });
    api.clearCache();
    const moved = await check(text(140, 1000));
    assert.match(moved.message, new RegExp(`up 140 -> 141 \\(as buying X with ${moved.up.amountIn} Y`));
    assert.match(moved.message, new RegExp(`down 140 -> 139 \\(as selling ${moved.down.amountIn} X`));
    assert.notEqual(moved.up.amountIn, first.up.amountIn);
  });

  it('strict -> simple fix inserts the mode when absent, in JSON too', async () => {
    api = clientFor(sim);
    const json = JSON.stringify(
      {
        version: 1,
        sender: 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
        operations: [
          { op: 'add', pool: POOL2, bins: [{ bin_id: -37, x_amount: 5000000, y_amount: 5000000 }] },
        ],
      },
      null,
      2,
    );
    const a = await analyzePlan(json, { api, fileName: 'x.dlmm.json' });
    const fix = a.findings.find((f) => f.code === 'strict-drift-risk')?.fixes?.[0];
    assert.ok(fix);
    const out = [...fix.edits]
      .sort((x, y) => y.offset - x.offset)
      .reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), json);
    const parsed = JSON.parse(out) as {
      operations: Array<{ mode: string; bins: Array<Record<string, number>> }>;
    };
    assert.equal(parsed.operations[0]?.mode, 'simple');
    assert.deepEqual(parsed.operations[0]?.bins[0], {
      active_bin_offset: 0,
      x_amount: 5000000,
      y_amount: 5000000,
    });
  });

  it('pool flags: pool-inactive and pool-not-quotable (error strict / warning simple / error swap)', async () => {
    const flagged = await startSimulator({
      world: worldWithFlags({ dlmm_1: { active: false }, dlmm_2: { quotable: false } }),
    });
    const c = clientFor(flagged);
    try {
      const text = plan(
        addOn(POOL1, '      - { bin_id: 150, x_amount: 1, y_amount: 0 }\n') +
          addOn(POOL2, '      - { bin_id: -20, x_amount: 1, y_amount: 0 }\n') +
          addOn(POOL2, '      - { active_bin_offset: 20, x_amount: 1, y_amount: 0 }\n', 'simple'),
      );
      const a = await analyzePlan(text, { api: c });
      assertFindings(
        a,
        [
          ['pool-inactive', 'error', POOL1],
          ['pool-not-quotable', 'error', POOL2],
          ['pool-not-quotable', 'warning', POOL2],
        ],
        ['pool-inactive', 'pool-not-quotable'],
      );
    } finally {
      await c.close?.();
      await flagged.close();
    }
  });

  it('prepares add, withdraw (exact floor), move and swap items', async () => {
    api = clientFor(sim);
    const text = plan(
      addOn(POOL1, '      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n') +
        `  - op: withdraw\n    mode: simple\n    pool: ${POOL1}\n    withdrawal_percentage: 33.3333\n` +
        moveOn(POOL1, '      - { from_bin_id: 136, to_bin_id: 120, amount: 1000000 }\n') +
        swapOf(SBTC, USDCX, '100000'),
    );
    const a = await analyzePlan(text, { api });
    const [add, wd, mv, sw] = a.prepared;
    assert.equal(add?.op, 'add');
    if (add?.op === 'add') {
      const it0 = add.items[0];
      assert.equal(it0?.bin_id, 150);
      assert.equal(it0?.bin_shares, 0n);
      assert.equal(typeof it0?.bin_shares_known, 'bigint');
      assert.equal(it0?.has_ever_added_to_bin, false);
    }
    assert.equal(wd?.op, 'withdraw');
    if (wd?.op === 'withdraw') {
      assert.deepEqual(
        wd.items.map((i) => i.bin_id),
        [136, 137, 138, 139, 140, 141],
      );
      for (const i of wd.items) {
        assert.equal(i.amount, (i.user_liquidity * 333333n) / 1000000n);
        assert.equal(i.active_bin_offset, i.bin_id - 139);
        assert.equal(i.y_amount, (i.amount * i.reserve_y) / i.liquidity);
      }
    }
    if (mv?.op === 'move') {
      const m = mv.items[0];
      assert.equal(m?.to_bin_id, 120);
      assert.equal(m?.x_amount, 0n);
      assert.ok((m?.y_amount ?? 0n) > 0n);
    } else assert.fail('move not prepared');
    if (sw?.op === 'swap') assert.ok(sw.swap.route && sw.swap.route.amount_out > 0n);
    else assert.fail('swap not prepared');
  });

  it('rate-limited when the service keeps answering 429 after the retries (keyless, window spent)', async () => {
    // A frozen clock keeps the simulator's per-IP window (50/s without a key) spent for the whole test.
    const frozen = await startSimulator({ now: () => 1_700_000_000_000 });
    try {
      for (let i = 0; i < 50; i++) await fetch(`${frozen.url}/quotes/v2/ready`);
      const api = createApiClient({ baseUrl: frozen.url, maxRetries: 1, retryBaseMs: 1, maxRetryDelayMs: 5 });
      const a = await analyzePlan(
        plan(addOn(POOL1, '      - { bin_id: 150, x_amount: 1000, y_amount: 0 }\n')),
        {
          api,
        },
      );
      await api.close?.();
      const limited = a.findings.filter((f) => f.code === 'rate-limited');
      assert.ok(limited.length >= 1, JSON.stringify(a.findings.map((f) => f.code)));
      assert.equal(limited[0]!.severity, 'warning');
      assert.match(limited[0]!.message, /429/);
      // Never read as data: no finding claims the pool or its bins are fine or missing.
      assert.ok(!a.findings.some((f) => f.code === 'pool-not-found' || f.code === 'bin-not-found'));
    } finally {
      await frozen.close();
    }
  });

  it('api-unreachable when nothing listens; unexpected-response on a bad body', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const c1 = clientFor(sim, {
      baseUrl: `http://127.0.0.1:${port}/api`,
      inventory: false,
      node: false,
      maxRetries: 0,
      timeoutMs: 2000,
    });
    const a1 = await analyzePlan(plan(swapOf(SBTC, USDCX)), { api: c1 });
    await c1.close?.();
    assert.ok(a1.findings.some((f) => f.code === 'api-unreachable' && f.severity === 'warning'));

    const bad: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ready: 'yes', tokens: 'none', bins: 7 }));
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
    const c2 = clientFor(sim, {
      baseUrl: `http://127.0.0.1:${(bad.address() as AddressInfo).port}/api`,
      inventory: false,
      node: false,
      maxRetries: 0,
    });
    try {
      const a2 = await analyzePlan(plan(swapOf(SBTC, USDCX)), { api: c2 });
      const f = a2.findings.find((x) => x.code === 'unexpected-response');
      assert.ok(f, a2.findings.map((x) => x.code).join());
      assert.match(f.message, /\/quotes\/v2\//);
    } finally {
      await c2.close?.();
      await new Promise<void>((r) => bad.close(() => r()));
    }
  });
});
