/**
 * Simulator throughput on loopback: bin-ladder reads (GET /quotes/v2/bins/dlmm_1) from an undici Pool with
 * keep-alive and pipelining, against `dlmm sim` in a child process so the load generator does not share the
 * server's event loop. Fixed request count; the default world's API key lifts the per-IP limit.
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

/** Sends `count` requests with `inFlight` concurrent callers; returns per-request latencies in ms. */
async function load(pool: Pool, path: string, count: number, inFlight: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path, headers: { 'x-api-key': DEFAULT_SIM_API_KEY } });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} from ${path}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return latencies;
}

export async function bench(): Promise<BenchRow[]> {
  const sim = await startChild();
  const pool = new Pool(sim.url.origin, {
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    keepAliveTimeout: 10_000,
  });
  try {
    const path = `${sim.url.pathname}/quotes/v2/bins/dlmm_1`;
    await load(pool, path, WARMUP, CONNECTIONS * PIPELINING);
    const t0 = performance.now();
    const latencies = await load(pool, path, REQUESTS, CONNECTIONS * PIPELINING);
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    const rps = REQUESTS / seconds;
    return [
      {
        name: `sim bin-ladder reads, ${REQUESTS} requests, loopback (throughput)`,
        value: Math.round(rps),
        unit: 'req/s',
        budget: `>= ${BUDGET_RPS}`,
        ok: rps >= BUDGET_RPS,
      },
      { name: 'sim bin-ladder reads (p50 latency)', value: p(0.5), unit: 'ms' },
      { name: 'sim bin-ladder reads (p99 latency)', value: p(0.99), unit: 'ms' },
    ];
  } finally {
    await pool.close();
    await sim.stop();
  }
}
