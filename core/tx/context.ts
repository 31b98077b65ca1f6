/** What every operation builder receives: the sender, routers, slippage and shared helpers. */
import { Cl, type ClarityValue, type PostCondition } from '@stacks/transactions';
import type { Finding } from '../plan/diagnostics';
import type { DlmmApi, Token } from '../api/types';
import { describePostCondition, STX_INFO } from '../chain/postConditions';
import type { RouterConfig, Network } from '../chain/deployments';
import type { PreparedOperation } from '../prepare/prepared';
import type { BinShareReader } from './shares';
import type { MemoryChainState } from '../chain/index';
import type { EffectTokens } from './effects';
import type { BuiltTransaction, ExportError, TokenInfo, WeakBound } from './types';

export interface BuildContext {
  sender: string;
  network: Network;
  routers: RouterConfig;
  /** Plan policy slippage, ppm. */
  slippagePpm: bigint;
  activeBinTolerance: number;
  /** `none`/`some(deadline)` for v-1-2 routers; undefined for v-1-1 (no argument). */
  deadlineArg: ClarityValue | undefined;
  deadline: bigint | null;
  maxPositionsPerTx: number;
  maxPostConditionsPerTx: number;
  api: DlmmApi | undefined;
  /** Default attribution address for swaps (an operation's own `provider` wins). */
  provider?: string;
  shares: BinShareReader;
  tokens: readonly Token[];
  /** Source range of a plan path, for findings the export adds. */
  rangeOf(path: (string | number)[]): { offset: number; length: number };
  /**
   * The fee (micro-STX) each transaction sets (`--fee`), when the export knows it: executing a transaction
   * first takes it from the sender's STX, as the chain does, and a fee the STX does not cover is a finding.
   */
  fee?: bigint;
  /** Findings the export adds (fee-not-covered, clock-skew); min-dlp-unprotected is the check's rule's. */
  findings: Finding[];
  /** Bins whose min-dlp fell back to 1 (shares unknown), by operation id: refused unless allowed. */
  unprotected: { operation: string; bin: number }[];
  /** Simple-mode positions whose min-dlp is 1, whatever the reason (min-dlp-unprotected). */
  weakBounds: WeakBound[];
  /**
   * The state read, as the chain model: bounds are computed on it item after item and operation after
   * operation, and every built transaction is executed on it in order.
   */
  state: MemoryChainState | undefined;
  /** Contract principal of a pool id or alias from what was read (no request). */
  resolvePool?: (id: string) => string | undefined;
  /** Do not ask the engine for swap parameters (the analyzer's own build). */
  skipSwapParams: boolean;
  /** Clock in ms (deadlines). */
  now: () => number;
  /** Pools whose state is unknown after an operation that could not be executed. */
  unknownPools: Map<string, { pool: string; opId: string; detail: string }>;
  /** Token lookups for execution effects (made on first use). */
  effectTokens?: EffectTokens;
}

/** The exporter's token record for a contract: asset name from /quotes/v2/tokens, STX wrapper -> ustx. */
export function tokenInfo(ctx: BuildContext, contract: string, known?: Token): TokenInfo | ExportError {
  const t = known ?? ctx.tokens.find((k) => k.contract_address === contract);
  if (contract === ctx.routers.stxWrapper) {
    return {
      contract,
      symbol: t?.symbol ?? 'STX',
      decimals: t?.decimals ?? STX_INFO.decimals,
      assetName: null,
    };
  }
  if (!t)
    return exportError(
      'token-unknown',
      `token ${contract} is not in /quotes/v2/tokens: its decimals and asset name are unknown, so its post-conditions cannot be written`,
    );
  if (!t.asset_name) {
    return exportError(
      'token-unknown',
      `token ${contract} has no asset_name in /quotes/v2/tokens: its fungible-token name is needed for deny-mode post-conditions`,
    );
  }
  return { contract, symbol: t.symbol, decimals: t.decimals, assetName: t.asset_name };
}

export function exportError(
  code: ExportError['code'],
  message: string,
  findings: Finding[] = [],
): ExportError {
  return { code, message, findings };
}

export function isExportError(v: unknown): v is ExportError {
  return typeof v === 'object' && v !== null && 'code' in v && 'message' in v && 'findings' in v;
}

/** Contract-principal values already built (c32 decoding with a checksum each time); values are immutable. */
const contractCVs = new Map<string, ClarityValue>();
const MAX_CONTRACT_CVS = 256;

/** Splits `[address, name]` of a contract id into a contract-principal Clarity value. */
export function contractCV(id: string): ClarityValue {
  const known = contractCVs.get(id);
  if (known) return known;
  const [address, name] = id.split('.') as [string, string];
  const cv = Cl.contractPrincipal(address, name);
  if (contractCVs.size >= MAX_CONTRACT_CVS) contractCVs.clear();
  contractCVs.set(id, cv);
  return cv;
}

/**
 * What every transaction of an operation starts with. A swap calls the swap router in deny mode; an add,
 * withdraw or move the liquidity router, deny in strict mode and allow in simple mode (docs/contracts.md
 * "Assets and protection forms").
 */
export function txHead(ctx: BuildContext, op: PreparedOperation, functionName: string) {
  const mode = op.op === 'swap' ? ('swap' as const) : op.mode;
  return {
    opId: op.id,
    opIndex: op.index,
    op: op.op,
    mode,
    network: ctx.network,
    contract: mode === 'swap' ? ctx.routers.swapRouter : ctx.routers.liquidityRouter,
    functionName,
    postConditionMode: mode === 'simple' ? ('allow' as const) : ('deny' as const),
    deadline: ctx.deadline,
  };
}

/** Appends the v-1-2 deadline when the router takes one. */
export function withDeadline(
  ctx: BuildContext,
  args: ClarityValue[],
  names: string[],
): { args: ClarityValue[]; names: string[] } {
  if (!ctx.deadlineArg) return { args, names };
  return { args: [...args, ctx.deadlineArg], names: [...names, 'deadline'] };
}

/** Asset-string -> token map for wording post-conditions. */
function tokenMap(tokens: TokenInfo[]): Map<string, TokenInfo> {
  const m = new Map<string, TokenInfo>();
  for (const t of tokens) m.set(t.assetName === null ? 'ustx' : `${t.contract}::${t.assetName}`, t);
  return m;
}

/** Words for every post-condition of a transaction. */
export function words(pcs: PostCondition[], tokens: TokenInfo[]): string[] {
  const m = tokenMap(tokens);
  return pcs.map((pc) => describePostCondition(pc, m));
}

/**
 * Greedy split of items into transactions: at most `maxItems` per call (router list limit) and at most
 * `maxPcs` post-conditions (Ledger's Stacks app parses at most 128), counted as `fixedPcs` plus one per
 * distinct position-NFT bin among the chunk's `nftBins(item)`. The distinct bins are tracked as items
 * join, so a 350-item split stays linear.
 */
export function chunkItems<T>(
  items: T[],
  maxItems: number,
  maxPcs: number,
  fixedPcs: number,
  nftBins: (item: T) => readonly number[],
): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bins = new Set<number>();
  for (const it of items) {
    const mine = nftBins(it);
    let added = 0;
    for (let k = 0; k < mine.length; k++) {
      const b = mine[k] as number;
      if (!bins.has(b) && mine.indexOf(b) === k) added++;
    }
    if (cur.length > 0 && (cur.length + 1 > maxItems || fixedPcs + bins.size + added > maxPcs)) {
      out.push(cur);
      cur = [];
      bins = new Set<number>();
    }
    cur.push(it);
    for (const b of mine) bins.add(b);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

export type PartialTx = Omit<BuiltTransaction, 'part' | 'parts' | 'nonce'>;

/** What only an export, its summary and its JSON read of a transaction: computed when first read. */
export type ExportOnlyField = 'postConditionWords' | 'rows' | 'totals';

/**
 * `tx` with its export-only fields (post-conditions in words, per-position rows, totals) as getters that
 * compute once, on first read, and then hold the value: the editor's check builds and executes every
 * plan's transactions but never reads these (some 7% of a burst of open plans went to them). The values
 * are the ones the builder would have computed at once. Copy such a transaction with Object.assign onto it,
 * not a spread (a spread reads every getter).
 */
export function withExportFields(
  tx: Omit<PartialTx, ExportOnlyField>,
  fields: { [K in ExportOnlyField]: () => PartialTx[K] },
): PartialTx {
  for (const key of Object.keys(fields) as ExportOnlyField[]) {
    const compute = fields[key];
    const hold = (self: object, value: unknown): void =>
      void Object.defineProperty(self, key, { value, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(tx, key, {
      enumerable: true,
      configurable: true,
      get(this: object) {
        const value = compute();
        hold(this, value);
        return value;
      },
      set(this: object, value: unknown) {
        hold(this, value);
      },
    });
  }
  return tx as PartialTx;
}

/** What to execute on the chain model for a built transaction. */
export function chainCallOf(
  tx: Pick<
    BuiltTransaction,
    'contract' | 'functionName' | 'functionArgs' | 'postConditions' | 'postConditionMode'
  >,
  sender: string,
) {
  return {
    contract: tx.contract,
    functionName: tx.functionName,
    args: tx.functionArgs,
    postConditions: tx.postConditions,
    deny: tx.postConditionMode === 'deny',
    sender,
  };
}
