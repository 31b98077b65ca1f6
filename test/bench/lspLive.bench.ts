/**
 * Keystroke -> live diagnostics, beside the peer in the same run: our language server (full live check
 * against the simulated engine over loopback) and Red Hat's yaml-language-server (schema only), both over
 * real JSON-RPC, editing the same plan, keystrokes interleaved (ours, then the peer's, and again) so both
 * see the same machine load. Each figure is the time beyond the server's own debounce: ours 150 ms (the
 * extension's default), yaml-language-server's 200 ms (its validationDelayMs). Also the service and node
 * requests each of our keystrokes made.
 */
import { readFileSync } from 'node:fs';
import { startSimulator } from '../../core/sim/server';
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

const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function bench(): Promise<BenchRow[]> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const plan = planText(40);
  let ours: LspSession | undefined;
  let peer: LspSession | undefined;
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
    const ourUri = 'file:///bench/live/ours.dlmm.yaml';
    const peerUri = 'file:///bench/live/peer.dlmm.yaml';
    ours.open(ourUri, plan);
    await ours.live(ourUri, 1, 30_000);
    peer.open(peerUri, plan);
    await peer.diagnostics(peerUri, () => true, 30_000);

    const cpuStart = { ours: cpuMs(ours.child.pid), peer: cpuMs(peer.child.pid) };
    const ourTimes: number[] = [];
    const peerTimes: number[] = [];
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
    }
    const counted = ROUNDS + WARMUP;
    const cpu = {
      ours: (cpuMs(ours.child.pid) - cpuStart.ours) / counted,
      peer: (cpuMs(peer.child.pid) - cpuStart.peer) / counted,
    };
    ourTimes.splice(0, WARMUP);
    peerTimes.splice(0, WARMUP);
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
    await sim.close();
  }
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
