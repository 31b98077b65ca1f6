/**
 * Dry-run of a serialized unsigned transaction on the simulated engine (POST /api/admin/apply): decode it,
 * check it calls a configured router, decode the arguments and apply them with the contracts' semantics
 * (bin id checks, placement, min-dlp / fee / minimum asserts, active-bin tolerance, swap steps), record
 * every asset movement, then check the post-conditions against those movements (deny mode: every
 * movement must be covered). All or nothing: any failure rolls the engine back.
 */
import {
  AddressVersion,
  addressFromVersionHash,
  addressToString,
  deserializeTransaction,
  PostConditionMode,
  PayloadType,
  wireToPostCondition,
  type ClarityValue,
  type PostCondition,
} from '@stacks/transactions';
import { toUnsignedBinId } from '../dlmm/bins';
import { routerConfigFor, type Network, type RouterConfig } from '../tx/routers';
import type { SimEngine, SimPool } from './engine';

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

export type ApplyResult =
  | {
      ok: true;
      txid: string;
      contract: string;
      functionName: string;
      sender: string;
      movements: AssetMovement[];
      /** Per touched pool: active bin after and the state height. */
      pools: { pool: string; active_bin_id: number }[];
      state_height: number;
    }
  | { ok: false; error: string; detail: string };

export interface ApplyOptions {
  routers?: Partial<Record<Network, Partial<RouterConfig>>>;
  /** Clock in ms for v-1-2 deadlines (default Date.now). */
  now?: () => number;
}

class Revert {
  constructor(
    readonly error: string,
    readonly detail: string,
  ) {}
}

type Tuple = Record<string, ClarityValue>;

const fail = (error: string, detail: string): never => {
  throw new Revert(error, detail);
};

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

/** Decodes and applies `txHex` to `engine`; never throws for bad input. */
export function applyTransaction(engine: SimEngine, txHex: string, opts: ApplyOptions = {}): ApplyResult {
  let tx: ReturnType<typeof deserializeTransaction>;
  try {
    tx = deserializeTransaction(txHex.trim().replace(/^0x/, ''));
  } catch (e) {
    return {
      ok: false,
      error: 'INVALID_TRANSACTION',
      detail: `not a serialized Stacks transaction: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const payload = tx.payload;
  if (payload.payloadType !== PayloadType.ContractCall) {
    return { ok: false, error: 'NOT_A_ROUTER_CALL', detail: 'the transaction is not a contract call' };
  }
  const network: Network = tx.transactionVersion === 0 ? 'mainnet' : 'testnet';
  const routers = routerConfigFor(network, opts.routers);
  const contract = `${addressToString(payload.contractAddress)}.${payload.contractName.content}`;
  const fn = payload.functionName.content;
  if (!routers || (contract !== routers.liquidityRouter && contract !== routers.swapRouter)) {
    return {
      ok: false,
      error: 'NOT_A_ROUTER_CALL',
      detail: `${contract} is not a configured ${network} router (configure routers with a \`routers\` object in the apply request, or DLMM_ROUTERS for \`dlmm sim apply\`)`,
    };
  }
  const version = network === 'mainnet' ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig;
  const sender = addressToString(addressFromVersionHash(version, tx.auth.spendingCondition.signer));
  const pcs = tx.postConditions.values.map((w) =>
    wireToPostCondition(w as Parameters<typeof wireToPostCondition>[0]),
  );
  const deny = tx.postConditionMode === PostConditionMode.Deny;
  const args = payload.functionArgs;
  const touched = new Set<SimPool>();
  const movements: AssetMovement[] = [];
  const run = new Runner(engine, sender, routers, movements, touched);
  const result = engine.transaction(() => {
    try {
      const rest = routers.version === 'v-1-2' ? checkDeadline(args, opts.now ?? Date.now) : args;
      run.call(contract === routers.swapRouter ? 'swap' : 'liquidity', fn, rest);
      checkPostConditions(pcs, movements, deny, sender);
      return { ok: true as const };
    } catch (e) {
      if (e instanceof Revert) return { ok: false as const, error: e.error, detail: e.detail };
      throw e;
    }
  });
  if (!result.ok) return result;
  return {
    ok: true,
    txid: tx.txid(),
    contract,
    functionName: fn,
    sender,
    movements,
    pools: [...touched].map((p) => ({ pool: p.id, active_bin_id: p.activeBinId })),
    state_height: engine.status.state_height,
  };
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

/** Executes router functions against the engine, recording asset movements. */
class Runner {
  constructor(
    private readonly engine: SimEngine,
    private readonly sender: string,
    private readonly routers: RouterConfig,
    private readonly movements: AssetMovement[],
    private readonly touched: Set<SimPool>,
  ) {}

  call(router: 'swap' | 'liquidity', fn: string, args: ClarityValue[]): void {
    const handler = router === 'liquidity' ? LIQUIDITY[fn] : SWAP[fn];
    if (!handler) fail('UNSUPPORTED_FUNCTION', `${fn} is not a router function the dry-run supports`);
    handler!(this, args);
  }

  /** The pool of a trait argument, with its token traits checked against the pool's tokens. */
  pool(
    poolCv: ClarityValue | undefined,
    xCv: ClarityValue | undefined,
    yCv: ClarityValue | undefined,
  ): SimPool {
    const id = principalOf(poolCv, 'pool-trait');
    const pool =
      this.engine.poolByPrincipal(id) ??
      fail('ERR_INVALID_POOL', `${id} is not a pool of the simulated engine`);
    if (principalOf(xCv, 'x-token-trait') !== pool.tokenX)
      fail('ERR_INVALID_X_TOKEN', `x-token-trait is not ${pool.tokenX}`);
    if (principalOf(yCv, 'y-token-trait') !== pool.tokenY)
      fail('ERR_INVALID_Y_TOKEN', `y-token-trait is not ${pool.tokenY}`);
    this.touched.add(pool);
    return pool;
  }

  private asset(token: string): string {
    if (token === this.routers.stxWrapper) return 'stx';
    const t = this.engine.token(token);
    return `${token}::${t?.asset_name ?? 'unknown-asset'}`;
  }

  private send(from: string, token: string, amount: bigint): void {
    if (amount > 0n) this.movements.push({ from, asset: this.asset(token), amount });
  }

  private retag(pool: SimPool, binId: number, existed: boolean): void {
    if (existed)
      this.movements.push({
        from: this.sender,
        asset: `${pool.id}::pool-token-id`,
        nftTokenId: toUnsignedBinId(binId),
      });
  }

  private hasNft(pool: SimPool, binId: number): boolean {
    return pool.positions.get(this.sender)?.has(binId) ?? false;
  }

  checkRange(id: number): void {
    if (id < -500 || id > 500) fail('ERR_INVALID_BIN_ID', `bin id ${id} is outside -500..500`);
  }

  add(pool: SimPool, binId: number, t: Tuple): void {
    this.checkRange(binId);
    const x = uint(t, 'x-amount');
    const y = uint(t, 'y-amount');
    const existed = this.hasNft(pool, binId);
    const r = this.engine.addLiquidity(pool, this.sender, binId, x, y, {
      minDlp: uint(t, 'min-dlp'),
      maxFeeX: uint(t, 'max-x-liquidity-fee'),
      maxFeeY: uint(t, 'max-y-liquidity-fee'),
    });
    if (!r.ok) throw new Revert(r.error, r.detail);
    this.send(this.sender, pool.tokenX, x);
    this.send(this.sender, pool.tokenY, y);
    this.retag(pool, binId, existed);
  }

  withdraw(pool: SimPool, binId: number, t: Tuple): void {
    this.checkRange(binId);
    const amount = uint(t, 'amount');
    const r = this.engine.withdrawLiquidity(
      pool,
      this.sender,
      binId,
      amount,
      uint(t, 'min-x-amount'),
      uint(t, 'min-y-amount'),
    );
    if (!r.ok) throw new Revert(r.error, r.detail);
    // The engine's union result loses the value type; withdraw answers {x, y, bin_after}.
    const got = r.value as { x: bigint; y: bigint };
    this.send(pool.id, pool.tokenX, got.x);
    this.send(pool.id, pool.tokenY, got.y);
    this.movements.push({ from: this.sender, asset: `${pool.id}::pool-token`, amount });
    this.retag(pool, binId, true);
  }

  move(pool: SimPool, fromBinId: number, toBinId: number, t: Tuple): void {
    this.checkRange(fromBinId);
    this.checkRange(toBinId);
    const amount = uint(t, 'amount');
    const toExisted = this.hasNft(pool, toBinId);
    const r = this.engine.moveLiquidity(pool, this.sender, fromBinId, toBinId, amount, {
      minDlp: uint(t, 'min-dlp'),
      maxFeeX: uint(t, 'max-x-liquidity-fee'),
      maxFeeY: uint(t, 'max-y-liquidity-fee'),
    });
    if (!r.ok) throw new Revert(r.error, r.detail);
    this.movements.push({ from: this.sender, asset: `${pool.id}::pool-token`, amount });
    this.retag(pool, fromBinId, true);
    this.retag(pool, toBinId, toExisted);
  }

  /** One core swap call in the pool's active bin (maxBins 1), or a walk for simple-multi. */
  swap(pool: SimPool, xForY: boolean, amount: bigint, minOut: bigint, maxBins: number): bigint {
    const r = this.engine.swap(pool, xForY, amount, minOut, maxBins);
    if (!r.ok) throw new Revert(r.error, r.detail);
    const v = r.value;
    this.send(this.sender, xForY ? pool.tokenX : pool.tokenY, v.amount_in_used);
    this.send(pool.id, xForY ? pool.tokenY : pool.tokenX, v.amount_out);
    return v.amount_out;
  }
}

type Handler = (r: Runner, args: ClarityValue[]) => void;

const nonEmpty = (items: ClarityValue[]): void => {
  if (items.length === 0) fail('ERR_EMPTY_POSITIONS_LIST', 'the positions list is empty');
};

const LIQUIDITY: Record<string, Handler> = {
  'add-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      r.add(r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']), int(t, 'bin-id'), t);
    }
    nonEmpty(items);
  },
  'add-relative-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      const pool = r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']);
      r.add(pool, pool.activeBinId + int(t, 'active-bin-id-offset'), t);
    }
    nonEmpty(items);
  },
  'add-relative-liquidity-same-multi': (r, [positions, poolCv, xCv, yCv, tolerance]) => {
    const items = list(positions, 'positions');
    const pool = r.pool(poolCv, xCv, yCv);
    const active = pool.activeBinId;
    for (const it of items) {
      const t = tuple(it, 'position');
      r.add(pool, active + int(t, 'active-bin-id-offset'), t);
    }
    nonEmpty(items);
    if (tolerance && tolerance.type === 'some') {
      const tol = tuple(tolerance.value, 'active-bin-tolerance');
      const delta = BigInt(Math.abs(active - int(tol, 'expected-bin-id')));
      if (delta > uint(tol, 'max-deviation')) {
        fail(
          'ERR_ACTIVE_BIN_TOLERANCE',
          `active bin ${active} is ${delta} bins from the expected ${int(tol, 'expected-bin-id')}, above max-deviation ${uint(tol, 'max-deviation')}`,
        );
      }
    }
  },
  'withdraw-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      r.withdraw(r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']), int(t, 'bin-id'), t);
    }
    nonEmpty(items);
  },
  'withdraw-relative-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      const pool = r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']);
      r.withdraw(pool, pool.activeBinId + int(t, 'active-bin-id-offset'), t);
    }
    nonEmpty(items);
  },
  'move-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      r.move(
        r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']),
        int(t, 'from-bin-id'),
        int(t, 'to-bin-id'),
        t,
      );
    }
    nonEmpty(items);
  },
  'move-relative-liquidity-multi': (r, [positions]) => {
    const items = list(positions, 'positions');
    for (const it of items) {
      const t = tuple(it, 'position');
      const pool = r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']);
      const from = int(t, 'from-bin-id');
      r.checkRange(from);
      r.move(pool, from, pool.activeBinId + int(t, 'active-bin-id-offset'), t);
    }
    nonEmpty(items);
  },
};

function simpleSwap(xForY: boolean): Handler {
  return (r, [poolCv, xCv, yCv, amountCv, minCv]) => {
    const pool = r.pool(poolCv, xCv, yCv);
    const amount =
      amountCv && amountCv.type === 'uint'
        ? BigInt(amountCv.value)
        : fail('INVALID_ARGUMENT', 'amount is not a uint');
    const min =
      minCv && minCv.type === 'uint'
        ? BigInt(minCv.value)
        : fail('INVALID_ARGUMENT', 'minimum is not a uint');
    const out = r.swap(pool, xForY, amount, 0n, 350);
    if (out < min) fail('ERR_MINIMUM_RECEIVED', `the swap gives ${out}, below the minimum ${min}`);
  };
}

const SWAP: Record<string, Handler> = {
  'swap-x-for-y-simple-multi': simpleSwap(true),
  'swap-y-for-x-simple-multi': simpleSwap(false),
  'swap-multi': (r, [swaps, maxUnfavorable]) => {
    const steps = list(swaps, 'swaps');
    let unfavorable = 0n;
    for (const it of steps) {
      const t = tuple(it, 'swap');
      const pool = r.pool(t['pool-trait'], t['x-token-trait'], t['y-token-trait']);
      const expected = int(t, 'expected-bin-id');
      if (expected < -500 || expected > 500)
        fail('ERR_INVALID_BIN_ID', `expected-bin-id ${expected} is outside -500..500`);
      const xForY = t['x-for-y']?.type === 'true';
      const delta = pool.activeBinId - expected;
      if (xForY ? delta < 0 : delta > 0) unfavorable += BigInt(Math.abs(delta));
      const out = r.swap(pool, xForY, uint(t, 'amount'), 0n, 1);
      if (out < uint(t, 'min-received'))
        fail(
          'ERR_MINIMUM_RECEIVED',
          `step in bin ${expected} gives ${out}, below min-received ${uint(t, 'min-received')}`,
        );
    }
    if (steps.length === 0) fail('ERR_EMPTY_SWAPS_LIST', 'the swaps list is empty');
    const max =
      maxUnfavorable && maxUnfavorable.type === 'uint'
        ? BigInt(maxUnfavorable.value)
        : fail('INVALID_ARGUMENT', 'max-unfavorable-bins is not a uint');
    if (unfavorable > max)
      fail('ERR_BIN_SLIPPAGE', `unfavourable bin drift ${unfavorable} is above max-unfavorable-bins ${max}`);
  },
};

/** Stacks post-condition semantics over the recorded movements (sends and burns). */
function checkPostConditions(
  pcs: PostCondition[],
  moves: AssetMovement[],
  deny: boolean,
  sender: string,
): void {
  const who = (a: string): string => (a === 'origin' ? sender : a);
  const ftKey = (from: string, asset: string) => `${from}|${asset}`;
  const sent = new Map<string, bigint>();
  const nftSent = new Set<string>();
  for (const m of moves) {
    if (m.nftTokenId !== undefined) nftSent.add(`${m.from}|${m.asset}|${m.nftTokenId}`);
    else sent.set(ftKey(m.from, m.asset), (sent.get(ftKey(m.from, m.asset)) ?? 0n) + (m.amount ?? 0n));
  }
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
    if (!covered.has(key))
      fail(
        'POST_CONDITION_FAILED',
        `deny mode: NFT ${key.split('|').slice(1).join(' ')} sent by ${key.split('|')[0]} with no post-condition covering it`,
      );
  }
}
