/**
 * Dry-run of a serialized unsigned transaction on the simulated engine (POST /api/admin/apply): decode it,
 * check it calls a configured router, and execute it with the chain model (core/chain: the routers'
 * functions, list semantics, error codes, deny-mode post-conditions) on the engine's pools. All or
 * nothing: any failure rolls the engine back.
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
import { executeCall, STX_KEY, type AssetMovement, type ChainState } from '../chain/index';
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
      state_height: number;
    }
  | {
      ok: false;
      /** The error the chain reports (ERR_NO_RESULT_DATA when a list element other than the last failed). */
      error: string;
      /** Its (err uNNNN) code, when it has one. */
      code?: number;
      /** The failure underneath and its code. */
      cause?: string;
      cause_code?: number;
      /** 0-based list element that failed. */
      item?: number;
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
  const state: ChainState = {
    pool: (id) => engine.poolByPrincipal(id),
    assetName: (token) => engine.token(token)?.asset_name ?? undefined,
    balances: engine.balances,
  };
  const call = { contract, functionName: fn, args: payload.functionArgs, postConditions: pcs, deny, sender };
  // The fee is paid in STX before the call runs: a sender who cannot pay it has its transaction refused
  // (the chain never runs it). The simulator takes the fee only from a transaction that confirms.
  const fee = BigInt(tx.auth.spendingCondition.fee);
  const stx = engine.balances.get(sender, STX_KEY).amount;
  if (fee > stx)
    return {
      ok: false,
      error: 'NOT_ENOUGH_FUNDS',
      detail: `the sender ${sender} holds ${stx} micro-STX and the transaction's fee is ${fee}: the chain does not accept it`,
    };
  const result = engine.transaction(() => {
    engine.balances.debit(sender, STX_KEY, fee);
    const r = executeCall(state, call, { routers, ...(opts.now ? { now: opts.now } : {}) });
    if (r.status !== 'ok') engine.balances.credit(sender, STX_KEY, fee);
    return r;
  });
  if (result.status === 'unknown') return { ok: false, error: 'UNKNOWN_STATE', detail: result.detail };
  if (result.status === 'reverted') {
    const out: ApplyResult = {
      ok: false,
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
  // Outside a transaction this bumps the state height once, as the engine's own calls do.
  engine.markChanged();
  return {
    ok: true,
    txid: tx.txid(),
    contract,
    functionName: fn,
    sender,
    movements: result.movements,
    pools: result.pools.map((p) => ({ pool: p.id, active_bin_id: p.activeBinId })),
    state_height: engine.status.state_height,
  };
}
