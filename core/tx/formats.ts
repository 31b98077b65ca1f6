/**
 * Export formats (docs/export-formats.md): tx-hex (serialized unsigned transactions, one per line), wallet-request
 * (SIP-030 `stx_callContract` requests), summary (for a person, summary.ts) and json (everything, with the
 * Clarity arguments in readable form). Hex is always without `0x`. No network access: the unsigned
 * transaction is built with the given public key, nonce and fee.
 */
import {
  Cl,
  makeUnsignedContractCall,
  serializePayload,
  type StacksTransactionWire,
} from '@stacks/transactions';
import { formatUnits } from '../dlmm/bins';
import { clarityHex, postConditionHex, u32 } from '../chain/clarityHex';
import { splitContractId } from '../chain/deployments';
import { summaryText } from './summary';
import { blockCostText, type BlockCost } from './cost';
import type { Amount, BuiltTransaction } from './types';

export type ExportFormat = 'tx-hex' | 'wallet-request' | 'summary' | 'json';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['tx-hex', 'wallet-request', 'summary', 'json'];

export interface SigningParams {
  publicKey: string;
  /** Nonce of the first transaction; the rest follow consecutively (tx.nonce when assigned wins). */
  nonce: bigint;
  fee: bigint;
}

const strip0x = (h: string): string => (h.startsWith('0x') ? h.slice(2) : h);

/** `f(tx)` computed once per built transaction and shared by every format. */
function perTransaction<T>(f: (tx: BuiltTransaction) => T): (tx: BuiltTransaction) => T {
  const cache = new WeakMap<BuiltTransaction, T>();
  return (tx) => {
    let v = cache.get(tx);
    if (v === undefined) {
      v = f(tx);
      cache.set(tx, v);
    }
    return v;
  };
}

/** Hex (no 0x) of each Clarity argument, serialized once per transaction. */
export const argsHex = perTransaction((tx) => tx.functionArgs.map(clarityHex));

/** Hex (no 0x) of each post-condition, serialized once per transaction. */
export const postConditionsHex = perTransaction((tx) => tx.postConditions.map(postConditionHex));

/** The unsigned transaction of `tx` (offline: publicKey, nonce and fee given). */
export async function unsignedTransaction(
  tx: BuiltTransaction,
  nonce: bigint,
  signing: SigningParams,
): Promise<StacksTransactionWire> {
  const c = splitContractId(tx.contract);
  if (!c) throw new RangeError(`router ${tx.contract} is not a contract id ADDR.name`);
  return makeUnsignedContractCall({
    contractAddress: c.address,
    contractName: c.name,
    functionName: tx.functionName,
    functionArgs: tx.functionArgs,
    postConditions: tx.postConditions,
    postConditionMode: tx.postConditionMode,
    publicKey: signing.publicKey,
    nonce,
    fee: signing.fee,
    network: tx.network,
    validateWithAbi: false,
  });
}

/**
 * Serialized unsigned transaction hex. Why not `unsignedTransaction(...).serialize()`: stacks.js would
 * serialize the 350-position argument list and the 350 post-conditions a second time (they dominate export
 * time). The transaction is built with neither, and the once-serialized parts are put in their places
 * (SIP-005): the post-condition list (u32 count + conditions) comes right before the payload, and a
 * contract-call payload ends the transaction with its u32-counted argument list. Tests compare the result
 * with stacks.js' own serialization and decode it with `deserializeTransaction`.
 */
async function unsignedTransactionHex(
  tx: BuiltTransaction,
  nonce: bigint,
  signing: SigningParams,
): Promise<string> {
  const bare = await unsignedTransaction({ ...tx, functionArgs: [], postConditions: [] }, nonce, signing);
  const empty = strip0x(bare.serialize());
  const payload = strip0x(serializePayload(bare.payload));
  if (!payload.endsWith('00000000') || !empty.endsWith('00000000' + payload))
    throw new Error('unexpected transaction layout: no empty post-condition list before the payload');
  const head = empty.slice(0, empty.length - payload.length - 8);
  const pcs = postConditionsHex(tx);
  const args = argsHex(tx);
  return head + u32(pcs.length) + pcs.join('') + payload.slice(0, -8) + u32(args.length) + args.join('');
}

/** Serialized unsigned transactions in hex (no 0x), in order, with consecutive nonces. */
export async function txHexes(txs: BuiltTransaction[], signing: SigningParams): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!;
    out.push(await unsignedTransactionHex(tx, tx.nonce ?? signing.nonce + BigInt(i), signing));
  }
  return out;
}

/** `tx-hex`: one line per transaction. */
export async function formatTxHex(txs: BuiltTransaction[], signing: SigningParams): Promise<string> {
  return (await txHexes(txs, signing)).map((h) => h + '\n').join('');
}

/** One SIP-030 `stx_callContract` request. */
export function walletRequest(tx: BuiltTransaction) {
  return {
    method: 'stx_callContract' as const,
    params: {
      contract: tx.contract,
      functionName: tx.functionName,
      functionArgs: argsHex(tx),
      postConditions: postConditionsHex(tx),
      postConditionMode: tx.postConditionMode,
      network: tx.network,
    },
  };
}

/** `wallet-request`: a JSON array, one element per transaction. */
export function formatWalletRequest(txs: BuiltTransaction[]): string {
  return JSON.stringify(txs.map(walletRequest), null, 2) + '\n';
}

/** `summary`: for a person. */
export function formatSummary(txs: BuiltTransaction[]): string {
  return summaryText(txs);
}

function amountJson(a: Amount & { basis?: string }) {
  return {
    label: a.label,
    amount: a.amount.toString(),
    ...(a.token
      ? { token: a.token.contract, symbol: a.token.symbol, human: formatUnits(a.amount, a.token.decimals) }
      : {}),
    ...(a.basis !== undefined ? { basis: a.basis } : {}),
  };
}

/** A transaction's cost figure in the json form (cost.ts): the share of a block and what it counts. */
function costJson(c: BlockCost) {
  return {
    text: blockCostText(c),
    share: c.share,
    dimension: c.dimension,
    units: c.units,
    unit: c.unit,
    cost: c.cost,
    ...(c.walk ? { walk: c.walk } : {}),
  };
}

/** The json form of one transaction (amounts as decimal strings, exact). */
function transactionJson(tx: BuiltTransaction, txHex?: string) {
  return {
    operation: tx.opId,
    op: tx.op,
    mode: tx.mode,
    part: tx.part,
    parts: tx.parts,
    network: tx.network,
    contract: tx.contract,
    functionName: tx.functionName,
    postConditionMode: tx.postConditionMode,
    ...(tx.nonce !== undefined ? { nonce: tx.nonce.toString() } : {}),
    deadline: tx.deadline === null ? null : tx.deadline.toString(),
    ...(tx.blockCost ? { cost: costJson(tx.blockCost) } : {}),
    args: tx.functionArgs.map((a, i) => ({
      name: tx.argNames[i] ?? `arg${i}`,
      clarity: Cl.prettyPrint(a),
      hex: argsHex(tx)[i] ?? '',
    })),
    postConditions: postConditionsHex(tx).map((hex, i) => ({
      words: tx.postConditionWords[i] ?? '',
      hex,
    })),
    positions: tx.rows.map((r) => ({
      label: r.label,
      amounts: r.amounts.map(amountJson),
      bounds: r.bounds.map(amountJson),
    })),
    totals: tx.totals.map(amountJson),
    notes: tx.notes,
    walletRequest: walletRequest(tx),
    ...(txHex !== undefined ? { txHex } : {}),
  };
}

/** `json`: one document with every transaction; tx hex included when signing params were given. */
export async function formatJson(txs: BuiltTransaction[], signing?: SigningParams): Promise<string> {
  const hexes = signing ? await txHexes(txs, signing) : [];
  return (
    JSON.stringify({ version: 1, transactions: txs.map((t, i) => transactionJson(t, hexes[i])) }, null, 2) +
    '\n'
  );
}

/** The export's text in `format` (docs/export-formats.md): what `dlmm export` writes and the editor shows. */
export async function formatExport(
  txs: BuiltTransaction[],
  format: ExportFormat,
  signing?: SigningParams,
): Promise<string> {
  switch (format) {
    case 'tx-hex':
      if (!signing) throw new RangeError('tx-hex needs the public key, nonce and fee');
      return formatTxHex(txs, signing);
    case 'wallet-request':
      return formatWalletRequest(txs);
    case 'json':
      return formatJson(txs, signing);
    case 'summary':
      return formatSummary(txs);
  }
}
