/**
 * Export of a 350-position add: the in-process build with serialization to tx-hex (budget <= 50 ms), and
 * what a user waits for: `dlmm export` run as users run it (a new node process of bin/dlmm.js) against the
 * simulator over loopback, repeated with every read of that height already in the on-disk answers (one run
 * first writes them), beside `dlmm check --offline` of the same plan file in the same rounds (interleaved,
 * medians; budget <= 3x). The requests each repeat still sends are printed beside it. And the in-process
 * check + export of a 350-position plan and of a swap plan on the simulator beside the check alone, in
 * interleaved rounds: the export takes the check's build (issue #27 item 2).
 */
import { createApiClient } from '../../core/api/client';
import { analyzePlan } from '../../core/check/analyze';
import { createLiveSession } from '../../core/live/live';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTransactions } from '../../core/tx/build';
import { formatWalletRequest, txHexes } from '../../core/tx/formats';
import type { PreparedOperation } from '../../core/prepare/prepared';
import {
  DEFAULT_SIM_API_KEY,
  DEFAULT_USER,
  DEFAULT_WORLD_INPUT,
  POOL_SBTC_USDCX,
  SBTC,
  USDCX,
} from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { parseWorld } from '../../core/sim/world';
import { ROOT } from '../integration/lsp/harness';
import { addItem, analysisOf, PUBLIC_KEY, snapshot, testEngine, USER } from '../unit/tx/fixtures';
import { median, timeIt, versus, type BenchRow } from './types';

export async function bench(): Promise<BenchRow[]> {
  return [...(await inProcess()), ...(await wholeProcess())];
}

async function inProcess(): Promise<BenchRow[]> {
  const engine = testEngine();
  const p = engine.poolByPrincipal(POOL_SBTC_USDCX)!;
  const items = Array.from({ length: 350 }, (_, i) =>
    addItem(engine, p, i, p.activeBinId + 1 + (i % 200), 1000n + BigInt(i), 0n),
  );
  const op: PreparedOperation = {
    id: 'bench',
    index: 0,
    op: 'add',
    mode: 'strict',
    pool: snapshot(engine, p),
    items,
  };
  const analysis = analysisOf(engine, [op]);
  const once = async () => {
    const r = await buildTransactions(analysis, {
      publicKey: PUBLIC_KEY,
      nonce: 1n,
      fee: 1000n,
      now: () => 0,
    });
    if (!r.ok) throw new Error(r.error.message);
    await txHexes(r.transactions, { publicKey: PUBLIC_KEY, nonce: 1n, fee: 1000n });
    formatWalletRequest(r.transactions);
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)]!;
  return [
    {
      name: 'export 350-position add (build + tx-hex + wallet-request, p50)',
      value: p50,
      unit: 'ms',
      budget: '<= 50 ms',
      ok: p50 <= 50,
    },
    ...(await checkThenExport()),
  ];
}

const ROUNDS = 11;
const POSITIONS = 350;

/** A strict add of 350 positions on sBTC/USDCx: bids on the 175 bins below the active one, asks above. */
export function widePlan(active: number): string {
  const bins: string[] = [];
  for (let id = active - POSITIONS / 2; id < active; id++)
    bins.push(`      - { bin_id: ${id}, x_amount: 0, y_amount: ${20_000 + (id & 15)} }`);
  for (let id = active + 1; id <= active + POSITIONS / 2; id++)
    bins.push(`      - { bin_id: ${id}, x_amount: ${1_000 + (id & 15)}, y_amount: 0 }`);
  return `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: wide
    op: add
    mode: strict
    pool: ${POOL_SBTC_USDCX}
    bins:
${bins.join('\n')}
`;
}

/** Wall time (ms) of one `node bin/dlmm.js ARGS` with `env`; NaN when it did not exit with `expect`. */
function run(args: string[], env: Record<string, string | undefined>, expect = 0): Promise<number> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'dlmm.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', () => done(NaN));
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== expect) process.stderr.write(`dlmm ${args[0]} exited ${code}: ${err.slice(0, 400)}\n`);
      done(code === expect ? ms : NaN);
    });
  });
}

async function wholeProcess(): Promise<BenchRow[]> {
  // The default world with liquidity over +-200 bins around the active one, so all 350 target bins exist.
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  const pools = input.pools as Array<{ id: string; liquidity: { bins_below: number; bins_above: number } }>;
  const pool = pools.find((p) => p.id === POOL_SBTC_USDCX)!;
  pool.liquidity.bins_below = 200;
  pool.liquidity.bins_above = 200;
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, world: parseWorld(input, 'wide-bench') });
  const tmp = mkdtempSync(join(tmpdir(), 'dlmm-bench-export-'));
  try {
    const cacheDir = join(tmp, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    const plan = join(tmp, 'wide.dlmm.yaml');
    const active = (await (await fetch(`${sim.url}/quotes/v2/pools/${POOL_SBTC_USDCX}`)).json()) as {
      active_bin: number;
    };
    writeFileSync(plan, widePlan(active.active_bin));
    // What a user's shell holds after `dlmm sim` (its three URLs) and nothing else of ours.
    const env = {
      PATH: process.env.PATH,
      DLMM_CACHE_DIR: cacheDir,
      DLMM_API_URL: sim.url,
      DLMM_INVENTORY_URL: sim.inventoryUrl,
      DLMM_NODE_URL: sim.nodeUrl,
    };
    const exportArgs = ['export', plan, '--format', 'wallet-request'];
    const checkArgs = ['check', '--offline', plan];
    // The first export reads the engine and the node and writes the on-disk answers of this height.
    await run(exportArgs, env);
    await run(checkArgs, env);
    const exports: number[] = [];
    const checks: number[] = [];
    const before = sim.requests();
    for (let i = 0; i < ROUNDS; i++) {
      checks.push(await run(checkArgs, env));
      exports.push(await run(exportArgs, env));
    }
    const after = sim.requests();
    const peer = { name: `dlmm check --offline of the same plan`, value: median(checks) };
    return [
      versus(
        `dlmm export ${POSITIONS}-position add, reads cached (process, median of ${ROUNDS})`,
        median(exports),
        'ms',
        peer,
        3,
      ),
      {
        name: 'service requests per repeated export',
        value: (after.service - before.service) / ROUNDS,
        unit: 'count',
      },
      {
        name: 'node requests per repeated export',
        value: (after.node - before.node) / ROUNDS,
        unit: 'count',
        budget: '0 (every bin read cached at this height)',
        ok: after.node === before.node,
      },
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await sim.close();
  }
}

/** `analyzePlan` then `buildTransactions` in process, warm session, beside `analyzePlan` alone. */
async function checkThenExport(): Promise<BenchRow[]> {
  // A pool with liquidity over ±200 bins around its active bin (every target listed), the user the key's.
  const input = structuredClone(DEFAULT_WORLD_INPUT);
  input.users = (input.users ?? []).map((u) => ({ ...u, address: USER }));
  const pools = input.pools as Array<{ id: string; liquidity: { bins_below: number; bins_above: number } }>;
  const pool = pools.find((x) => x.id === POOL_SBTC_USDCX) as (typeof pools)[number];
  pool.liquidity.bins_below = 200;
  pool.liquidity.bins_above = 200;
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, world: parseWorld(input, 'bench-wide') });
  const api = createApiClient({
    baseUrl: sim.url,
    inventoryUrl: sim.inventoryUrl,
    nodeUrl: sim.nodeUrl,
    apiKey: DEFAULT_SIM_API_KEY,
  });
  try {
    const bins = Array.from({ length: 350 }, (_, i) => {
      const o = i - 175;
      return `      - { bin_id: ${139 + o}, x_amount: ${o >= 0 ? 1000 : 0}, y_amount: ${o <= 0 ? 2500 : 0} }`;
    });
    const text = `version: 1\nsender: ${USER}\noperations:\n  - id: ladder\n    op: add\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n${bins.join('\n')}\n`;
    // The same ladder in simple mode (offsets from the active bin), whose bounds cover the active-bin window.
    const offsets = Array.from({ length: 350 }, (_, i) => {
      const o = i - 175;
      return `      - { active_bin_offset: ${o}, x_amount: ${o >= 0 ? 1000 : 0}, y_amount: ${o <= 0 ? 2500 : 0} }`;
    });
    const simple = `version: 1\nsender: ${USER}\noperations:\n  - id: ladder\n    op: add\n    mode: simple\n    pool: ${POOL_SBTC_USDCX}\n    bins:\n${offsets.join('\n')}\n`;
    const swap = `version: 1\nsender: ${USER}\noperations:\n  - { id: sell, op: swap, input_token: ${SBTC}, output_token: ${USDCX}, amount_in: 10000000 }\n`;
    const rows: BenchRow[] = [];
    for (const [what, plan] of [
      ['350 positions', text],
      ['350 positions simple', simple],
      ['one swap', swap],
    ] as const) {
      const session = createLiveSession();
      const exportOnce = async (signing: boolean) => {
        const analysis = await analyzePlan(plan, { api, session });
        const r = await buildTransactions(analysis, {
          api,
          ...(signing ? { publicKey: PUBLIC_KEY, nonce: 1n, fee: 1000n } : {}),
        });
        if (!r.ok) throw new Error(r.error.message);
      };
      for (let i = 0; i < 10; i++) await exportOnce(true);
      // Interleaved rounds (the machine is shared): check alone, export without a fee, export with one.
      const check: number[] = [];
      const plain: number[] = [];
      const signed: number[] = [];
      for (let i = 0; i < 31; i++) {
        check.push(await timeIt(1, () => analyzePlan(plan, { api, session })));
        plain.push(await timeIt(1, () => exportOnce(false)));
        signed.push(await timeIt(1, () => exportOnce(true)));
      }
      const peer = { name: 'the check alone', value: median(check) };
      rows.push(
        { name: `check + export in process, ${what}, no fee (p50)`, value: median(plain), unit: 'ms', peer },
        {
          name: `check + export in process, ${what}, with fee (p50)`,
          value: median(signed),
          unit: 'ms',
          peer,
        },
      );
    }
    return rows;
  } finally {
    await api.close?.();
    await sim.close();
  }
}
