/**
 * The client interface the analyzer, exporter, language server, CLI and dashboard receive (I/O is passed
 * in: ARCHITECTURE.md, Boundaries). Implemented over HTTP by `createApiClient` (core/api/client.ts) and exercised in tests
 * against the simulated engine on loopback. Every method resolves to validated, normalized data or rejects
 * with an `ApiError` (core/api/errors.ts).
 */
import type {
  BinList,
  CurrentBins,
  Inventory,
  PairsResponse,
  Pool,
  PositionBin,
  PricePoint,
  QuoteRequest,
  ReadOnlyResult,
  Route,
  SingleBin,
  Status,
  SwapParams,
  SwapParamsRequest,
  Token,
  V1Pool,
} from './schemas';

/** The service's resource types (schemas.ts), for modules that take them with the interface. */
export type * from './schemas';

/** A readiness gate answer: ready, or not with the reason the service gave. */
export interface Readiness {
  ready: boolean;
  detail?: string;
}

export interface ApiClientOptions {
  /** Service base ending in /api, e.g. http://127.0.0.1:8787/api. */
  baseUrl: string;
  /** Market-maker inventory base ending in /api/mm/v1 (cluster-internal); optional. */
  inventoryUrl?: string;
  /** Node read-only proxy base (a Stacks node API root); optional. */
  nodeUrl?: string;
  /** Sent as X-API-Key. Never logged, never part of a cache key or an error message. */
  apiKey?: string;
  /** Per-request timeout in ms (default 10000). */
  timeoutMs?: number;
  /**
   * Client-side limiter: requests per second to the service until the service states its own limit
   * (default 50, the interface document's; the X-RateLimit-Limit it sends then replaces it, up or down).
   */
  serviceRatePerSecond?: number;
  /** Client-side limiter for node/core/keeper: requests per minute until the server states one (default 500). */
  nodeRatePerMinute?: number;
  /**
   * Follow the rate-limit headers of each answer (X-RateLimit-Limit, X-RateLimit-Remaining, and Retry-After
   * on a 429), and send one request alone until the first answer told the grant (default true). Off only in
   * tests that must make the server answer 429.
   */
  followRateHeaders?: boolean;
  /** Retries on 429/5xx (not on inventory 503 codes), with backoff (default 3). */
  maxRetries?: number;
  /**
   * The longest a read waits for pacing (default MAX_PACING_WAIT_MS, 15 s): a read whose turn would come
   * later fails 'rate-limited' at once (core/api/limiter.ts).
   */
  maxPacingWaitMs?: number;
  /**
   * Hears a line for a person when a read waits a second or more for pacing (how long and why; the CLI
   * prints it on stderr). Absent: the request log hears it.
   */
  progress?: (line: string) => void;
  /** Request log sink (method, path, status, ms); never receives keys. */
  log?: (line: string) => void;
  /** Clock, injectable for tests. */
  now?: () => number;
  /**
   * How long a status() answer is reused, in ms (default 250). The language server reuses it as long as its
   * engine watch's poll interval (plus a second), the poll refreshing it (refreshStatus): a keystroke at an
   * unchanged height reads no status.
   */
  statusTtlMs?: number;
  /** First retry delay in ms, doubled per attempt when no Retry-After is given (default 250). */
  retryBaseMs?: number;
  /** Upper bound of any single retry wait in ms, Retry-After included (default 5000). */
  maxRetryDelayMs?: number;
  /**
   * Directory of the machine-wide node cache (core/api/nodeStore.ts): bin facts per applied state height
   * and the node's request pacing, shared by every process. Absent: kept in this client only.
   */
  cacheDir?: string;
  /**
   * Hears, once each, why the cache folder or a cache file is not used or not written (a line for a person:
   * the CLI prints it on stderr, the language server logs it). The client then keeps its reads in memory.
   */
  notice?: (line: string) => void;
}

/** The service's clock against ours: `serviceMs` (from `Date`, whole seconds) was read at our `localMs`. */
export interface ServiceClock {
  serviceMs: number;
  localMs: number;
}

/** Counters for benchmarks and the "requests made" figures. */
export interface ApiStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  cacheHits: number;
  coalesced: number;
  retries: number;
  /** HTTP 429 answers received. */
  rateLimited: number;
}

/** The client's pacing now (DlmmApi.pacing). */
export interface Pacing {
  /** Service requests allowed per second. */
  servicePerSecond: number;
  /** Node proxy requests allowed per minute. */
  nodePerMinute: number;
  /** Requests that waited for a full window to make room (service and node). */
  windowWaits: number;
}

export interface DlmmApi {
  readonly options: Readonly<ApiClientOptions>;
  // quote engine v2
  quoteReady(): Promise<Readiness>;
  status(): Promise<Status>;
  /**
   * The status read now, whatever the age of the one status() reuses (the engine watch's poll); the answer
   * becomes the one status() reuses. Optional: implementations that do not reuse status need not have it.
   */
  refreshStatus?(): Promise<Status>;
  tokens(): Promise<Token[]>;
  pools(): Promise<Pool[]>;
  pool(poolId: string): Promise<Pool>;
  /** GET /quotes/v2/pairs?input_token=…: the outputs reachable from one token (the parameter is required). */
  pairs(inputToken: string): Promise<PairsResponse>;
  /** Signed-id ladder; 'Pool not found' (404, or 200 + empty bins + that text) rejects with pool-not-found. */
  bins(poolId: string): Promise<BinList>;
  /** Single bin by signed id; the client converts to the unsigned id in the path. */
  bin(poolId: string, signedBinId: number): Promise<SingleBin>;
  /** GET /quotes/v2/bins/{pool}/active: the active bin (unsigned id, `is_active`). */
  activeBin(poolId: string): Promise<SingleBin>;
  quote(req: QuoteRequest): Promise<Route>;
  quoteMulti(req: QuoteRequest): Promise<Route[]>;
  swapParams(req: SwapParamsRequest): Promise<SwapParams>;
  /** POST /quotes/v2/agg/swap (the aggregator's swap parameters; same body, `provider` accepted). */
  aggSwap(req: SwapParamsRequest): Promise<SwapParams>;
  // app v2
  appReady(): Promise<Readiness>;
  priceHistory(poolId: string): Promise<PricePoint[]>;
  /** Display data: may lag the tip. Signed bin ids, normalized fields. */
  userPositionBins(user: string, poolId: string): Promise<PositionBin[]>;
  /**
   * GET /app/v2/users/{user}/positions/{alias}/current-bins: the owned-bin inventory pinned to a block. Takes
   * the alias (a principal gets 404 POOL_NOT_FOUND: pool-not-found). An errorCode, or a book that is not
   * clean, complete and reservesComplete, rejects inventory-unavailable; its tipLag is the caller's gate.
   */
  currentBins(user: string, alias: string): Promise<CurrentBins>;
  // legacy v1 (only what generation-mixing checks need)
  v1Bins(poolId: string): Promise<BinList>;
  /** GET /quotes/v1/tokens (bare list or `{tokens}`), read with the v2 token schema. */
  v1Tokens(): Promise<Token[]>;
  /** GET /quotes/v1/pools (bare list or `{pools}`): short adapter ids; fields beyond pool_id optional. */
  v1Pools(): Promise<V1Pool[]>;
  // market-maker inventory (cluster-internal); rejects inventory-unavailable on 503 codes
  hasInventory(): boolean;
  inventory(pool: string, principal: string): Promise<Inventory>;
  // node read-only proxy
  hasNode(): boolean;
  /** args are hex-encoded Clarity values (no 0x); result is the node's answer. */
  callReadOnly(contract: string, fn: string, args: string[], sender?: string): Promise<ReadOnlyResult>;
  /**
   * The answer callReadOnly would give from the node store, at once: a bin fact kept at the applied state
   * height while the status that taught it is within its reuse window; undefined otherwise (then read it).
   * Lets a caller with hundreds of bin reads skip a read's queueing for those already answered. Optional.
   */
  storedFact?(contract: string, fn: string, args: string[]): ReadOnlyResult | undefined;
  /**
   * The same client for a caller that may give up: once `signal` aborts, that caller's waiting reads reject
   * at once with a 'cancelled' ApiError. A read it shares with other callers (coalesced in flight) goes on
   * for them; the last caller giving up ends it: its queued limiter slot is released and its HTTP exchange
   * abandoned. Cache, limiters and counters are the client's. Optional: implementations without queues or
   * sockets need not have it (callers then wait for every read).
   */
  withSignal?(signal: AbortSignal): DlmmApi;
  /**
   * The same client for a caller that may not reach the network yet (a language-server run whose debounce
   * holds): its reads answered from memory or disk (the height cache, a read in flight it joins, the node
   * store, the on-disk answers) answer at once; a request it would send waits until `until` resolves (or
   * its signal aborts: a 'cancelled' ApiError). A read it shares with a caller not held is sent for that
   * one. withSignal on this view keeps the gate. Optional, as withSignal.
   */
  withGate?(until: Promise<void>): DlmmApi;
  /**
   * The service's clock as its last answer stated it (its HTTP `Date` header) beside this client's clock
   * (`now`) when that answer arrived; undefined before any answer with a Date header. No request of its own.
   */
  serviceClock?(): ServiceClock | undefined;
  /** Drops cached reads (settings change, or a new engine state). */
  clearCache(): void;
  stats(): ApiStats;
  /**
   * The pacing in force: the rates the servers granted (or the defaults, before any stated one) and how many
   * requests waited because the window was full. Optional: implementations without limiters need not have it.
   */
  pacing?(): Pacing;
  /** Releases keep-alive connections (optional: implementations without sockets need not have it). */
  close?(): Promise<void>;
}
