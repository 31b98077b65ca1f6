/**
 * Read-only node proxy (POST {nodeUrl}/v2/contracts/call-read/{addr}/{name}/{fn}): the pool contracts'
 * read-only functions as a Stacks node answers them, Clarity values hex-encoded (`0x…`). Return shapes
 * follow the pool contract: get-bin-balances (unsigned id) -> (ok {bin-shares, x-balance, y-balance}),
 * get-total-supply (unsigned id) -> (ok uint), get-active-bin-id -> (ok int), get-balance (id, user) -> (ok uint),
 * get-user-bins (user) -> (ok (list uint)), get-overall-supply -> (ok uint).
 * A world token's SIP-010 `get-balance (who principal)` answers `(ok uint)` from the world's balances (the
 * STX wrapper `token-stx-v-1-2`: `stx-get-balance`, micro-STX); the simulator's quote contract
 * (SIM_QUOTE_CONTRACT, routes/coreApi.ts) answers get-dy / get-dx. The core contract (mainnet
 * dlmm-core-v-1-1) answers get-minimum-bin-shares / get-minimum-burnt-shares -> (ok uint) from the world's
 * `core`.
 * GET {nodeUrl}/v2/accounts/{principal} answers as a node does without proofs (`?proof=0`): the STX
 * `balance` and `locked` as hex u128, `unlock_height`, and the `nonce` the account's next transaction must
 * carry (it moves with each transaction `POST /api/admin/apply` mines).
 */
import { Cl, deserializeCV, serializeCV, type ClarityValue } from '@stacks/transactions';
import * as z from 'zod';
import { STX_KEY } from '../../chain/index';
import { CORE_CONTRACTS } from '../../chain/deployments';
import { BIN_ID_OFFSET, isUnsignedBinId } from '../../dlmm/bins';
import type { SimEngine, SimPool } from '../engine';
import { badRequest, parseBody, type Reply, type Router } from '../http';
import { quotePath } from '../quote';
import { SIM_QUOTE_CONTRACT } from './coreApi';

const CallReadBody = z.looseObject({
  sender: z.string().min(1),
  arguments: z.array(z.string().regex(/^(0x)?[0-9a-fA-F]*$/, 'expected hex-encoded Clarity values')),
});

/** A failed call as a node reports it: HTTP 200, okay false, a cause. */
const refused = (cause: string): Reply => ({ body: { okay: false, cause } });
const okay = (cv: ClarityValue): Reply => ({ body: { okay: true, result: `0x${serializeCV(cv)}` } });

function decodeArgs(hex: string[]): ClarityValue[] | string {
  const out: ClarityValue[] = [];
  for (const [i, h] of hex.entries()) {
    try {
      out.push(deserializeCV(h.startsWith('0x') ? h.slice(2) : h));
    } catch (e) {
      return `argument ${i} is not a serialized Clarity value: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return out;
}

function uintArg(args: ClarityValue[], i: number, fn: string): bigint | string {
  const a = args[i];
  if (!a || a.type !== 'uint')
    return `Unchecked(TypeValueError(UIntType, …)): ${fn} argument ${i} must be a uint`;
  return BigInt(a.value);
}

function principalArg(args: ClarityValue[], i: number): string {
  const a = args[i];
  return a && (a.type === 'address' || a.type === 'contract') ? a.value : '';
}

function binOf(unsigned: bigint): { signed: number } | string {
  const n = Number(unsigned);
  if (!isUnsignedBinId(n)) return `bin id u${unsigned} is outside 0..1000: the map has no entry`;
  return { signed: n - BIN_ID_OFFSET };
}

/** How many arguments each pool function the simulator serves takes. */
const POOL_ARITY: Record<string, number> = {
  'get-active-bin-id': 0,
  'get-bin-balances': 1,
  'get-total-supply': 1,
  'get-balance': 2,
  'get-user-bins': 1,
  'get-overall-supply': 0,
};

function call(engine: SimEngine, pool: SimPool, fn: string, args: ClarityValue[]): Reply {
  const arity = Object.prototype.hasOwnProperty.call(POOL_ARITY, fn) ? POOL_ARITY[fn] : undefined;
  if (arity !== undefined && args.length !== arity)
    return refused(
      `Unchecked(IncorrectArgumentCount(${arity}, ${args.length})): ${fn} takes ${arity} argument(s)`,
    );
  switch (fn) {
    case 'get-active-bin-id':
      return okay(Cl.ok(Cl.int(pool.activeBinId)));
    case 'get-bin-balances':
    case 'get-total-supply': {
      const id = uintArg(args, 0, fn);
      if (typeof id === 'string') return refused(id);
      const where = binOf(id);
      // An id the map never held reads as all zero, as the contract's default-to does.
      const b =
        typeof where === 'string'
          ? { reserve_x: 0n, reserve_y: 0n, shares: 0n }
          : engine.bin(pool, where.signed);
      if (fn === 'get-total-supply') return okay(Cl.ok(Cl.uint(b.shares)));
      return okay(
        Cl.ok(
          Cl.tuple({
            'x-balance': Cl.uint(b.reserve_x),
            'y-balance': Cl.uint(b.reserve_y),
            'bin-shares': Cl.uint(b.shares),
          }),
        ),
      );
    }
    case 'get-balance': {
      const id = uintArg(args, 0, fn);
      if (typeof id === 'string') return refused(id);
      const user = principalArg(args, 1);
      if (!user)
        return refused(`Unchecked(TypeValueError(PrincipalType, …)): ${fn} argument 1 must be a principal`);
      const where = binOf(id);
      return okay(
        Cl.ok(Cl.uint(typeof where === 'string' ? 0n : engine.userShares(pool, user, where.signed))),
      );
    }
    case 'get-user-bins': {
      const user = principalArg(args, 0);
      if (!user)
        return refused(`Unchecked(TypeValueError(PrincipalType, …)): ${fn} argument 0 must be a principal`);
      const ids = engine.userBins(pool, user).map((b) => Cl.uint(b.binId + BIN_ID_OFFSET));
      return okay(Cl.ok(Cl.list(ids)));
    }
    case 'get-overall-supply': {
      let total = 0n;
      for (const b of pool.bins.values()) total += b.shares;
      return okay(Cl.ok(Cl.uint(total)));
    }
    default:
      return refused(
        `Unchecked(NoSuchPublicFunction("${pool.id}", "${fn}")): the simulator serves get-active-bin-id, get-bin-balances, get-total-supply, get-balance, get-user-bins, get-overall-supply`,
      );
  }
}

/** A SIP-010 token's read-only functions the simulator serves: get-balance (who principal) -> (ok uint). */
function tokenCall(engine: SimEngine, token: string, fn: string, args: ClarityValue[]): Reply {
  if (fn !== 'get-balance')
    return refused(
      `Unchecked(NoSuchPublicFunction("${token}", "${fn}")): the simulator serves a token's get-balance`,
    );
  if (args.length !== 1)
    return refused(`Unchecked(IncorrectArgumentCount(1, ${args.length})): ${fn} takes 1 argument(s)`);
  const who = principalArg(args, 0);
  if (!who)
    return refused(`Unchecked(TypeValueError(PrincipalType, …)): ${fn} argument 0 must be a principal`);
  return okay(Cl.ok(Cl.uint(engine.balanceOf(who, token))));
}

/** The core contract's settings reads: get-minimum-bin-shares / get-minimum-burnt-shares -> (ok uint). */
function coreCall(engine: SimEngine, core: string, fn: string, args: ClarityValue[]): Reply {
  const min = engine.minimumShares;
  const value =
    fn === 'get-minimum-bin-shares'
      ? min.binShares
      : fn === 'get-minimum-burnt-shares'
        ? min.burntShares
        : undefined;
  if (value === undefined)
    return refused(
      `Unchecked(NoSuchPublicFunction("${core}", "${fn}")): the simulator serves the core's get-minimum-bin-shares and get-minimum-burnt-shares`,
    );
  if (args.length !== 0)
    return refused(`Unchecked(IncorrectArgumentCount(0, ${args.length})): ${fn} takes 0 argument(s)`);
  return okay(Cl.ok(Cl.uint(value)));
}

/** The read-only quote call: (pool, x, y, amount) → (ok {amount-in-used, amount-out}) or a node refusal. */
function quoteCall(engine: SimEngine, fn: string, args: ClarityValue[]): Reply {
  if (fn !== 'get-dy' && fn !== 'get-dx')
    return refused(
      `Unchecked(NoSuchPublicFunction("${SIM_QUOTE_CONTRACT}", "${fn}")): serves get-dy and get-dx`,
    );
  if (args.length !== 4) return refused(`Unchecked(IncorrectArgumentCount(4, ${args.length}))`);
  const names = args.slice(0, 3).map((a) => (a.type === 'contract' || a.type === 'address' ? a.value : ''));
  const amountCv = args[3] as ClarityValue;
  if (amountCv.type !== 'uint')
    return refused('Unchecked(TypeValueError(UIntType, …)): argument 3 must be a uint');
  const pool = engine.poolByPrincipal(names[0] as string);
  if (!pool) return refused(`pool-trait ${names[0]} is not a pool of this world`);
  if (names[1] !== pool.tokenX || names[2] !== pool.tokenY) return okay(Cl.error(Cl.uint(1001)));
  const xForY = fn === 'get-dy';
  const amount = BigInt(amountCv.value);
  let used = 0n;
  let out = 0n;
  if (amount > 0n) {
    const q = quotePath(
      [{ pool, xForY, input: xForY ? pool.tokenX : pool.tokenY, output: xForY ? pool.tokenY : pool.tokenX }],
      amount,
    );
    used = q.amountInUsed;
    // The admin's quote skew applies to this quote call as to the quote engine.
    out = engine.skewed(q.amountOut);
  }
  return okay(Cl.ok(Cl.tuple({ 'amount-in-used': Cl.uint(used), 'amount-out': Cl.uint(out) })));
}

/** A principal as the node's account route takes it: standard, or a contract's. */
const PRINCIPAL = /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/;

/** A u128 as the node writes account balances: `0x` and 32 hex digits. */
const hexU128 = (v: bigint): string => `0x${v.toString(16).padStart(32, '0')}`;

/** Registers the node proxy under /node (nodeUrl). */
export function registerNode(router: Router, engine: SimEngine): void {
  router.add('GET', '/node/v2/accounts/:principal', (c) => {
    const principal = c.params.principal as string;
    if (!PRINCIPAL.test(principal))
      throw badRequest(`'${principal}' is not a Stacks principal (SP…/SM…/ST…, or ADDR.contract-name)`);
    return {
      body: {
        balance: hexU128(engine.balances.get(principal, STX_KEY).amount),
        locked: hexU128(0n),
        unlock_height: 0,
        nonce: engine.nonceOf(principal),
      },
    };
  });
  router.add('GET', '/node/v2/info', () => {
    const s = engine.status;
    return {
      body: {
        network_id: 1,
        stacks_tip_height: engine.chainTip ?? s.state_height,
        applied_state_height: s.state_height,
      },
    };
  });
  router.add('POST', '/node/v2/contracts/call-read/:addr/:name/:fn', async (c) => {
    const body = parseBody(CallReadBody, await c.body(), 'read-only call');
    const contract = `${c.params.addr}.${c.params.name}`;
    const fn = c.params.fn as string;
    let answer: (args: ClarityValue[]) => Reply;
    if (contract === SIM_QUOTE_CONTRACT) answer = (args) => quoteCall(engine, fn, args);
    else if (contract === CORE_CONTRACTS.mainnet) answer = (args) => coreCall(engine, contract, fn, args);
    else if (engine.token(contract)) answer = (args) => tokenCall(engine, contract, fn, args);
    else {
      const pool = engine.poolByPrincipal(contract);
      if (!pool)
        return refused(
          `Unchecked(NoSuchContract("${contract}")): the simulator knows the pools of GET /api/quotes/v2/pools`,
        );
      answer = (args) => call(engine, pool, fn, args);
    }
    const args = decodeArgs(body.arguments);
    return typeof args === 'string' ? refused(args) : answer(args);
  });
}
