/**
 * Fault injection: the real `dlmm check` and `dlmm export` against a hostile service (hostile.ts: a proxy in
 * front of the simulated engine that fakes one read per row). Every row asserts the finding that says what
 * could not be read or believed, the exit status, and that export wrote nothing for what it could not check.
 * Never a false "clean": no row may exit 0 without a finding, and no row's export may write a file unless the
 * fault is one the product must ignore (then its output equals the fault-free export).
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { JsonDecimal } from '../../../core/api/json';
import { envFor, patchJson, startHostile, type Fault, type HostileService } from './hostile';

const REBALANCE = 'simple-rebalance.dlmm.yaml'; // simple add + move + withdraw (needs positions)
const LADDER = 'add-ladder.dlmm.yaml'; // strict add
const SWAP = 'swap.dlmm.json';
const STX_POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-stx-usdcx-v-1-bps-20';
const SBTC_POOL = 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-pool-sbtc-usdcx-v-1-bps-10';
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
const POSITIONS = `GET /api/app/v2/users/${SENDER}/positions/${STX_POOL}/bins`;
const INVENTORY = `GET /api/mm/v1/pools/${STX_POOL}/positions/${SENDER}`;
const SBTC_BALANCE =
  'POST /node/v2/contracts/call-read/SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4/sbtc-token/get-balance';

interface Row {
  name: string;
  plan: string;
  faults: Fault[];
  /** Inventory configured for this row. */
  inventory?: boolean;
  /** Codes that must be among the findings. */
  codes: string[];
  /** Codes that must not be (e.g. swap-no-route for a 500). */
  notCodes?: string[];
  checkExit: number;
  /** Export's exit status; 0 only for faults the product must ignore (output then equals the clean export). */
  exportExit: number;
}

const json = (v: unknown): string => JSON.stringify(v);
/** A JSON number literal written into an answer as is (never through a double). */
const literal = (text: string) => new JsonDecimal(text);
const SBTC_BINS = `GET /api/quotes/v2/bins/${SBTC_POOL}`;
/** One number of a real answer written the hostile way: read by its digits or refused, never rounded. */
const numberRow = (
  name: string,
  plan: string,
  match: string,
  patch: (v: Record<string, unknown>) => void,
  inventory = false,
): Row => ({
  name: `numbers: ${name}`,
  plan,
  inventory,
  faults: [{ match, answer: { body: patchJson(patch) } }],
  codes: ['unexpected-response'],
  checkExit: 1,
  exportExit: 1,
});
const firstBin = (v: Record<string, unknown>) =>
  (v.bins as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
/** A get-balance answer of the wrong shape: never read as a balance (issue 46). */
const balanceRow = (name: string, result: string): Row => ({
  name: `node answers: get-balance ${name}`,
  plan: LADDER,
  faults: [{ match: SBTC_BALANCE, answer: { body: json({ okay: true, result }) } }],
  codes: ['unexpected-response', 'balance-unchecked'],
  checkExit: 1,
  exportExit: 1,
});
const WHOLE_BALANCE = `0x0701${'00'.repeat(8)}${'ff'.repeat(8)}`;
const POOL_NOT_FOUND_200 = { status: 200, body: json({ bins: [], message: 'Pool not found' }) };
const READY_BODIES: Array<[string, string, string]> = [
  ['truncated JSON', '{"ready": fal', 'unexpected-response'],
  ['an HTML page', '<!doctype html><html><body>Service</body></html>', 'unexpected-response'],
  ['an empty object', '{}', 'unexpected-response'],
  ['status "not ready"', json({ status: 'not ready' }), 'engine-not-ready'],
];

const ROWS: Row[] = [
  {
    name: 'app v2 positions: 200 with empty bins and "Pool not found" (no inventory)',
    plan: REBALANCE,
    faults: [{ match: POSITIONS, answer: POOL_NOT_FOUND_200 }],
    codes: ['api-unreachable'],
    checkExit: 2,
    exportExit: 2,
  },
  {
    name: 'app v2 positions: 404 (no inventory)',
    plan: REBALANCE,
    faults: [{ match: POSITIONS, answer: { status: 404, body: json({ error: 'not found' }) } }],
    codes: ['api-unreachable'],
    checkExit: 2,
    exportExit: 2,
  },
  {
    name: 'app v2 positions: a bin listed twice',
    plan: REBALANCE,
    faults: [
      {
        match: POSITIONS,
        answer: {
          body: patchJson((v) => {
            const bins = v.bins as unknown[];
            bins.push(bins[0]);
          }),
        },
      },
    ],
    codes: ['unexpected-response'],
    checkExit: 1,
    exportExit: 1,
  },
  ...READY_BODIES.map(([what, body, code]): Row => ({
    name: `/quotes/v2/ready answers ${what}`,
    plan: LADDER,
    faults: [{ match: 'GET /api/quotes/v2/ready', answer: { status: 200, body } }],
    codes: [code],
    checkExit: 1,
    exportExit: 1,
  })),
  ...READY_BODIES.map(([what, body, code]): Row => ({
    name: `/app/v2/ready answers ${what}`,
    plan: REBALANCE,
    faults: [{ match: 'GET /api/app/v2/ready', answer: { status: 200, body } }],
    codes: [code === 'engine-not-ready' ? 'app-not-ready' : code],
    // app-not-ready is a warning (positions may lag): the plan is still checked, and says so.
    checkExit: code === 'engine-not-ready' ? 0 : 1,
    exportExit: code === 'engine-not-ready' ? 0 : 1,
  })),
  {
    name: '/quotes/v2/ready answers 503',
    plan: LADDER,
    faults: [{ match: 'GET /api/quotes/v2/ready', answer: { status: 503, body: json({ ready: false }) } }],
    codes: ['engine-not-ready'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'status: ready false',
    plan: LADDER,
    faults: [
      { match: 'GET /api/quotes/v2/status', answer: { body: patchJson((v) => void (v.ready = false)) } },
    ],
    codes: ['engine-not-ready'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'status: tip_lag null',
    plan: LADDER,
    faults: [
      { match: 'GET /api/quotes/v2/status', answer: { body: patchJson((v) => void (v.tip_lag = null)) } },
    ],
    codes: ['tip-unknown'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'status: tip_lag -5',
    plan: LADDER,
    faults: [
      { match: 'GET /api/quotes/v2/status', answer: { body: patchJson((v) => void (v.tip_lag = -5)) } },
    ],
    codes: ['tip-unknown'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'status: tip_lag 3 above the policy (0)',
    plan: LADDER,
    faults: [
      { match: 'GET /api/quotes/v2/status', answer: { body: patchJson((v) => void (v.tip_lag = 3)) } },
    ],
    codes: ['tip-lag'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'bin list: a bin id twice (which one is true cannot be known)',
    plan: LADDER,
    faults: [
      {
        match: `GET /api/quotes/v2/bins/${SBTC_POOL}`,
        answer: {
          body: patchJson((v) => {
            const bins = v.bins as Array<Record<string, unknown>>;
            const b = bins.find((x) => x.bin_id === 145);
            bins.push({ ...b, reserve_x: '1' });
          }),
        },
      },
    ],
    codes: ['unexpected-response'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'bin list: 200 with empty bins and "Pool not found"',
    plan: LADDER,
    faults: [{ match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: POOL_NOT_FOUND_200 }],
    codes: ['pool-not-found'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'bin list: HTTP 500',
    plan: LADDER,
    faults: [{ match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: { status: 500, body: 'oops' } }],
    codes: ['api-unreachable'],
    checkExit: 2,
    exportExit: 2,
  },
  {
    name: 'pools list: an HTML page',
    plan: LADDER,
    faults: [
      {
        match: 'GET /api/quotes/v2/pools',
        answer: { body: '<html>maintenance</html>', contentType: 'text/html' },
      },
    ],
    codes: ['unexpected-response'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'quote: HTTP 500 is unreachable, not "no route"',
    plan: SWAP,
    faults: [
      { match: 'POST /api/quotes/v2/quote', answer: { status: 500, body: json({ error: 'internal' }) } },
    ],
    codes: ['api-unreachable'],
    notCodes: ['swap-no-route'],
    checkExit: 2,
    exportExit: 2,
  },
  {
    name: 'quote: 200 with no route',
    plan: SWAP,
    faults: [
      {
        match: 'POST /api/quotes/v2/quote',
        answer: { body: json({ success: false, execution_path: [], error: 'No route found' }) },
      },
    ],
    codes: ['swap-no-route'],
    checkExit: 1,
    exportExit: 1,
  },
  // A swap is never clean unless its route was recomputed and executed on the state read (issue 24).
  {
    name: "swap: the route pool's bins answer HTTP 500",
    plan: SWAP,
    faults: [{ match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: { status: 500, body: 'oops' } }],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'swap: the route pool\'s bins answer 200 with empty bins and "Pool not found"',
    plan: SWAP,
    faults: [{ match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: POOL_NOT_FOUND_200 }],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: "swap: the route pool's bins answer 200 with an empty list (success, no message)",
    plan: SWAP,
    faults: [
      {
        match: `GET /api/quotes/v2/bins/${SBTC_POOL}`,
        answer: { body: patchJson((v) => void (v.bins = [])) },
      },
    ],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: "swap: the route pool's bin list repeats a bin",
    plan: SWAP,
    faults: [
      {
        match: `GET /api/quotes/v2/bins/${SBTC_POOL}`,
        answer: {
          body: patchJson((v) => {
            const bins = v.bins as Array<Record<string, unknown>>;
            bins.push({ ...bins[0], reserve_x: '1' });
          }),
        },
      },
    ],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'swap: the route pool\'s record reads "Pool not found"',
    plan: SWAP,
    faults: [
      {
        match: `GET /api/quotes/v2/pools/${SBTC_POOL}`,
        answer: { status: 404, body: json({ detail: 'Pool not found' }) },
      },
    ],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'swap: the route pool is not quotable',
    plan: SWAP,
    faults: [
      {
        match: `GET /api/quotes/v2/pools/${SBTC_POOL}`,
        answer: {
          body: patchJson((v) => {
            v.quotable = false;
          }),
        },
      },
    ],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: "swap: the route pool's active bin is 50 away from its bin list's",
    plan: SWAP,
    faults: [
      {
        match: `GET /api/quotes/v2/pools/${SBTC_POOL}`,
        answer: {
          body: patchJson((v) => {
            v.active_bin = (v.active_bin as number) + 50;
          }),
        },
      },
    ],
    codes: ['swap-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'tokens: HTTP 429 on every try',
    plan: SWAP,
    faults: [
      { match: 'GET /api/quotes/v2/tokens', answer: { status: 429, body: json({ error: 'slow down' }) } },
    ],
    codes: ['rate-limited'],
    checkExit: 2,
    exportExit: 2,
  },
  ...(['TIP_LAG', 'RECONCILE_DIRTY', 'INCOMPLETE'] as const).map((code): Row => ({
    name: `inventory: 503 ${code}`,
    plan: REBALANCE,
    inventory: true,
    faults: [{ match: INVENTORY, answer: { status: 503, body: json({ code, message: 'not now' }) } }],
    codes: ['inventory-unavailable'],
    checkExit: 1,
    exportExit: 1,
  })),
  {
    name: 'inventory: 200 with clean false',
    plan: REBALANCE,
    inventory: true,
    faults: [{ match: INVENTORY, answer: { body: patchJson((v) => void (v.clean = false)) } }],
    codes: ['inventory-unavailable'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'inventory: 200 with tip_lag null',
    plan: REBALANCE,
    inventory: true,
    faults: [{ match: INVENTORY, answer: { body: patchJson((v) => void (v.tip_lag = null)) } }],
    codes: ['inventory-unavailable'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'inventory: 200 with tip_lag above the policy',
    plan: REBALANCE,
    inventory: true,
    faults: [{ match: INVENTORY, answer: { body: patchJson((v) => void (v.tip_lag = 7)) } }],
    codes: ['inventory-unavailable'],
    checkExit: 1,
    exportExit: 1,
  },
  {
    name: 'node: get-bin-balances HTTP 500',
    plan: LADDER,
    faults: [{ match: /^POST \/node\/v2\/contracts\/call-read\//, answer: { status: 500, body: 'down' } }],
    codes: ['api-unreachable'],
    checkExit: 2,
    exportExit: 2,
  },
  {
    // (ok (int 5)): a balance is a uint; any other shape is no balance, never read as one.
    name: "node: a token's get-balance answers (ok int), not (ok uint)",
    plan: LADDER,
    faults: [
      {
        match: SBTC_BALANCE,
        answer: { body: json({ okay: true, result: '0x070000000000000000000000000000000005' }) },
      },
    ],
    codes: ['unexpected-response', 'balance-unchecked'],
    checkExit: 1,
    exportExit: 1,
  },
  // Issue 46: numbers through a double. Each is a real answer with one number written another way.
  numberRow('a bin reserve of 1899999999.99999999999999999999', LADDER, SBTC_BINS, (v) => {
    firstBin(v).reserve_x = literal('1899999999.99999999999999999999');
  }),
  numberRow('a bin reserve of 1e-400', LADDER, SBTC_BINS, (v) => {
    firstBin(v).reserve_y = literal('1e-400');
  }),
  numberRow('a bin id of 138.99999999999999999999', LADDER, SBTC_BINS, (v) => {
    firstBin(v).bin_id = literal('138.99999999999999999999');
  }),
  numberRow('a bin reserve beyond uint128', LADDER, SBTC_BINS, (v) => {
    firstBin(v).reserve_x = String(1n << 128n);
  }),
  numberRow('a pool reserve of 1e-400', LADDER, `GET /api/quotes/v2/pools/${SBTC_POOL}`, (v) => {
    v.reserve_x = literal('1e-400');
  }),
  numberRow(
    'inventory shares of 1899999999.99999999999999999999',
    REBALANCE,
    INVENTORY,
    (v) => {
      firstBin(v).shares = literal('1899999999.99999999999999999999');
    },
    true,
  ),
  numberRow(
    'an inventory tip_lag of 1e-400 (never caught up)',
    REBALANCE,
    INVENTORY,
    (v) => {
      v.tip_lag = literal('1e-400');
    },
    true,
  ),
  numberRow('a status tip_lag of 1e-400 (never caught up)', REBALANCE, 'GET /api/quotes/v2/status', (v) => {
    v.tip_lag = literal('1e-400');
  }),
  // Issue 46: node answers decoded only when whole and exactly (ok uint).
  balanceRow('truncated (15 bytes of uint)', `0x0701${'ff'.repeat(15)}`),
  balanceRow('with trailing bytes', `${WHOLE_BALANCE}00`),
  balanceRow('with a digit that is not hex', `${WHOLE_BALANCE.slice(0, -1)}g`),
  {
    name: "node: a token's get-balance HTTP 500",
    plan: LADDER,
    faults: [{ match: SBTC_BALANCE, answer: { status: 500, body: 'down' } }],
    codes: ['api-unreachable', 'balance-unchecked'],
    checkExit: 2,
    exportExit: 2,
  },
];

function captureIO(
  cwd: string,
  env: Record<string, string | undefined>,
): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env,
    cwd,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

describe('fault injection: never a false "clean" (hostile service on loopback)', function () {
  this.timeout(60_000);
  let h: HostileService;
  let dir: string;
  before(async () => {
    h = await startHostile({ nodePerMinute: 10_000 });
    dir = await mkdtemp(join(tmpdir(), 'dlmm-faults-'));
    for (const f of [REBALANCE, LADDER, SWAP]) await copyFile(join('examples', f), join(dir, f));
  });
  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const check = async (row: Pick<Row, 'plan' | 'inventory'>) => {
    const io = captureIO(dir, envFor(h, { inventory: row.inventory === true }));
    const code = await main(['check', row.plan, '--api', h.url, '--format', 'json'], io);
    const report = JSON.parse(io.stdout) as {
      files: Array<{ diagnostics: Array<{ code: string; severity: string; message: string }> }>;
    };
    return { code, diagnostics: report.files.flatMap((f) => f.diagnostics), io };
  };
  const exportTo = async (row: Pick<Row, 'plan' | 'inventory'>, out: string) => {
    const io = captureIO(dir, envFor(h, { inventory: row.inventory === true }));
    const code = await main(['export', row.plan, '--api', h.url, '--format', 'json', '--out', out], io);
    return { code, io };
  };

  it('the example plans are clean without faults (the baseline every row departs from)', async () => {
    h.setFaults([]);
    for (const plan of [REBALANCE, LADDER, SWAP]) {
      for (const inventory of [false, true]) {
        const r = await check({ plan, inventory });
        const bad = r.diagnostics.filter((d) => d.severity !== 'info');
        assert.deepEqual(bad, [], `${plan} (inventory ${inventory}): ${r.io.stderr}`);
        assert.equal(r.code, 0);
      }
    }
  });

  for (const row of ROWS) {
    it(row.name, async () => {
      h.setFaults(row.faults);
      const r = await check(row);
      const codes = r.diagnostics.map((d) => d.code);
      assert.ok(
        h.seen.some((s) =>
          row.faults.some((f) => (typeof f.match === 'string' ? f.match === s.line : f.match.test(s.line))),
        ),
        'the fault was hit',
      );
      for (const c of row.codes) assert.ok(codes.includes(c), `expected ${c} among ${codes.join(', ')}`);
      for (const c of row.notCodes ?? []) assert.ok(!codes.includes(c), `${c} must not be reported`);
      assert.equal(r.code, row.checkExit, `check exit (findings: ${codes.join(', ')})`);
      // Check and export agree: a plan the export refuses never checks clean, and one it writes never red.
      assert.equal(row.checkExit !== 0, row.exportExit !== 0, 'check and export agree on this fault');

      const out = join(dir, `${row.name.replace(/[^a-z0-9]+/gi, '-')}.json`);
      const e = await exportTo(row, out);
      assert.equal(e.code, row.exportExit, e.io.stderr);
      if (row.exportExit !== 0) {
        assert.equal(await exists(out), false, 'export wrote nothing');
        assert.equal(e.io.stdout, '');
      } else {
        h.setFaults([]);
        const clean = join(dir, 'clean-' + row.plan + '.json');
        assert.equal((await exportTo(row, clean)).code, 0);
        assert.equal(
          await readFile(out, 'utf8'),
          await readFile(clean, 'utf8'),
          'same export as without the fault',
        );
      }
    });
  }

  it('an unchecked swap is exported only with --allow-unchecked-swap, and its summary says so', async () => {
    h.setFaults([{ match: `GET /api/quotes/v2/bins/${SBTC_POOL}`, answer: { status: 500, body: 'oops' } }]);
    const out = join(dir, 'swap-unchecked-allowed.txt');
    const io = captureIO(dir, envFor(h, { inventory: false }));
    const code = await main(
      ['export', SWAP, '--api', h.url, '--format', 'summary', '--out', out, '--allow-unchecked-swap'],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const summary = await readFile(out, 'utf8');
    assert.match(summary, /UNCHECKED SWAP exported with --allow-unchecked-swap: this swap was not checked/);
    assert.match(summary, /could not be read/);
  });

  it('bin list liquidity is never used as bin shares: the export is the fault-free one', async () => {
    h.setFaults([]);
    const clean = join(dir, 'ladder-clean.json');
    assert.equal((await exportTo({ plan: LADDER }, clean)).code, 0);
    h.setFaults([
      {
        match: `GET /api/quotes/v2/bins/${SBTC_POOL}`,
        answer: {
          body: patchJson(
            (v) => void (v.bins as Array<Record<string, unknown>>).forEach((b) => (b.liquidity = '1')),
          ),
        },
      },
    ]);
    const faulted = join(dir, 'ladder-liquidity-1.json');
    const r = await exportTo({ plan: LADDER }, faulted);
    assert.equal(r.code, 0, r.io.stderr);
    assert.ok(h.seen.some((s) => s.line.startsWith('GET /api/quotes/v2/bins/')));
    assert.equal(await readFile(faulted, 'utf8'), await readFile(clean, 'utf8'));
  });
});
