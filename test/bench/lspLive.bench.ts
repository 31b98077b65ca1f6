/**
 * Keystroke -> live diagnostics, beside the peer in the same run: our language server (full live check
 * against the simulated engine over loopback) and Red Hat's yaml-language-server (schema only), both over
 * real JSON-RPC, editing the same plan, keystrokes interleaved (ours, then the peer's, and again) so both
 * see the same machine load. Each figure is the time beyond the server's own debounce: ours 150 ms (the
 * extension's default), yaml-language-server's 200 ms (its validationDelayMs). Also the service and node
 * requests each of our keystrokes made.
 *
 * Our debounce holds only the publish (the analysis starts at the change), so two more rows keep the work
 * itself in view: the same keystrokes to a third server of ours with no debounce (keystroke -> live
 * diagnostics is then all work), beside the peer's time beyond its debounce; and the server CPU of a typing
 * burst (BURST keystrokes BURST_GAP_MS apart, until the last version's live diagnostics), which analyses
 * every keystroke where a debounce that held the analysis made one, beside the peer's for the same burst.
 * What a held analysis sends waits for the debounce's end, so a burst typing a swap amount (1, 12, 123, ...)
 * asks the engine what one analysis after the pause asks: the requests per such burst are counted, beside
 * those of another build's server for the same bursts when DLMM_BENCH_BASELINE names its checkout (built).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../core/sim/server';
import { SERVER_EXEC_ARGV } from '../../client/src/serverProcess';
import { extensionServer, startLsp, type LspSession } from '../integration/lsp/harness';
import { planText } from './lsp.bench';
import { versus, type BenchRow } from './types';
import { startYamlLanguageServer } from './yamlPeer';

const OUR_DEBOUNCE_MS = 150;
/** yaml-language-server's validation delay (its yamlSettings.validationDelayMs; not a setting). */
const PEER_DEBOUNCE_MS = 200;
/**
 * Keystrokes counted. A p95 of 40 was the second-slowest keystroke, so one collector pause on either side
 * moved the ratio from 0.7x to 1.6x between runs on a quiet machine; with 200, ten keystrokes lie above it.
 */
const ROUNDS = 200;
/** Keystrokes not counted (either server's first ones after open pay for JIT warm-up). */
const WARMUP = 5;
/** A typing burst: this many keystrokes on the add, this far apart (a fast typist), BURSTS times per server. */
const BURST = 20;
const BURST_GAP_MS = 40;
const BURSTS = 10;
/** Bursts typing a swap's amount digit by digit (BURST_GAP_MS apart), per server. */
const SWAP_BURSTS = 5;

const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function bench(): Promise<BenchRow[]> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const plan = planText(40);
  let ours: LspSession | undefined;
  let peer: LspSession | undefined;
  let zero: LspSession | undefined;
  let zeroSim: RunningSimulator | undefined;
  try {
    // As the extension starts it (dist/server.js with its Node flags) and with its defaults: the engine
    // watch reads the status every 5 s, which keeps the state height known to the analyses (a watch slowed
    // for the bench would make every sixth second's keystroke read it itself).
    ours = await startLsp({
      command: extensionServer(),
      env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
      initializationOptions: { debounceMs: OUR_DEBOUNCE_MS, analysisEvents: true },
    });
    peer = await startYamlLanguageServer();
    // The same server with no debounce: what the keystroke's work itself takes (on a simulator of its own,
    // so that the requests counted are those of the first server alone).
    zeroSim = await startSimulator({ host: '127.0.0.1', port: 0 });
    zero = await startLsp({
      command: extensionServer(),
      env: { DLMM_API_URL: zeroSim.url, DLMM_NODE_URL: zeroSim.nodeUrl },
      initializationOptions: { debounceMs: 0, analysisEvents: true },
    });
    const ourUri = 'file:///bench/live/ours.dlmm.yaml';
    const peerUri = 'file:///bench/live/peer.dlmm.yaml';
    const zeroUri = 'file:///bench/live/zero.dlmm.yaml';
    ours.open(ourUri, plan);
    await ours.live(ourUri, 1, 30_000);
    peer.open(peerUri, plan);
    await peer.diagnostics(peerUri, () => true, 30_000);
    zero.open(zeroUri, plan);
    await zero.live(zeroUri, 1, 30_000);

    const cpuStart = { ours: cpuMs(ours.child.pid), peer: cpuMs(peer.child.pid) };
    const ourTimes: number[] = [];
    const peerTimes: number[] = [];
    const zeroTimes: number[] = [];
    const requests: number[] = [];
    let text = plan;
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      // An amount typed on the add (what a user changes most): the same text goes to both servers.
      text = text.replace(/x_amount: 2000\d*/, `x_amount: 2000${i}`);
      const sent = sim.requests();
      let start = performance.now();
      const version = ours.change(ourUri, text);
      await ours.live(ourUri, version, 15_000);
      ourTimes.push(performance.now() - start - OUR_DEBOUNCE_MS);
      const now = sim.requests();
      requests.push(now.service + now.node - sent.service - sent.node);

      // The peer publishes without a version: its next publish after the change is this keystroke's.
      const published = peer.publishCount(peerUri, undefined as unknown as number);
      start = performance.now();
      peer.change(peerUri, text);
      await peer.diagnostics(
        peerUri,
        () => peer!.publishCount(peerUri, undefined as unknown as number) > published,
        15_000,
      );
      peerTimes.push(performance.now() - start - PEER_DEBOUNCE_MS);

      // The same keystroke to our server with no debounce (its CPU is not counted in ours').
      start = performance.now();
      const zeroVersion = zero.change(zeroUri, text);
      await zero.live(zeroUri, zeroVersion, 15_000);
      zeroTimes.push(performance.now() - start);
    }
    const counted = ROUNDS + WARMUP;
    const cpu = {
      ours: (cpuMs(ours.child.pid) - cpuStart.ours) / counted,
      peer: (cpuMs(peer.child.pid) - cpuStart.peer) / counted,
    };
    // Typing bursts, ours and the peer's interleaved: CPU from the first keystroke to the last version's
    // (live) diagnostics.
    const burstCpu = { ours: 0, peer: 0 };
    let typed = 0;
    const burst = async (type: (text: string) => number | void): Promise<void> => {
      for (let k = 0; k < BURST; k++) {
        text = text.replace(/x_amount: 2000\d*/, `x_amount: 2000${ROUNDS + WARMUP + typed++}`);
        type(text);
        if (k < BURST - 1) await delay(BURST_GAP_MS);
      }
    };
    for (let b = 0; b < BURSTS; b++) {
      let c0 = cpuMs(ours.child.pid);
      let last = 0;
      await burst((t) => (last = ours!.change(ourUri, t)));
      await ours.live(ourUri, last, 15_000);
      burstCpu.ours += cpuMs(ours.child.pid) - c0;

      c0 = cpuMs(peer.child.pid);
      const published = peer.publishCount(peerUri, undefined as unknown as number);
      await burst((t) => void peer!.change(peerUri, t));
      await peer.diagnostics(
        peerUri,
        () => peer!.publishCount(peerUri, undefined as unknown as number) > published,
        15_000,
      );
      burstCpu.peer += cpuMs(peer.child.pid) - c0;
    }
    // Swap-amount bursts: requests (service + node) from the first keystroke to the last version's live
    // diagnostics, ours and the baseline's interleaved (each server on a simulator of its own).
    const swapRequests = await swapBursts(process.env.DLMM_BENCH_BASELINE);
    ourTimes.splice(0, WARMUP);
    peerTimes.splice(0, WARMUP);
    zeroTimes.splice(0, WARMUP);
    requests.splice(0, WARMUP);
    if (process.env.DLMM_BENCH_VERBOSE)
      process.stderr.write(
        `ours: ${ourTimes.map((x) => x.toFixed(0)).join(' ')}\npeer: ${peerTimes.map((x) => x.toFixed(0)).join(' ')}\n`,
      );
    const yls = `yaml-language-server (beyond its ${PEER_DEBOUNCE_MS} ms)`;
    const perKeystroke = requests.reduce((a, b) => a + b, 0) / requests.length;
    return [
      versus(
        `keystroke on an add -> live diagnostics beyond ${OUR_DEBOUNCE_MS} ms debounce (p95 of ${ROUNDS})`,
        p95(ourTimes),
        'ms',
        { name: yls, value: p95(peerTimes) },
        0.8,
      ),
      versus(`keystroke on an add -> live diagnostics beyond debounce (p50)`, p50(ourTimes), 'ms', {
        name: yls,
        value: p50(peerTimes),
      }),
      // CPU time (user + system, all threads) per keystroke: what the machine's load stretches the latency of.
      versus('server CPU per keystroke (user + system)', cpu.ours, 'ms', {
        name: 'yaml-language-server',
        value: cpu.peer,
      }),
      // The work a keystroke's live diagnostics wait for, with no debounce at all.
      versus(
        `keystroke on an add -> live diagnostics, debounce 0 (the work itself, p50)`,
        p50(zeroTimes),
        'ms',
        {
          name: yls,
          value: p50(peerTimes),
        },
      ),
      versus(
        `keystroke on an add -> live diagnostics, debounce 0 (the work itself, p95)`,
        p95(zeroTimes),
        'ms',
        {
          name: yls,
          value: p95(peerTimes),
        },
      ),
      // Every keystroke of a burst is analysed (the debounce holds only the publish).
      versus(
        `server CPU per typing burst (${BURST} keystrokes ${BURST_GAP_MS} ms apart, user + system)`,
        burstCpu.ours / BURSTS,
        'ms',
        { name: 'yaml-language-server', value: burstCpu.peer / BURSTS },
      ),
      swapRequests.baseline === undefined
        ? {
            name: `requests per typing burst on a swap amount (${SWAP_DIGITS} digits ${BURST_GAP_MS} ms apart)`,
            value: swapRequests.ours,
            unit: 'count',
          }
        : versus(
            `requests per typing burst on a swap amount (${SWAP_DIGITS} digits ${BURST_GAP_MS} ms apart)`,
            swapRequests.ours,
            'count',
            { name: `the server of ${process.env.DLMM_BENCH_BASELINE}`, value: swapRequests.baseline },
          ),
      // The engine watch's status polls (one per 5 s) are counted when one lands inside a keystroke.
      {
        name: "requests per keystroke on an add (the engine watch's polls included)",
        value: perKeystroke,
        unit: 'count',
      },
    ];
  } finally {
    await ours?.close();
    await peer?.close();
    await zero?.close();
    await zeroSim?.close();
    await sim.close();
  }
}

/** Digits typed per swap-amount burst. */
const SWAP_DIGITS = 6;

/**
 * Requests per swap-amount burst: the plan's swap amount typed anew digit by digit (a new amount each
 * burst, so no quote of the last one is kept), with the extension's debounce; ours, and the server of the
 * checkout `baseline` (its dist/server.js) when given, bursts interleaved.
 */
async function swapBursts(baseline: string | undefined): Promise<{ ours: number; baseline?: number }> {
  const servers: Array<{ name: 'ours' | 'baseline'; sim: RunningSimulator; lsp: LspSession; total: number }> =
    [];
  const plan = planText(40);
  const uri = 'file:///bench/live/swap.dlmm.yaml';
  try {
    const commands: Array<['ours' | 'baseline', { cmd: string; args: string[] }]> = [
      ['ours', extensionServer()],
    ];
    if (baseline !== undefined)
      commands.push([
        'baseline',
        {
          cmd: process.execPath,
          args: [...SERVER_EXEC_ARGV, join(baseline, 'dist', 'server.js'), '--stdio'],
        },
      ]);
    for (const [name, command] of commands) {
      const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
      const lsp = await startLsp({
        command,
        env: { DLMM_API_URL: sim.url, DLMM_NODE_URL: sim.nodeUrl },
        initializationOptions: { debounceMs: OUR_DEBOUNCE_MS, analysisEvents: true },
      });
      servers.push({ name, sim, lsp, total: 0 });
      lsp.open(uri, plan);
      await lsp.live(uri, 1, 30_000);
    }
    for (let b = 0; b < SWAP_BURSTS; b++) {
      const amount = String(100_000 + 7_919 * (b + 1));
      for (const server of servers) {
        const before = server.sim.requests();
        let last = 0;
        for (let k = 1; k <= SWAP_DIGITS; k++) {
          last = server.lsp.change(
            uri,
            plan.replace(/amount_in: 100000\n/, `amount_in: ${amount.slice(0, k)}\n`),
          );
          if (k < SWAP_DIGITS) await delay(BURST_GAP_MS);
        }
        await server.lsp.live(uri, last, 15_000);
        const after = server.sim.requests();
        server.total += after.service + after.node - before.service - before.node;
      }
    }
    const perBurst = (name: 'ours' | 'baseline') => {
      const server = servers.find((s) => s.name === name);
      return server ? server.total / SWAP_BURSTS : undefined;
    };
    const baselineCount = perBurst('baseline');
    return { ours: perBurst('ours')!, ...(baselineCount !== undefined ? { baseline: baselineCount } : {}) };
  } finally {
    for (const server of servers) {
      await server.lsp.close();
      await server.sim.close();
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU time a process used so far (user + system, in ms; clock-tick resolution), from /proc; NaN elsewhere. */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** USER_HZ: the unit of /proc's CPU times (100 on Linux on every architecture Node runs on). */
const CLOCK_TICKS_PER_SECOND = 100;
