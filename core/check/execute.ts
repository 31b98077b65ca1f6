/**
 * `check` executes the plan: after the per-item rules, the analysis builds the exact transactions the
 * export would build (core/tx: same bounds, post-conditions and router version) and executes them in order
 * with the chain model (core/chain) on a copy of the state it read, each operation on the state the ones
 * before it leave. A revert is an error `would-revert` on the operation (and on the item when the failing
 * list element comes from one), naming what the chain reports and the failure underneath; a transaction
 * that needs state that was not read is a warning `execution-unchecked` saying which check could not run.
 */
import { revertWords, STX_KEY, type Shortfall, type Unverified } from '../chain/index';
import { formatUnits } from '../dlmm/bins';

/**
 * The Clarity codec of node bin reads travels with the execution: both need @stacks/transactions, so the
 * language server and `dlmm check` load one copy of it, once (live.ts loads this module for it).
 */
export { binIdArg, decodeBinShares, decodeOkUint, principalArg } from '../live/binShareCodec';
import { buildTransactions } from '../tx/build';
import { routerConfigFor, type RouterConfig, type RouterOverrides } from '../chain/deployments';
import type { BuiltTransaction } from '../tx/types';
import { binsReadOf, chainStateFromLive } from '../live/chainState';
import type { Finding } from '../plan/diagnostics';
import type { LiveData } from '../live/live';
import type { ParsedPlan } from '../plan/parse';
import type { PreparedOperation } from '../prepare/prepared';
import { finding, type RuleContext } from './rules/rule';
import { strictDriftFindings } from './rules/strict-drift-risk';
import { blockBudgetFindings } from './rules/exceeds-block-budget';
import { weakBoundFindings } from './rules/min-dlp-unprotected';
import type { Plan } from '../plan/schema';
import { poolResolver } from '../live/resolve';

export interface PlanExecution {
  /** The transactions as the export builds them, each with its `execution` on the state read. */
  transactions: BuiltTransaction[];
  /** The plan's sender and the routers the transactions call (a what-if re-executes them: drift.ts). */
  sender?: string;
  routers?: RouterConfig;
}

export interface ExecuteOptions {
  routers?: RouterOverrides;
  now?: () => number;
  /** false: no `strict-drift-risk` (the plan is not executed again after a 1-bin shift): AnalyzeOptions. */
  driftRisk?: boolean;
}

/** A token of the balances (a contract, or STX) in words, and an amount of it with its human value. */
export function balanceTokenWords(
  live: LiveData | undefined,
  key: string,
): { name: string; amount: (a: bigint) => string } {
  const stx = key === STX_KEY;
  const t = stx ? undefined : live?.tokens?.find((x) => x.contract_address === key);
  const symbol = stx ? 'STX' : t?.symbol;
  const decimals = stx ? 6 : t?.decimals;
  return {
    name: stx ? 'STX (micro-STX)' : symbol !== undefined ? `${symbol} (${key})` : key,
    amount: (a) =>
      decimals !== undefined && symbol !== undefined
        ? `${a} (${formatUnits(a, decimals)} ${symbol})`
        : `${a}`,
  };
}

/** "the sender holds 10 of sBTC … and this transaction needs 20: …" */
function shortfallWords(live: LiveData, s: Shortfall): string {
  const w = balanceTokenWords(live, s.token);
  return `the sender holds ${w.amount(s.held)} of ${w.name} at this point of the plan and the transaction needs ${w.amount(s.needed)}: the token's transfer fails with (err u1) and the whole transaction reverts`;
}

/** Why each unverified spend could not be decided: which balance was not read, and why. */
function unverifiedWords(live: LiveData, list: readonly Unverified[]): string {
  const byToken = new Map<string, Unverified>();
  for (const u of list) {
    const seen = byToken.get(u.token);
    byToken.set(u.token, seen ? { ...seen, needed: seen.needed + u.needed } : u);
  }
  return [...byToken.values()]
    .map((u) => {
      const w = balanceTokenWords(live, u.token);
      const read = [...live.balances.values()].find((b) =>
        u.token === STX_KEY ? b.stx : b.token === u.token,
      );
      const why = read?.unread ?? 'it was not read';
      const floor = u.atLeast > 0n ? ` (the operations before it pay the sender ${w.amount(u.atLeast)})` : '';
      return `the sender's balance of ${w.name} could not be read (${why}), so whether it holds the ${w.amount(u.needed)} this transaction spends is unknown${floor}`;
    })
    .join('; ');
}

/** Builds and executes the plan's transactions; returns the findings and the executed transactions. */
export async function executePlan(
  parsed: ParsedPlan,
  plan: Plan,
  live: LiveData,
  prepared: PreparedOperation[],
  existing: readonly Finding[],
  opts: ExecuteOptions = {},
): Promise<{ findings: Finding[]; execution?: PlanExecution }> {
  const ctx: RuleContext = { parsed, plan, live, prepared, maxTipLag: plan.policy.max_tip_lag };
  const out: Finding[] = [];
  const sender = plan.sender;
  if (!sender || prepared.length === 0) return { findings: out };
  const redOps = new Set(existing.filter((f) => f.severity === 'error').map((f) => f.operation));
  const routers = routerConfigFor(plan.network, opts.routers);
  if (!routers) {
    out.push(
      finding(
        ctx,
        'execution-unchecked',
        { path: ['network'] },
        `the plan's transactions were not executed: no router contracts are configured for ${plan.network} (DLMM_ROUTERS or dlmm.routers), so whether they would revert is unknown`,
      ),
    );
    return { findings: out };
  }
  // The state read, built once: the build executes on one copy, each what-if run on another (copies are
  // copy-on-write, core/chain/state.ts).
  const read = chainStateFromLive(live, sender);
  const built = await buildTransactions(
    { plan, findings: [], prepared, parsed, live },
    {
      state: read.clone(),
      resolvePool: poolResolver(live),
      forCheck: true,
      // Unknown bin shares are execution-unchecked findings here, not a refusal of the whole build.
      allowUnprotected: true,
      ...(opts.routers ? { routers: opts.routers } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    },
  );
  if (!built.ok) {
    // Reasons the export itself refuses (unknown token, missing route…) are other rules' findings when
    // they are errors; otherwise say that execution could not run.
    if (existing.some((f) => f.severity === 'error')) return { findings: out };
    // The export refuses what it cannot build, so the check does too: an error, as the export's refusal is.
    out.push(
      finding(
        ctx,
        'execution-unchecked',
        { path: ['operations'], severity: 'error' },
        `the plan's transactions could not be built, so they were not executed (export refuses them): ${built.error.message}`,
      ),
    );
    return { findings: out };
  }
  // Simple-mode positions whose min-dlp is 1 (their bounds are the build's: the active-bin window).
  out.push(...weakBoundFindings(ctx, built.weakBounds ?? []));
  const byIndex = new Map(plan.operations.map((op, i) => [i, op]));
  for (const tx of built.transactions) {
    const r = tx.execution;
    const part = tx.parts > 1 ? ` (transaction ${tx.part} of ${tx.parts})` : '';
    if (r?.status === 'ok' && r.unverified && !redOps.has(parsed.operationId(tx.opIndex))) {
      out.push(
        finding(
          ctx,
          'balance-unchecked',
          { op: tx.opIndex, path: ['operations', tx.opIndex, 'op'] },
          `${tx.functionName}${part} is not known to be funded: ${unverifiedWords(live, r.unverified)}`,
        ),
      );
    }
    if (!r || r.status === 'ok') continue;
    const opId = parsed.operationId(tx.opIndex);
    if (redOps.has(opId)) continue;
    const op = byIndex.get(tx.opIndex);
    const list = op?.op === 'add' ? 'bins' : op?.op === 'move' ? 'moves' : undefined;
    const planItem = r.item !== undefined ? tx.itemIndexes?.[r.item] : undefined;
    const path =
      list !== undefined && planItem !== undefined
        ? ['operations', tx.opIndex, list, planItem]
        : ['operations', tx.opIndex, 'op'];
    if (r.status === 'reverted' && r.shortfall) {
      const wrapped =
        r.cause !== r.error
          ? ` (the chain reports ${revertWords(r).split(': list element')[0]} over it)`
          : '';
      out.push(
        finding(
          ctx,
          'insufficient-balance',
          { op: tx.opIndex, path },
          `${tx.functionName}${part} would revert: ${shortfallWords(live, r.shortfall)}${wrapped}`,
        ),
      );
    } else if (r.status === 'reverted') {
      out.push(
        finding(
          ctx,
          'would-revert',
          { op: tx.opIndex, path },
          `${tx.functionName}${part} would revert on the state read: ${revertWords(r)}`,
        ),
      );
    } else {
      // A swap is never clean unless it ran on the state read: for a swap this is an error.
      out.push(
        finding(
          ctx,
          'execution-unchecked',
          { op: tx.opIndex, path, ...(op?.op === 'swap' ? { severity: 'error' as const } : {}) },
          `${tx.functionName}${part} could not be executed on the state read, so whether it reverts is unknown: ${r.detail}`,
        ),
      );
    }
  }
  // exceeds-block-budget: what each transaction spends of a block, as the export builds it.
  out.push(...blockBudgetFindings(ctx, built.transactions, (token) => balanceTokenWords(live, token).amount));
  // strict-drift-risk: the same transactions executed after a 1-bin shift of each strict pool's active bin.
  const drift = {
    state: () => read.clone(),
    binsRead: (pool: string) => binsReadOf(live, pool),
    transactions: built.transactions,
    sender,
    routers,
    ...(opts.now ? { now: opts.now } : {}),
  };
  if (opts.driftRisk !== false)
    try {
      out.push(...strictDriftFindings(ctx, drift, redOps));
    } catch (e) {
      // The what-if after a shift failing must not take the findings above with it.
      out.push(
        finding(
          ctx,
          'execution-unchecked',
          { path: ['operations'], severity: 'error' },
          `the plan's transactions were not executed after a one-bin shift of the active bin, so strict-drift-risk was not checked (internal error: ${e instanceof Error ? e.message : String(e)}); please report this`,
        ),
      );
    }
  return { findings: out, execution: { transactions: built.transactions, sender, routers } };
}
