/**
 * The language server at workspace scale, over real JSON-RPC against the simulated engine, beside Red Hat's
 * yaml-language-server validating the same files against our JSON Schema: 150 plan files opened at once ->
 * every live diagnostic published (the live publish itself, announced by `dlmm/analysis`), analyses per
 * open, requests the engine received, and both servers' memory with 200 documents open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_USER,
  POOL_SBTC_USDCX,
  POOL_STX_SBTC,
  POOL_STX_USDCX,
  SBTC,
  USDCX,
} from '../../core/sim/defaultWorld';
import { startSimulator } from '../../core/sim/server';
import { extensionServer, ROOT, startLsp, type LspSession } from '../integration/lsp/harness';
import { cpuMs } from './lspLive.bench';
import { median, versus, type BenchRow } from './types';
import { startYamlLanguageServer } from './yamlPeer';

const FILES = 150;
const MEMORY_FILES = 200;
const ROUNDS = 3;
/** The node proxy's grant without a key (the interface: 500 requests per minute per IP). */
const NODE_PER_MINUTE = 500;

/** Pools of the default world: principal, active bin, the user's position bins. */
const POOLS = [
  { id: POOL_SBTC_USDCX, active: 139, positions: [136, 137, 138, 140, 141] },
  { id: POOL_STX_USDCX, active: -37, positions: [-40, -38, -36] },
  { id: POOL_STX_SBTC, active: 12, positions: [10, 15] },
];

/** A varied, schema-valid plan on the default world: strict adds near the active bin, a withdraw, a swap. */
/**
 * `scalePlan(i)` with a swap amount of its own (every even plan a different amount): each needs its own
 * quote, as plans written by people do (the plain set quotes 5 amounts, which hides the quote traffic).
 */
export function distinctAmountPlan(i: number): string {
  return scalePlan(i).replace(/amount_in: \d+\n/, `amount_in: ${100_000 + i * 1_013}\n`);
}

export function scalePlan(i: number): string {
  const p = POOLS[i % POOLS.length] as (typeof POOLS)[number];
  const bins: string[] = [];
  for (let k = 0; k < 4; k++) {
    const above = p.active + 2 + ((i + k) % 12);
    const below = p.active - 2 - ((i + 3 * k) % 12);
    bins.push(`      - { bin_id: ${above}, x_amount: ${1000 + i * 7 + k}, y_amount: 0 }`);
    bins.push(`      - { bin_id: ${below}, x_amount: 0, y_amount: ${2000 + i * 5 + k} }`);
  }
  const withdrawBin = p.positions[i % p.positions.length];
  const swap =
    i % 2 === 0
      ? `  - id: sell-${i}
    op: swap
    input_token: ${SBTC}
    output_token: ${USDCX}
    amount_in: ${100_000 + (i % 5) * 1000}
`
      : '';
  return `version: 1
sender: ${DEFAULT_USER}
operations:
  - id: ladder-${i}
    op: add
    mode: strict
    pool: ${p.id}
    bins:
${bins.join('\n')}
  - id: trim-${i}
    op: withdraw
    mode: strict
    pool: ${p.id}
    withdrawal_percentage: 10
    bins: [${withdrawBin}]
${swap}`;
}

const uriOf = (who: string, i: number) => `file:///bench/${who}/plan-${String(i).padStart(3, '0')}.dlmm.yaml`;

/** Resident set size of a process, from /proc (MB); NaN where /proc is not available. */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export async function bench(): Promise<BenchRow[]> {
  const texts = Array.from({ length: MEMORY_FILES }, (_, i) => scalePlan(i));
  // Alternating rounds with fresh servers, medians reported: the machine's load swings between runs.
  const peers = [];
  const oursAll = [];
  // 150 plans whose swaps quote distinct amounts, interleaved with the others (medians reported).
  const distinctTexts = Array.from({ length: MEMORY_FILES }, (_, i) => distinctAmountPlan(i));
  const distincts = [];
  for (let r = 0; r < ROUNDS; r++) {
    peers.push(await yamlLanguageServer(texts));
    oursAll.push(await ourServer(texts));
    distincts.push(await ourServer(distinctTexts));
  }
  const peer = { all: median(peers.map((p) => p.all)), rss: median(peers.map((p) => p.rss)) };
  const last = oursAll[oursAll.length - 1] as Awaited<ReturnType<typeof ourServer>>;
  const ours = {
    ...last,
    allLive: median(oursAll.map((o) => o.allLive)),
    rss: median(oursAll.map((o) => o.rss)),
    analysesPerOpen: Math.max(...oursAll.map((o) => o.analysesPerOpen)),
    rateLimited: Math.max(...oursAll.map((o) => o.rateLimited)),
  };
  // The distinct-amount opens against the floor the granted rate sets for the requests they need: the
  // distinct service requests of the timed opens (a request repeated is not needed, so waste never raises
  // the floor) / the granted rate (X-RateLimit-Limit). The node's reads are paced per minute and fit in one
  // window of its grant (checked below), so they set no floor of their own. And the server as other
  // editors start it: `dlmm lsp --stdio` (node bin/dlmm.js), no flags from the caller.
  const distinct = {
    allLive: median(distincts.map((d) => d.allLive)),
    needed: median(distincts.map((d) => d.neededService)),
    neededNode: Math.max(...distincts.map((d) => d.neededNode)),
    sent: Math.max(...distincts.map((d) => d.serviceRequests)),
    grantedPerSecond: Math.min(...distincts.map((d) => d.grantedPerSecond)),
    rateLimited: Math.max(...distincts.map((d) => d.rateLimited)),
    cpu: median(distincts.map((d) => d.cpu)),
  };
  const floorMs = (distinct.needed / distinct.grantedPerSecond) * 1000;
  const launched = await ourServer(texts, {
    cmd: process.execPath,
    args: [join(ROOT, 'bin', 'dlmm.js'), 'lsp', '--stdio'],
  });
  const yls = 'yaml-language-server';
  return [
    versus(
      `${FILES} open plans, distinct swap amounts -> all live diagnostics (median of ${ROUNDS})`,
      distinct.allLive,
      'ms',
      {
        name: `the floor of ${distinct.needed} needed requests at ${distinct.grantedPerSecond}/s`,
        value: floorMs,
      },
      1.1,
    ),
    // The server's CPU time for them (user + system, all threads): what the machine's load stretches.
    { name: `server CPU for them (user + system)`, value: distinct.cpu, unit: 'ms' },
    {
      name: `service requests sent for them (${distinct.needed} distinct)`,
      value: distinct.sent,
      unit: 'count',
    },
    {
      name: `node reads for them (distinct; no floor within one minute's grant)`,
      value: distinct.neededNode,
      unit: 'count',
      budget: `<= ${NODE_PER_MINUTE}`,
      ok: distinct.neededNode <= NODE_PER_MINUTE,
    },
    {
      name: `429 answers for ${FILES} opens with distinct amounts`,
      value: distinct.rateLimited,
      unit: 'count',
      budget: 'none',
      ok: distinct.rateLimited === 0,
    },
    versus(
      `memory (RSS) with ${MEMORY_FILES} live documents, dlmm lsp --stdio`,
      launched.rss,
      'MB',
      { name: yls, value: peer.rss },
      1.0,
    ),
    versus(
      `${FILES} open plans -> all live diagnostics (median of ${ROUNDS})`,
      ours.allLive,
      'ms',
      { name: `${yls}, schema only`, value: peer.all },
      1.0,
    ),
    {
      name: `analyses per open (live publishes / ${FILES} files)`,
      value: ours.analysesPerOpen,
      unit: 'x',
      budget: '1 analysis per open',
      ok: ours.analysesPerOpen === 1,
    },
    { name: `publishes for ${FILES} opens (offline + live)`, value: ours.publishes, unit: 'count' },
    { name: `service requests for ${FILES} opens`, value: ours.serviceRequests, unit: 'count' },
    { name: `node requests for ${FILES} opens`, value: ours.nodeRequests, unit: 'count' },
    {
      name: `429 answers for ${FILES} opens`,
      value: ours.rateLimited,
      unit: 'count',
      budget: 'none',
      ok: ours.rateLimited === 0,
    },
    versus(
      `memory (RSS) with ${MEMORY_FILES} live documents`,
      ours.rss,
      'MB',
      { name: yls, value: peer.rss },
      1.0,
    ),
  ];
}

async function ourServer(texts: string[], command = extensionServer()) {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, recordRequests: true });
  let lsp: LspSession | undefined;
  try {
    // As the extension starts it (default): its entry (dist/server.js) with its Node flags
    // (client/src/serverProcess.ts).
    lsp = await startLsp({
      command,
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      initializationOptions: { debounceMs: 150, statusPollMs: 600_000, analysisEvents: true },
    });
    const session = lsp;
    // Same warm-up as the peer's: one file first (code loaded, first reads made), then the timed opens.
    session.open('file:///bench/ours/warm.dlmm.yaml', texts[0] as string);
    await session.live('file:///bench/ours/warm.dlmm.yaml', 1, 30_000);
    // The service's window emptied of the warm-up's requests: the floor counts the timed opens' requests
    // only, so the timed opens start with the whole grant, as the floor assumes.
    await settle(1_100);
    const before = sim.requests();
    const logged = sim.requestLog().length;
    const cpuBefore = cpuMs(session.child.pid);
    const t0 = performance.now();
    const first = texts.slice(0, FILES).map((text, i) => {
      session.open(uriOf('ours', i), text);
      return session.live(uriOf('ours', i), 1, 60_000);
    });
    await Promise.all(first);
    const allLive = performance.now() - t0;
    const cpu = cpuMs(session.child.pid) - cpuBefore;
    // Late runs (a second analysis of the same version) would publish after this point: give them a moment.
    await settle(300);
    const after = sim.requests();
    const timed = sim.requestLog().slice(logged);
    const distinctOf = (cls: 'service' | 'node') =>
      new Set(timed.filter((r) => r.cls === cls).map((r) => r.key)).size;
    let publishes = 0;
    let liveRuns = 0;
    for (let i = 0; i < FILES; i++) {
      const events = session.analyses(uriOf('ours', i), 1);
      publishes += events.length;
      liveRuns += events.filter((l) => l).length;
    }
    const rest = texts.slice(FILES).map((text, j) => {
      session.open(uriOf('ours', FILES + j), text);
      return session.live(uriOf('ours', FILES + j), 1, 60_000);
    });
    await Promise.all(rest);
    await settle(300);
    const rss = rssMb(session.child.pid);
    return {
      allLive,
      analysesPerOpen: liveRuns / FILES,
      publishes,
      serviceRequests: after.service - before.service,
      neededService: distinctOf('service'),
      cpu,
      neededNode: distinctOf('node'),
      nodeRequests: after.node - before.node,
      rateLimited: after.rateLimited - before.rateLimited,
      rss,
      // The service's grant to a client without a key (X-RateLimit-Limit; the interface's default 50).
      grantedPerSecond: await grantedRate(sim.url),
    };
  } finally {
    await lsp?.close();
    await sim.close();
  }
}

async function yamlLanguageServer(texts: string[]) {
  const yls = await startYamlLanguageServer();
  try {
    // The schema is loaded on first use: warm it with one file so the timing is validation only (ours gets
    // the same warm-up).
    yls.open('file:///bench/yls/warm.dlmm.yaml', texts[0] as string);
    await yls.diagnostics('file:///bench/yls/warm.dlmm.yaml', () => true, 30_000);
    const t0 = performance.now();
    await Promise.all(
      texts.slice(0, FILES).map((text, i) => {
        yls.open(uriOf('yls', i), text);
        return yls.diagnostics(uriOf('yls', i), () => true, 60_000);
      }),
    );
    const all = performance.now() - t0;
    await Promise.all(
      texts.slice(FILES).map((text, j) => {
        yls.open(uriOf('yls', FILES + j), text);
        return yls.diagnostics(uriOf('yls', FILES + j), () => true, 60_000);
      }),
    );
    await settle(300);
    return { all, rss: rssMb(yls.child.pid) };
  } finally {
    await yls.close();
  }
}

function settle(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The service's stated limit per second (X-RateLimit-Limit on a status answer). */
async function grantedRate(url: string): Promise<number> {
  const res = await fetch(`${url}/quotes/v2/status`);
  await res.text();
  return Number(res.headers.get('x-ratelimit-limit') ?? NaN);
}
