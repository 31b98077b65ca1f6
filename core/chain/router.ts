/**
 * The routers' public functions as the chain runs them, on a ChainState: argument decoding, the per-element
 * folds with their asserts, the list semantics, the v-1-2 deadline and post-condition evaluation. One call
 * is all or nothing: every pool it touched is restored when it reverts.
 *
 * List semantics (dlmm-liquidity-router / dlmm-swap-router, read from the contracts): each public function
 * folds over its list; a fold step first unwraps the previous result with `(unwrap! result
 * ERR_NO_RESULT_DATA)`. So when any element but the last fails, the next step turns the failure into
 * ERR_NO_RESULT_DATA (u5001 liquidity router, u2001 swap router) and that is what the chain reports; only a
 * failure of the last element keeps its own error. The simple-multi swaps fold over 350 bin indexes, so a
 * failing core call there is reported as ERR_NO_RESULT_DATA too. A runtime abort (u128 overflow or underflow)
 * is not an error value: it stops the whole transaction wherever it happens, fold or not, and is reported as
 * itself (RUNTIME_OVERFLOW / RUNTIME_UNDERFLOW, no code). Each swap-multi step swaps in the pool's
 * CURRENT active bin (expected-bin-id only feeds the unfavourable-bin count); a step in a bin without the
 * output token takes nothing, gives 0 and moves the active bin.
 */
import type { ClarityValue, PostCondition } from '@stacks/transactions';
import { toUnsignedBinId } from '../dlmm/bins';
import {
  CONTRACT_ERRORS,
  contractErrorCode,
  type ContractErrorName,
  type ErrorContract,
} from '../dlmm/contractErrors';
import type { RouterConfig } from './deployments';
import { callCost, type Cost } from './costs';
import {
  INSUFFICIENT_BALANCE,
  INSUFFICIENT_BALANCE_CODE,
  STX_KEY,
  type ChainBalances,
  type Held,
  type Unverified,
} from './balances';
import {
  addToPool,
  moveInPool,
  swapInPool,
  UnknownState,
  withdrawFromPool,
  type ChainResult,
  type TokenTraits,
} from './pool';
import {
  binOf,
  hasPositionNft,
  restorePool,
  snapshotPool,
  type ChainPool,
  type ChainState,
  type PoolSnapshot,
} from './state';

/** A contract call as a transaction carries it. */
export interface ChainCall {
  /** ADDR.name of the called contract. */
  contract: string;
  functionName: string;
  args: ClarityValue[];
  postConditions: PostCondition[];
  /** Post-condition mode deny (true) or allow. */
  deny: boolean;
  /** The transaction's sender (tx-sender). */
  sender: string;
}

export interface AssetMovement {
  /** Principal that sends (or burns). */
  from: string;
  /** 'stx', or `contract::asset-name`. */
  asset: string;
  /** Fungible amount; undefined for an NFT. */
  amount?: bigint;
  /** NFT: unsigned bin id of `pool-token-id` {token-id, owner}. */
  nftTokenId?: number;
}

/** What one list element did. */
export type ItemEffect =
  | { kind: 'add'; pool: string; bin: number; x: bigint; y: bigint; minted: bigint }
  | { kind: 'withdraw'; pool: string; bin: number; shares: bigint; x: bigint; y: bigint }
  | { kind: 'move'; pool: string; from: number; to: number; shares: bigint; minted: bigint }
  | { kind: 'swap'; pool: string; bin: number; in: bigint; out: bigint; xForY: boolean };

/** A transfer of more than the sender held: the token's `(err u1)`. */
export interface Shortfall {
  /** Token key: the SIP-010 contract principal, or `stx` for native STX (its wrapper's transfers). */
  token: string;
  needed: bigint;
  held: bigint;
}

/** A revert: what the chain reports, and the failure underneath it. */
export interface Revert {
  /** The error the transaction ends with (ERR_NO_RESULT_DATA when a non-last element failed). */
  error: string;
  /** Its `(err uNNNN)` code, when it has one. */
  code?: number;
  /** The failure underneath (the element's own error); equals `error` when nothing wrapped it. */
  cause: string;
  causeCode?: number;
  detail: string;
  /** 0-based list element that failed, when the failure belongs to one. */
  item?: number;
  /** The sender's balance did not cover a transfer (the cause is ERR_INSUFFICIENT_BALANCE). */
  shortfall?: Shortfall;
}

export type ExecResult =
  | {
      status: 'ok';
      movements: AssetMovement[];
      effects: ItemEffect[];
      pools: ChainPool[];
      /**
       * What the call spent of a block's execution budget (costs.ts), over `units`: its list elements, or
       * for a simple swap the bins its walk used; undefined for a function the cost table does not hold.
       */
      cost: Cost | undefined;
      units: number;
      /** Units that added into a bin with no shares (the core also mints the burnt shares: costlier). */
      newBins: number;
      /** Units that moved both tokens (an add of X and Y, a withdraw receiving both): a second transfer. */
      bothTokens: number;
      /** Spends the sender's balances could not decide (a balance not read); absent when none. */
      unverified?: Unverified[];
    }
  | ({ status: 'reverted' } & Revert)
  /** The call needs state that was not read; nothing was changed. */
  | { status: 'unknown'; detail: string; item?: number };

interface ExecOptions {
  routers: RouterConfig;
  /** Clock in ms for v-1-2 deadlines (default Date.now). */
  now?: () => number;
}

/** A failure raised inside the executor (carried to the top by exception, like Clarity's early return). */
class Fail {
  constructor(
    readonly error: ContractErrorName | string,
    readonly detail: string,
    readonly contract?: ErrorContract,
    /** The error's code when no contract's table has it (a token's `(err u1)`). */
    readonly code?: number,
    readonly shortfall?: Shortfall,
  ) {}
}

const fail = (error: ContractErrorName | string, detail: string, contract?: ErrorContract): never => {
  throw new Fail(error, detail, contract);
};

// The v-1-1 routers' contracts, as the handlers name them; `Runner.describe` reports the configured version's
// (the v-1-2 routers keep the v-1-1 codes and add the deadline's).
const SWAP_ROUTER: ErrorContract = 'dlmm-swap-router-v-1-1';
const LIQ_ROUTER: ErrorContract = 'dlmm-liquidity-router-v-1-1';

/** The error table's contract of a router for the configured version. */
function routerContract(router: 'swap' | 'liquidity', version: RouterConfig['version']): ErrorContract {
  if (router === 'swap') return version === 'v-1-2' ? 'dlmm-swap-router-v-1-2' : SWAP_ROUTER;
  return version === 'v-1-2' ? 'dlmm-liquidity-router-v-1-2' : LIQ_ROUTER;
}

/** The configured version's contract for a failure the handlers attributed to a v-1-1 router. */
function versioned(contract: ErrorContract, version: RouterConfig['version']): ErrorContract {
  if (contract === SWAP_ROUTER) return routerContract('swap', version);
  if (contract === LIQ_ROUTER) return routerContract('liquidity', version);
  return contract;
}

function raise<T>(r: ChainResult<T>): T {
  if (r.ok) return r.value;
  // Pool burns fail with the pool's own ERR_INVALID_AMOUNT (u3002); everything else is core's.
  const pool = r.error === 'ERR_INVALID_AMOUNT' && r.detail.startsWith('pool burn');
  return fail(r.error, r.detail, pool ? 'dlmm-pool' : 'dlmm-core-v-1-1');
}

type Tuple = Record<string, ClarityValue>;

function tuple(cv: ClarityValue | undefined, what: string): Tuple {
  if (!cv || cv.type !== 'tuple') return fail('INVALID_ARGUMENT', `${what} is not a tuple`);
  return cv.value;
}
function uint(t: Tuple, k: string): bigint {
  const v = t[k];
  if (!v || v.type !== 'uint') return fail('INVALID_ARGUMENT', `${k} is not a uint`);
  return BigInt(v.value);
}
function int(t: Tuple, k: string): number {
  const v = t[k];
  if (!v || v.type !== 'int') return fail('INVALID_ARGUMENT', `${k} is not an int`);
  return Number(v.value);
}
/** An add's (or a move's add half's) bounds as its list element gives them. */
function addBoundsOf(t: Tuple): { minDlp: bigint; maxFeeX: bigint; maxFeeY: bigint } {
  return {
    minDlp: uint(t, 'min-dlp'),
    maxFeeX: uint(t, 'max-x-liquidity-fee'),
    maxFeeY: uint(t, 'max-y-liquidity-fee'),
  };
}

function uintArg(v: ClarityValue | undefined, what: string): bigint {
  if (!v || v.type !== 'uint') return fail('INVALID_ARGUMENT', `${what} is not a uint`);
  return BigInt(v.value);
}
function principalOf(v: ClarityValue | undefined, what: string): string {
  if (!v || (v.type !== 'contract' && v.type !== 'address'))
    return fail('INVALID_ARGUMENT', `${what} is not a principal`);
  return v.value;
}
function list(v: ClarityValue | undefined, what: string): ClarityValue[] {
  if (!v || v.type !== 'list') return fail('INVALID_ARGUMENT', `${what} is not a list`);
  if (v.value.length > 350)
    fail('INVALID_ARGUMENT', `${what} has ${v.value.length} elements, above the list limit 350`);
  return v.value;
}

/** Which router a contract id is, or undefined. */
function routerKind(routers: RouterConfig, contract: string): 'swap' | 'liquidity' | undefined {
  if (contract === routers.swapRouter) return 'swap';
  if (contract === routers.liquidityRouter) return 'liquidity';
  return undefined;
}

/** Executes one router call on `state`: all or nothing. Never throws for bad arguments. */
export function executeCall(state: ChainState, call: ChainCall, opts: ExecOptions): ExecResult {
  const kind = routerKind(opts.routers, call.contract);
  if (!kind)
    return {
      status: 'reverted',
      error: 'NOT_A_ROUTER_CALL',
      cause: 'NOT_A_ROUTER_CALL',
      detail: `${call.contract} is not a configured router`,
    };
  const run = new Runner(state, call.sender, opts.routers);
  try {
    const args =
      opts.routers.version === 'v-1-2' ? checkDeadline(call.args, opts.now ?? Date.now) : call.args;
    run.call(kind, call.functionName, args);
    checkPostConditions(call.postConditions, run.movements, call.deny, call.sender);
    const simple = kind === 'swap' && call.functionName !== 'swap-multi';
    const units = simple ? run.binsWalked : run.length;
    const out: ExecResult = {
      status: 'ok',
      movements: run.movements,
      effects: run.effects,
      pools: run.touchedPools(),
      cost: callCost(call.functionName, units, opts.routers.version, {
        newBins: run.newBins,
        bothTokens: run.bothTokens,
      }),
      units,
      newBins: run.newBins,
      bothTokens: run.bothTokens,
    };
    if (run.unverified.length > 0) out.unverified = run.unverified;
    return out;
  } catch (e) {
    run.rollback();
    if (e instanceof UnknownState) {
      const out: ExecResult = { status: 'unknown', detail: e.detail };
      if (run.item !== undefined) out.item = run.item;
      return out;
    }
    if (!(e instanceof Fail)) throw e;
    return { status: 'reverted', ...run.describe(kind, e) };
  }
}

/** v-1-2: the trailing (optional uint) deadline in unix seconds; returns the other arguments. */
function checkDeadline(args: ClarityValue[], now: () => number): ClarityValue[] {
  const last = args[args.length - 1];
  if (!last || (last.type !== 'none' && last.type !== 'some'))
    return fail('INVALID_ARGUMENT', 'v-1-2 routers take a trailing (optional uint) deadline');
  if (last.type === 'some') {
    if (last.value.type !== 'uint') fail('INVALID_ARGUMENT', 'deadline is not a uint');
    const deadline = BigInt((last.value as { value: bigint | string | number }).value);
    const nowSec = BigInt(Math.floor(now() / 1000));
    if (nowSec > deadline)
      fail('ERR_DEADLINE_PASSED', `deadline ${deadline} is before now ${nowSec} (unix seconds)`);
  }
  return args.slice(0, -1);
}

/** Executes router functions against the state, recording asset movements and per-element effects. */
class Runner {
  readonly movements: AssetMovement[] = [];
  readonly effects: ItemEffect[] = [];
  private readonly saved = new Map<ChainPool, PoolSnapshot>();
  /** The balances at the call's start (restored on a revert), when the state models balances. */
  private readonly balances: ChainBalances | undefined;
  private readonly savedBalances: Map<string, Held> | undefined;
  /** Spends the balances could not decide. */
  readonly unverified: Unverified[] = [];
  /** The list element being executed, and the list's length (for the list semantics). */
  item: number | undefined;
  length = 0;
  /** Bins the core swaps of this call used (a simple swap's cost unit). */
  binsWalked = 0;
  /** Adds (and move targets) into a bin that had no shares. */
  newBins = 0;
  /** Adds of X and Y, withdraws receiving both. */
  bothTokens = 0;
  /** A simple-multi failure happens inside the 350-step fold, never at its last step. */
  private inFold350 = false;

  constructor(
    private readonly state: ChainState,
    private readonly sender: string,
    private readonly routers: RouterConfig,
  ) {
    this.balances = state.balances;
    this.savedBalances = this.balances?.snapshot();
  }

  call(router: 'swap' | 'liquidity', fn: string, args: ClarityValue[]): void {
    const handler = router === 'liquidity' ? LIQUIDITY[fn] : SWAP[fn];
    if (!handler) fail('UNSUPPORTED_FUNCTION', `${fn} is not a router function the chain model runs`);
    handler!(this, args);
  }

  /** Runs each element with its index recorded (the fold). */
  each(items: ClarityValue[], f: (t: Tuple, i: number) => void): void {
    this.length = items.length;
    items.forEach((it, i) => {
      this.item = i;
      f(tuple(it, 'list element'), i);
    });
    this.item = undefined;
  }

  fold350(f: () => void): void {
    this.inFold350 = true;
    f();
    this.inFold350 = false;
  }

  rollback(): void {
    for (const [p, s] of this.saved) restorePool(p, s);
    if (this.balances && this.savedBalances) this.balances.restore(this.savedBalances);
  }

  touchedPools(): ChainPool[] {
    return [...this.saved.keys()];
  }

  /** The chain's error for a failure (list semantics) and the cause underneath. */
  describe(router: 'swap' | 'liquidity', e: Fail): Revert {
    const contract = routerContract(router, this.routers.version);
    const causeCode =
      e.code ?? codeOf(e.error, e.contract ? versioned(e.contract, this.routers.version) : contract);
    // A runtime abort (u128 overflow or underflow) is no `(err ...)` value the next fold step could unwrap:
    // Clarity stops the whole transaction there, so the chain reports the abort itself, never the list's
    // ERR_NO_RESULT_DATA.
    const runtime = isRuntimeAbort(e.error);
    const wrapped = !runtime && ((this.item !== undefined && this.item < this.length - 1) || this.inFold350);
    const out: Revert = wrapped
      ? {
          error: 'ERR_NO_RESULT_DATA',
          code: contractErrorCode('ERR_NO_RESULT_DATA', contract) as number,
          cause: e.error,
          detail: e.detail,
        }
      : { error: e.error, cause: e.error, detail: e.detail };
    if (!wrapped && causeCode !== undefined) out.code = causeCode;
    if (causeCode !== undefined) out.causeCode = causeCode;
    if (this.item !== undefined) out.item = this.item;
    if (e.shortfall) out.shortfall = e.shortfall;
    return out;
  }

  /**
   * The pool of a trait argument and the token traits given with it. The traits are not compared here: the
   * core function compares them with the pool's tokens where the contract does, after its let-bindings
   * (core/chain/pool.ts bodyHead), and a call that makes no core call never compares them.
   */
  pool(
    poolCv: ClarityValue | undefined,
    xCv: ClarityValue | undefined,
    yCv: ClarityValue | undefined,
  ): PoolCall {
    const id = principalOf(poolCv, 'pool-trait');
    const found = this.state.pool(id);
    if (!found) {
      const why = this.state.missing?.(id);
      if (why !== undefined) throw new UnknownState(why);
    }
    const pool = found ?? fail('ERR_INVALID_POOL', `${id} is not a known pool`, 'dlmm-core-v-1-1');
    if (!this.saved.has(pool)) this.saved.set(pool, snapshotPool(pool));
    return { pool, traits: { x: principalOf(xCv, 'x-token-trait'), y: principalOf(yCv, 'y-token-trait') } };
  }

  /** Asset strings by token, built once per call (every element sends). */
  private readonly assets = new Map<string, string>();

  private asset(token: string): string {
    let a = this.assets.get(token);
    if (a === undefined) {
      a =
        token === this.routers.stxWrapper
          ? 'stx'
          : `${token}::${this.state.assetName(token) ?? 'unknown-asset'}`;
      this.assets.set(token, a);
    }
    return a;
  }

  /** The balances' key of a token: native STX for the STX wrapper. */
  private balanceKey(token: string): string {
    return token === this.routers.stxWrapper ? STX_KEY : token;
  }

  /**
   * A transfer: the sender's sends are taken from its balance (more than it holds fails as the token's
   * transfer does, `(err u1)`, and the whole call reverts); what a pool sends to the sender is credited.
   */
  private send(from: string, token: string, amount: bigint): void {
    if (amount <= 0n) return;
    const b = this.balances;
    if (b && from === this.sender) {
      const key = this.balanceKey(token);
      const r = b.debit(from, key, amount);
      if (!r.ok)
        throw new Fail(
          INSUFFICIENT_BALANCE,
          `the sender holds ${r.held} of ${key === STX_KEY ? 'STX (micro-STX)' : token} and the transfer needs ${amount}: the token's transfer fails with (err u${INSUFFICIENT_BALANCE_CODE})`,
          undefined,
          INSUFFICIENT_BALANCE_CODE,
          { token: key, needed: amount, held: r.held },
        );
      if ('unverified' in r) this.unverified.push(r.unverified);
    } else if (b) b.credit(this.sender, this.balanceKey(token), amount);
    this.movements.push({ from, asset: this.asset(token), amount });
  }

  /** The pool burns and re-mints the sender's position NFT of a bin when it exists. */
  private retag(pool: ChainPool, binId: number, existed: boolean): void {
    if (existed)
      this.movements.push({
        from: this.sender,
        asset: `${pool.id}::pool-token-id`,
        nftTokenId: toUnsignedBinId(binId),
      });
  }

  checkRange(id: number, contract: ErrorContract = LIQ_ROUTER): void {
    if (id < -500 || id > 500) fail('ERR_INVALID_BIN_ID', `bin id ${id} is outside -500..500`, contract);
  }

  add({ pool, traits }: PoolCall, binId: number, t: Tuple): void {
    this.checkRange(binId);
    const x = uint(t, 'x-amount');
    const y = uint(t, 'y-amount');
    const existed = hasPositionNft(pool, this.sender, binId);
    const fresh = binOf(pool, binId).shares === 0n;
    const r = raise(addToPool(pool, this.sender, binId, x, y, addBoundsOf(t), traits));
    this.send(this.sender, pool.tokenX, x);
    this.send(this.sender, pool.tokenY, y);
    if (fresh) this.newBins++;
    if (x > 0n && y > 0n) this.bothTokens++;
    this.retag(pool, binId, existed);
    this.effects.push({ kind: 'add', pool: pool.id, bin: binId, x, y, minted: r.minted });
  }

  withdraw({ pool, traits }: PoolCall, binId: number, t: Tuple): void {
    this.checkRange(binId);
    const amount = uint(t, 'amount');
    const got = raise(
      withdrawFromPool(
        pool,
        this.sender,
        binId,
        amount,
        uint(t, 'min-x-amount'),
        uint(t, 'min-y-amount'),
        traits,
      ),
    );
    this.send(pool.id, pool.tokenX, got.x);
    this.send(pool.id, pool.tokenY, got.y);
    if (got.x > 0n && got.y > 0n) this.bothTokens++;
    this.movements.push({ from: this.sender, asset: `${pool.id}::pool-token`, amount });
    this.retag(pool, binId, true);
    this.effects.push({ kind: 'withdraw', pool: pool.id, bin: binId, shares: amount, x: got.x, y: got.y });
  }

  move({ pool, traits }: PoolCall, fromBinId: number, toBinId: number, t: Tuple): void {
    this.checkRange(fromBinId);
    this.checkRange(toBinId);
    const amount = uint(t, 'amount');
    const toExisted = hasPositionNft(pool, this.sender, toBinId);
    const fresh = binOf(pool, toBinId).shares === 0n;
    const r = raise(moveInPool(pool, this.sender, fromBinId, toBinId, amount, addBoundsOf(t), traits));
    if (fresh) this.newBins++;
    this.movements.push({ from: this.sender, asset: `${pool.id}::pool-token`, amount });
    this.retag(pool, fromBinId, true);
    this.retag(pool, toBinId, toExisted);
    this.effects.push({
      kind: 'move',
      pool: pool.id,
      from: fromBinId,
      to: toBinId,
      shares: amount,
      minted: r.add.minted,
    });
  }

  /** Core swap calls in the pool's current active bin (maxBins 1: one swap-multi step; 350: simple-multi). */
  swap({ pool, traits }: PoolCall, xForY: boolean, amount: bigint, maxBins: number): bigint {
    const bin = pool.activeBinId;
    const v = raise(swapInPool(pool, xForY, amount, 0n, maxBins, traits));
    this.binsWalked += v.steps.length;
    this.send(this.sender, xForY ? pool.tokenX : pool.tokenY, v.amount_in_used);
    this.send(pool.id, xForY ? pool.tokenY : pool.tokenX, v.amount_out);
    this.effects.push({
      kind: 'swap',
      pool: pool.id,
      bin,
      in: v.amount_in_used,
      out: v.amount_out,
      xForY,
    });
    return v.amount_out;
  }
}

/** A core call's pool and the token traits it was given (compared where the core function does). */
interface PoolCall {
  pool: ChainPool;
  traits: TokenTraits;
}

/** A Clarity runtime abort (no error constant, no code). */
function isRuntimeAbort(error: string): boolean {
  return error === 'RUNTIME_OVERFLOW' || error === 'RUNTIME_UNDERFLOW';
}

/**
 * The code of `name` as `contract` raises it. A core failure whose name core does not define falls back to
 * the name's first contract; a router's never does (the liquidity router v-1-2's ERR_DEADLINE_PASSED has no
 * published code and must not borrow the swap router's u2012).
 */
function codeOf(name: string, contract: ErrorContract): number | undefined {
  if (!Object.prototype.hasOwnProperty.call(CONTRACT_ERRORS, name)) return undefined;
  const own = contractErrorCode(name as ContractErrorName, contract);
  if (own !== undefined || contract !== 'dlmm-core-v-1-1') return own;
  return contractErrorCode(name as ContractErrorName);
}

type Handler = (r: Runner, args: ClarityValue[]) => void;

const nonEmpty = (items: ClarityValue[]): void => {
  if (items.length === 0) fail('ERR_EMPTY_POSITIONS_LIST', 'the positions list is empty', LIQ_ROUTER);
};

/**
 * A handler of a positions list: each element on its own pool (as its traits name it), then the empty-list
 * check after the fold, as the router does.
 */
const perPosition =
  (run: (r: Runner, c: PoolCall, t: Tuple) => void): Handler =>
  (r, [positions]) => {
    const items = list(positions, 'positions');
    r.each(items, (t) => run(r, r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']), t));
    nonEmpty(items);
  };

/** A relative element's bin: the pool's active bin when the element runs, plus its offset. */
const relativeBin = (c: PoolCall, t: Tuple): number => c.pool.activeBinId + int(t, 'active-bin-id-offset');

const LIQUIDITY: Record<string, Handler> = {
  'add-liquidity-multi': perPosition((r, c, t) => r.add(c, int(t, 'bin-id'), t)),
  'add-relative-liquidity-multi': perPosition((r, c, t) => r.add(c, relativeBin(c, t), t)),
  'add-relative-liquidity-same-multi': (r, [positions, poolCv, xCv, yCv, tolerance]) => {
    const items = list(positions, 'positions');
    const c = r.pool(poolCv, xCv, yCv);
    const active = c.pool.activeBinId;
    r.each(items, (t) => r.add(c, active + int(t, 'active-bin-id-offset'), t));
    nonEmpty(items);
    if (tolerance && tolerance.type === 'some') {
      const tol = tuple(tolerance.value, 'active-bin-tolerance');
      const delta = BigInt(Math.abs(active - int(tol, 'expected-bin-id')));
      if (delta > uint(tol, 'max-deviation')) {
        fail(
          'ERR_ACTIVE_BIN_TOLERANCE',
          `active bin ${active} is ${delta} bins from the expected ${int(tol, 'expected-bin-id')}, above max-deviation ${uint(tol, 'max-deviation')}`,
          LIQ_ROUTER,
        );
      }
    }
  },
  'withdraw-liquidity-multi': perPosition((r, c, t) => r.withdraw(c, int(t, 'bin-id'), t)),
  'withdraw-relative-liquidity-multi': perPosition((r, c, t) => r.withdraw(c, relativeBin(c, t), t)),
  'move-liquidity-multi': perPosition((r, c, t) => r.move(c, int(t, 'from-bin-id'), int(t, 'to-bin-id'), t)),
  'move-relative-liquidity-multi': perPosition((r, c, t) => {
    const from = int(t, 'from-bin-id');
    r.checkRange(from);
    r.move(c, from, relativeBin(c, t), t);
  }),
};

function simpleSwap(xForY: boolean): Handler {
  return (r, [poolCv, xCv, yCv, amountCv, minCv]) => {
    const c = r.pool(poolCv, xCv, yCv);
    const amount = uintArg(amountCv, 'amount');
    const min = uintArg(minCv, 'minimum');
    // A zero amount makes no core call (each fold step skips when nothing is left to swap), so nothing
    // compares the token traits either.
    const out = amount > 0n ? runFold(r, c, xForY, amount) : 0n;
    if (out < min)
      fail('ERR_MINIMUM_RECEIVED', `the swap gives ${out}, below the minimum ${min}`, SWAP_ROUTER);
  };
}

function runFold(r: Runner, c: PoolCall, xForY: boolean, amount: bigint): bigint {
  let out = 0n;
  r.fold350(() => {
    out = r.swap(c, xForY, amount, 350);
  });
  return out;
}

const SWAP: Record<string, Handler> = {
  'swap-x-for-y-simple-multi': simpleSwap(true),
  'swap-y-for-x-simple-multi': simpleSwap(false),
  'swap-multi': (r, [swaps, maxUnfavorable]) => {
    const steps = list(swaps, 'swaps');
    let unfavorable = 0n;
    r.each(steps, (t) => {
      const expected = int(t, 'expected-bin-id');
      if (expected < -500 || expected > 500)
        fail('ERR_INVALID_BIN_ID', `expected-bin-id ${expected} is outside -500..500`, SWAP_ROUTER);
      const c = r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']);
      const xForY = t['x-for-y']?.type === 'true';
      const active = c.pool.activeBinId;
      const delta = active - expected;
      if (xForY ? delta < 0 : delta > 0) unfavorable += BigInt(Math.abs(delta));
      const out = r.swap(c, xForY, uint(t, 'amount'), 1);
      const min = uint(t, 'min-received');
      if (out < min)
        fail(
          'ERR_MINIMUM_RECEIVED',
          `the step runs in the active bin ${active} (expected ${expected}) and gives ${out}, below min-received ${min}`,
          SWAP_ROUTER,
        );
    });
    if (steps.length === 0) fail('ERR_EMPTY_SWAPS_LIST', 'the swaps list is empty', SWAP_ROUTER);
    const max = uintArg(maxUnfavorable, 'max-unfavorable-bins');
    if (unfavorable > max)
      fail(
        'ERR_BIN_SLIPPAGE',
        `unfavourable bin drift ${unfavorable} is above max-unfavorable-bins ${max}`,
        SWAP_ROUTER,
      );
  },
};

/** The chain's error in words: "ERR_NO_RESULT_DATA (u5001): list element 2 failed with ERR_… (u…): …". */
export function revertWords(r: Revert): string {
  const code = (c: number | undefined) => (c === undefined ? '' : ` u${c}`);
  const head = `${r.error}${code(r.code)}`;
  if (r.cause !== r.error)
    return `${head}: list element ${(r.item ?? 0) + 1} failed with ${r.cause}${code(r.causeCode)}: ${r.detail}`;
  return `${head}${r.item !== undefined ? ` (list element ${r.item + 1})` : ''}: ${r.detail}`;
}

/** Stacks post-condition semantics over the recorded movements (sends and burns). */
function checkPostConditions(
  pcs: PostCondition[],
  moves: AssetMovement[],
  deny: boolean,
  sender: string,
): void {
  const who = (a: string): string => (a === 'origin' ? sender : a);
  const ftKey = (from: string, asset: string) => `${from}|${asset}`;
  // Summed per sender and asset first (a 350-element call records ~700 movements), then keyed as below.
  const byFrom = new Map<string, Map<string, bigint>>();
  const firstSeen: [string, string][] = [];
  const nftSent = new Set<string>();
  for (const m of moves) {
    if (m.nftTokenId !== undefined) {
      nftSent.add(`${m.from}|${m.asset}|${m.nftTokenId}`);
      continue;
    }
    let assets = byFrom.get(m.from);
    if (!assets) byFrom.set(m.from, (assets = new Map()));
    const before = assets.get(m.asset);
    if (before === undefined) firstSeen.push([m.from, m.asset]);
    assets.set(m.asset, (before ?? 0n) + (m.amount ?? 0n));
  }
  // In the order each (sender, asset) first moved: the deny-mode check below names the first uncovered one.
  const sent = new Map<string, bigint>();
  for (const [from, asset] of firstSeen) sent.set(ftKey(from, asset), byFrom.get(from)?.get(asset) ?? 0n);
  const covered = new Set<string>();
  for (const pc of pcs) {
    if (pc.type === 'stx-postcondition' || pc.type === 'ft-postcondition') {
      const asset = pc.type === 'stx-postcondition' ? 'stx' : pc.asset;
      const key = ftKey(who(pc.address), asset);
      const amount = sent.get(key) ?? 0n;
      const want = BigInt(pc.amount);
      const okCmp =
        pc.condition === 'eq'
          ? amount === want
          : pc.condition === 'lte'
            ? amount <= want
            : pc.condition === 'lt'
              ? amount < want
              : pc.condition === 'gte'
                ? amount >= want
                : amount > want;
      if (!okCmp)
        fail(
          'POST_CONDITION_FAILED',
          `${who(pc.address)} sent ${amount} of ${asset}; the post-condition requires ${pc.condition} ${want}`,
        );
      covered.add(key);
    } else if (pc.type === 'nft-postcondition') {
      const idCv = pc.assetId.type === 'tuple' ? pc.assetId.value['token-id'] : undefined;
      const id = idCv && idCv.type === 'uint' ? Number(idCv.value) : -1;
      const key = `${who(pc.address)}|${pc.asset}|${id}`;
      const was = nftSent.has(key);
      if (pc.condition === 'sent' && !was)
        fail('POST_CONDITION_FAILED', `${pc.asset} ${id} was not sent by ${who(pc.address)}`);
      if (pc.condition === 'not-sent' && was)
        fail('POST_CONDITION_FAILED', `${pc.asset} ${id} was sent by ${who(pc.address)}`);
      covered.add(key);
    }
  }
  if (!deny) return;
  for (const [key, amount] of sent) {
    if (amount > 0n && !covered.has(key))
      fail(
        'POST_CONDITION_FAILED',
        `deny mode: ${key.replace('|', ' sent ' + amount + ' of ')} with no post-condition covering it`,
      );
  }
  for (const key of nftSent) {
    if (!covered.has(key)) {
      const [from, asset, id] = key.split('|') as [string, string, string];
      fail(
        'POST_CONDITION_FAILED',
        `deny mode: the position NFT ${asset} of bin ${Number(id) - 500} (token-id u${id}) is burned and re-minted for ${from} with no post-condition covering it`,
      );
    }
  }
}

export type { PoolSnapshot };
