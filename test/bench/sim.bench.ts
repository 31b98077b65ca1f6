/**
 * Simulator throughput on loopback (budget >= 5,000 requests/s for bin reads): bin-ladder reads
 * (GET /quotes/v2/bins/dlmm_1, ~12 KB) and single-bin reads (GET /quotes/v2/bins/dlmm_1/{unsigned id}, cycling
 * over the funded bins), against `dlmm sim` in a child process so the load generator does not share the
 * server's event loop. The generator is kept light because it shares the machine's cores with the server:
 * 8 keep-alive connections pipelining 8 deep, undici's raw dispatch API (no body streams, no header
 * parsing), bodies counted, not decoded. Fixed request counts; the default world's API key lifts the per-IP limit.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Pool } from 'undici';
import { DEFAULT_SIM_API_KEY } from '../../core/sim/defaultWorld';
import type { BenchRow } from './types';

const REQUESTS = 20_000;
const WARMUP = 1_000;
const CONNECTIONS = 8;
const PIPELINING = 8;
const BUDGET_RPS = 5_000;
const HEADERS = ['x-api-key', DEFAULT_SIM_API_KEY];

async function startChild(): Promise<{ url: URL; stop: () => Promise<void> }> {
  const root = join(__dirname, '../..');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'cli/src/main.ts'), 'sim', '--port', '0'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('dlmm sim did not start within 60 s')), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(buf.slice(0, nl));
      }
    });
    child.once('exit', (code) => reject(new Error(`dlmm sim exited with ${code}`)));
  });
  const m = /listening on (\S+)$/.exec(line);
  if (!m) throw new Error(`unexpected first line: ${line}`);
  return {
    url: new URL(m[1] as string),
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One GET through the raw dispatch API; resolves with the body size (bytes), rejects unless 200. */
function get(pool: Pool, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let bytes = 0;
    // The callback-style handler skips undici's header parsing and body streams (the generator's own cost).
    pool.dispatch(
      { method: 'GET', path, headers: HEADERS },
      {
        onConnect: () => {},
        onHeaders: (statusCode) => {
          status = statusCode;
          return true;
        },
        onData: (chunk) => {
          bytes += chunk.length;
          return true;
        },
        onComplete: () =>
          status === 200 ? resolve(bytes) : reject(new Error(`HTTP ${status} from ${path}`)),
        onError: reject,
      },
    );
  });
}

/** Sends `count` requests (paths taken in turn) with `inFlight` concurrent callers; per-request latencies in ms. */
async function load(pool: Pool, paths: string[], count: number, inFlight: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const path = paths[next++ % paths.length] as string;
      const t0 = performance.now();
      const bytes = await get(pool, path);
      if (bytes === 0) throw new Error(`empty body from ${path}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return latencies;
}

/** Throughput and latency rows for one kind of read. */
async function measure(pool: Pool, label: string, paths: string[]): Promise<BenchRow[]> {
  await load(pool, paths, WARMUP, CONNECTIONS * PIPELINING);
  const t0 = performance.now();
  const latencies = await load(pool, paths, REQUESTS, CONNECTIONS * PIPELINING);
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const rps = REQUESTS / seconds;
  return [
    {
      name: `sim ${label} reads, ${REQUESTS} requests, loopback (throughput)`,
      value: Math.round(rps),
      unit: 'req/s',
      budget: `>= ${BUDGET_RPS}`,
      ok: rps >= BUDGET_RPS,
    },
    { name: `sim ${label} reads (p50 latency)`, value: p(0.5), unit: 'ms' },
    { name: `sim ${label} reads (p99 latency)`, value: p(0.99), unit: 'ms' },
  ];
}

/** Unsigned ids of the pool's funded bins, read from the ladder (signed id + 500). */
async function fundedBins(pool: Pool, ladderPath: string): Promise<number[]> {
  const res = await pool.request({ method: 'GET', path: ladderPath, headers: HEADERS });
  const body = (await res.body.json()) as { bins?: { bin_id: number }[] };
  const ids = (body.bins ?? []).map((b) => b.bin_id + 500);
  if (ids.length === 0) throw new Error(`no funded bins in ${ladderPath}`);
  return ids;
}

export async function bench(): Promise<BenchRow[]> {
  const sim = await startChild();
  const pool = new Pool(sim.url.origin, {
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    keepAliveTimeout: 10_000,
  });
  try {
    const ladder = `${sim.url.pathname}/quotes/v2/bins/dlmm_1`;
    const singles = (await fundedBins(pool, ladder)).map((id) => `${ladder}/${id}`);
    return [
      ...(await measure(pool, 'bin-ladder', [ladder])),
      ...(await measure(pool, 'single-bin', singles)),
    ];
  } finally {
    await pool.close();
    await sim.stop();
  }
}
