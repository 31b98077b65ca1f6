/**
 * The HTTP implementation of DlmmApi (core/api/types.ts) for the interface document's quote v2, app v2,
 * market-maker inventory and node read-only paths: a table of endpoints (ENDPOINTS), each saying its request,
 * how its answer becomes a value and its failures, and how long that value is kept, over one read
 * (createApiClient's `read`). The read is limited client-side, retried (transport.ts), coalesced while in
 * flight, cached under the engine's applied state height (learned from status()) and, for the facts of a
 * height, kept on disk; every body is read with the exact JSON reader and validated with zod; failures
 * become typed ApiErrors (failures.ts).
 */
import type { z } from 'zod';
import { toUnsignedBinId } from '../dlmm/bins';
import { freezeData, HeightCache, InFlight, passGate, shareData } from './cache';
import { ApiError, isCancelled } from './errors';
import {
  faultOf,
  httpError,
  notTheService,
  currentBinsFault,
  currentBinsUnavailable,
  inventoryUnavailable,
  noRoute,
  notConfigured,
  poolNotFound,
} from './failures';
import { stringifyJsonExact } from './json';
import { createNodeLimiter, createRateLimiter, MAX_PACING_WAIT_MS } from './limiter';
import { BIN_FACT_FUNCTIONS, openNodeStore } from './nodeStore';
import {
  BinListSchema,
  CurrentBinsSchema,
  InventorySchema,
  PairsResponseSchema,
  PoolSchema,
  PositionBinSchema,
  PricePointSchema,
  ReadOnlyResultSchema,
  ReadySchema,
  MultiQuoteResponseSchema,
  QuoteResponseSchema,
  SingleBinSchema,
  StatusSchema,
  SwapParamsSchema,
  TokenSchema,
  V1BinListSchema,
  V1PoolSchema,
  type BinList,
  type CurrentBins,
  type Inventory,
  type PairsResponse,
  type Pool,
  type PositionBin,
  type PricePoint,
  type QuoteRequest,
  type ReadOnlyResult,
  type Route,
  type SingleBin,
  type Status,
  type SwapParams,
  type SwapParamsRequest,
  type Token,
  type V1Pool,
} from './schemas';
import { Transport, type HttpRequest, type HttpResponse } from './transport';
import type { ApiClientOptions, ApiStats, DlmmApi, Readiness, ServiceClock } from './types';
import {
  errorDetail,
  isEmptyPoolNotFound,
  isRecord,
  parseBody,
  poolNotFoundText,
  readList,
  rejectDuplicateBins,
  tryParse,
  unexpectedField,
  validate,
} from './validate';

const DEFAULTS = {
  timeoutMs: 10_000,
  serviceRatePerSecond: 50,
  nodeRatePerMinute: 500,
  maxRetries: 3,
  statusTtlMs: 250,
  retryBaseMs: 250,
  maxRetryDelayMs: 5_000,
};

/** One endpoint: its request, how its answer becomes the value (and its failures), how long it is kept. */
interface Endpoint<T> {
  /** The server asked (default the service, the only one sent the API key). */
  server?: 'service' | 'inventory' | 'node';
  /** Below the server's base URL. */
  path: string;
  /**
   * The body of a POST (a read without one is a GET): as is, or built with its amounts written as the host takes them (the document's JSON
   * integer, or the published string once the host refused the integer with a 422; see `postAmounts`).
   */
  body?: string | ((amount: (v: bigint) => bigint | string) => string);
  /** What names the read beyond its method and URL (a POST's request), for joining and caching it. */
  id?: string;
  /**
   * 'height' (default): joined while in flight and kept in memory under the applied state height;
   * 'disk': kept so and also in the on-disk answers of that height (the facts of a height: tokens, pools,
   * bin lists), so a later process at that height does not ask again; 'flight': only joined while in flight
   * (a safety gate whose faults can appear at one height); 'none': sent on every call.
   */
  keep?: 'height' | 'disk' | 'flight' | 'none';
  /** Whether a value may be kept (default: every value). */
  keepIf?: (value: T) => boolean;
  /** A status that is an answer, not a failure to retry (transport.ts). */
  isAnswer?: (status: number, text: string) => boolean;
  /** The engine's own gate: a 404 there means the base URL is not the service's (notTheService). */
  serviceGate?: boolean;
  /** The pool the path addresses: 404 (or 'Pool not found' text) means pool-not-found. */
  pool?: string;
  /** A bins/positions read: HTTP 200 with empty bins and 'Pool not found' is pool-not-found too. */
  binsRead?: boolean;
  /** The quote asked: an error status (not 422) saying there is no route or path means no-route. */
  noRoute?: QuoteRequest;
  /** The parsed 2xx body into the value, validated (default: the body as parsed). */
  answer?: (body: unknown, endpoint: string) => T;
  /** Instead of `answer`: the answer of any status into the value (readiness and the two inventories). */
  reply?: (res: HttpResponse, endpoint: string) => T;
  /** A node bin fact (ReadOnlyResult): read once per machine at a height, through the on-disk node store. */
  fact?: string;
}

/**
 * The endpoints of DlmmApi (see its contract for each), each a function of the method's arguments. The
 * client's methods are these over one read; quote, quoteMulti, status and the client's own bookkeeping are
 * added in createApiClient's `view`.
 */
const ENDPOINTS = {
  quoteReady: () => readiness('/quotes/v2/ready', true),
  appReady: () => readiness('/app/v2/ready', false),

  tokens: (): Endpoint<Token[]> => ({
    path: '/quotes/v2/tokens',
    keep: 'disk',
    answer: listOf(['tokens'], TokenSchema),
  }),

  pools: (): Endpoint<Pool[]> => ({
    path: '/quotes/v2/pools',
    keep: 'disk',
    answer: listOf(['pools'], PoolSchema),
  }),

  pool: (poolId: string): Endpoint<Pool> => ({
    path: `/quotes/v2/pools/${enc(poolId)}`,
    pool: poolId,
    keep: 'disk',
    answer: (body, endpoint) => {
      const text = poolNotFoundText(body, '');
      if (isEmptyPoolNotFound(body, '') || (isRecord(body) && text && !('pool_id' in body)))
        throw poolNotFoundIn200(endpoint, poolId, text ?? 'Pool not found');
      // Tolerated: the pool record itself, or an object holding it under `pool`.
      if (isRecord(body) && !('pool_id' in body) && isRecord(body.pool))
        return validate(PoolSchema, body.pool, endpoint, ['pool']);
      return validate(PoolSchema, body, endpoint);
    },
  }),

  // The parameter is required: the engine answers 422 without it.
  pairs: (inputToken: string): Endpoint<PairsResponse> => ({
    path: `/quotes/v2/pairs?input_token=${enc(inputToken)}`,
    answer: (body, endpoint) => {
      const pairs = validate(PairsResponseSchema, body, endpoint);
      if (pairs.input_token !== inputToken) {
        const found = `is '${pairs.input_token}', not the token asked for (${inputToken}).`;
        throw unexpectedField(endpoint, 'input_token', found);
      }
      return pairs;
    },
  }),

  bins: (poolId: string) => binList(`/quotes/v2/bins/${enc(poolId)}`, poolId, BinListSchema),
  bin: (poolId: string, signedBinId: number) =>
    singleBin(`/quotes/v2/bins/${enc(poolId)}/${toUnsignedBinId(signedBinId)}`, poolId),
  activeBin: (poolId: string) => singleBin(`/quotes/v2/bins/${enc(poolId)}/active`, poolId),

  // Quote v2 answers from the state at the applied height: a quote's body is kept under that height like any
  // read (a no-route status is not), and read into routes by the view (routeOf, which validates a kept body
  // once; routesOf, on each call).
  quote: (q: QuoteRequest) => quoteAt('/quotes/v2/quote', q),
  quoteMulti: (q: QuoteRequest) => quoteAt('/quotes/v2/quote/multi', q),
  swapParams: (r: SwapParamsRequest) => swapAt('/quotes/v2/swap', r),
  aggSwap: (r: SwapParamsRequest) => swapAt('/quotes/v2/agg/swap', r),

  priceHistory: (poolId: string): Endpoint<PricePoint[]> => ({
    path: `/app/v2/pools/${enc(poolId)}/bin-price-history`,
    pool: poolId,
    answer: (body, endpoint) => {
      // HTTP 200 with 'Pool not found' (and an empty list) is an error, never an empty history.
      const text = isRecord(body) ? poolNotFoundText(body, '') : undefined;
      if (text !== undefined) throw poolNotFoundIn200(endpoint, poolId, text);
      return readList(body, ['history', 'points'], PricePointSchema, endpoint);
    },
  }),

  userPositionBins: (user: string, poolId: string): Endpoint<PositionBin[]> => ({
    path: `/app/v2/users/${enc(user)}/positions/${enc(poolId)}/bins`,
    pool: poolId,
    binsRead: true,
    answer: (body, endpoint) => {
      const list = readList(body, ['bins'], PositionBinSchema, endpoint);
      rejectDuplicateBins(list, endpoint);
      return list;
    },
  }),

  // A safety gate like the inventory: a fault or a failed gate is never kept. A clean, complete book that is
  // caught up with the tip (tipLag 0) is kept for the applied state height like any read (a keystroke at the
  // same height reads it no more); one that lags is read again each time, as it may catch up without the
  // height moving.
  currentBins: (user: string, alias: string): Endpoint<CurrentBins> => ({
    path: `/app/v2/users/${enc(user)}/positions/${enc(alias)}/current-bins`,
    // A fault answered with an errorCode is the inventory's answer: retrying would only hide it.
    isAnswer: (status, text) => status >= 500 && currentBinsFault(tryParse(text)) !== undefined,
    keepIf: (book) => book.tipLag === 0,
    reply: (res, endpoint) => currentBinsOf(res, alias, endpoint),
  }),

  v1Bins: (poolId: string) => binList(`/quotes/v1/bins/${enc(poolId)}`, poolId, V1BinListSchema),
  v1Tokens: (): Endpoint<Token[]> => ({ path: '/quotes/v1/tokens', answer: listOf(['tokens'], TokenSchema) }),
  v1Pools: (): Endpoint<V1Pool[]> => ({
    path: '/quotes/v1/pools',
    keep: 'disk',
    answer: listOf(['pools'], V1PoolSchema),
  }),

  // A safety gate like current-bins: a fault (a 503 with its code, an unclean book) is never kept, so it is
  // asked again. A clean book caught up with the tip (tip_lag 0) is kept for the applied state height like
  // any read (a keystroke at the same height reads it no more; a new height reads it again); one that lags
  // is read again each time, as it may catch up without the height moving.
  inventory: (pool: string, principal: string): Endpoint<Inventory> => ({
    server: 'inventory',
    path: `/pools/${enc(pool)}/positions/${enc(principal)}`,
    keepIf: (book) => book.tip_lag === 0,
    // A 503 with a fault code is the inventory's answer: retrying would only hide it.
    isAnswer: (status, text) => status === 503 && faultOf(tryParse(text)) !== undefined,
    reply: (res, endpoint) => inventoryOf(res, pool, endpoint),
  }),

  callReadOnly: (contract: string, fn: string, args: string[], sender?: string): Endpoint<ReadOnlyResult> => {
    const [address, name] = contract.split('.');
    if (!address || !name)
      throw new RangeError(`contract '${contract}' is not a contract principal ADDR.name`);
    const body = stringifyJsonExact({
      sender: sender ?? address,
      arguments: args.map((a) => (a.startsWith('0x') ? a : '0x' + a)),
    });
    return {
      server: 'node',
      path: `/v2/contracts/call-read/${enc(address)}/${enc(name)}/${enc(fn)}`,
      body,
      id: body,
      // A bin fact at the applied height is read once per machine: from the on-disk store when another
      // command or process already read it at this height.
      ...(BIN_FACT_FUNCTIONS.has(fn) ? { fact: factKey(contract, fn, args) } : {}),
      answer: (b, endpoint) => validate(ReadOnlyResultSchema, b, endpoint),
    };
  },
};

/** The key a node fact is kept under (node store): the contract, the function and its arguments. */
const factKey = (contract: string, fn: string, args: readonly string[]): string =>
  `${contract} ${fn} ${args.join(',')}`;

/** The engine's status: read by `readStatus` (reused for `statusTtlMs`; it teaches the cache the height). */
const STATUS: Endpoint<Status> = {
  path: '/quotes/v2/status',
  serviceGate: true,
  answer: (body, endpoint) => validate(StatusSchema, body, endpoint),
};

type EndpointMethods = {
  [K in keyof typeof ENDPOINTS]: (
    ...args: Parameters<(typeof ENDPOINTS)[K]>
  ) => Promise<ReturnType<(typeof ENDPOINTS)[K]> extends Endpoint<infer T> ? T : never>;
};

/**
 * A readiness check: cached under the applied state height like any read (a readiness change moves the
 * status the engine watch polls, which clears the cache). The quote engine's own gate missing is not the
 * service (app v2 is another service's: its 404 is reported as is).
 */
function readiness(path: string, serviceGate: boolean): Endpoint<Readiness> {
  return {
    path,
    serviceGate,
    isAnswer: (status) => status === 503,
    reply: (res, endpoint) => {
      const body = tryParse(res.text);
      if (res.status === 503) return { ready: false, detail: errorDetail(body, res.text) };
      if (res.status < 200 || res.status >= 300) throw httpError({ endpoint }, res, body);
      return readinessOf(body, res.text, endpoint, res.status);
    },
  };
}

/** A list resource: a bare array, or an object holding it under one of `names`; every item validated. */
function listOf<S extends z.ZodType>(names: string[], item: S) {
  return (body: unknown, endpoint: string): Array<z.output<S>> => readList(body, names, item, endpoint);
}

/** A pool's bin list (v2 or the legacy v1 path): validated, a bin id listed twice refused. */
function binList(
  path: string,
  poolId: string,
  schema: typeof BinListSchema | typeof V1BinListSchema,
): Endpoint<BinList> {
  return {
    path,
    pool: poolId,
    binsRead: true,
    keep: 'disk',
    answer: (body, endpoint) => {
      const list: BinList = validate(schema, body, endpoint);
      rejectDuplicateBins(list.bins, endpoint);
      return list;
    },
  };
}

/** One bin (by unsigned id, or the active one): the record itself, or an object holding it under `bin`. */
function singleBin(path: string, poolId: string): Endpoint<SingleBin> {
  return {
    path,
    pool: poolId,
    binsRead: true,
    answer: (body, endpoint) =>
      isRecord(body) && !('bin_id' in body) && isRecord(body.bin)
        ? validate(SingleBinSchema, body.bin, endpoint, ['bin'])
        : validate(SingleBinSchema, body, endpoint),
  };
}

/** A quote request (its body as parsed is the value: see routeOf / routesOf). */
function quoteAt(path: string, q: QuoteRequest): Endpoint<unknown> {
  return {
    path,
    body: (amount) =>
      stringifyJsonExact({
        input_token: q.input_token,
        output_token: q.output_token,
        amount_in: amount(q.amount_in),
        ...(q.amm_strategy !== undefined ? { amm_strategy: q.amm_strategy } : {}),
        ...(q.slippage_tolerance !== undefined ? { slippage_tolerance: q.slippage_tolerance } : {}),
      }),
    id: stringifyJsonExact({ ...q, amount_in: String(q.amount_in) }),
    noRoute: q,
  };
}

/** A swap parameters request (published SwapRequest): sent on every call. */
function swapAt(path: string, r: SwapParamsRequest): Endpoint<SwapParams> {
  return {
    path,
    body: (amount) =>
      stringifyJsonExact({ ...r, amount_in: amount(r.amount_in), amount_out: amount(r.amount_out) }),
    keep: 'none',
    answer: (body, endpoint) => validate(SwapParamsSchema, body, endpoint),
  };
}

/**
 * A read's link to the on-disk answers: the height it is read at (undefined: not kept), whether its answer
 * came from the store, and the text of an answer the engine gave (to keep once validated).
 */
interface DiskAnswer {
  height: number | undefined;
  fromStore?: boolean;
  text?: string;
}

/** Creates the API client over node:http (keep-alive agents, core/api/transport.ts); see DlmmApi for each method's contract. */
export function createApiClient(options: ApiClientOptions): DlmmApi {
  const opts = { ...DEFAULTS, ...stripUndefined(options) };
  const base = trimSlash(opts.baseUrl);
  const inventoryBase = opts.inventoryUrl ? trimSlash(opts.inventoryUrl) : undefined;
  const nodeBase = opts.nodeUrl ? trimSlash(opts.nodeUrl) : undefined;
  const now = opts.now ?? Date.now;
  const stats: ApiStats = { requests: 0, cacheHits: 0, coalesced: 0, retries: 0, rateLimited: 0 };
  const transport = new Transport(
    {
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs,
      maxRetries: opts.maxRetries,
      retryBaseMs: opts.retryBaseMs,
      maxRetryDelayMs: opts.maxRetryDelayMs,
      log: opts.log,
      followRateHeaders: opts.followRateHeaders,
    },
    stats,
  );
  // The cache's notices, each said once for the client (the service's and the node's files share a folder).
  const noticed = new Set<string>();
  const notice = (line: string): void => {
    if (noticed.has(line)) return;
    noticed.add(line);
    (opts.notice ?? opts.log)?.(line);
  };
  // Until the service's first answer states its limit, one request goes alone: a service granting less
  // than the default never sees a burst above its grant.
  const probeFirst = opts.followRateHeaders !== false;
  // A small guard keeps loopback jitter from landing request N+1 inside the server's window. With a cache
  // directory, the window also counts what other processes on the machine sent in the last second (the
  // service limits per IP): back-to-back commands never burst past it together.
  /**
   * The engine's answers to reads that are facts of an applied state height (tokens, pools, the v1 pools
   * list, bin lists), kept on disk in the node store's format beside the pacing record (the answer's text
   * as it came, under its method and path), so a later process at the same height (a warm `dlmm quote`, the language
   * server after a command) asks only what it had not: a new height drops them all.
   */
  const answers =
    opts.cacheDir !== undefined
      ? openNodeStore(opts.cacheDir, base, notice, { prefix: 'service-answers' })
      : undefined;
  const pacing =
    opts.cacheDir !== undefined
      ? openNodeStore(opts.cacheDir, base, notice, { prefix: 'service', horizonMs: 2_000 })
      : undefined;
  // A wait for pacing is bounded and told (limiter.ts): a longer one fails the read 'rate-limited' at once.
  const waitTold =
    (who: string) =>
    (ms: number, why: string): void =>
      (opts.progress ?? opts.log)?.(`waiting ${Math.ceil(ms / 1000)} s for ${who}'s rate limit: ${why}`);
  const serviceLimiter = createRateLimiter({
    limit: opts.serviceRatePerSecond,
    windowMs: 1_000,
    guardMs: 10,
    probeFirst,
    name: 'the service',
    maxWaitMs: opts.maxPacingWaitMs ?? MAX_PACING_WAIT_MS,
    onWait: waitTold('the service'),
    ...(pacing
      ? {
          now: Date.now,
          seed: pacing.recentRequests(1_010, Date.now()),
          onAnswered: (at: number) => pacing.recordRequest(at),
        }
      : {}),
  });
  // Node facts and the node's pacing are shared machine-wide through the on-disk store (when configured):
  // the limiter starts with the requests other processes made in the last minute, on the wall clock.
  const nodeStore =
    opts.cacheDir !== undefined && nodeBase !== undefined
      ? openNodeStore(opts.cacheDir, nodeBase, notice)
      : undefined;
  const nodeLimiter = createNodeLimiter({
    limit: opts.nodeRatePerMinute,
    probeFirst,
    maxWaitMs: opts.maxPacingWaitMs ?? MAX_PACING_WAIT_MS,
    onWait: waitTold('the node'),
    ...(nodeStore ? { pacing: nodeStore } : {}),
  });
  const cache = new HeightCache();
  const inflight = new InFlight();
  let statusSnapshot: { value: Status; at: number } | undefined;
  /** Status reads on the wire (0 or 1: they are shared). */
  let statusLoads = 0;
  let clock: ServiceClock | undefined;
  const joined = (): void => {
    stats.coalesced++;
  };

  /**
   * The one read: serves the endpoint's value from the height cache, joins an identical read in flight, or
   * loads it, then keeps it as the endpoint says. A load runs under the shared read's own signal, aborted
   * only when every caller waiting for it has given up.
   */
  const read = async <T>(
    e: Endpoint<T>,
    signal: AbortSignal | undefined,
    { req, key }: PreparedRead = prepare(e),
    gate?: Promise<void>,
  ): Promise<T> => {
    if (e.keep === 'none') return load(e, req, signal, undefined, gate && { until: gate });
    if (e.keep === 'flight')
      return inflight.run(key, (shared, g) => load(e, req, shared, undefined, g), joined, signal, gate);
    const height = await heightForCache(signal, gate);
    if (height !== undefined) {
      const hit = cache.get<T>(height, key);
      if (hit !== undefined) {
        stats.cacheHits++;
        return hit;
      }
    }
    // Joined only by reads at the same height: a read begun before the state moved (its answer may be of the
    // old state) never answers an analysis of the new height.
    return inflight.run(
      height === undefined ? key : `${key} @${height}`,
      async (shared, g) => {
        // A 'disk' read may be answered from, and is kept in, the on-disk answers of this height (only once
        // its answer was read and validated whole).
        const disk: DiskAnswer | undefined = e.keep === 'disk' ? { height } : undefined;
        let value: T;
        try {
          value = await load(e, req, shared, disk, g);
        } catch (err) {
          if (!disk?.fromStore || isCancelled(err) || height === undefined) throw err;
          // A stored answer that no longer reads is dropped, and the engine asked.
          answers?.set(height, req.endpoint, { okay: false });
          value = await load(e, req, shared, { height: undefined }, g);
        }
        if (height !== undefined && (e.keepIf?.(value) ?? true)) {
          cache.set(height, key, value);
          if (disk?.text !== undefined && !disk.fromStore)
            answers?.set(height, req.endpoint, { okay: true, result: disk.text });
        }
        return value;
      },
      joined,
      signal,
      gate,
    );
  };

  /** The endpoint's request and the key it is joined and kept under. */
  const prepare = <T>(e: Endpoint<T>): PreparedRead => {
    const req = request(e);
    return { req, key: `${req.method} ${req.url}${e.id !== undefined ? ` ${e.id}` : ''}` };
  };

  /**
   * Endpoints with their request and key, by method and arguments (methods whose arguments are strings, or
   * lists of strings: pools, bin lists, node reads). A fresh live session asks again for every read a
   * session before it made (some fifty for a plan on one pool, most of them node reads), and each built
   * its endpoint again: a node read's body written as JSON, its URL parsed for its path. Endpoints are
   * pure functions of their arguments, and neither they nor their requests are changed by a read.
   */
  const preparedReads = new Map<string, { e: Endpoint<unknown>; prepared: PreparedRead }>();
  const MAX_PREPARED = 4096;
  const preparedFor = (
    name: string,
    endpoint: (...a: never[]) => Endpoint<unknown>,
    args: readonly unknown[],
  ): { e: Endpoint<unknown>; prepared: PreparedRead } => {
    const id = plainArgs(args) ? `${name}${JSON.stringify(args)}` : undefined;
    let hit = id !== undefined ? preparedReads.get(id) : undefined;
    if (!hit) {
      const e = endpoint(...(args as never[]));
      hit = { e, prepared: prepare(e) };
      if (id !== undefined) {
        if (preparedReads.size >= MAX_PREPARED) preparedReads.clear();
        preparedReads.set(id, hit);
      }
    }
    return hit;
  };

  /** The endpoint's HTTP request; an inventory or node read without its URL configured is refused. */
  const request = <T>(e: Endpoint<T>): HttpRequest => {
    const server = e.server ?? 'service';
    const method = e.body !== undefined ? 'POST' : 'GET';
    const root = server === 'service' ? base : server === 'inventory' ? inventoryBase : nodeBase;
    if (root === undefined)
      throw notConfigured(
        server === 'inventory' ? 'inventory' : 'node',
        `${method} ${e.path}`,
        server === 'inventory' ? 'DLMM_INVENTORY_URL' : 'DLMM_NODE_URL',
      );
    const url = root + e.path;
    return {
      method,
      url,
      // Method and path for messages, logs and the on-disk answers' key: a URL's credentials never show.
      endpoint: `${method} ${server === 'service' ? e.path : urlPart(url, 'pathname')}`,
      ...(typeof e.body === 'string' ? { body: e.body } : {}),
      withKey: server === 'service',
      limiter: server === 'node' ? nodeLimiter : serviceLimiter,
      ...(e.isAnswer ? { isAnswer: e.isAnswer } : {}),
    };
  };

  /**
   * Loads the endpoint's value: a node fact from the node store, else from its answer (sent or stored). A
   * request is sent only once `gate` is open (its callers' reads that are answered from memory or disk
   * never wait for it).
   */
  const load = async <T>(
    e: Endpoint<T>,
    req: HttpRequest,
    signal: AbortSignal | undefined,
    disk?: DiskAnswer,
    gate?: Gate,
  ): Promise<T> => {
    const height = e.fact !== undefined && nodeStore ? cache.currentHeight : undefined;
    if (e.fact !== undefined && height !== undefined) {
      const stored = nodeStore?.get(height, e.fact);
      if (stored) {
        stats.cacheHits++;
        return stored as T;
      }
    }
    const value =
      typeof e.body === 'function'
        ? await postAmounts(e, req, e.body, signal, gate)
        : valueOf(e, req, await answerOf(req, signal, disk, gate));
    // Only a fact read (a ReadOnlyResult) has a `fact`.
    const fact = value as ReadOnlyResult;
    if (e.fact !== undefined && height !== undefined && fact.okay && cache.currentHeight === height)
      nodeStore?.set(height, e.fact, fact);
    return value;
  };

  /** The answer: the one kept on disk at the read's height (disk reads), or the server's. */
  const answerOf = async (
    req: HttpRequest,
    signal: AbortSignal | undefined,
    disk: DiskAnswer | undefined,
    gate: Gate | undefined,
  ): Promise<HttpResponse> => {
    // Keyed by method and path (the file is the endpoint's): a URL's credentials never reach the disk.
    const stored =
      disk?.height !== undefined && answers !== undefined
        ? answers.get(disk.height, req.endpoint)
        : undefined;
    if (disk && stored?.okay === true && stored.result !== undefined) {
      // What this engine answered at this height, kept on disk by an earlier process: read as answered.
      disk.fromStore = true;
      stats.cacheHits++;
      return { status: 200, text: stored.result };
    }
    const res = await send(req, signal, gate);
    if (disk && res.status >= 200 && res.status < 300) disk.text = res.text;
    return res;
  };

  /**
   * Sends through the transport, once `gate` is open (a caller giving up ends the wait); a service answer's
   * `Date` header sets the service's clock.
   */
  const send = async (req: HttpRequest, signal: AbortSignal | undefined, gate: Gate | undefined) => {
    const wait = passGate(gate?.until, signal);
    if (wait) await wait;
    const res = await transport.send(req, signal);
    if (req.withKey && res.date !== undefined) {
      // The service's clock, from an answer it gave anyway (export compares deadlines with it).
      const serviceMs = Date.parse(res.date);
      if (Number.isFinite(serviceMs)) clock = { serviceMs, localMs: now() };
    }
    return res;
  };

  /** The endpoint's value from an answer, or its failure as a typed ApiError. */
  const valueOf = <T>(e: Endpoint<T>, req: HttpRequest, res: HttpResponse): T => {
    if (e.serviceGate && res.status === 404) throw notTheService(req, res, tryParse(res.text), base);
    if (e.reply) return e.reply(res, req.endpoint);
    if (res.status >= 200 && res.status < 300) {
      const body = parseBody(req.endpoint, res.status, res.text);
      if (e.pool !== undefined && e.binsRead && isEmptyPoolNotFound(body, res.text))
        throw poolNotFound(req, e.pool, res, poolNotFoundText(body, res.text) ?? 'Pool not found');
      return e.answer ? e.answer(body, req.endpoint) : (body as T);
    }
    const body = tryParse(res.text);
    const detail = errorDetail(body, res.text);
    if (e.pool !== undefined) {
      const text = poolNotFoundText(body, res.text);
      if (text !== undefined || (res.status === 404 && !/bin/i.test(detail)))
        throw poolNotFound(req, e.pool, res, text ?? detail);
    }
    if (e.noRoute && res.status !== 422 && /no (route|path)/i.test(detail))
      throw noRoute(req, e.noRoute, detail);
    throw httpError(req, res, body);
  };

  /**
   * POSTs a body with amounts; when the host answers 422 naming `amount_in` while the amounts went as JSON
   * integers, it is sent once more with them as strings (the published type), and the host is remembered
   * for every later request of this process.
   */
  const postAmounts = async <T>(
    e: Endpoint<T>,
    req: HttpRequest,
    body: (amount: (v: bigint) => bigint | string) => string,
    signal: AbortSignal | undefined,
    gate: Gate | undefined,
  ): Promise<T> => {
    const host = urlPart(base, 'origin');
    // An earlier process learned it at this height (kept with the on-disk answers): no 422 round trip.
    const height = statusSnapshot?.value.state_height ?? undefined;
    if (height !== undefined && answers?.get(height, STRING_AMOUNTS_KEY)?.okay === true)
      stringAmountHosts.add(host);
    const wasString = stringAmountHosts.has(host);
    const post = async (): Promise<T> => {
      const asString = stringAmountHosts.has(host);
      const r = { ...req, body: body((v) => (asString ? String(v) : v)) };
      return valueOf(e, r, await send(r, signal, gate));
    };
    try {
      return await post();
    } catch (err) {
      if (
        wasString ||
        !(err instanceof ApiError) ||
        err.context.status !== 422 ||
        !(err.context.refused ?? []).includes('amount_in')
      )
        throw err;
      stringAmountHosts.add(host);
      if (height !== undefined) answers?.set(height, STRING_AMOUNTS_KEY, { okay: true });
      opts.log?.(
        `${req.endpoint}: the service takes amount_in as a string; sending amounts as strings from now on`,
      );
      return post();
    }
  };

  /** The height cached reads belong to: refreshed through status() once its answer is older than the TTL. */
  const heightForCache = async (
    signal: AbortSignal | undefined,
    gate: Promise<void> | undefined,
  ): Promise<number | undefined> => {
    // Nothing learned yet: reads are coalesced, not cached; unless the first status read is on the wire (an
    // analysis reads it first): a read waits for its height, so an answer kept on disk at that height serves
    // it (the limiter holds the other requests behind that first one anyway).
    if (!statusSnapshot && statusLoads === 0) return undefined;
    if (!statusSnapshot || now() - statusSnapshot.at >= opts.statusTtlMs) {
      try {
        await readStatus(signal, false, gate);
      } catch (e) {
        if (isCancelled(e)) throw e;
        return undefined;
      }
    }
    return cache.currentHeight;
  };

  /** The engine's status, reused for `statusTtlMs`; a read teaches the cache the applied state height. */
  const readStatus = (
    signal: AbortSignal | undefined,
    fresh = false,
    gate?: Promise<void>,
  ): Promise<Status> => {
    if (!fresh && statusSnapshot && now() - statusSnapshot.at < opts.statusTtlMs) {
      stats.cacheHits++;
      // Frozen once (its read was shared: InFlight), then served as is, as the height cache serves.
      return Promise.resolve(shareData(statusSnapshot.value));
    }
    return inflight.run(
      'status',
      async (shared, g) => {
        statusLoads++;
        try {
          const value = await load(STATUS, request(STATUS), shared, undefined, g);
          statusSnapshot = { value, at: now() };
          cache.observeHeight(value.state_height);
          return value;
        } finally {
          statusLoads--;
        }
      },
      joined,
      signal,
      gate,
    );
  };

  // Frozen: every view shares it (a view is made per caller that may give up: per analysis, per read).
  const shownOptions = publicOptions(options);
  /**
   * The client's methods, built once: each reads the caller's signal from the view it is called on (its
   * SIGNAL property; none on the client itself, or when a method is called unbound: that read never gives
   * up). A view is these methods and its signal: a live session makes one per read, so a view must cost no
   * more than a copy of this table.
   */
  const at = Object.fromEntries(
    Object.entries(ENDPOINTS).map(([name, endpoint]) => [
      name,
      async function (this: unknown, ...args: never[]) {
        const { e, prepared } = preparedFor(name, endpoint as (...a: never[]) => Endpoint<unknown>, args);
        return read(e, signalOf(this), prepared, gateOf(this));
      },
    ]),
  ) as EndpointMethods;
  const methods: DlmmApi & { [SIGNAL]: AbortSignal | undefined; [GATE]: Promise<void> | undefined } = {
    options: shownOptions,
    // Their slots in the table itself: a view (a copy that sets them) then keeps the table's fast shape.
    [SIGNAL]: undefined,
    [GATE]: undefined,
    ...at,
    async quote(q) {
      return routeOf(await at.quote.call(this, q), q);
    },
    quoteMulti(q) {
      return at.quoteMulti.call(this, q).then(
        (body) => routesOf(body, q),
        (e: unknown) => {
          if (e instanceof ApiError && e.code === 'no-route') return [];
          throw e;
        },
      );
    },
    status() {
      return readStatus(signalOf(this), false, gateOf(this));
    },
    refreshStatus() {
      return readStatus(signalOf(this), true, gateOf(this));
    },
    hasInventory: () => inventoryBase !== undefined,
    hasNode: () => nodeBase !== undefined,
    storedFact(contract, fn, args) {
      // Only at a height a status read taught within its reuse window (as a read's heightForCache would).
      const height = cache.currentHeight;
      if (!nodeStore || !BIN_FACT_FUNCTIONS.has(fn) || height === undefined) return undefined;
      if (!statusSnapshot || now() - statusSnapshot.at >= opts.statusTtlMs) return undefined;
      const stored = nodeStore.get(height, factKey(contract, fn, args));
      if (stored) stats.cacheHits++;
      return stored;
    },
    withSignal(s) {
      // A gated view's gate stays with the reads it makes for `s`.
      const gate = gateOf(this);
      return gate === undefined ? withSignal(s) : view(s, gate);
    },
    withGate(gate) {
      return view(signalOf(this), gate);
    },
    serviceClock: () => (clock ? { ...clock } : undefined),
    clearCache() {
      cache.clear();
      statusSnapshot = undefined;
    },
    stats: () => ({ ...stats }),
    pacing: () => ({
      servicePerSecond: serviceLimiter.limit,
      nodePerMinute: nodeLimiter.limit,
      windowWaits: serviceLimiter.windowWaits + nodeLimiter.windowWaits,
    }),
    close: () => {
      nodeStore?.flush();
      pacing?.flush();
      answers?.flush();
      return transport.close();
    },
  };
  /**
   * The client's methods for one caller: reads made for `signal` give up when it aborts (withSignal); with
   * `gate`, their requests wait for it (withGate).
   */
  const view = (signal: AbortSignal | undefined, gate?: Promise<void>): DlmmApi => {
    if (signal === undefined && gate === undefined) return methods;
    const v = { ...methods };
    v[SIGNAL] = signal;
    v[GATE] = gate;
    return v;
  };

  const api = view(undefined);
  const views = new WeakMap<AbortSignal, DlmmApi>();
  /** The view of the client for one caller that may give up (its reads end when no one waits for them). */
  const withSignal = (signal: AbortSignal): DlmmApi => {
    let v = views.get(signal);
    if (!v) {
      v = view(signal);
      views.set(signal, v);
    }
    return v;
  };

  return api;
}

/** A view's caller signal (an own enumerable property, so a copy of the view made with spread keeps it). */
const SIGNAL = Symbol('the caller signal');

/** A view's gate (withGate; an own enumerable property, as SIGNAL). */
const GATE = Symbol('the caller gate');

/** The gate of the view a method was called on; none for the client itself or an unbound call. */
function gateOf(self: unknown): Promise<void> | undefined {
  return typeof self === 'object' && self !== null ? (self as { [GATE]?: Promise<void> })[GATE] : undefined;
}

/** What a request waits for before it is sent (SharedGate; a caller's own gate for a read not shared). */
interface Gate {
  readonly until: Promise<void> | undefined;
}

/** The signal of the view a method was called on; none for the client itself or an unbound call. */
function signalOf(self: unknown): AbortSignal | undefined {
  return typeof self === 'object' && self !== null ? (self as { [SIGNAL]?: AbortSignal })[SIGNAL] : undefined;
}

/**
 * Hosts (scheme://host:port) that refused a JSON-integer amount_in with a 422: amounts go to them as strings
 * (the published type) for the rest of the process, whichever client instance asks.
 */
const stringAmountHosts = new Set<string>();
/** The on-disk answers' entry saying the host takes amounts as strings (learned at that height). */
const STRING_AMOUNTS_KEY = 'amount_in as string';

/** The URL's origin or path; the text as it is when it is not a URL. */
function urlPart(url: string, part: 'origin' | 'pathname'): string {
  try {
    return new URL(url)[part];
  } catch {
    return url;
  }
}

/** Sets the integer form back for every host (tests that replay a host's first request). */
export function resetAmountForms(): void {
  stringAmountHosts.clear();
}

/**
 * The route each quote body was read into, by the body: a body is kept frozen (cache.ts) and served as is
 * at its height, so it is validated once, when it arrives, not again each time the cache serves it. Only
 * a frozen body is remembered (its route frozen too): nothing can change either after the check.
 */
const routeOfBody = new WeakMap<object, Route>();

/** A quote body as a route: `success: false` or an empty execution path is no-route. */
function routeOf(body: unknown, q: QuoteRequest): Route {
  const endpoint = 'POST /quotes/v2/quote';
  const known = isRecord(body) ? routeOfBody.get(body) : undefined;
  if (known) return withStrategy(known, q);
  if (isRecord(body) && body.success === false) throw noRoute({ endpoint }, q, errorDetail(body, ''));
  const route = validate(QuoteResponseSchema, body, endpoint);
  if (route.hops.length === 0)
    throw noRoute({ endpoint }, q, errorDetail(body, '') || 'empty execution_path');
  if (isRecord(body) && Object.isFrozen(body) && freezeData(body) && freezeData(route))
    routeOfBody.set(body, route);
  return withStrategy(route, q);
}

/** A multi-quote body as its routes, best first (none when the engine found none). */
function routesOf(body: unknown, q: QuoteRequest): Route[] {
  const endpoint = 'POST /quotes/v2/quote/multi';
  if (isRecord(body) && body.success === false && !(Array.isArray(body.routes) && body.routes.length > 0))
    return [];
  const multi = validate(MultiQuoteResponseSchema, body, endpoint);
  const routes = multi.routes.filter((r) => r.hops.length > 0).map((r) => withStrategy(r, q));
  const best = multi.best_route_index;
  if (best !== undefined && best !== null && routes.length > 0) {
    const at = routes.findIndex((r) => r.route_index === best);
    if (at === -1) {
      const found = `names route ${best}, which is not among the routes.`;
      throw unexpectedField(endpoint, 'best_route_index', found);
    }
    // Best first (the engine sorts them so; its index is what counts).
    routes.unshift(...routes.splice(at, 1));
  }
  return routes;
}

/** The strategy asked for, on the route (the engine's answer does not echo it). */
function withStrategy(route: Route, req: QuoteRequest): Route {
  return { ...route, amm_strategy: req.amm_strategy ?? 'best' };
}

/** HTTP 200 saying 'Pool not found' where a pool was expected. */
function poolNotFoundIn200(endpoint: string, pool: string, text: string): ApiError {
  return poolNotFound({ endpoint }, pool, { status: 200, text: '' }, text);
}

/**
 * current-bins: a 404 with errorCode POOL_NOT_FOUND is pool-not-found (the caller falls back to app v2
 * positions); any other errorCode, or a 200 that is not clean, complete and reservesComplete, is
 * inventory-unavailable (never an empty book). Its tipLag is the policy's gate (the caller's).
 */
function currentBinsOf(res: HttpResponse, alias: string, endpoint: string): CurrentBins {
  const ok = res.status >= 200 && res.status < 300;
  const body = ok ? parseBody(endpoint, res.status, res.text) : tryParse(res.text);
  const code = currentBinsFault(body);
  if (code === 'POOL_NOT_FOUND' || (!ok && res.status === 404)) {
    throw poolNotFound({ endpoint }, alias, res, code ?? errorDetail(body, res.text));
  }
  if (code !== undefined)
    throw currentBinsUnavailable({ endpoint }, res.status, code, errorDetail(body, res.text));
  if (!ok) throw httpError({ endpoint }, res, body);
  const value = validate(CurrentBinsSchema, body, endpoint);
  const gates: Array<[boolean, string]> = [
    [value.clean, 'clean: false (the book is not reconciled)'],
    [value.complete, 'complete: false (the book is incomplete)'],
    [value.reservesComplete, "reservesComplete: false (the bins' reserves are incomplete)"],
  ];
  const failed = gates.find(([pass]) => !pass);
  if (failed) throw currentBinsUnavailable({ endpoint }, res.status, undefined, failed[1]);
  const seen = new Set<number>();
  value.bins.forEach((b, i) => {
    if (seen.has(b.binIdSigned))
      throw unexpectedField(
        endpoint,
        `bins.${i}.binIdSigned`,
        `lists bin ${b.binIdSigned} twice; the book is not believed.`,
      );
    seen.add(b.binIdSigned);
  });
  return value;
}

/**
 * The market-maker inventory: a 503 with a fault code, or a 200 that is not clean, is inventory-unavailable
 * (never an empty book); its bin ids must be the unsigned domain.
 */
function inventoryOf(res: HttpResponse, pool: string, endpoint: string): Inventory {
  const body = tryParse(res.text);
  const fault = faultOf(body);
  if (res.status === 503 && fault !== undefined) {
    throw inventoryUnavailable({ endpoint }, fault, errorDetail(body, res.text));
  }
  if (res.status >= 200 && res.status < 300) {
    const parsed = parseBody(endpoint, res.status, res.text);
    if (isEmptyPoolNotFound(parsed, res.text)) {
      throw poolNotFound({ endpoint }, pool, res, poolNotFoundText(parsed, res.text) ?? 'Pool not found');
    }
    const inventory = validate(InventorySchema, parsed, endpoint);
    rejectDuplicateBins(inventory.bins, endpoint);
    if (!inventory.clean) {
      // Only clean books are trusted: an unreconciled 200 is treated like RECONCILE_DIRTY, never as data.
      throw inventoryUnavailable({ endpoint }, 'RECONCILE_DIRTY', 'the book answered with clean: false');
    }
    if (!/unsigned/i.test(inventory.bin_id_domain)) {
      const found = `is '${inventory.bin_id_domain}', expected the unsigned domain (0..1000).`;
      throw unexpectedField(endpoint, 'bin_id_domain', found, res.status);
    }
    return inventory;
  }
  const text = poolNotFoundText(body, res.text);
  if (text !== undefined || res.status === 404)
    throw poolNotFound({ endpoint }, pool, res, text ?? errorDetail(body, res.text));
  throw httpError({ endpoint }, res, body);
}

const READY_WORDS = /^(ok|ready|up|healthy|pass)$/i;

/**
 * A 2xx readiness answer: `ready: true`, a `status` word that means ready, or a plain-text "OK". Anything
 * else (truncated JSON, an HTML page, `{}`, `{"status":"not ready"}`) is never read as ready: a known
 * status that is not a ready word is not ready, and a body we cannot read is an unexpected response.
 */
function readinessOf(body: unknown, text: string, endpoint: string, status: number): Readiness {
  if (body === undefined || typeof body === 'string') {
    const t = (typeof body === 'string' ? body : text).trim();
    if (READY_WORDS.test(t)) return { ready: true };
    throw new ApiError(
      'unexpected-response',
      `${endpoint}: unexpected response, the readiness body is neither JSON with 'ready' nor a plain "OK" (found ${t === '' ? 'an empty body' : JSON.stringify(t.length > 40 ? t.slice(0, 40) + '…' : t)}); readiness is unknown.`,
      { endpoint, status, field: 'ready' },
    );
  }
  const ready = validate(ReadySchema, body, endpoint);
  if (ready.ready === false) return { ready: false, detail: errorDetail(body, text) };
  if (ready.ready === true) return { ready: true };
  if (typeof ready.status === 'string') {
    return READY_WORDS.test(ready.status.trim())
      ? { ready: true }
      : { ready: false, detail: errorDetail(body, text) };
  }
  throw unexpectedField(endpoint, 'ready', "is missing (and no 'status'); readiness is unknown.", status);
}

/** The options as given, with the API key present but not enumerable (so logging the object never shows it). */
function publicOptions(options: ApiClientOptions): Readonly<ApiClientOptions> {
  const { apiKey, ...rest } = options;
  const copy: ApiClientOptions = { ...rest };
  if (apiKey !== undefined) Object.defineProperty(copy, 'apiKey', { value: apiKey, enumerable: false });
  return Object.freeze(copy);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** What a read is sent and kept as (createApiClient's `prepare`). */
interface PreparedRead {
  req: HttpRequest;
  key: string;
}

/** Arguments that are strings, or lists of strings, only (written as JSON, they say exactly what they are). */
function plainArgs(args: readonly unknown[]): boolean {
  for (const a of args) {
    if (typeof a === 'string' || a === undefined) continue;
    if (!Array.isArray(a) || a.some((x) => typeof x !== 'string')) return false;
  }
  return true;
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
