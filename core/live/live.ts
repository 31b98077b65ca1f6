/**
 * Live data for one analysis, read only through the DlmmApi interface (I/O passed in). Each pool's data is
 * read once per analysis; a `LiveSession` shared by many analyses (e.g. `dlmm check` over 120 files) reads
 * each resource once per session. Every failure is kept as a value (`LiveError`) for the rules to report:
 * a 503 or an unknown tip is never read as an empty book or as caught up. Never throws.
 */
import { aliasesByPrincipal, withAliases } from '../api/aliases';
import { freezeData, isFrozenData, SharedRuns } from '../api/cache';
import { isApiError, NOT_THE_SERVICE, type ApiErrorCode, type InventoryFault } from '../api/errors';
import type {
  BinList,
  Bin,
  DlmmApi,
  Pool,
  Readiness,
  ReadOnlyResult,
  Route,
  Status,
  Token,
  V1Pool,
} from '../api/types';
import { CORE_CONTRACTS } from '../chain/deployments';
import { activeWindow, toSignedBinId, isSignedBinId, windowBinsAmong } from '../dlmm/bins';
import type { CoreMinimums } from '../dlmm/math';
import type { Plan, PlanOperation } from '../plan/schema';
import { POOL_ALIAS, PolicySchema } from '../plan/schema';
import { checkRoute, poolLookup, type QuoteCheck } from '../quote/exact';
import { distributionRange } from '../plan/schema';

export interface LiveError {
  code: ApiErrorCode;
  /** "GET /quotes/v2/bins/dlmm_1" (never carries keys). */
  endpoint: string;
  message: string;
  status?: number;
  fault?: InventoryFault;
  field?: string;
  /** The engine's own status or ready path answered 404 (core/api/failures.ts notTheService). */
  notTheService?: boolean;
}

/** One user position bin, from app v2 positions or the market-maker inventory (signed ids, raw shares). */
export interface PositionRecord {
  bin_id: number;
  user_liquidity: bigint;
  /** Total shares of the bin; null when the source did not say. */
  liquidity: bigint | null;
  reserve_x: bigint;
  reserve_y: bigint;
}

/** Where a pool's positions were read from. */
export type PositionsSource = 'inventory' | 'current-bins' | 'app';

export interface LivePool {
  /** The pool as written in the plan. */
  written: string;
  /** The generation its reads used (the file's `api`). */
  generation: 'v2' | 'v1';
  /** Contract principal (written, or resolved from the pool record / pools list). */
  principal?: string;
  alias?: string;
  pool?: Pool;
  poolError?: LiveError;
  /** v1 files: the pool's record from /quotes/v1/pools (fields beyond pool_id may be absent). */
  v1Pool?: V1Pool;
  bins?: BinList;
  binsError?: LiveError;
  /** The bin list by id (one map per bin list read, shared by every analysis that has that read). */
  binById: ReadonlyMap<number, Bin>;
  activeBinId?: number;
  tokenX?: Token;
  tokenY?: Token;
  /**
   * Where positions came from: the market-maker inventory or app v2 current-bins (both tip-pinned), or app
   * v2 position bins (display data).
   */
  positionsSource?: PositionsSource;
  positions?: PositionRecord[];
  positionById: Map<number, PositionRecord>;
  positionsError?: LiveError;
  inventoryError?: LiveError;
  /** The tip-pinned source's own tip lag when positions came from it (null: tip unknown, never caught up). */
  inventoryTipLag?: number | null;
  /** Total bin shares read from the node (get-bin-balances), by signed bin id. */
  binShares: Map<number, bigint>;
  binSharesError?: LiveError;
  /**
   * Why the sender's positions were not read although the plan needed them (v1 files: no inventory, or
   * the inventory does not know the pool). Reported per withdraw/move as api-unreachable; never an empty book.
   */
  positionsGap?: string;
}

/**
 * The sender's balance of one token, read from the node (the token's SIP-010 `get-balance`; native STX
 * through its wrapper). `amount` when read; otherwise `unread` says why (and `error` when a read failed or
 * answered something implausible). Nothing is ever guessed.
 */
export interface LiveBalance {
  /** Token contract principal (the STX wrapper for STX). */
  token: string;
  /** Whether this is native STX (read through the wrapper `get-balance`, i.e. `stx-get-balance`). */
  stx: boolean;
  amount?: bigint;
  unread?: string;
  error?: LiveError;
}

/**
 * The core's minimum-bin-shares and minimum-burnt-shares (its admin's data-vars), read from the node when
 * the plan makes a first deposit into an empty bin: `value` when read and believed; otherwise `unread`
 * says why (and `error` when a read failed). Never assumed at their launch values.
 */
export interface LiveCoreMinimums {
  value?: CoreMinimums;
  unread?: string;
  error?: LiveError;
}

export interface LiveSwap {
  route?: Route;
  error?: LiveError;
  /** The route recomputed exactly from the bins read (core/quote/exact.ts); set with `route`. */
  check?: QuoteCheck;
}

export interface LiveData {
  generation: 'v2' | 'v1';
  status?: Status;
  statusError?: LiveError;
  /**
   * Both /quotes/v2/status and /quotes/v2/ready answered 404: the base URL is not the service's, so every
   * other 404 says nothing about pools or routes (api-unreachable reports it once; pool-not-found and
   * swap-no-route stay silent).
   */
  notTheService?: LiveError;
  quoteReady?: Readiness;
  quoteReadyError?: LiveError;
  appReady?: Readiness;
  appReadyError?: LiveError;
  tokens?: Token[];
  tokensError?: LiveError;
  pools?: Pool[];
  poolsError?: LiveError;
  /** /quotes/v1/pools (every file: the alias mapping; v1 files: their flags too) and, v1 files only, /quotes/v1/tokens. */
  v1Pools?: V1Pool[];
  v1PoolsError?: LiveError;
  v1Tokens?: Token[];
  v1TokensError?: LiveError;
  /** v2 files: the v1 pools list could not be read to map a principal to its alias (for current-bins). */
  aliasMapError?: LiveError;
  /** By the pool reference as written in the plan. */
  byPool: Map<string, LivePool>;
  /** By operation index. */
  swaps: Map<number, LiveSwap>;
  /**
   * Pools the swaps' routes go through that no liquidity operation names, by the hop's pool id: read (pool
   * record and bins) so the plan's swaps can be executed on the state read.
   */
  routePools: Map<string, LivePool>;
  hasInventory: boolean;
  /** Whether positions were read (a sender and at least one liquidity op). */
  positionsRead: boolean;
  /**
   * The sender's balances of the tokens the plan spends and of STX (fees), by token contract; empty
   * without a sender.
   */
  balances: Map<string, LiveBalance>;
  /** The core's minimums, read with the pools' facts when the plan makes a first deposit; else absent. */
  coreMinimums?: LiveCoreMinimums;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: LiveError };

/** Memoized reads shared across analyses (one `dlmm check` run, one language-server refresh). */
export interface LiveSession {
  /**
   * The outcome of the read under `key`, made once by `f` for every analysis of the session. `f` gets the
   * read's own signal. A caller passing `signal` may give up: its wait ends at once (a 'cancelled' error);
   * the read itself is aborted, and forgotten, only when no caller waits for it any more. A caller passing
   * `gate` may not reach the network before it resolves: `f` gets the read's own gate (undefined once open),
   * open as soon as one of its callers' is (SharedGate).
   */
  read<T>(
    key: string,
    endpoint: string,
    f: (signal: AbortSignal, gate: Promise<void> | undefined) => Promise<T>,
    signal?: AbortSignal,
    gate?: Promise<void>,
  ): Promise<Settled<T>>;
}

/** A new session: each distinct read is made once; failures are memoized too (no retry storms). */
export function createLiveSession(): LiveSession {
  const memo = new SharedRuns<Settled<unknown>>(true);
  return {
    async read<T>(
      key: string,
      endpoint: string,
      f: (signal: AbortSignal, gate: Promise<void> | undefined) => Promise<T>,
      signal?: AbortSignal,
      gate?: Promise<void>,
    ): Promise<Settled<T>> {
      try {
        return (await memo.run(
          key,
          (shared, g) => settle(endpoint, () => f(shared, g.until)),
          signal,
          undefined,
          gate,
        )) as Settled<T>;
      } catch (e) {
        return { ok: false, error: toLiveError(e, endpoint) };
      }
    },
  };
}

/**
 * An analysis's reads through the session: `f` gets the client bound to the read's own signal, and to its
 * gate while that is closed.
 */
interface Reader {
  read<T>(key: string, endpoint: string, f: (api: DlmmApi) => Promise<T>): Promise<Settled<T>>;
}

function readerOf(
  api: DlmmApi,
  session: LiveSession,
  signal: AbortSignal | undefined,
  gate: Promise<void> | undefined,
): Reader {
  return {
    read: (key, endpoint, f) =>
      session.read(
        key,
        endpoint,
        (shared, until) => {
          const bound = api.withSignal?.(shared) ?? api;
          return f(until !== undefined ? (bound.withGate?.(until) ?? bound) : bound);
        },
        signal,
        gate,
      ),
  };
}

async function settle<T>(endpoint: string, f: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: toLiveError(e, endpoint) };
  }
}

/** Any rejection as a LiveError value (ApiError keeps its code and context). */
function toLiveError(e: unknown, endpoint: string): LiveError {
  if (isApiError(e)) {
    const out: LiveError = { code: e.code, endpoint: e.context.endpoint || endpoint, message: e.message };
    if (e.context.status !== undefined) out.status = e.context.status;
    if (e.context.fault !== undefined) out.fault = e.context.fault;
    if (e.context.field !== undefined) out.field = e.context.field;
    if (e.context.detail === NOT_THE_SERVICE) out.notTheService = true;
    return out;
  }
  return { code: 'unexpected-response', endpoint, message: e instanceof Error ? e.message : String(e) };
}

interface ReadLiveOptions {
  session?: LiveSession;
  /**
   * The caller gave up (its document was closed or edited): its reads end at once, and a read it shares
   * with another analysis goes on only for that one (LiveSession.read).
   */
  signal?: AbortSignal;
  /**
   * The caller may not reach the network before this resolves (a language-server run whose debounce holds):
   * reads answered from memory or disk answer at once, requests wait (DlmmApi.withGate).
   */
  gate?: Promise<void>;
  /** The contract that moves native STX (the network's router configuration): STX balance and fees. */
  stxWrapper?: string;
}

const isLiquidityOp = (op: PlanOperation): op is Extract<PlanOperation, { pool: string }> => op.op !== 'swap';

function emptyLive(generation: LiveData['generation'], api: DlmmApi, positionsRead: boolean): LiveData {
  return {
    generation,
    byPool: new Map(),
    swaps: new Map(),
    routePools: new Map(),
    hasInventory: safeHas(api, 'hasInventory'),
    positionsRead,
    balances: new Map(),
  };
}

/** The status and the tokens and pools lists every live read starts with, into `live`. */
async function readLists(s: Reader, live: LiveData): Promise<void> {
  const [status, tokens, pools, v1PoolsRead] = await Promise.all([
    s.read('status', 'GET /quotes/v2/status', (a) => a.status()),
    s.read('tokens', 'GET /quotes/v2/tokens', (a) => a.tokens()),
    s.read('pools', 'GET /quotes/v2/pools', (a) => a.pools()),
    // The v2 pool record names no alias: the v1 list maps aliases to principals (for that only).
    s.read('v1pools', 'GET /quotes/v1/pools', (a) => a.v1Pools()),
  ]);
  if (status.ok) live.status = status.value;
  else live.statusError = status.error;
  if (tokens.ok) live.tokens = tokens.value;
  else live.tokensError = tokens.error;
  if (v1PoolsRead.ok) live.v1Pools = v1PoolsRead.value;
  else if (live.generation === 'v1') live.v1PoolsError = v1PoolsRead.error;
  else live.aliasMapError = v1PoolsRead.error;
  if (pools.ok) live.pools = poolsWithAliases(pools.value, live.v1Pools);
  else live.poolsError = pools.error;
}

/**
 * The v2 pools list with aliases (withAliases) per pair of lists read: every analysis of a height gets the
 * client's same frozen lists, and mapping some hundred records again on each keystroke was most of what a
 * warm analysis allocated in this module. Kept only for frozen lists (nobody can have changed them since),
 * and handed out frozen, as the lists it comes from.
 */
const aliasedPools = new WeakMap<readonly Pool[], { v1: readonly V1Pool[] | undefined; pools: Pool[] }>();

function poolsWithAliases(pools: readonly Pool[], v1: readonly V1Pool[] | undefined): Pool[] {
  const kept = aliasedPools.get(pools);
  if (kept && kept.v1 === v1) return kept.pools;
  const out = withAliases(pools, v1);
  if (!Object.isFrozen(pools) || (v1 !== undefined && !Object.isFrozen(v1))) return out;
  for (const p of out) Object.freeze(p);
  aliasedPools.set(pools, { v1, pools: Object.freeze(out) as Pool[] });
  return out;
}

/** poolLookup per pools list kept (poolsWithAliases): one index per list, not one per analysis. */
const lookups = new WeakMap<readonly Pool[], (id: string) => Pool | undefined>();

function lookupOf(pools: Pool[]): (id: string) => Pool | undefined {
  if (!Object.isFrozen(pools)) return poolLookup(pools);
  let lookup = lookups.get(pools);
  if (!lookup) lookups.set(pools, (lookup = poolLookup(pools)));
  return lookup;
}

/** Reads everything the live rules and preparation need for `plan`. Never throws. */
export async function readLive(plan: Plan, api: DlmmApi, opts: ReadLiveOptions = {}): Promise<LiveData> {
  const s = readerOf(api, opts.session ?? createLiveSession(), opts.signal, opts.gate);
  const live = emptyLive(plan.api, api, false);
  const [, quoteReady, appReady] = await Promise.all([
    readLists(s, live),
    s.read('quoteReady', 'GET /quotes/v2/ready', (a) => a.quoteReady()),
    s.read('appReady', 'GET /app/v2/ready', (a) => a.appReady()),
  ]);
  if (quoteReady.ok) live.quoteReady = quoteReady.value;
  else live.quoteReadyError = quoteReady.error;
  if (live.statusError?.notTheService && live.quoteReadyError?.notTheService)
    live.notTheService = live.statusError;
  if (appReady.ok) live.appReady = appReady.value;
  else live.appReadyError = appReady.error;

  const refs = [...new Set(plan.operations.filter(isLiquidityOp).map((op) => op.pool))];
  const sender = plan.sender;
  if (plan.api === 'v1' && refs.length > 0) {
    // Same generation for every read of a v1 pool: flags and tokens from the v1 lists, not the v2 ones.
    const v1Tokens = await s.read('v1tokens', 'GET /quotes/v1/tokens', (a) => a.v1Tokens());
    if (v1Tokens.ok) live.v1Tokens = v1Tokens.value;
    else live.v1TokensError = v1Tokens.error;
  }
  await Promise.all(
    refs.map(async (ref) => live.byPool.set(ref, await readPool(ref, plan, sender, api, s, live))),
  );
  live.positionsRead = sender !== undefined && refs.length > 0;

  await Promise.all(
    plan.operations.map(async (op, index) => {
      if (op.op !== 'swap') return;
      const slippage = op.slippage_tolerance ?? plan.policy.slippage_tolerance;
      const key = `quote:${op.input_token}:${op.output_token}:${op.amount_in}:${op.amm_strategy}:${slippage}`;
      const r = await s.read(key, 'POST /quotes/v2/quote', (a) =>
        a.quote({
          input_token: op.input_token,
          output_token: op.output_token,
          amount_in: op.amount_in,
          amm_strategy: op.amm_strategy,
          slippage_tolerance: slippage,
        }),
      );
      if (!r.ok) {
        live.swaps.set(index, { error: r.error });
        return;
      }
      live.swaps.set(index, { route: r.value, check: await checkSwap(r.value, op.amount_in, s, live) });
    }),
  );
  await readRoutePools(plan, api, s, live);
  await Promise.all([
    readBalances(plan, api, s, live, opts.stxWrapper),
    [...live.byPool.values()].some((lp) => makesFirstDeposit(lp, plan))
      ? readCoreMinimums(plan.network, api, s).then((m) => {
          live.coreMinimums = m;
        })
      : undefined,
  ]);
  return live;
}

/**
 * Whether the plan adds or moves into an empty bin of this pool (a first deposit, which must meet the core's
 * minimums): a target bin whose total shares are known to be 0, or one the bin list does not hold (the list
 * holds every bin with reserves).
 */
function makesFirstDeposit(lp: LivePool, plan: Plan): boolean {
  return depositTargets(lp, plan).some(
    (id) => isSignedBinId(id) && (!lp.binById.has(id) || knownShares(lp, id) === 0n),
  );
}

/**
 * The core's `get-minimum-bin-shares` and `get-minimum-burnt-shares` -> `(ok uint)` through the node, once
 * per session (and per applied state height in the client's node store). A read that fails, is refused or
 * answers what `set-minimum-shares` never allows (0, or bin <= burnt) leaves them unread, and says why.
 */
async function readCoreMinimums(
  network: Plan['network'],
  api: DlmmApi,
  s: Reader,
): Promise<LiveCoreMinimums> {
  const core = CORE_CONTRACTS[network];
  if (core === undefined)
    return { unread: `no DLMM core contract is known for ${network}, so its minimum shares were not read` };
  if (!safeHas(api, 'hasNode'))
    return {
      unread: `no node proxy is configured (DLMM_NODE_URL / dlmm.nodeUrl), so the core's minimum shares were not read`,
    };
  const readOne = async (fn: string): Promise<bigint | { unread: string; error?: LiveError }> => {
    const stored = storedFact(api, core, fn, () => []);
    const known = stored?.okay ? codec().decodeOkUint(stored.result) : undefined;
    if (known !== undefined) return known;
    const endpoint = `POST {node}/v2/contracts/call-read/${core}/${fn}`;
    const r = await s.read(`core:${core}:${fn}`, endpoint, async (a) => {
      const res = await a.callReadOnly(core, fn, []);
      if (!res.okay) return { refused: res.cause ?? 'no cause given' };
      const value = codec().decodeOkUint(res.result);
      if (value === undefined)
        throw new Error(`${fn} answered ${String(res.result).slice(0, 80)}, not (ok uint)`);
      return { value };
    });
    if (r.ok && r.value.value !== undefined) return r.value.value;
    if (r.ok) return { unread: `the node refused ${fn} (${r.value.refused})` };
    return { unread: `${endpoint} failed (${r.error.message})`, error: r.error };
  };
  const [bin, burnt] = await Promise.all([
    readOne('get-minimum-bin-shares'),
    readOne('get-minimum-burnt-shares'),
  ]);
  if (typeof bin !== 'bigint') return bin;
  if (typeof burnt !== 'bigint') return burnt;
  if (burnt === 0n || bin <= burnt)
    return {
      unread: `the core answered minimum-bin-shares ${bin} and minimum-burnt-shares ${burnt}, which set-minimum-shares never allows; not believed`,
    };
  return { value: { binShares: bin, burntShares: burnt } };
}

/**
 * What `dlmm positions` and the editor's positions read for `sender`: the status, tokens and pools lists,
 * then each pool's record, bin list and the sender's positions exactly as a plan's withdraw reads them
 * (readPositions: the inventory, else app v2 current-bins, else app v2 position bins), and the node's total
 * shares of every position bin no trusted source stated. `pools`: the pools to read (principals or
 * aliases); undefined reads every pool of the v2 pools list. Never throws.
 */
export async function readPositionsLive(
  api: DlmmApi,
  sender: string,
  pools: readonly string[] | undefined,
  opts: ReadLiveOptions = {},
): Promise<LiveData> {
  const s = readerOf(api, opts.session ?? createLiveSession(), opts.signal, opts.gate);
  const live = emptyLive('v2', api, true);
  await readLists(s, live);
  const refs = pools ?? (live.pools ?? []).map((p) => p.pool_id);
  const noOps: Plan = {
    version: 1,
    network: 'mainnet',
    api: 'v2',
    sender,
    policy: PolicySchema.parse({}),
    operations: [],
  };
  const hasNode = safeHas(api, 'hasNode');
  await Promise.all(
    [...new Set(refs)].map(async (ref) => {
      const lp = await readPool(ref, noOps, sender, api, s, live);
      // A withdraw of every position bin needs the bin's total shares: read those no source stated.
      const missing = (lp.positions ?? [])
        .map((r) => r.bin_id)
        .filter((id) => isSignedBinId(id) && knownShares(lp, id) === undefined);
      if (missing.length > 0 && lp.principal !== undefined && hasNode)
        await readBinShares(lp, missing, s, api);
      live.byPool.set(ref, lp);
    }),
  );
  return live;
}

/** Tokens the plan's transactions take from the sender: an add's two pool tokens, a swap's input. */
function tokensSpent(plan: Plan, live: LiveData): string[] {
  const out = new Set<string>();
  for (const op of plan.operations) {
    if (op.op === 'swap') out.add(op.input_token);
    else if (op.op === 'add') {
      const p = live.byPool.get(op.pool)?.pool;
      if (p) out.add(p.token_x).add(p.token_y);
    }
  }
  return [...out];
}

/**
 * The sender's balance of every token the plan spends, and of STX (the fees), through the node proxy's
 * read-only call of the token's SIP-010 `get-balance (who principal)` -> `(ok uint)` (the STX wrapper's is
 * `stx-get-balance`). Once per (token, sender) per session, and per applied state height in the client
 * (core/api/nodeStore.ts keeps it on disk like bin facts, and the node's pacing applies). A read that fails
 * or answers another shape leaves the balance unread, and says why.
 */
async function readBalances(
  plan: Plan,
  api: DlmmApi,
  s: Reader,
  live: LiveData,
  stxWrapper: string | undefined,
): Promise<void> {
  const sender = plan.sender;
  if (sender === undefined || plan.operations.length === 0) return;
  const tokens = tokensSpent(plan, live);
  if (stxWrapper !== undefined && !tokens.includes(stxWrapper)) tokens.push(stxWrapper);
  const hasNode = safeHas(api, 'hasNode');
  const read = await Promise.all(tokens.map((t) => readBalance(s, api, hasNode, t, sender, stxWrapper)));
  for (const b of read) live.balances.set(b.token, b);
}

/** One balance: the token's SIP-010 `get-balance (who principal)` -> `(ok uint)` through the node. */
async function readBalance(
  s: Reader,
  api: DlmmApi,
  hasNode: boolean,
  token: string,
  sender: string,
  stxWrapper: string | undefined,
): Promise<LiveBalance> {
  const b: LiveBalance = { token, stx: token === stxWrapper };
  if (!hasNode) {
    b.unread = 'no node proxy is configured (DLMM_NODE_URL / dlmm.nodeUrl), so it was not read';
    return b;
  }
  const stored = storedFact(api, token, 'get-balance', () => [codec().principalArg(sender)]);
  const known = stored?.okay ? codec().decodeOkUint(stored.result) : undefined;
  if (known !== undefined) {
    b.amount = known;
    return b;
  }
  const endpoint = `POST {node}/v2/contracts/call-read/${token}/get-balance`;
  const r = await s.read(`balance:${token}:${sender}`, endpoint, async (a) => {
    const res = await a.callReadOnly(token, 'get-balance', [codec().principalArg(sender)], sender);
    if (!res.okay) return { refused: res.cause ?? 'no cause given' };
    const amount = codec().decodeOkUint(res.result);
    // Any other shape is no balance: an unexpected-response finding (toLiveError), never a guess.
    if (amount === undefined)
      throw new Error(`get-balance answered ${String(res.result).slice(0, 80)}, not (ok uint)`);
    return { amount };
  });
  if (r.ok && 'amount' in r.value) b.amount = r.value.amount;
  else if (r.ok) b.unread = `the node refused the read (${r.value.refused})`;
  else {
    b.error = r.error;
    b.unread = `${endpoint} failed (${r.error.message})`;
  }
  return b;
}

/**
 * `principal`'s balances of `tokens` (the STX wrapper's: micro-STX), each read as `check` reads them
 * (`dlmm balances`, the dashboard). Never throws: a balance not read says why.
 */
export async function readBalancesOf(
  api: DlmmApi,
  principal: string,
  tokens: readonly string[],
  stxWrapper: string | undefined,
  opts: ReadLiveOptions = {},
): Promise<LiveBalance[]> {
  const s = readerOf(api, opts.session ?? createLiveSession(), opts.signal, opts.gate);
  const hasNode = safeHas(api, 'hasNode');
  return Promise.all(tokens.map((t) => readBalance(s, api, hasNode, t, principal, stxWrapper)));
}

/**
 * The last check of each route read, with what it was computed from (checkRoute is a pure function of the
 * route, the input, the pools list and the hops' bin lists), by the route's hops: a kept quote is served
 * at its height as a new outer object over the same frozen parts, so a keystroke that changes no swap
 * finds the same hops, fields, pools list and bin lists, and gets the same check (frozen) instead of
 * walking every hop again. Kept only when every part is frozen data (nothing in it can have changed).
 */
const routeChecks = new WeakMap<
  object,
  {
    fields: Array<[string, unknown]>;
    amountIn: bigint;
    pools: readonly Pool[];
    lists: Map<string, BinList>;
    check: QuoteCheck;
  }
>();

/** Reads each hop's bin list (memoized in the session) and recomputes the route exactly. */
async function checkSwap(route: Route, amountIn: bigint, s: Reader, live: LiveData): Promise<QuoteCheck> {
  const lookup = lookupOf(live.pools ?? []);
  const lists = new Map<string, BinList>();
  await Promise.all(
    [...new Set(route.hops.map((h) => h.pool_id))].map(async (id) => {
      if (!lookup(id)) return;
      const r = await s.read(`bins:${id}`, `GET /quotes/v2/bins/${id}`, (a) => a.bins(id));
      if (r.ok) lists.set(id, r.value);
    }),
  );
  const pools = live.pools;
  const fields = Object.entries(route);
  const keepable =
    pools !== undefined &&
    Object.isFrozen(pools) &&
    fields.every(([, v]) => isFrozenData(v)) &&
    [...lists.values()].every((l) => isFrozenData(l));
  const kept = keepable ? routeChecks.get(route.hops) : undefined;
  if (
    kept &&
    kept.amountIn === amountIn &&
    kept.pools === pools &&
    sameFields(kept.fields, fields) &&
    sameLists(kept.lists, lists)
  )
    return kept.check;
  const check = checkRoute(route, amountIn, { pool: lookup, bins: (id) => lists.get(id) });
  if (keepable && freezeData(check)) routeChecks.set(route.hops, { fields, amountIn, pools, lists, check });
  if (!check.verified && live.poolsError)
    check.unverified_reason = `${check.unverified_reason} (${live.poolsError.endpoint}: ${live.poolsError.message})`;
  return check;
}

/** The same fields, each the same value (primitives, or the same frozen objects), in the same order. */
function sameFields(a: ReadonlyArray<[string, unknown]>, b: ReadonlyArray<[string, unknown]>): boolean {
  return a.length === b.length && a.every(([k, v], i) => b[i]?.[0] === k && b[i]?.[1] === v);
}

/** The same bin list objects under the same ids. */
function sameLists(a: ReadonlyMap<string, BinList>, b: ReadonlyMap<string, BinList>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, list] of a) if (b.get(id) !== list) return false;
  return true;
}

/** Reads the pools the quoted routes go through (record and bins, no positions), once per pool. */
async function readRoutePools(plan: Plan, api: DlmmApi, s: Reader, live: LiveData): Promise<void> {
  const known = new Set<string>();
  for (const lp of live.byPool.values()) {
    known.add(lp.written);
    if (lp.principal) known.add(lp.principal);
    if (lp.alias) known.add(lp.alias);
  }
  const ids = new Set<string>();
  for (const sw of live.swaps.values())
    for (const hop of sw.route?.hops ?? []) if (!known.has(hop.pool_id)) ids.add(hop.pool_id);
  const noPositions: Plan = { ...plan, operations: [] };
  await Promise.all(
    [...ids].map(async (id) =>
      live.routePools.set(id, await readPool(id, noPositions, undefined, api, s, live)),
    ),
  );
}

/** Whether the client has the optional server (one that cannot say has none). */
function safeHas(api: DlmmApi, server: 'hasNode' | 'hasInventory'): boolean {
  try {
    return api[server]();
  } catch {
    return false;
  }
}

/**
 * Target bins of the plan's adds and moves on this pool whose shares are unknown, nearest the active bin
 * first: a simple-mode position's are every listed bin it may land on over the active-bin window (its
 * bounds are the fewest shares over that window: core/tx/windowBounds.ts).
 */
function targetBins(lp: LivePool, plan: Plan): number[] {
  const active = lp.activeBinId ?? 0;
  // Bins whose total shares a trusted source already states need no node read (the one rule: knownShares).
  return depositTargets(lp, plan)
    .filter((id) => isSignedBinId(id) && lp.binById.has(id) && knownShares(lp, id) === undefined)
    .sort((a, b) => Math.abs(a - active) - Math.abs(b - active));
}

/** Every bin the plan's adds and moves put liquidity into on this pool (strict ids, offsets, distributions). */
function depositTargets(lp: LivePool, plan: Plan): number[] {
  const active = lp.activeBinId ?? 0;
  const ids = new Set<number>();
  const offsets: number[] = [];
  for (const op of plan.operations) {
    if (op.op === 'swap' || op.pool !== lp.written) continue;
    const simple = op.mode === 'simple';
    if (op.op === 'add') {
      for (const b of op.bins)
        if (simple) offsets.push(b.active_bin_offset ?? NaN);
        else ids.add(b.bin_id ?? NaN);
      const range = op.distribution && distributionRange(op.mode, op.distribution, active);
      if (range)
        for (let b = Math.max(range.lo, -500); b <= Math.min(range.hi, 500); b++)
          if (simple) offsets.push(b - active);
          else ids.add(b);
    }
    if (op.op === 'move')
      for (const m of op.moves)
        if (simple) offsets.push(m.active_bin_offset ?? NaN);
        else ids.add(m.to_bin_id ?? NaN);
  }
  const landed = offsets.filter(Number.isInteger);
  if (landed.length > 0) {
    const window = activeWindow(active, plan.policy.active_bin_tolerance);
    for (const id of windowBinsAmong(lp.binById.keys(), landed, window)) ids.add(id);
  }
  return [...ids];
}

/**
 * The trusted total shares of bin `binId` as this analysis read them, or undefined when no trusted source
 * gave them: the one source of truth for shares (the node read, the executed state, the bounds, the
 * preparation and export all ask here). Trusted: the legacy v1 list's liquidity, the node's
 * get-bin-balances, the tip-pinned inventory (market-maker inventory or app v2 current-bins) and the
 * position records' bin shares. Never the quote v2 list's `liquidity`: the interface document's rule, even
 * though mainnet fills it on most bins (a filled figure is neither used nor an error).
 */
export function knownShares(lp: LivePool, binId: number): bigint | undefined {
  const listed = lp.generation === 'v1' ? lp.binById.get(binId)?.liquidity : undefined;
  const shares = listed ?? lp.binShares.get(binId) ?? lp.positionById.get(binId)?.liquidity;
  return shares ?? undefined;
}

/**
 * Bin shares from the pool's read-only get-bin-balances (the list's liquidity is null on v2), for every
 * target bin whose shares no other source states, so a plan of any size is executed when the reads
 * succeed. Not capped: the client paces node requests under the node's 500 per minute (a read beyond the
 * budget waits for its slot instead of getting a 429) and answers a (pool, bin) once per applied state
 * height per machine (core/api/nodeStore.ts), so only bins new at this height cost a request. A bin whose
 * read fails stays unknown: its bound and its execution are reported, never silently passed.
 */
async function readBinShares(lp: LivePool, ids: readonly number[], s: Reader, api: DlmmApi): Promise<void> {
  const principal = lp.principal as string;
  await Promise.all(
    ids.map(async (id) => {
      const known = storedShares(api, principal, id);
      if (known !== undefined) {
        lp.binShares.set(id, known);
        return;
      }
      // Decoded inside the memoized read: a warm session neither re-encodes the argument nor re-decodes.
      const r = await s.read(
        `node:${principal}:${id}`,
        `POST {node}/v2/contracts/call-read/${principal}/get-bin-balances`,
        async (a) => {
          const res = await a.callReadOnly(principal, 'get-bin-balances', [codec().binIdArg(id)]);
          return codec().decodeBinShares(res.okay ? res.result : undefined);
        },
      );
      if (!r.ok) {
        lp.binSharesError ??= r.error;
        return;
      }
      if (r.value !== undefined) lp.binShares.set(id, r.value);
    }),
  );
}

/**
 * A node fact the node store answers at once (DlmmApi.storedFact: read at this height by an earlier read or
 * command), so none of a large plan's stored bins and balances queues a read; undefined otherwise (then it
 * is read). Never throws.
 */
function storedFact(
  api: DlmmApi,
  contract: string,
  fn: string,
  args: () => string[],
): ReadOnlyResult | undefined {
  try {
    return api.storedFact?.(contract, fn, args());
  } catch {
    return undefined;
  }
}

/** The bin's total shares when the node store answers them at once (storedFact). */
function storedShares(api: DlmmApi, principal: string, id: number): bigint | undefined {
  const stored = storedFact(api, principal, 'get-bin-balances', () => [codec().binIdArg(id)]);
  return stored?.okay ? codec().decodeBinShares(stored.result) : undefined;
}

/** The service's zod schemas, built on first use (an offline check never builds them). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const apiSchemas = () => require('../api/schemas') as typeof import('../api/schemas');

/**
 * The Clarity codec of node bin reads, loaded when the first node read happens: an offline check never
 * loads the Clarity library. esbuild.mjs serves this require from the execution's bundle (which re-exports
 * the codec and which every live check with a sender loads anyway): one copy of @stacks/transactions.
 */
let codecModule: typeof import('./binShareCodec') | undefined;
// Kept once loaded: it is asked for twice per node bin read, and a require resolves the path each time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const codec = () => (codecModule ??= require('./binShareCodec') as typeof import('./binShareCodec'));

async function readPool(
  ref: string,
  plan: Plan,
  sender: string | undefined,
  api: DlmmApi,
  s: Reader,
  live: LiveData,
): Promise<LivePool> {
  const lp: LivePool = {
    written: ref,
    generation: plan.api,
    binById: new Map(),
    positionById: new Map(),
    binShares: new Map(),
  };
  const isAlias = POOL_ALIAS.test(ref);
  if (isAlias) lp.alias = ref;
  else lp.principal = ref;

  if (plan.api === 'v1') return readPoolV1(lp, sender, s, live);

  const [pool, bins] = await Promise.all([
    s.read(`pool:${ref}`, `GET /quotes/v2/pools/${ref}`, (a) => a.pool(ref)),
    s.read(`bins:${ref}`, `GET /quotes/v2/bins/${ref}`, (a) => a.bins(ref)),
  ]);
  if (pool.ok) {
    lp.pool = pool.value;
    if (!isAlias && pool.value.pool_id !== ref && POOL_ALIAS.test(pool.value.pool_id))
      lp.alias = pool.value.pool_id;
    if (isAlias && !POOL_ALIAS.test(pool.value.pool_id)) lp.principal = pool.value.pool_id;
    if (pool.value.pool_alias) lp.alias = pool.value.pool_alias;
    lp.activeBinId = pool.value.active_bin;
  } else lp.poolError = pool.error;
  if (bins.ok) setBins(lp, bins.value);
  else lp.binsError = bins.error;

  // Resolve alias <-> principal through the pools list when the pool record did not say.
  const listed = live.pools?.find(
    (p) =>
      p.pool_id === ref || p.pool_alias === ref || (lp.principal !== undefined && p.pool_id === lp.principal),
  );
  if (listed) {
    if (!POOL_ALIAS.test(listed.pool_id)) lp.principal ??= listed.pool_id;
    if (listed.pool_alias) lp.alias ??= listed.pool_alias;
    lp.pool ??= listed;
  }
  const p = lp.pool;
  if (p && live.tokens) {
    lp.tokenX = live.tokens.find((t) => t.contract_address === p.token_x);
    lp.tokenY = live.tokens.find((t) => t.contract_address === p.token_y);
  }

  // Positions first: shares they already state are never read again from the node.
  await readPositions(lp, sender, s, live);
  if (lp.principal !== undefined && lp.activeBinId !== undefined && safeHas(api, 'hasNode')) {
    await readBinShares(lp, targetBins(lp, plan), s, api);
  }
  return lp;
}

/**
 * The sender's positions in the pool, from the first source that answers: the market-maker inventory when
 * configured; else app v2 current-bins (tip-pinned, by the pool's alias) when the pool is in its cohort;
 * else app v2 position bins (display data: positions-may-lag). A fault of a tip-pinned source is kept
 * (inventory-unavailable) and never read as an empty book.
 */
async function readPositions(
  lp: LivePool,
  sender: string | undefined,
  s: Reader,
  live: LiveData,
): Promise<void> {
  if (sender === undefined || lp.principal === undefined || !lp.pool) return;
  const principal = lp.principal;
  if (live.hasInventory && (await readInventory(lp, principal, sender, s))) return;
  if (!live.hasInventory && (await readCurrentBins(lp, sender, s, live))) return;
  const pos = await s.read(
    `positions:${principal}:${sender}`,
    `GET /app/v2/users/${sender}/positions/${principal}/bins`,
    (a) => a.userPositionBins(sender, principal),
  );
  if (pos.ok)
    setPositions(
      lp,
      pos.value.map((b) => ({ ...b })),
      'app',
    );
  else lp.positionsError = pos.error;
}

/**
 * The pool's alias for app v2 current-bins: as written in the plan, or mapped from the v1 pools list, which
 * pairs `pool_id` (the alias) with `pool_token` (the principal). The list is read for that mapping only:
 * no v1 id is ever sent to a v2 call but this one, which takes the alias by its contract.
 */
function aliasOf(lp: LivePool, live: LiveData): string | undefined {
  if (lp.alias !== undefined) return lp.alias;
  const alias = aliasesByPrincipal(live.v1Pools).get(lp.principal ?? '');
  if (alias !== undefined) lp.alias = alias;
  return lp.alias;
}

/**
 * Tip-pinned positions from app v2 current-bins; false when the pool is not in its cohort (404
 * POOL_NOT_FOUND, or no alias known), or when it failed (the failure is kept for the rules).
 */
async function readCurrentBins(lp: LivePool, sender: string, s: Reader, live: LiveData): Promise<boolean> {
  const alias = aliasOf(lp, live);
  if (alias === undefined) return false;
  const endpoint = `GET /app/v2/users/${sender}/positions/${alias}/current-bins`;
  const r = await s.read(`currentBins:${alias}:${sender}`, endpoint, (a) => a.currentBins(sender, alias));
  if (!r.ok) {
    if (r.error.code !== 'pool-not-found') lp.inventoryError = r.error;
    return false;
  }
  const book = r.value;
  if (book.poolContract !== lp.principal) {
    lp.inventoryError = {
      code: 'unexpected-response',
      endpoint,
      message: `${endpoint}: unexpected response, field 'poolContract' is '${book.poolContract}', not the pool read (${lp.principal}); the book is not believed.`,
      field: 'poolContract',
    };
    return false;
  }
  const records = book.bins.map((b) => ({
    bin_id: b.binIdSigned,
    user_liquidity: b.userShares,
    liquidity: b.binShares,
    reserve_x: b.reserveX,
    reserve_y: b.reserveY,
  }));
  setPositions(lp, records, 'current-bins');
  lp.inventoryTipLag = book.tipLag;
  return true;
}

/** Tip-pinned positions from the market-maker inventory (unsigned ids -> signed here); false on failure. */
async function readInventory(lp: LivePool, poolRef: string, sender: string, s: Reader): Promise<boolean> {
  const inv = await s.read(
    `inventory:${poolRef}:${sender}`,
    `GET {inventory}/pools/${poolRef}/positions/${sender}`,
    (a) => a.inventory(poolRef, sender),
  );
  if (!inv.ok) {
    lp.inventoryError = inv.error;
    return false;
  }
  const records = inv.value.bins.map((b) => ({
    bin_id: toSignedBinId(b.bin_id),
    user_liquidity: b.shares,
    liquidity: b.total_shares,
    reserve_x: b.reserve_x,
    reserve_y: b.reserve_y,
  }));
  setPositions(lp, records, 'inventory');
  lp.inventoryTipLag = inv.value.tip_lag;
  delete lp.inventoryError;
  return true;
}

/** What to do when a v1 plan's positions cannot be read (the api-unreachable finding's advice). */
const V1_POSITIONS_ADVICE =
  'configure the market-maker inventory (DLMM_INVENTORY_URL / dlmm.inventoryUrl), or write the plan with api: v2 and contract principals';

/**
 * Legacy generation: bins from /quotes/v1/bins, flags and tokens from the v1 lists, positions only from the
 * inventory. App v1 positions are not read (their shape is not in the interface document) and app v2
 * positions are not mixed with v1 ids, so without an inventory the gap is recorded, not filled.
 */
async function readPoolV1(
  lp: LivePool,
  sender: string | undefined,
  s: Reader,
  live: LiveData,
): Promise<LivePool> {
  const ref = lp.written;
  const bins = await s.read(`v1bins:${ref}`, `GET /quotes/v1/bins/${ref}`, (a) => a.v1Bins(ref));
  if (bins.ok) setBins(lp, bins.value);
  else lp.binsError = bins.error;

  const record = live.v1Pools?.find((p) => p.pool_id === ref);
  if (record) {
    lp.v1Pool = record;
    if (record.pool_token && !POOL_ALIAS.test(record.pool_token)) lp.principal = record.pool_token;
    // A v1 record carrying the PoolSchema fields is used as the pool (fees, tokens, preparation); the real
    // v1 record has no `quotable`, which is never guessed: the flags come from `v1Pool` (poolFlagsOf), and a
    // flag it does not carry is skipped by the flag rules.
    const full = apiSchemas().PoolSchema.safeParse({ quotable: record.active, ...record });
    if (full.success) lp.pool = full.data;
    if (record.active_bin !== undefined) lp.activeBinId ??= record.active_bin;
    const tokens = live.v1Tokens ?? [];
    if (record.token_x) lp.tokenX = tokens.find((t) => t.contract_address === record.token_x);
    if (record.token_y) lp.tokenY = tokens.find((t) => t.contract_address === record.token_y);
  }

  // An unknown pool is pool-not-found's (or mixed-generation's) finding; no sender, nothing to read.
  if (sender === undefined || !bins.ok) return lp;
  if (!live.hasInventory) {
    lp.positionsGap = `the sender's positions in '${ref}' were not read: app v1 positions are not read by this version (their shape is not in the interface document) and app v2 positions must not be mixed with v1 ids; ${V1_POSITIONS_ADVICE}`;
    return lp;
  }
  // The inventory takes the alias on some deployments and the principal on others (docs/service-shapes.md).
  const forms = [ref, ...(lp.principal !== undefined ? [lp.principal] : [])];
  for (const form of forms) {
    if (await readInventory(lp, form, sender, s)) return lp;
    if (lp.inventoryError?.code !== 'pool-not-found') return lp; // 503 codes and transport errors are reported as such
  }
  lp.positionsGap = `the inventory does not know pool '${ref}' (tried ${forms.join(' and ')}), so the sender's positions were not read; ${V1_POSITIONS_ADVICE}`;
  return lp;
}

/** The pool's `active`/`quotable` flags from the v2 record or the v1 one; a flag the source lacks is undefined. */
export function poolFlagsOf(lp: LivePool | undefined): { active?: boolean; quotable?: boolean } {
  const p = lp?.v1Pool ?? lp?.pool;
  const out: { active?: boolean; quotable?: boolean } = {};
  if (typeof p?.active === 'boolean') out.active = p.active;
  if (typeof p?.quotable === 'boolean') out.quotable = p.quotable;
  return out;
}

/**
 * Bins by id, per bin list read: every analysis of a live session gets the same read (the same object), so
 * 150 plans on one pool index its bins once instead of once each (and hold one map, not 150).
 */
const binsById = new WeakMap<BinList, ReadonlyMap<number, Bin>>();

function setBins(lp: LivePool, list: BinList): void {
  lp.bins = list;
  let byId = binsById.get(list);
  if (!byId) {
    const m = new Map<number, Bin>();
    for (const b of list.bins) m.set(b.bin_id, b);
    binsById.set(list, (byId = m));
  }
  lp.binById = byId;
  if (list.active_bin_id !== null) lp.activeBinId ??= list.active_bin_id;
}

function setPositions(lp: LivePool, records: PositionRecord[], source: PositionsSource): void {
  lp.positions = records;
  lp.positionsSource = source;
  for (const r of records) lp.positionById.set(r.bin_id, r);
}

/** Live errors of every read, for the transport-level rules (deduplicated by code and endpoint). */
export function allLiveErrors(live: LiveData): LiveError[] {
  const out: LiveError[] = [];
  const push = (e: LiveError | undefined): void => {
    if (e && !out.some((o) => o.code === e.code && o.endpoint === e.endpoint)) out.push(e);
  };
  push(live.statusError);
  push(live.quoteReadyError);
  push(live.appReadyError);
  push(live.tokensError);
  push(live.poolsError);
  push(live.v1PoolsError);
  push(live.v1TokensError);
  for (const p of live.byPool.values()) {
    push(p.poolError);
    push(p.binsError);
    push(p.positionsError);
    push(p.inventoryError);
    push(p.binSharesError);
  }
  for (const sw of live.swaps.values()) push(sw.error);
  for (const b of live.balances.values()) push(b.error);
  push(live.coreMinimums?.error);
  return out;
}
