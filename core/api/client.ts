/**
 * The HTTP implementation of DlmmApi (core/api/types.ts) for the interface document's quote v2, app v2,
 * market-maker inventory and node read-only paths. Every body is read with the exact JSON reader and
 * validated with zod; failures become typed ApiErrors. Reads are limited client-side, coalesced while in
 * flight, and cached under the engine's applied state height (learned from status()).
 */
import { toUnsignedBinId } from '../dlmm/bins';
import { HeightCache, InFlight } from './cache';
import { ApiError, isCancelled } from './errors';
import {
  expectRecord,
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
import { parseJsonExact, stringifyJsonExact } from './json';
import { createRateLimiter } from './limiter';
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
  type QuoteRequest,
  type Route,
  type Status,
  type SwapParamsRequest,
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

/**
 * A read's link to the on-disk answers: the height it is read at (undefined: not kept), whether its answer
 * came from the store, and the text of an answer the engine gave (to keep once validated).
 */
interface DiskAnswer {
  height: number | undefined;
  /** The read's method and path (the answer's key on disk). */
  url?: string;
  fromStore?: boolean;
  text?: string;
}

/** How a read's answer is interpreted beyond its schema. */
interface ReadSpec {
  /** The pool the path addresses: 404 (or 'Pool not found' text) means pool-not-found. */
  pool?: string;
  /** A bins/positions read: HTTP 200 with empty bins and 'Pool not found' is pool-not-found too. */
  binsRead?: boolean;
  /** The engine's own status: a 404 there means the base URL is not the service's (notTheService). */
  serviceGate?: boolean;
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
  const serviceLimiter = createRateLimiter({
    limit: opts.serviceRatePerSecond,
    windowMs: 1_000,
    guardMs: 10,
    probeFirst,
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
  const nodeWindowMs = 60_000;
  const nodeGuardMs = 100;
  const nodeLimiter = createRateLimiter({
    limit: opts.nodeRatePerMinute,
    windowMs: nodeWindowMs,
    guardMs: nodeGuardMs,
    probeFirst,
    now: Date.now,
    ...(nodeStore
      ? {
          seed: nodeStore.recentRequests(nodeWindowMs + nodeGuardMs, Date.now()),
          onAnswered: (at: number) => nodeStore.recordRequest(at),
        }
      : {}),
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

  const service = (method: 'GET' | 'POST', path: string, body?: string): HttpRequest => ({
    method,
    url: base + path,
    endpoint: `${method} ${path}`,
    body,
    withKey: true,
    limiter: serviceLimiter,
  });

  /** Sends through the transport; a service answer's `Date` header sets the service's clock. */
  const send = async (req: HttpRequest, signal: AbortSignal | undefined) => {
    const res = await transport.send(req, signal);
    if (req.withKey && res.date !== undefined) {
      // The service's clock, from an answer it gave anyway (export compares deadlines with it).
      const serviceMs = Date.parse(res.date);
      if (Number.isFinite(serviceMs)) clock = { serviceMs, localMs: now() };
    }
    return res;
  };

  /** Sends and returns the parsed 2xx body; maps 404 / 'Pool not found' / other statuses to ApiErrors. */
  const fetchJson = async (
    req: HttpRequest,
    spec: ReadSpec,
    signal: AbortSignal | undefined,
    disk?: DiskAnswer,
  ): Promise<unknown> => {
    const stored =
      disk?.height !== undefined && answers !== undefined
        ? answers.get(disk.height, req.endpoint)
        : undefined;
    let res: HttpResponse;
    // Keyed by method and path (the file is the endpoint's): a URL's credentials never reach the disk.
    if (disk) disk.url = req.endpoint;
    if (disk && stored?.okay === true && stored.result !== undefined) {
      // What this engine answered at this height, kept on disk by an earlier process: read as answered.
      disk.fromStore = true;
      stats.cacheHits++;
      res = { status: 200, text: stored.result };
    } else {
      res = await send(req, signal);
      if (disk && res.status >= 200 && res.status < 300) disk.text = res.text;
    }
    if (res.status >= 200 && res.status < 300) {
      const body = parseBody(req.endpoint, res.status, res.text);
      if (spec.pool !== undefined && spec.binsRead && isEmptyPoolNotFound(body, res.text)) {
        throw poolNotFound(req, spec.pool, res, poolNotFoundText(body, res.text) ?? 'Pool not found');
      }
      return body;
    }
    const body = tryParse(res.text);
    if (spec.serviceGate && res.status === 404) throw notTheService(req, res, body, base);
    if (spec.pool !== undefined) {
      const text = poolNotFoundText(body, res.text);
      if (text !== undefined || (res.status === 404 && !/bin/i.test(errorDetail(body, res.text)))) {
        throw poolNotFound(req, spec.pool, res, text ?? errorDetail(body, res.text));
      }
    }
    throw httpError(req, res, body);
  };

  /**
   * Serves a read from the height cache, joins an identical one in flight, or loads it. `load` runs under
   * the shared read's own signal, aborted only when every caller waiting for it has given up.
   */
  const cachedRead = async <T>(
    key: string,
    load: (signal: AbortSignal, disk: DiskAnswer) => Promise<T>,
    signal: AbortSignal | undefined,
    /** Whether an answer may be kept for its height (default: every answer). */
    keep: (value: T) => boolean = () => true,
  ): Promise<T> => {
    const height = await heightForCache(signal);
    if (height !== undefined) {
      const hit = cache.get<T>(height, key);
      if (hit !== undefined) {
        stats.cacheHits++;
        return hit;
      }
    }
    return inflight.run(
      key,
      async (shared) => {
        // A load that reads through fetchJson with `disk` may be answered from, and is kept in, the on-disk
        // answers of this height (only once its answer was read and validated whole).
        const disk: DiskAnswer = { height };
        let value: T;
        try {
          value = await load(shared, disk);
        } catch (e) {
          if (!disk.fromStore || isCancelled(e) || height === undefined || disk.url === undefined) throw e;
          // A stored answer that no longer reads is dropped, and the engine asked.
          answers?.set(height, disk.url, { okay: false });
          value = await load(shared, { height: undefined });
        }
        if (height !== undefined && keep(value)) {
          cache.set(height, key, value);
          if (disk.text !== undefined && disk.url !== undefined && !disk.fromStore)
            answers?.set(height, disk.url, { okay: true, result: disk.text });
        }
        return value;
      },
      joined,
      signal,
    );
  };

  /** The height cached reads belong to: refreshed through status() once its answer is older than the TTL. */
  const heightForCache = async (signal: AbortSignal | undefined): Promise<number | undefined> => {
    // Nothing learned yet: reads are coalesced, not cached; unless the first status read is on the wire (an
    // analysis reads it first): a read waits for its height, so an answer kept on disk at that height serves
    // it (the limiter holds the other requests behind that first one anyway).
    if (!statusSnapshot && statusLoads === 0) return undefined;
    if (!statusSnapshot || now() - statusSnapshot.at >= opts.statusTtlMs) {
      try {
        await readStatus(signal);
      } catch (e) {
        if (isCancelled(e)) throw e;
        return undefined;
      }
    }
    return cache.currentHeight;
  };

  /** The engine's status, reused for `statusTtlMs`; a read teaches the cache the applied state height. */
  const readStatus = (signal: AbortSignal | undefined, fresh = false): Promise<Status> => {
    if (!fresh && statusSnapshot && now() - statusSnapshot.at < opts.statusTtlMs) {
      stats.cacheHits++;
      return Promise.resolve(structuredClone(statusSnapshot.value));
    }
    const req = service('GET', '/quotes/v2/status');
    return inflight.run(
      'status',
      async (shared) => {
        statusLoads++;
        try {
          const value = validate(
            StatusSchema,
            await fetchJson(req, { serviceGate: true }, shared),
            req.endpoint,
          );
          statusSnapshot = { value, at: now() };
          cache.observeHeight(value.state_height);
          return value;
        } finally {
          statusLoads--;
        }
      },
      joined,
      signal,
    );
  };

  /**
   * A readiness check: shared by every caller in flight and cached under the applied state height like any
   * read (a readiness change moves the status the engine watch polls, which clears the cache).
   */
  const readiness = (path: string, signal: AbortSignal | undefined): Promise<Readiness> => {
    const req: HttpRequest = { ...service('GET', path), isAnswer: (s) => s === 503 };
    return cachedRead(`ready ${req.url}`, (shared) => readinessOnce(req, shared), signal);
  };

  const readinessOnce = async (req: HttpRequest, signal: AbortSignal): Promise<Readiness> => {
    const res = await send(req, signal);
    const body = tryParse(res.text);
    if (res.status === 503) return { ready: false, detail: errorDetail(body, res.text) };
    // The quote engine's own gate missing: not the service (app v2 is another service's, reported as is).
    if (res.status === 404 && req.endpoint === 'GET /quotes/v2/ready')
      throw notTheService(req, res, body, base);
    if (res.status < 200 || res.status >= 300) throw httpError(req, res, body);
    return readinessOf(body, res.text, req.endpoint, res.status);
  };

  /** Amounts as the host takes them: the document's JSON integer, or the published string (after a 422). */
  const amount = (v: bigint): bigint | string => (stringAmountHosts.has(hostOf(base)) ? String(v) : v);

  const quoteBody = (req: QuoteRequest): string =>
    stringifyJsonExact({
      input_token: req.input_token,
      output_token: req.output_token,
      amount_in: amount(req.amount_in),
      ...(req.amm_strategy !== undefined ? { amm_strategy: req.amm_strategy } : {}),
      ...(req.slippage_tolerance !== undefined ? { slippage_tolerance: req.slippage_tolerance } : {}),
    });

  /**
   * POSTs a body built by `build`; when the host answers 422 naming `amount_in` while the amounts went as
   * JSON integers, it is sent once more with them as strings (the published type), and the host is
   * remembered for every later request of this process.
   */
  const postAmounts = async (
    path: string,
    build: () => string,
    signal: AbortSignal | undefined,
  ): Promise<unknown> => {
    // An earlier process learned it at this height (kept with the on-disk answers): no 422 round trip.
    const height = statusSnapshot?.value.state_height ?? undefined;
    if (height !== undefined && answers?.get(height, STRING_AMOUNTS_KEY)?.okay === true)
      stringAmountHosts.add(hostOf(base));
    const wasString = stringAmountHosts.has(hostOf(base));
    const r = service('POST', path, build());
    try {
      return await fetchJson(r, {}, signal);
    } catch (e) {
      if (
        !wasString &&
        e instanceof ApiError &&
        e.context.status === 422 &&
        (e.context.refused ?? []).includes('amount_in')
      ) {
        stringAmountHosts.add(hostOf(base));
        if (height !== undefined) answers?.set(height, STRING_AMOUNTS_KEY, { okay: true });
        opts.log?.(
          `${r.endpoint}: the service takes amount_in as a string; sending amounts as strings from now on`,
        );
        return fetchJson(service('POST', path, build()), {}, signal);
      }
      throw e;
    }
  };

  /**
   * POSTs a quote; a 4xx saying there is no route becomes no-route. Quote v2 answers from the state at the
   * applied height, so a quote is cached under that height like any read (a no-route is not cached).
   */
  const postQuote = async (
    path: string,
    req: QuoteRequest,
    signal: AbortSignal | undefined,
  ): Promise<unknown> => {
    const key = `POST ${base}${path} ${stringifyJsonExact({ ...req, amount_in: String(req.amount_in) })}`;
    return cachedRead(
      key,
      async (shared) => {
        try {
          return await postAmounts(path, () => quoteBody(req), shared);
        } catch (e) {
          if (
            e instanceof ApiError &&
            e.code === 'http-error' &&
            e.context.status !== 422 &&
            /no (route|path)/i.test(e.context.detail ?? '')
          ) {
            throw noRoute({ endpoint: `POST ${path}` }, req, e.context.detail);
          }
          throw e;
        }
      },
      signal,
    );
  };

  /** A swap parameters request (published SwapRequest), amounts written as the host takes them. */
  const swapBody = (req: SwapParamsRequest): string =>
    stringifyJsonExact({ ...req, amount_in: amount(req.amount_in), amount_out: amount(req.amount_out) });

  /** A pool's bin list (v2 or the legacy v1 path): validated, a bin id listed twice refused. */
  const binList = (
    path: string,
    poolId: string,
    signal: AbortSignal | undefined,
    schema: typeof BinListSchema | typeof V1BinListSchema = BinListSchema,
  ): Promise<BinList> => {
    const req = service('GET', path);
    return cachedRead(
      req.url,
      async (shared, disk) => {
        const list: BinList = validate(
          schema,
          await fetchJson(req, { pool: poolId, binsRead: true }, shared, disk),
          req.endpoint,
        );
        rejectDuplicateBins(list.bins, req.endpoint, 'bins');
        return list;
      },
      signal,
    );
  };

  /** One bin (by unsigned id, or the active one): the record itself, or an object holding it under `bin`. */
  const singleBin = (path: string, poolId: string, signal: AbortSignal | undefined) => {
    const req = service('GET', path);
    return cachedRead(
      req.url,
      async (shared) => {
        const body = await fetchJson(req, { pool: poolId, binsRead: true }, shared);
        if (isRecord(body) && !('bin_id' in body) && isRecord(body.bin)) {
          return validate(SingleBinSchema, body.bin, req.endpoint, ['bin']);
        }
        return validate(SingleBinSchema, body, req.endpoint);
      },
      signal,
    );
  };

  /**
   * current-bins: a 404 with errorCode POOL_NOT_FOUND is pool-not-found (the caller falls back to app v2
   * positions); any other errorCode, or a 200 that is not clean, complete and reservesComplete, is
   * inventory-unavailable (never an empty book). Its tipLag is the policy's gate (the caller's).
   */
  const readCurrentBins = async (
    req: HttpRequest,
    alias: string,
    signal: AbortSignal,
  ): Promise<CurrentBins> => {
    const res = await send(req, signal);
    const ok = res.status >= 200 && res.status < 300;
    const body = ok ? parseBody(req.endpoint, res.status, res.text) : tryParse(res.text);
    const code = currentBinsFault(body);
    if (code === 'POOL_NOT_FOUND' || (!ok && res.status === 404)) {
      throw poolNotFound(req, alias, res, code ?? errorDetail(body, res.text));
    }
    if (code !== undefined) throw currentBinsUnavailable(req, res.status, code, errorDetail(body, res.text));
    if (!ok) throw httpError(req, res, body);
    const value = validate(CurrentBinsSchema, body, req.endpoint);
    const gates: Array<[boolean, string]> = [
      [value.clean, 'clean: false (the book is not reconciled)'],
      [value.complete, 'complete: false (the book is incomplete)'],
      [value.reservesComplete, "reservesComplete: false (the bins' reserves are incomplete)"],
    ];
    const failed = gates.find(([pass]) => !pass);
    if (failed) throw currentBinsUnavailable(req, res.status, undefined, failed[1]);
    const seen = new Set<number>();
    value.bins.forEach((b, i) => {
      if (seen.has(b.binIdSigned))
        throw new ApiError(
          'unexpected-response',
          `${req.endpoint}: unexpected response, field 'bins.${i}.binIdSigned' lists bin ${b.binIdSigned} twice; the book is not believed.`,
          { endpoint: req.endpoint, field: `bins.${i}.binIdSigned` },
        );
      seen.add(b.binIdSigned);
    });
    return value;
  };

  // Frozen: every view shares it (a view is made per caller that may give up: per analysis, per read).
  const shownOptions = publicOptions(options);
  /** The client's methods for one caller: reads made for `signal` give up when it aborts (withSignal). */
  const view = (signal: AbortSignal | undefined): DlmmApi => ({
    options: shownOptions,

    quoteReady: () => readiness('/quotes/v2/ready', signal),
    appReady: () => readiness('/app/v2/ready', signal),

    status: () => readStatus(signal),
    refreshStatus: () => readStatus(signal, true),

    tokens() {
      const req = service('GET', '/quotes/v2/tokens');
      return cachedRead(
        req.url,
        async (shared, disk) =>
          readList(await fetchJson(req, {}, shared, disk), ['tokens'], TokenSchema, req.endpoint),
        signal,
      );
    },

    pools() {
      const req = service('GET', '/quotes/v2/pools');
      return cachedRead(
        req.url,
        async (shared, disk) =>
          readList(await fetchJson(req, {}, shared, disk), ['pools'], PoolSchema, req.endpoint),
        signal,
      );
    },

    pool(poolId) {
      const req = service('GET', `/quotes/v2/pools/${enc(poolId)}`);
      return cachedRead(
        req.url,
        async (shared, disk) => {
          const body = await fetchJson(req, { pool: poolId }, shared, disk);
          if (
            isEmptyPoolNotFound(body, '') ||
            (isRecord(body) && poolNotFoundText(body, '') && !('pool_id' in body))
          ) {
            throw poolNotFound(
              req,
              poolId,
              { status: 200, text: '' },
              poolNotFoundText(body, '') ?? 'Pool not found',
            );
          }
          // Tolerated: the pool record itself, or an object holding it under `pool`.
          if (isRecord(body) && !('pool_id' in body) && isRecord(body.pool)) {
            return validate(PoolSchema, body.pool, req.endpoint, ['pool']);
          }
          return validate(PoolSchema, body, req.endpoint);
        },
        signal,
      );
    },

    pairs(inputToken) {
      // The parameter is required: the engine answers 422 without it.
      const req = service('GET', `/quotes/v2/pairs?input_token=${enc(inputToken)}`);
      return cachedRead(
        req.url,
        async (shared) => {
          const body = validate(PairsResponseSchema, await fetchJson(req, {}, shared), req.endpoint);
          if (body.input_token !== inputToken) {
            throw new ApiError(
              'unexpected-response',
              `${req.endpoint}: unexpected response, field 'input_token' is '${body.input_token}', not the token asked for (${inputToken}).`,
              { endpoint: req.endpoint, field: 'input_token' },
            );
          }
          return body;
        },
        signal,
      );
    },

    bins(poolId) {
      return binList(`/quotes/v2/bins/${enc(poolId)}`, poolId, signal);
    },

    bin(poolId, signedBinId) {
      return singleBin(`/quotes/v2/bins/${enc(poolId)}/${toUnsignedBinId(signedBinId)}`, poolId, signal);
    },

    activeBin(poolId) {
      return singleBin(`/quotes/v2/bins/${enc(poolId)}/active`, poolId, signal);
    },

    async quote(req) {
      const path = '/quotes/v2/quote';
      const endpoint = `POST ${path}`;
      const body = await postQuote(path, req, signal);
      if (isRecord(body) && body.success === false) throw noRoute({ endpoint }, req, errorDetail(body, ''));
      const route = validate(QuoteResponseSchema, body, endpoint);
      if (route.hops.length === 0)
        throw noRoute({ endpoint }, req, errorDetail(body, '') || 'empty execution_path');
      return withStrategy(route, req);
    },

    async quoteMulti(req) {
      const path = '/quotes/v2/quote/multi';
      const endpoint = `POST ${path}`;
      let body: unknown;
      try {
        body = await postQuote(path, req, signal);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'no-route') return [];
        throw e;
      }
      if (isRecord(body) && body.success === false && !(Array.isArray(body.routes) && body.routes.length > 0))
        return [];
      const multi = validate(MultiQuoteResponseSchema, body, endpoint);
      const routes = multi.routes.filter((r) => r.hops.length > 0).map((r) => withStrategy(r, req));
      const best = multi.best_route_index;
      if (best !== undefined && best !== null && routes.length > 0) {
        const at = routes.findIndex((r) => r.route_index === best);
        if (at === -1) {
          throw new ApiError(
            'unexpected-response',
            `${endpoint}: unexpected response, field 'best_route_index' names route ${best}, which is not among the routes.`,
            { endpoint, field: 'best_route_index' },
          );
        }
        // Best first (the engine sorts them so; its index is what counts).
        routes.unshift(...routes.splice(at, 1));
      }
      return routes;
    },

    async swapParams(req) {
      const path = '/quotes/v2/swap';
      return validate(SwapParamsSchema, await postAmounts(path, () => swapBody(req), signal), `POST ${path}`);
    },

    async aggSwap(req) {
      const path = '/quotes/v2/agg/swap';
      return validate(SwapParamsSchema, await postAmounts(path, () => swapBody(req), signal), `POST ${path}`);
    },

    appPool(poolId) {
      const req = service('GET', `/app/v2/pools/${enc(poolId)}`);
      return cachedRead(
        req.url,
        async (shared) => {
          const body = await fetchJson(req, { pool: poolId }, shared);
          const text = isRecord(body) ? poolNotFoundText(body, '') : undefined;
          if (text !== undefined && !('pool_id' in (body as Record<string, unknown>))) {
            throw poolNotFound(req, poolId, { status: 200, text: '' }, text);
          }
          return expectRecord(body, req.endpoint);
        },
        signal,
      );
    },

    priceHistory(poolId) {
      const req = service('GET', `/app/v2/pools/${enc(poolId)}/bin-price-history`);
      return cachedRead(
        req.url,
        async (shared) => {
          const body = await fetchJson(req, { pool: poolId }, shared);
          // HTTP 200 with 'Pool not found' (and an empty list) is an error, never an empty history.
          const text = isRecord(body) ? poolNotFoundText(body, '') : undefined;
          if (text !== undefined) throw poolNotFound(req, poolId, { status: 200, text: '' }, text);
          return readList(body, ['history', 'points'], PricePointSchema, req.endpoint);
        },
        signal,
      );
    },

    userLiquidity(user, poolId) {
      const req = service('GET', `/app/v2/users/${enc(user)}/liquidity/${enc(poolId)}`);
      return cachedRead(
        req.url,
        async (shared) => expectRecord(await fetchJson(req, { pool: poolId }, shared), req.endpoint),
        signal,
      );
    },

    userPositionBins(user, poolId) {
      const req = service('GET', `/app/v2/users/${enc(user)}/positions/${enc(poolId)}/bins`);
      return cachedRead(
        req.url,
        async (shared) => {
          const list = readList(
            await fetchJson(req, { pool: poolId, binsRead: true }, shared),
            ['bins'],
            PositionBinSchema,
            req.endpoint,
          );
          rejectDuplicateBins(list, req.endpoint, 'bins');
          return list;
        },
        signal,
      );
    },

    currentBins(user, alias) {
      const path = `/app/v2/users/${enc(user)}/positions/${enc(alias)}/current-bins`;
      const req: HttpRequest = {
        ...service('GET', path),
        // A fault answered with an errorCode is the inventory's answer: retrying would only hide it.
        isAnswer: (status, text) => status >= 500 && currentBinsFault(tryParse(text)) !== undefined,
      };
      // A safety gate like the inventory: a fault or a failed gate is never kept. A clean, complete book
      // that is caught up with the tip (tipLag 0) is kept for the applied state height like any read (a
      // keystroke at the same height reads it no more); one that lags is read again each time, as it may
      // catch up without the height moving.
      return cachedRead(
        `current-bins ${req.url}`,
        (shared) => readCurrentBins(req, alias, shared),
        signal,
        (book) => book.tipLag === 0,
      );
    },

    v1Bins(poolId) {
      return binList(`/quotes/v1/bins/${enc(poolId)}`, poolId, signal, V1BinListSchema);
    },

    v1Tokens() {
      const req = service('GET', '/quotes/v1/tokens');
      return cachedRead(
        req.url,
        async (shared) => readList(await fetchJson(req, {}, shared), ['tokens'], TokenSchema, req.endpoint),
        signal,
      );
    },

    v1Pools() {
      const req = service('GET', '/quotes/v1/pools');
      return cachedRead(
        req.url,
        async (shared, disk) =>
          readList(await fetchJson(req, {}, shared, disk), ['pools'], V1PoolSchema, req.endpoint),
        signal,
      );
    },

    hasInventory: () => inventoryBase !== undefined,

    inventory(pool, principal) {
      const path = `/pools/${enc(pool)}/positions/${enc(principal)}`;
      if (inventoryBase === undefined) {
        return Promise.reject(notConfigured('inventory', `GET ${path}`, 'DLMM_INVENTORY_URL'));
      }
      const url = inventoryBase + path;
      const req: HttpRequest = {
        method: 'GET',
        url,
        endpoint: `GET ${pathOf(url)}`,
        withKey: false,
        limiter: serviceLimiter,
        // A 503 with a fault code is the inventory's answer: retrying would only hide it.
        isAnswer: (status, text) => status === 503 && faultOf(tryParse(text)) !== undefined,
      };
      // Inventory is a safety gate (faults can appear at the same height), so it is coalesced, never cached.
      return inflight.run(url, (shared) => readInventory(req, pool, shared), joined, signal);
    },

    hasNode: () => nodeBase !== undefined,

    callReadOnly(contract, fn, args, sender) {
      const [address, name] = contract.split('.');
      const path = `/v2/contracts/call-read/${enc(address ?? '')}/${enc(name ?? '')}/${enc(fn)}`;
      if (nodeBase === undefined)
        return Promise.reject(notConfigured('node', `POST ${path}`, 'DLMM_NODE_URL'));
      if (!address || !name) {
        return Promise.reject(new RangeError(`contract '${contract}' is not a contract principal ADDR.name`));
      }
      const url = nodeBase + path;
      const body = stringifyJsonExact({
        sender: sender ?? address,
        arguments: args.map((a) => (a.startsWith('0x') ? a : '0x' + a)),
      });
      const req: HttpRequest = {
        method: 'POST',
        url,
        endpoint: `POST ${pathOf(url)}`,
        body,
        withKey: false,
        limiter: nodeLimiter,
      };
      // A bin fact at the applied height is read once per machine: from the on-disk store when another
      // command or process already read it at this height.
      const fact =
        nodeStore && BIN_FACT_FUNCTIONS.has(fn) ? `${contract} ${fn} ${args.join(',')}` : undefined;
      return cachedRead(
        `POST ${url} ${body}`,
        async (shared) => {
          const height = fact !== undefined ? cache.currentHeight : undefined;
          if (nodeStore && fact !== undefined && height !== undefined) {
            const stored = nodeStore.get(height, fact);
            if (stored) {
              stats.cacheHits++;
              return stored;
            }
          }
          const value = validate(ReadOnlyResultSchema, await fetchJson(req, {}, shared), req.endpoint);
          if (
            nodeStore &&
            fact !== undefined &&
            height !== undefined &&
            value.okay &&
            cache.currentHeight === height
          )
            nodeStore.set(height, fact, value);
          return value;
        },
        signal,
      );
    },

    withSignal: (s) => withSignal(s),

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
  });

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

  const readInventory = async (req: HttpRequest, pool: string, signal: AbortSignal) => {
    const res = await send(req, signal);
    const body = tryParse(res.text);
    const fault = faultOf(body);
    if (res.status === 503 && fault !== undefined) {
      throw inventoryUnavailable(req, fault, errorDetail(body, res.text));
    }
    if (res.status >= 200 && res.status < 300) {
      const parsed = parseBody(req.endpoint, res.status, res.text);
      if (isEmptyPoolNotFound(parsed, res.text)) {
        throw poolNotFound(req, pool, res, poolNotFoundText(parsed, res.text) ?? 'Pool not found');
      }
      const inventory = validate(InventorySchema, parsed, req.endpoint);
      rejectDuplicateBins(inventory.bins, req.endpoint, 'bins');
      if (!inventory.clean) {
        // Only clean books are trusted: an unreconciled 200 is treated like RECONCILE_DIRTY, never as data.
        throw inventoryUnavailable(req, 'RECONCILE_DIRTY', 'the book answered with clean: false');
      }
      if (!/unsigned/i.test(inventory.bin_id_domain)) {
        throw new ApiError(
          'unexpected-response',
          `${req.endpoint}: unexpected response, field 'bin_id_domain' is '${inventory.bin_id_domain}', expected the unsigned domain (0..1000).`,
          { endpoint: req.endpoint, field: 'bin_id_domain', status: res.status },
        );
      }
      return inventory;
    }
    const text = poolNotFoundText(body, res.text);
    if (text !== undefined || res.status === 404)
      throw poolNotFound(req, pool, res, text ?? errorDetail(body, res.text));
    throw httpError(req, res, body);
  };

  return api;
}

/** Status words a warmth gate may answer with (plain text, or `status` in a JSON body). */
/**
 * Hosts (scheme://host:port) that refused a JSON-integer amount_in with a 422: amounts go to them as strings
 * (the published type) for the rest of the process, whichever client instance asks.
 */
const stringAmountHosts = new Set<string>();
/** The on-disk answers' entry saying the host takes amounts as strings (learned at that height). */
const STRING_AMOUNTS_KEY = 'amount_in as string';

function hostOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Sets the integer form back for every host (tests that replay a host's first request). */
export function resetAmountForms(): void {
  stringAmountHosts.clear();
}

/** The strategy asked for, on the route (the engine's answer does not echo it). */
function withStrategy(route: Route, req: QuoteRequest): Route {
  return { ...route, amm_strategy: req.amm_strategy ?? 'best' };
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
  throw new ApiError(
    'unexpected-response',
    `${endpoint}: unexpected response, field 'ready' is missing (and no 'status'); readiness is unknown.`,
    { endpoint, status, field: 'ready' },
  );
}

function tryParse(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
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

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
