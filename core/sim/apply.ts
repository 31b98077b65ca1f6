/**
 * A serialized unsigned transaction mined on the simulated engine (POST /api/admin/apply): decode it,
 * check it calls a configured router, and execute it with the chain model (core/chain: the routers'
 * functions, list semantics, error codes, deny-mode post-conditions) on the engine's pools.
 *
 * As the chain does: a transaction whose nonce is not the sender's next one (reused, or ahead of a gap),
 * whose fee the sender cannot pay, or whose execution does not fit in one block (CostBalanceExceeded: miners
 * drop it) is refused and changes nothing. Any other is mined: it pays its fee and uses its nonce, and when
 * its call reverts (an `(err …)`, a post-condition) nothing else of it stays.
 */
import {
  AddressVersion,
  addressFromVersionHash,
  addressToString,
  deserializeTransaction,
  PostConditionMode,
  PayloadType,
  wireToPostCondition,
} from '@stacks/transactions';
import { executeCall, STX_KEY, type AssetMovement, type ChainState, type ExecResult } from '../chain/index';
import { BLOCK_LIMIT, blockShare, callCost, type Cost } from '../chain/costs';
import { routerConfigFor, type Network, type RouterConfig } from '../chain/deployments';
import type { SimEngine } from './engine';

export type { AssetMovement };

type ApplyResult =
  | {
      ok: true;
      txid: string;
      contract: string;
      functionName: string;
      sender: string;
      movements: AssetMovement[];
      /** Per touched pool: active bin after and the state height. */
      pools: { pool: string; active_bin_id: number }[];
      /** The fee paid (micro-STX) and the nonce used. */
      fee: bigint;
      nonce: bigint;
      /** What the call spent of a block (core/chain/costs.ts); null for a function the table does not hold. */
      cost: Cost | null;
      /** What the cost counts: list elements, or the bins a simple swap's walk used. */
      units: number;
      state_height: number;
    }
  | {
      ok: false;
      /**
       * Whether the chain mines it: a reverted call is (its fee is paid, its nonce used); a refused
       * transaction (bad nonce, fee not covered, over a block's limits, not a router call) is not.
       */
      mined: boolean;
      /** The error the chain reports (ERR_NO_RESULT_DATA when a list element other than the last failed). */
      error: string;
      /** Its (err uNNNN) code, when it has one. */
      code?: number;
      /** The failure underneath and its code. */
      cause?: string;
      cause_code?: number;
      /** 0-based list element that failed. */
      item?: number;
      /** BAD_NONCE: the nonce the sender's next transaction must carry, and the one given. */
      expected_nonce?: bigint;
      nonce?: bigint;
      /** COST_BALANCE_EXCEEDED: what the call spends and the block's limits. */
      cost?: Cost;
      limit?: Cost;
      detail: string;
    };

interface ApplyOptions {
  routers?: Partial<Record<Network, Partial<RouterConfig>>>;
  /** Clock in ms for v-1-2 deadlines (default Date.now). */
  now?: () => number;
}

/** Decodes and applies `txHex` to `engine`; never throws for bad input. */
export function applyTransaction(engine: SimEngine, txHex: string, opts: ApplyOptions = {}): ApplyResult {
  let tx: ReturnType<typeof deserializeTransaction>;
  try {
    tx = deserializeTransaction(txHex.trim().replace(/^0x/, ''));
  } catch (e) {
    return {
      ok: false,
      mined: false,
      error: 'INVALID_TRANSACTION',
      detail: `not a serialized Stacks transaction: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const payload = tx.payload;
  if (payload.payloadType !== PayloadType.ContractCall) {
    return {
      ok: false,
      mined: false,
      error: 'NOT_A_ROUTER_CALL',
      detail: 'the transaction is not a contract call',
    };
  }
  const network: Network = tx.transactionVersion === 0 ? 'mainnet' : 'testnet';
  const routers = routerConfigFor(network, opts.routers);
  const contract = `${addressToString(payload.contractAddress)}.${payload.contractName.content}`;
  const fn = payload.functionName.content;
  if (!routers || (contract !== routers.liquidityRouter && contract !== routers.swapRouter)) {
    return {
      ok: false,
      mined: false,
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
  const state: ChainState = {
    pool: (id) => engine.poolByPrincipal(id),
    assetName: (token) => engine.token(token)?.asset_name ?? undefined,
    balances: engine.balances,
  };
  const call = { contract, functionName: fn, args: payload.functionArgs, postConditions: pcs, deny, sender };
  const nonce = BigInt(tx.auth.spendingCondition.nonce);
  const expected = engine.nonceOf(sender);
  if (nonce !== expected)
    return {
      ok: false,
      mined: false,
      error: 'BAD_NONCE',
      expected_nonce: expected,
      nonce,
      detail:
        nonce < expected
          ? `nonce ${nonce} of ${sender} was already used: its next transaction must carry nonce ${expected}`
          : `nonce ${nonce} of ${sender} is ahead of its next nonce ${expected}: the chain mines it only after nonces ${expected}..${nonce - 1n}`,
    };
  // The fee is paid in STX before the call runs: a sender who cannot pay it has its transaction refused
  // (the chain never runs it).
  const fee = BigInt(tx.auth.spendingCondition.fee);
  const stx = engine.balances.get(sender, STX_KEY).amount;
  if (fee > stx)
    return {
      ok: false,
      mined: false,
      error: 'NOT_ENOUGH_FUNDS',
      detail: `the sender ${sender} holds ${stx} micro-STX and the transaction's fee is ${fee}: the chain does not accept it`,
    };
  const execOpts = { routers, ...(opts.now ? { now: opts.now } : {}) };
  // The call runs after the fee is taken; whatever does not confirm rolls back, the fee too.
  const run = engine.transaction(() => {
    engine.balances.debit(sender, STX_KEY, fee);
    const r = executeCall(state, call, execOpts);
    const over = overBudget(r, fn, routers.version);
    if (r.status === 'ok' && !over) {
      engine.useNonce(sender);
      return { ok: true as const, r };
    }
    return { ok: false as const, r, over };
  });
  if (run.ok) return confirmed(engine, run.r, { txid: tx.txid(), contract, fn, sender, fee, nonce });
  const result = run.r;
  if (run.over)
    return {
      ok: false,
      mined: false,
      error: 'COST_BALANCE_EXCEEDED',
      cost: run.over,
      limit: { ...BLOCK_LIMIT },
      detail: `${fn} spends ${describeOver(run.over)}: over a Stacks block's limit, miners drop it (CostBalanceExceeded) and every later nonce of ${sender} waits behind it; split it into smaller transactions`,
    };
  if (result.status === 'unknown')
    return { ok: false, mined: false, error: 'UNKNOWN_STATE', detail: result.detail };
  if (result.status === 'ok') throw new Error('unreachable: a confirmed call within budget is mined');
  // Mined as an abort: the fee is paid and the nonce used; nothing else of it stays.
  engine.transaction(() => {
    engine.balances.debit(sender, STX_KEY, fee);
    engine.useNonce(sender);
  });
  const out: ApplyResult = {
    ok: false,
    mined: true,
    error: result.error,
    detail:
      result.cause !== result.error
        ? `${result.cause}${result.causeCode !== undefined ? ` u${result.causeCode}` : ''} in list element ${(result.item ?? 0) + 1}: ${result.detail}`
        : result.detail,
  };
  if (result.code !== undefined) out.code = result.code;
  if (result.cause !== result.error) out.cause = result.cause;
  if (result.causeCode !== undefined) out.cause_code = result.causeCode;
  if (result.item !== undefined) out.item = result.item;
  return out;
}

/**
 * What the call spent when that is over a block's limits, else undefined. A confirmed call's cost is its
 * own; a reverted list call spent its elements up to the failing one (a fold's later steps idle); a
 * reverted swap's walk is not known, so it is not judged here.
 */
function overBudget(r: ExecResult, fn: string, version: RouterConfig['version']): Cost | undefined {
  const cost =
    r.status === 'ok'
      ? r.cost
      : r.status === 'reverted' && r.item !== undefined
        ? callCost(fn, r.item + 1, version)
        : undefined;
  return cost && blockShare(cost).share > 1 ? cost : undefined;
}

/** "15,483 reads (limit 15,000)": each dimension over its limit. */
function describeOver(cost: Cost): string {
  const names: Record<keyof Cost, string> = {
    readCount: 'reads',
    readLength: 'bytes read',
    writeCount: 'writes',
    writeLength: 'bytes written',
    runtime: 'runtime',
  };
  return (Object.keys(names) as (keyof Cost)[])
    .filter((d) => cost[d] > BLOCK_LIMIT[d])
    .map(
      (d) =>
        `${cost[d].toLocaleString('en-US')} ${names[d]} (limit ${BLOCK_LIMIT[d].toLocaleString('en-US')})`,
    )
    .join(', ');
}

/** The answer for a confirmed transaction (the engine already holds its changes). */
function confirmed(
  engine: SimEngine,
  result: Extract<ExecResult, { status: 'ok' }>,
  tx: { txid: string; contract: string; fn: string; sender: string; fee: bigint; nonce: bigint },
): ApplyResult {
  return {
    ok: true,
    txid: tx.txid,
    contract: tx.contract,
    functionName: tx.fn,
    sender: tx.sender,
    movements: result.movements,
    pools: result.pools.map((p) => ({ pool: p.id, active_bin_id: p.activeBinId })),
    fee: tx.fee,
    nonce: tx.nonce,
    cost: result.cost ?? null,
    units: result.units,
    state_height: engine.status.state_height,
  };
}
