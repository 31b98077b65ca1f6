/**
 * `buildTransactions`: a checked plan's prepared operations -> unsigned router calls (docs/export-formats.md).
 * The product never holds keys and never broadcasts: the result is data for a wallet to sign.
 *
 * Invariants: a plan with any error-severity finding is refused (the findings are returned); calls are
 * built from the prepared items only, never by re-running the preparation rules; an operation above the
 * router's list limit (350) or above the post-condition budget (Ledger's Stacks app parses at most 128
 * post-conditions per transaction) is split into several transactions with consecutive nonces.
 */
import { Cl, getAddressFromPublicKey, type ClarityValue } from '@stacks/transactions';
import type { DlmmApi, ServiceClock, Token } from '../api/types';
import { formatUnits, MAX_POSITIONS_PER_CALL } from '../dlmm/bins';
import { effectiveSlippage } from '../dlmm/bounds';
import { chainStateFromLive } from '../live/chainState';
import { LIVE_UNAVAILABLE, type Finding } from '../plan/diagnostics';
import { poolResolver } from '../live/resolve';
import type { LiveData } from '../live/live';
import type { PreparedOperation } from '../prepare/prepared';
import type { Plan } from '../plan/schema';
import { executeCall, revertWords, STX_KEY, type MemoryChainState } from '../chain/index';
import { chainCallOf, exportError, isExportError, type BuildContext, type PartialTx } from './context';
import { PostConditionRangeError } from '../chain/postConditions';
import { buildLiquidityOp } from './liquidity';
import { routerConfigFor, type Network, type RouterConfig } from '../chain/deployments';
import { BinShareReader } from './shares';
import { addEngineLines, buildSwapOp, engineLinesIndex } from './swap';
import { effectTokens, txEffects } from './effects';
import type { BalanceChange, BuiltTransaction, ExportError, ExportOutcome, TokenInfo } from './types';
import { costProblem, costVerdict, listBlockCost, splitReason } from './cost';

/** Ledger's Stacks app (0.26.17+) rejects transactions with more post-conditions at parse time. */
const LEDGER_MAX_POST_CONDITIONS = 128;

/** The part of an analysis (core/check/analyze.ts) the exporter reads. */
export interface ExportableAnalysis {
  plan: Plan | undefined;
  findings: Finding[];
  prepared: PreparedOperation[];
  parsed?: {
    rangeOf(path: readonly (string | number)[]): { offset: number; length: number } | undefined;
    operationId?(index: number): string;
  };
  live?: { tokens?: Token[] } | LiveData;
  /** The analysis's own build, executed on the state read (core/check/execute.ts), when it made one. */
  execution?: { transactions: BuiltTransaction[]; sender?: string; routers?: RouterConfig };
}

export interface BuildOptions {
  /** Engine client: node reads of bin shares, alias resolution, swap parameters with provider. */
  api?: DlmmApi;
  /** Export one operation (its id, or index as a string). */
  opId?: string;
  /** Signer public key (hex); checked against the plan's sender. Needed for tx-hex. */
  publicKey?: string;
  /** First nonce; the transactions get consecutive nonces. */
  nonce?: bigint;
  fee?: bigint;
  /** Clock in ms (Date.now by default), for the v-1-2 deadline. */
  now?: () => number;
  /** Router overrides per network (contract ids, version, STX wrapper). */
  routers?: Partial<Record<Network, Partial<RouterConfig>>>;
  /** Token records when the analysis has none (asset names, decimals). */
  tokens?: Token[];
  /**
   * Export operations whose min-dlp bound could not be computed (bin shares unknown after retries) with
   * min-dlp 1 instead of refusing them (CLI --allow-unprotected, or the user's confirmation in the editor).
   * The fallen-back bounds are then named in the findings and in the transactions' notes.
   */
  allowUnprotected?: boolean;
  /**
   * Export swaps whose route was not checked on the state read (`swap-unchecked` errors) instead of refusing
   * the plan (CLI --allow-unchecked-swap). Each such transaction's summary says so, with the reasons.
   */
  allowUncheckedSwap?: boolean;
  /**
   * The state read, as the chain model (core/live/chainState.ts). Given: bounds come from it, computed
   * sequentially within a transaction and across operations, and each built transaction is executed on it
   * in order (`execution` on each transaction). The state is changed: pass a copy.
   */
  state?: MemoryChainState;
  /** Contract principal of a pool id or alias, from what was read. */
  resolvePool?: (id: string) => string | undefined;
  /** The analyzer's own build: existing findings do not stop it and no swap parameters are requested. */
  forCheck?: boolean;
  /**
   * Attribution address (a principal) sent as `provider` on the swap-parameters request of swaps whose
   * operation names none (dlmm.provider, BITFLOW_PROVIDER_ADDRESS). No revenue sharing runs from it.
   */
  provider?: string;
}

/** What the export may build, once every gate before the build passed (`exportGate`). */
interface ExportAllowed {
  plan: Plan & { sender: string };
  routers: RouterConfig;
  /** The prepared operations to export (the one of `opId`, or all). */
  ops: PreparedOperation[];
}

/**
 * The export's gates before any transaction is built, in one place: a plan that did not parse or has errors
 * (swap-unchecked waived by `allowUncheckedSwap`), no sender, no routers, a public key that is not the
 * sender's, live data unavailable, an operation that was not checked, an unknown `opId`, nothing to export.
 * With `forCheck` (the analyzer's own build) existing findings and unchecked operations do not stop it.
 * The gates after the build (the clock, unprotected bounds, a revert on the state read) are in
 * `buildTransactions`, which applies this one first.
 */
function exportGate(
  analysis: ExportableAnalysis,
  opts: BuildOptions = {},
): { ok: true; allowed: ExportAllowed } | { ok: false; error: ExportError } {
  const refuse = (code: ExportError['code'], message: string, findings?: Finding[]) => ({
    ok: false as const,
    error: exportError(code, message, findings),
  });
  const plan = analysis.plan;
  const errors = opts.forCheck
    ? []
    : analysis.findings.filter((f) => f.severity === 'error' && !waivedBy(opts, f));
  if (!plan)
    return refuse(
      'plan-unreadable',
      'the plan did not parse or did not match the schema; fix the reported findings first',
      errors,
    );
  // A transaction above a block's limit is refused under its own code (the finding gives the fix).
  if (errors.length > 0 && errors.every((f) => f.code === 'exceeds-block-budget'))
    return refuse(
      'exceeds-block-budget',
      `the plan's transactions do not fit a block, so nothing is exported:\n${findingLines(errors)}`,
      errors,
    );
  if (errors.length > 0)
    return refuse(
      'plan-has-errors',
      `the plan has ${errors.length} error(s) and is not exported:\n${findingLines(errors)}`,
      errors,
    );
  if (!plan.sender)
    return refuse(
      'sender-missing',
      'the plan has no `sender`: export needs the signer principal for post-conditions (add `sender: SP...`)',
    );
  const routers = routerConfigFor(plan.network, opts.routers);
  if (!routers)
    return refuse(
      'router-config-missing',
      `no router contracts are configured for ${plan.network}: give liquidity_router, swap_router, version and stx_wrapper under "${plan.network}" in the file named by DLMM_ROUTERS (command line) or in the dlmm.routers setting (editor)`,
    );
  if (opts.publicKey !== undefined) {
    let address: string;
    try {
      address = getAddressFromPublicKey(opts.publicKey, plan.network);
    } catch {
      return refuse(
        'bad-public-key',
        `--public-key ${opts.publicKey} is not a compressed or uncompressed secp256k1 public key in hex`,
      );
    }
    if (address !== plan.sender)
      return refuse(
        'public-key-mismatch',
        `the public key belongs to ${address}, but the plan's sender is ${plan.sender}; use the sender's key`,
      );
  }
  const unavailable = analysis.findings.filter((f) => LIVE_UNAVAILABLE.has(f.code));
  // Never build from partial live data: bounds and post-conditions would rest on what was not read.
  if (unavailable.length > 0)
    return refuse(
      'live-data-unavailable',
      `live data was unavailable, so the plan was not fully checked and is not exported:\n${findingLines(unavailable)}`,
      unavailable,
    );
  // The check's own execution (forCheck) runs what was prepared; the analysis reports what was not.
  const unchecked = opts.forCheck ? [] : uncheckedOperations(analysis, plan, opts.opId);
  if (unchecked.length > 0)
    return refuse(
      'operation-unchecked',
      `operation${unchecked.length === 1 ? '' : 's'} ${unchecked.map((u) => `'${u}'`).join(', ')} could not be checked against live data, so nothing is exported (an operation that was not checked is never written, nor silently left out)`,
    );
  let ops = analysis.prepared;
  if (opts.opId !== undefined) {
    ops = ops.filter((o) => o.id === opts.opId);
    if (ops.length === 0) {
      const ids = analysis.prepared.map((o) => o.id).join(', ') || '(none)';
      return refuse('op-not-found', `no operation has id '${opts.opId}'; the plan's operations are: ${ids}`);
    }
  }
  if (ops.length === 0)
    return refuse('nothing-to-export', 'the plan has no prepared operation to export (was live data read?)');
  return { ok: true, allowed: { plan: plan as Plan & { sender: string }, routers, ops } };
}

/** An amount of a swap's input token in words: "0.5 sBTC (50000000)" when the token is known. */
function inputWords(ctx: BuildContext, op: PreparedOperation): (a: bigint) => string {
  const t = op.op === 'swap' ? ctx.tokens.find((k) => k.contract_address === op.swap.input_token) : undefined;
  return (a) => (t ? `${formatUnits(a, t.decimals)} ${t.symbol} (${a})` : String(a));
}

/** One line per finding in a refusal: `  code (operation id): message`. */
function findingLines(findings: Finding[]): string {
  return findings
    .map((f) => `  ${f.code}${f.operation !== undefined ? ` (operation ${f.operation})` : ''}: ${f.message}`)
    .join('\n');
}

/** A `swap-unchecked` error the caller chose to export anyway (--allow-unchecked-swap). */
function waivedBy(opts: BuildOptions, f: Finding): boolean {
  return opts.allowUncheckedSwap === true && f.code === 'swap-unchecked';
}

/** The note on a transaction whose min-dlp fell back to 1 (the analyzer's build always allows it). */
const UNPROTECTED_NOTE = 'min-dlp fell back to 1 (unprotected, allowed by the user)';

/** The bins whose min-dlp fell back to 1 in a transaction of the check's build (`forCheck`), by transaction. */
const fellBackIn = new WeakMap<object, number[]>();

/**
 * Builds the unsigned transactions of a checked plan, or says why it cannot. A live analysis already built
 * them (its `execution`, with `forCheck`): the export takes those (`fromCheck`) and builds again only where
 * the check's build cannot stand for the export's.
 */
export async function buildTransactions(
  analysis: ExportableAnalysis,
  opts: BuildOptions = {},
): Promise<ExportOutcome> {
  const gate = exportGate(analysis, opts);
  if (!gate.ok) return gate;
  const { plan, routers, ops } = gate.allowed;

  // The state read, as the chain model: bounds come from it sequentially and every transaction is
  // executed on it (a copy), exactly as `check` did.
  const live = analysis.live && 'byPool' in analysis.live ? analysis.live : undefined;
  const withState: BuildOptions =
    opts.state || !live
      ? opts
      : {
          ...opts,
          state: chainStateFromLive(live, plan.sender),
          resolvePool: opts.resolvePool ?? poolResolver(live),
        };
  const ctx = makeContext(analysis, plan, plan.sender, routers, withState);
  if (!opts.forCheck) {
    const refused = clockGate(ctx, plan, opts.api?.serviceClock?.());
    if (refused) return { ok: false, error: refused };
  }
  const checked = opts.forCheck ? undefined : fromCheck(analysis, ops, ctx, opts);
  // One operation of several (`opId`) is exported alone: executed on the state read, not after the others.
  const alone = ops.length !== analysis.prepared.length;
  const built: PartialTx[][] = [];
  let seen = 0;
  // The check's min-dlp-unprotected finding (core/check/rules) of an operation whose min-dlp fell back to 1:
  // the export names it (in the refusal, or with the findings when allowed) and never writes its own.
  const unprotectedFindings = (opId: string) =>
    analysis.findings.filter((f) => f.code === 'min-dlp-unprotected' && f.operation === opId);
  const flagged: Finding[] = [];
  for (const [i, op] of ops.entries()) {
    let txs: PartialTx[] | ExportError;
    if (checked) {
      txs = checked.txs[i]!;
      // The check never asks the engine for swap parameters: the export does (attribution), beside its call.
      if (op.op === 'swap')
        for (const tx of txs) await addEngineLines(ctx, op, tx, checked.engineAt.get(tx) as number);
    } else {
      try {
        txs = op.op === 'swap' ? await buildSwapOp(ctx, op) : await buildLiquidityOp(ctx, op);
      } catch (e) {
        if (!(e instanceof PostConditionRangeError)) throw e;
        txs = exportError('amount-exceeds-post-condition', `operation '${op.id}': ${e.message}`);
      }
    }
    if (isExportError(txs)) return { ok: false, error: txs };
    // What each transaction spends of a block (a simple swap's figure comes from its build, on the state).
    for (const tx of txs) {
      if (tx.blockCost) continue;
      const c = listBlockCost(tx, ctx.routers.version);
      if (c) tx.blockCost = c;
    }
    if (!opts.forCheck) {
      // Nothing above a block's limit is written (the check's error); a liquidity operation is split within
      // the safe budget, so only a swap can be above it, and it is written with the check's warning as a note.
      const words = inputWords(ctx, op);
      for (const tx of txs)
        if (tx.blockCost && costVerdict(tx.blockCost) === 'over-safe')
          tx.notes = [...tx.notes, `COST: ${costProblem(tx.blockCost, tx.functionName, words)}`];
      const problem = txs
        .filter((tx) => tx.blockCost && costVerdict(tx.blockCost) === 'over-limit')
        .map((tx) => costProblem(tx.blockCost!, tx.functionName, words))[0];
      if (problem !== undefined)
        return {
          ok: false,
          error: exportError(
            'exceeds-block-budget',
            `operation '${op.id}': ${problem}`,
            analysis.findings.filter((f) => f.code === 'exceeds-block-budget' && f.operation === op.id),
          ),
        };
    }
    if (op.op === 'swap' && !opts.forCheck) {
      const unchecked = analysis.findings.filter((f) => waivedBy(opts, f) && f.operation === op.id);
      for (const tx of txs)
        tx.notes = [
          ...tx.notes,
          ...unchecked.map((f) => `UNCHECKED SWAP exported with --allow-unchecked-swap: ${f.message}`),
        ];
    }
    // The check's build names its fallen-back bins (fellBackIn); a build records them as it goes.
    const fellBack = checked ? checked.fellBack[i]! : unprotectedBins(ctx, op.id, seen);
    seen = ctx.unprotected.length;
    if (opts.forCheck && fellBack.length > 0) for (const tx of txs) fellBackIn.set(tx, fellBack);
    if (fellBack.length > 0) {
      const bins = fellBack.join(', ');
      if (!opts.allowUnprotected) {
        return {
          ok: false,
          error: exportError(
            'bounds-unknown',
            `operation '${op.id}': the min-dlp bound of bin(s) ${bins} could not be computed (bin shares unknown: no node proxy configured, or its reads failed after retries; for a simple-mode position, a bin of its active-bin window may also be missing from the pool's bin list), so the operation is not exported rather than sent with min-dlp 1. Configure a node proxy (DLMM_NODE_URL / dlmm.nodeUrl) or retry later; to export anyway with min-dlp 1 for these bins, pass --allow-unprotected (command line) or confirm in the editor.`,
            unprotectedFindings(op.id),
          ),
        };
      }
      flagged.push(...unprotectedFindings(op.id));
      // The check's build (which always allows it) carries the note already.
      if (!checked)
        for (const tx of txs)
          tx.notes = [
            ...tx.notes,
            `${UNPROTECTED_NOTE} for bin(s) ${bins}: the minted shares are not bounded`,
          ];
    }
    // The check's transactions carry their execution on the state read, after the operations before them;
    // the export executes them again only for a fee (known to the export alone: the chain takes it before
    // each transaction) or for one operation exported alone (on the state read, as it is built).
    if (ctx.state && (!checked || ctx.fee !== undefined || alone))
      for (const tx of txs) executeOn(ctx, tx, op);
    if (ctx.state) {
      // The export's own execution (it may know bin shares the check did not read) must pass too.
      const reverted = txs.find((t) => t.execution?.status === 'reverted');
      if (!opts.forCheck && reverted?.execution?.status === 'reverted') {
        return {
          ok: false,
          error: exportError(
            'would-revert',
            `operation '${op.id}': ${reverted.functionName} would revert on the state read: ${revertWords(reverted.execution)}`,
          ),
        };
      }
    }
    built.push(txs);
  }
  const transactions: BuiltTransaction[] = [];
  for (const parts of built) {
    parts.forEach((p, i) => {
      // Onto the built object, not a spread: its export-only fields stay unread (withExportFields).
      // A transaction of the check's build has its part, parts and split note already.
      const fresh = !('part' in p);
      const part: BuiltTransaction = Object.assign(p, { part: i + 1, parts: parts.length });
      if (parts.length > 1 && fresh)
        part.notes = [
          ...part.notes,
          `part ${i + 1} of ${parts.length}: ${splitReason(p.functionName, ctx.maxPositionsPerTx, ctx.maxPostConditionsPerTx, ctx.routers.version)}`,
        ];
      if (opts.nonce !== undefined) part.nonce = opts.nonce + BigInt(transactions.length);
      transactions.push(part);
    });
  }
  const known = new Set(analysis.findings.map((f) => `${f.code}|${f.offset}|${f.operation ?? ''}`));
  const added = ctx.findings.filter((f) => !known.has(`${f.code}|${f.offset}|${f.operation ?? ''}`));
  return {
    ok: true,
    transactions,
    findings: [...added, ...flagged],
    ...(ctx.weakBounds.length > 0 ? { weakBounds: ctx.weakBounds } : {}),
  };
}

/**
 * The check's build (the analysis's `execution`), per operation of `ops`, as the export's: copies of its
 * transactions (the analysis keeps its own) with the deadline from the export's clock, and for each swap the
 * place of the engine's swap-parameter lines (the export asks for them: addEngineLines). Undefined where
 * that build cannot stand for the export's, which then builds as it always did:
 * - one operation of several (`opId`) whose pool an operation before it also uses: the export builds it
 *   alone on the state read, where the check built it on the state the operations before it leave, so
 *   its bounds differ (an operation no earlier one touches has the same call either way, and is taken);
 * - with a node proxy configured, an operation whose min-dlp fell back to 1 for a bin (shares unknown) or
 *   whose call the check could not execute ('unknown'): the export reads those target bins from the node
 *   first, and they are bins the analysis did not read (it reads every target bin it can name from the
 *   state read; one it failed to read is live-data-unavailable, refused before), so the bounds may differ.
 *   Without a node the export's build would be the check's: it is taken, and a bin that fell back is refused
 *   unless allowed (`allowUnprotected`), as before;
 * - options the check's build did not have (routers, limits, a state, token records).
 */
function fromCheck(
  analysis: ExportableAnalysis,
  ops: PreparedOperation[],
  ctx: BuildContext,
  opts: BuildOptions,
): { txs: PartialTx[][]; engineAt: Map<PartialTx, number>; fellBack: number[][] } | undefined {
  const checked = analysis.execution;
  if (!checked || opts.state || opts.resolvePool) return undefined;
  if (opts.tokens !== undefined && analysis.live?.tokens === undefined) return undefined;
  if (!sameRouters(checked.routers, ctx.routers) || checked.sender !== ctx.sender) return undefined;
  if (ops.length !== analysis.prepared.length && !ops.every((op) => untouchedBefore(analysis, ctx, op)))
    return undefined;
  const byOp = new Map<string, BuiltTransaction[]>();
  for (const tx of checked.transactions) {
    const list = byOp.get(tx.opId) ?? [];
    list.push(tx);
    byOp.set(tx.opId, list);
  }
  if (byOp.size !== analysis.prepared.length) return undefined;
  const out: PartialTx[][] = [];
  const engineAt = new Map<PartialTx, number>();
  const fellBack: number[][] = [];
  for (const op of ops) {
    const txs = byOp.get(op.id);
    if (!txs || txs.some((t) => t.opIndex !== op.index)) return undefined;
    // A call on a bin whose shares the state lacks could not be executed ('unknown'), and its min-dlp may
    // have fallen back to 1: with a node to ask, the export first reads such target bins (the analysis read
    // every target bin it knew of: these are ones it did not, e.g. of a simple add after an operation that
    // moved the active bin) and builds the operation again. Without one, that build would be this one.
    if (nodeConfigured(ctx) && txs.some((t) => t.execution?.status === 'unknown')) return undefined;
    const bins = [...new Set(txs.flatMap((t) => fellBackIn.get(t) ?? []))];
    if (bins.length > 0 && nodeConfigured(ctx)) return undefined;
    fellBack.push(bins);
    const copies: PartialTx[] = [];
    for (const tx of txs) {
      // Its own descriptors, so the export-only fields stay unread getters (withExportFields).
      const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tx)) as BuiltTransaction;
      if (!restamp(copy, ctx)) return undefined;
      if (op.op === 'swap') {
        const at = engineLinesIndex(tx);
        if (at === undefined) return undefined;
        engineAt.set(copy, at);
      }
      copies.push(copy);
    }
    out.push(copies);
  }
  return { txs: out, engineAt, fellBack };
}

/** The export can read bin shares from the node proxy (its engine has one). */
function nodeConfigured(ctx: BuildContext): boolean {
  try {
    return ctx.api?.hasNode() === true;
  } catch {
    return false;
  }
}

/**
 * No operation before `op` in the plan uses a pool `op` uses: the check built `op` on the state read as
 * far as its pools go, so its call is the one `op` alone would get.
 */
function untouchedBefore(analysis: ExportableAnalysis, ctx: BuildContext, op: PreparedOperation): boolean {
  const mine = new Set(poolsOf(ctx, op));
  return analysis.prepared.every((p) => p.index >= op.index || !poolsOf(ctx, p).some((q) => mine.has(q)));
}

/** The check's routers are the export's (same network, same overrides). */
function sameRouters(a: RouterConfig | undefined, b: RouterConfig): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof RouterConfig>;
  return [...keys].every((k) => a[k] === b[k]);
}

/**
 * The v-1-2 deadline is the export's clock plus policy.deadline_seconds, not the check's: the last
 * argument is replaced (false when the call does not end in the expected argument).
 */
function restamp(tx: BuiltTransaction, ctx: BuildContext): boolean {
  if (tx.deadline === ctx.deadline && ctx.deadlineArg === undefined) return true;
  const last = tx.argNames.length - 1;
  if (ctx.deadlineArg === undefined || tx.argNames[last] !== 'deadline') return false;
  tx.functionArgs = [...tx.functionArgs.slice(0, last), ctx.deadlineArg];
  tx.deadline = ctx.deadline;
  return true;
}

/** Bins of `opId` whose min-dlp fell back to 1, among those recorded since index `from`. */
function unprotectedBins(ctx: BuildContext, opId: string, from: number): number[] {
  return [
    ...new Set(
      ctx.unprotected
        .slice(from)
        .filter((u) => u.operation === opId)
        .map((u) => u.bin),
    ),
  ];
}

/** Pools each operation touches, for "depends on an operation that could not be executed". */
function poolsOf(ctx: BuildContext, op: PreparedOperation): string[] {
  if (op.op !== 'swap') return [op.pool.pool_id];
  return (op.swap.route?.hops ?? []).map((h) => ctx.resolvePool?.(h.pool_id) ?? h.pool_id);
}

/** Executes a built transaction on the context's state (after the ones before it). */
function executeOn(ctx: BuildContext, tx: PartialTx, op: PreparedOperation): void {
  const state = ctx.state as MemoryChainState;
  const pools = poolsOf(ctx, op);
  const blocked = pools.map((p) => ctx.unknownPools.get(p)).find((v) => v !== undefined);
  if (blocked !== undefined) {
    tx.execution = {
      status: 'unknown',
      detail: `it runs on ${blocked.pool} after operation '${blocked.opId}', which could not be executed (${blocked.detail})`,
    };
    return;
  }
  const before = state.balances?.clone();
  payFee(ctx, state, tx, op);
  tx.execution = executeCall(state, chainCallOf(tx, ctx.sender), { routers: ctx.routers, now: ctx.now });
  const tokens = (ctx.effectTokens ??= effectTokens(ctx.tokens, ctx.routers.stxWrapper));
  const effects = txEffects(tx.execution, ctx.sender, state, tokens);
  if (effects && before && state.balances) {
    const keys = new Map<string, TokenInfo | undefined>();
    for (const a of [...effects.sent, ...effects.received]) {
      const contract = a.token?.contract;
      if (contract === undefined) continue;
      keys.set(contract === ctx.routers.stxWrapper ? STX_KEY : contract, a.token);
    }
    effects.balances = [...keys].map(([key, token]) => {
      const b = before.get(ctx.sender, key);
      const a = state.balances!.get(ctx.sender, key);
      const change: BalanceChange = { key, before: b.amount, after: a.amount, exact: b.exact && a.exact };
      if (token) change.token = token;
      return change;
    });
  }
  // A copy of the check's transaction carries the check's effects: never left beside another execution.
  if (effects) tx.effects = effects;
  else delete tx.effects;
  if (tx.execution.status === 'unknown')
    for (const p of pools) ctx.unknownPools.set(p, { pool: p, opId: op.id, detail: tx.execution.detail });
}

/**
 * The chain takes a transaction's fee from the sender's STX before running it: taken here from the state's
 * balances, so the transaction's own STX transfers see what is left. A fee the STX held does not cover (or
 * whose STX balance could not be read) is a `fee-not-covered` warning: the chain would not accept it.
 */
function payFee(ctx: BuildContext, state: MemoryChainState, tx: PartialTx, op: PreparedOperation): void {
  const fee = ctx.fee;
  const balances = state.balances;
  if (fee === undefined || fee === 0n || !balances) return;
  const held = balances.get(ctx.sender, STX_KEY);
  const r = balances.debit(ctx.sender, STX_KEY, fee);
  let message: string | undefined;
  if (!r.ok)
    message = `${tx.functionName} sets a fee of ${fee} micro-STX and the sender holds ${held.amount} micro-STX at that point of the plan: the chain does not accept the transaction (nor the later ones, whose nonces follow it); fund the sender or lower --fee`;
  else if ('unverified' in r)
    message = `${tx.functionName} sets a fee of ${fee} micro-STX and the sender's STX balance could not be read${held.amount > 0n ? ` (the operations before it pay it at least ${held.amount})` : ''}, so whether it covers the fee is unknown`;
  if (message === undefined) return;
  const range = ctx.rangeOf(['operations', op.index, 'op']);
  ctx.findings.push({
    code: 'fee-not-covered',
    severity: 'warning',
    message,
    offset: range.offset,
    length: range.length,
    operation: op.id,
  });
}

/** Beyond this difference between our clock and the service's, the export warns (`clock-skew`). */
const CLOCK_SKEW_MS = 60_000;

/**
 * The deadline is our clock plus `policy.deadline_seconds`; the chain judges it by its own time. With the
 * service's clock known (its `Date` header on an answer already read, never an extra request): a deadline
 * already past by it refuses the export (`deadline-passed`: every transaction would revert); a difference of
 * more than a minute either way is a `clock-skew` warning. Without a deadline, the clock does not matter.
 */
function clockGate(
  ctx: BuildContext,
  plan: Plan,
  service: ServiceClock | undefined,
): ExportError | undefined {
  if (ctx.deadline === null || !service) return undefined;
  const skewMs = service.serviceMs - service.localMs;
  const serviceNow = BigInt(Math.floor((ctx.now() + skewMs) / 1000));
  const skew = `your clock is ${Math.round(Math.abs(skewMs) / 1000)} s ${skewMs > 0 ? 'behind' : 'ahead of'} the service's (its Date header)`;
  if (ctx.deadline <= serviceNow)
    return exportError(
      'deadline-passed',
      `the deadline ${ctx.deadline} (your clock plus policy.deadline_seconds ${plan.policy.deadline_seconds}) is already past by the service's clock (${serviceNow}, unix seconds): ${skew}, and every transaction would revert; set your clock right (NTP) and export again`,
    );
  if (Math.abs(skewMs) > CLOCK_SKEW_MS) {
    const range = ctx.rangeOf(['policy', 'deadline_seconds']);
    ctx.findings.push({
      code: 'clock-skew',
      severity: 'warning',
      message: `${skew}: the deadline ${ctx.deadline} is computed from your clock, so it ends ${Math.round(Math.abs(skewMs) / 1000)} s ${skewMs > 0 ? 'sooner' : 'later'} than policy.deadline_seconds says; set your clock right (NTP)`,
      offset: range.offset,
      length: range.length,
    });
  }
  return undefined;
}

/** Ids of the plan's operations (within `opId` when given) that have no prepared operation. */
function uncheckedOperations(analysis: ExportableAnalysis, plan: Plan, opId: string | undefined): string[] {
  const prepared = new Set(analysis.prepared.map((p) => p.index));
  const idOf = (i: number): string =>
    analysis.parsed?.operationId?.(i) ?? plan.operations[i]?.id ?? String(i);
  const out: string[] = [];
  plan.operations.forEach((_op, i) => {
    const id = idOf(i);
    if (opId !== undefined && id !== opId) return;
    if (!prepared.has(i)) out.push(id);
  });
  return out;
}

function makeContext(
  analysis: ExportableAnalysis,
  plan: Plan,
  sender: string,
  routers: RouterConfig,
  opts: BuildOptions,
): BuildContext {
  const now = opts.now ?? Date.now;
  let deadlineArg: ClarityValue | undefined;
  let deadline: bigint | null = null;
  if (routers.version === 'v-1-2') {
    const d = plan.policy.deadline_seconds;
    if (d === null) deadlineArg = Cl.none();
    else {
      deadline = BigInt(Math.floor(now() / 1000)) + BigInt(d);
      deadlineArg = Cl.some(Cl.uint(deadline));
    }
  }
  return {
    sender,
    network: plan.network,
    routers,
    slippagePpm: effectiveSlippage(plan.policy.slippage_tolerance).ppm,
    activeBinTolerance: plan.policy.active_bin_tolerance,
    deadlineArg,
    deadline,
    maxPositionsPerTx: MAX_POSITIONS_PER_CALL,
    maxPostConditionsPerTx: LEDGER_MAX_POST_CONDITIONS,
    api: opts.api,
    ...(opts.provider ? { provider: opts.provider } : {}),
    shares: new BinShareReader(opts.api),
    tokens: analysis.live?.tokens ?? opts.tokens ?? [],
    rangeOf: (path) => analysis.parsed?.rangeOf(path) ?? { offset: 0, length: 0 },
    findings: [],
    unprotected: [],
    weakBounds: [],
    state: opts.state,
    ...(opts.resolvePool ? { resolvePool: opts.resolvePool } : {}),
    skipSwapParams: opts.forCheck ?? false,
    now,
    unknownPools: new Map(),
    ...(opts.fee !== undefined && !opts.forCheck ? { fee: opts.fee } : {}),
  };
}
