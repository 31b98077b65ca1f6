/**
 * A hostile service on loopback: a small proxy, written for these tests, in front of the real simulated
 * engine. Every request is forwarded to the simulator unchanged, except those a fault matches, which get the
 * fault's answer instead (a wrong body, a status, a truncated or HTML page, an echoed key, a hang).
 *
 * Mocked on purpose: the simulator follows the interface document and never misbehaves, so no real part can
 * produce these answers; only the faulted read is fake, everything else is the real engine over real HTTP.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJsonExact, stringifyJsonExact } from '../../../core/api/json';
import { DEFAULT_SIM_API_KEY, defaultWorld } from '../../../core/sim/defaultWorld';
import { startSimulator, type RunningSimulator } from '../../../core/sim/server';

/** What a faulted request gets. `body` as a function sees the simulator's true answer first. */
export interface FaultAnswer {
  status?: number;
  body?: string | ((real: { status: number; text: string }, req: IncomingMessage) => string);
  contentType?: string;
  /** Headers sent with it (e.g. X-RateLimit-Remaining), besides the content type. */
  headers?: Record<string, string>;
}

export interface Fault {
  /** e.g. "GET /api/quotes/v2/ready" or a RegExp on "METHOD /path". */
  match: string | RegExp;
  answer: FaultAnswer;
  /** Fault only the first `times` matching requests (then forward them faithfully); every one when absent. */
  times?: number;
}

export interface HostileService {
  /** Service base, ending in /api. */
  url: string;
  inventoryUrl: string;
  nodeUrl: string;
  sim: RunningSimulator;
  /** Replaces the active faults (none = a faithful proxy). */
  setFaults(faults: Fault[]): void;
  /** Headers of every request the proxy saw (to check what the client sent). */
  seen: Array<{ line: string; apiKey: string | undefined }>;
  close(): Promise<void>;
}

/** The environment of a CLI run against the hostile service (key, inventory, node as asked). */
export function envFor(
  h: HostileService,
  opts: { inventory?: boolean; node?: boolean; apiKey?: string } = {},
): Record<string, string | undefined> {
  return {
    DLMM_API_KEY: opts.apiKey ?? DEFAULT_SIM_API_KEY,
    ...(opts.inventory ? { DLMM_INVENTORY_URL: h.inventoryUrl } : {}),
    ...(opts.node === false ? {} : { DLMM_NODE_URL: h.nodeUrl }),
  };
}

/**
 * Starts the simulator and the proxy in front of it. `nodePerMinute` raises the simulator's node limit (the
 * default world's 500 a minute): a suite of many rows, each a check and an export reading the node afresh,
 * would otherwise meet the simulator's own 429s, which are not the fault a row is about.
 */
export async function startHostile(opts: { nodePerMinute?: number } = {}): Promise<HostileService> {
  const world = defaultWorld();
  if (opts.nodePerMinute !== undefined) world.limits.node_requests_per_minute = opts.nodePerMinute;
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, world });
  const simUrl = new URL(sim.url);
  let faults: Fault[] = [];
  /** How many requests each fault has answered. */
  const used = new Map<Fault, number>();
  const seen: HostileService['seen'] = [];

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; text: string; headers: Record<string, string> }> =>
    new Promise((resolve, reject) => {
      // The client's key is recorded in `seen`; the simulator gets its own accepted key instead.
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: simUrl.host };
      if (headers['x-api-key'] !== undefined) headers['x-api-key'] = DEFAULT_SIM_API_KEY;
      const out = request(
        { host: simUrl.hostname, port: simUrl.port, method: req.method, path: req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              text: Buffer.concat(chunks).toString('utf8'),
              headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const line = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    const key = req.headers['x-api-key'];
    seen.push({ line, apiKey: typeof key === 'string' ? key : undefined });
    const fault = faults.find(
      (f) =>
        (typeof f.match === 'string' ? f.match === line : f.match.test(line)) &&
        (f.times === undefined || (used.get(f) ?? 0) < f.times),
    );
    if (fault) used.set(fault, (used.get(fault) ?? 0) + 1);
    const real = await forward(req, body);
    if (!fault) {
      res.writeHead(real.status, real.headers);
      res.end(real.text);
      return;
    }
    const a = fault.answer;
    const text = typeof a.body === 'function' ? a.body(real, req) : (a.body ?? real.text);
    res.writeHead(a.status ?? 200, {
      'content-type': a.contentType ?? 'application/json',
      ...(a.headers ?? {}),
    });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((e: unknown) => {
        res.writeHead(599);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/api`,
    inventoryUrl: `${origin}/api/mm/v1`,
    nodeUrl: `${origin}/node`,
    sim,
    seen,
    setFaults(f) {
      faults = f;
      used.clear();
      seen.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await sim.close();
    },
  };
}

/** JSON text of `real` with `patch(value)` applied (for "the true answer, with one field wrong"). */
export function patchJson(patch: (v: Record<string, unknown>) => unknown): FaultAnswer['body'] {
  return (real) => {
    const v = parseJsonExact(real.text) as Record<string, unknown>;
    const out = patch(v);
    return stringifyJsonExact(out === undefined ? v : out);
  };
}
