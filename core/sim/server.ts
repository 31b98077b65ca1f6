/**
 * The simulated engine over real HTTP (node:http, loopback by default): quote v2, app v2, legacy v1 and the
 * inventory under /api, the node read-only proxy under /node, admin under /api/admin. Rate limits follow
 * the interface document: 50 requests/s per IP on the quote and app interfaces without a key, a raised
 * limit per valid X-API-Key (an unknown key gets 401), 500 requests/min per IP on the node proxy.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SimEngine } from './engine';
import { stringifyJsonExact } from '../api/json';
import { HttpError, Router, isLoopback, readJsonBody, writeReply, type RequestContext } from './http';
import { RateLimiter, type LimitDecision } from './rateLimit';
import { registerAdmin } from './routes/admin';
import { registerAppV2 } from './routes/appV2';
import { registerInventory } from './routes/inventory';
import { registerLegacyV1 } from './routes/legacyV1';
import { registerNode } from './routes/node';
import { registerCoreApi } from './routes/coreApi';
import { registerQuoteV2 } from './routes/quoteV2';
import { defaultWorld } from './defaultWorld';
import type { World } from './world';

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Default: defaultWorld(). */
  world?: World;
  /** Clock for rate limiting (ms, monotonic); injectable for tests. */
  now?: () => number;
  /**
   * Keep a log of the rate-limited requests received (limit class, method, target and JSON body), for
   * benches that count which requests were distinct (needed) and which repeated one. Off by default: a
   * long-running simulator keeps nothing per request.
   */
  recordRequests?: boolean;
}

/** One rate-limited request as received: its class and `METHOD target [body as exact JSON]`. */
export interface SimRequestRecord {
  cls: 'service' | 'node';
  key: string;
}

export interface RunningSimulator {
  /** Service base ending in /api. */
  url: string;
  /** Market-maker inventory base (…/api/mm/v1). */
  inventoryUrl: string;
  /** Node read-only proxy root (…/node); POST {nodeUrl}/v2/contracts/call-read/… */
  nodeUrl: string;
  /** The core swap API (the client library's host): GET {coreUrl}/getAllTokensAndPools, /getAllRoutes. */
  coreUrl: string;
  engine: SimEngine;
  /** Requests received so far, by limit class, and how many were answered 429 (tests count them). */
  requests(): SimRequestCounts;
  /** The requests received so far, in order (empty unless started with `recordRequests`). */
  requestLog(): readonly SimRequestRecord[];
  close(): Promise<void>;
}

export interface SimRequestCounts {
  /** Quote and app interfaces. */
  service: number;
  /** The market-maker inventory (not rate limited). */
  inventory: number;
  /** The node read-only proxy. */
  node: number;
  /** Answered 429 (any class). */
  rateLimited: number;
}

/** Which limit a path falls under: the service (per second), the node proxy (per minute), or none. */
function limitClass(path: string): 'service' | 'node' | undefined {
  if (path.startsWith('/api/quotes/') || path.startsWith('/api/app/')) return 'service';
  if (path.startsWith('/node/') || path.startsWith('/core/')) return 'node';
  return undefined;
}

/** Request targets made only of these characters (and no dot segments) are already a normalized path. */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9._~\-/]*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * Path (trailing slashes dropped) and query of a request target. Plain targets skip the WHATWG URL
 * parser, which would return them unchanged; anything else (query, percent-escapes, dot segments) uses it.
 */
function parseTarget(target: string): { path: string; query: URLSearchParams } {
  let pathname: string;
  let query: URLSearchParams;
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) {
    pathname = target;
    query = new URLSearchParams();
  } else {
    const url = new URL(target, 'http://sim.invalid');
    pathname = url.pathname;
    query = url.searchParams;
  }
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.replace(/\/+$/, '') : pathname;
  return { path, query };
}

/** One request's context (a class, so no closures are made per request). */
class Context implements RequestContext {
  constructor(
    readonly req: IncomingMessage,
    readonly method: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly params: Record<string, string>,
    /** The request's log record (recordRequests): its body is added once read. */
    private readonly record?: SimRequestRecord,
  ) {}

  async body(): Promise<unknown> {
    const value = await readJsonBody(this.req);
    if (this.record) this.record.key += ` ${stringifyJsonExact(value)}`;
    return value;
  }
}

function rateHeaders(d: LimitDecision): Record<string, string> {
  return { 'X-RateLimit-Limit': String(d.limit), 'X-RateLimit-Remaining': String(d.remaining) };
}

/** Starts the simulated engine; resolves once it listens. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const world = opts.world ?? defaultWorld();
  const engine = new SimEngine(world);
  const perSecond = new RateLimiter(1000, opts.now);
  const perMinute = new RateLimiter(60_000, opts.now);
  const keys = new Map(world.api_keys.map((k) => [k.key, k.requests_per_second]));

  const router = new Router();
  registerQuoteV2(router, engine);
  registerAppV2(router, engine);
  registerLegacyV1(router, engine);
  registerInventory(router, engine);
  registerNode(router, engine);
  registerCoreApi(router, engine);
  registerAdmin(router, engine, () => {
    perSecond.reset();
    perMinute.reset();
  });

  /** Applies the rate limit for the path; throws 401/429 as HttpError. Returns headers to add. */
  const counts: SimRequestCounts = { service: 0, node: 0, inventory: 0, rateLimited: 0 };
  const log: SimRequestRecord[] = [];
  /** The record of the request being limited (recordRequests), for its context to complete. */
  let lastRecord: SimRequestRecord | undefined;
  const limit = (req: IncomingMessage, path: string): Record<string, string> => {
    lastRecord = undefined;
    const cls = limitClass(path);
    if (path.startsWith('/api/mm/')) counts.inventory++;
    if (!cls) return {};
    counts[cls]++;
    if (opts.recordRequests) {
      lastRecord = { cls, key: `${req.method ?? 'GET'} ${req.url ?? '/'}` };
      log.push(lastRecord);
    }
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    let decision: LimitDecision;
    if (key !== undefined && key !== '') {
      const keyLimit = keys.get(key);
      // Never echo the key: the message only says it was not accepted.
      if (keyLimit === undefined)
        throw new HttpError(401, {
          success: false,
          error: 'X-API-Key is not valid for this engine; remove it to use the default limit',
          code: 'INVALID_API_KEY',
        });
      decision = perSecond.take(`key:${cls}:${key}`, keyLimit);
    } else {
      const ip = req.socket.remoteAddress ?? 'unknown';
      decision =
        cls === 'service'
          ? perSecond.take(`ip:${ip}`, world.limits.requests_per_second)
          : perMinute.take(`ip:${ip}`, world.limits.node_requests_per_minute);
    }
    const headers = rateHeaders(decision);
    if (!decision.allowed) {
      counts.rateLimited++;
      throw new HttpError(
        429,
        {
          success: false,
          error: 'rate limit exceeded',
          code: 'RATE_LIMITED',
          retry_after_seconds: decision.retryAfterSeconds,
        },
        { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return headers;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let extra: Record<string, string> | undefined;
    try {
      const { path, query } = parseTarget(req.url ?? '/');
      const method = req.method ?? 'GET';
      if (path.startsWith('/api/admin/') && !isLoopback(req.socket.remoteAddress)) {
        throw new HttpError(403, {
          success: false,
          error: 'admin endpoints answer loopback clients only',
          code: 'FORBIDDEN',
        });
      }
      extra = limit(req, path);
      // Read before any await: the next request's limit() replaces it.
      const record = lastRecord;
      const m = router.match(method, path);
      if (!m)
        throw new HttpError(404, {
          success: false,
          error: `no endpoint ${method} ${path}`,
          code: 'NOT_FOUND',
        });
      if ('allowed' in m) {
        throw new HttpError(
          405,
          {
            success: false,
            error: `${method} is not allowed on ${path}; use ${m.allowed.join(', ')}`,
            code: 'METHOD_NOT_ALLOWED',
          },
          { Allow: m.allowed.join(', ') },
        );
      }
      const answer = m.handler(new Context(req, method, path, query, m.params, record));
      // Cached GET answers are synchronous: write them without a microtask hop.
      const reply = answer instanceof Promise ? await answer : answer;
      writeReply(res, reply, extra);
    } catch (e) {
      if (e instanceof HttpError) {
        writeReply(res, { status: e.status, body: e.body, headers: e.headers }, extra);
      } else {
        // A bug must not take the engine down: answer 500 with the message (no stack to clients).
        writeReply(res, {
          status: 500,
          body: {
            success: false,
            error: `internal error: ${e instanceof Error ? e.message : String(e)}`,
            code: 'INTERNAL',
          },
        });
      }
    } finally {
      // Drain an unread body so keep-alive connections stay usable.
      if (!req.readableEnded) req.resume();
    }
  };

  const server: Server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    void handle(req, res);
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const origin = `http://${shownHost}:${addr.port}`;
  return {
    url: `${origin}/api`,
    inventoryUrl: `${origin}/api/mm/v1`,
    nodeUrl: `${origin}/node`,
    coreUrl: `${origin}/core`,
    engine,
    requests: () => ({ ...counts }),
    requestLog: () => [...log],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
