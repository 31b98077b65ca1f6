/**
 * The dashboard's data feed: reads the engine through DlmmApi and maps it, and the plan analysis, to the
 * webview protocol's shapes (decimal strings for amounts). No vscode import: the Chromium tests run this
 * exact code against the simulated engine.
 */
import { DEFAULT_MAX_TIP_LAG } from '../../../core/check/freshness';
import { aliasesByPrincipal } from '../../../core/api/aliases';
import type { DlmmApi, Route, Status, Token } from '../../../core/api/types';
import { effectiveSlippage } from '../../../core/dlmm/bounds';
import { revertWords } from '../../../core/chain/router';
import { binsReadOf, chainStateFromLive } from '../../../core/live/chainState';
import type { Finding } from '../../../core/plan/diagnostics';
import { executeAfterShift, type DriftInput, type DriftRun } from '../../../core/check/drift';
import type { PlanExecution } from '../../../core/check/execute';
import { blockCostDetail } from '../../../core/tx/cost';
import { readBalancesOf, readPositionsLive, type LiveData } from '../../../core/live/live';
import { positionsOf } from '../../../core/check/positions';
import { networkOfPrincipal, routerConfigFor, type RouterOverrides } from '../../../core/chain/deployments';
import type { BuiltTransaction } from '../../../core/tx/types';
import type { PreparedOperation } from '../../../core/prepare/prepared';
import { checkRouteLive, quoteMinReceived, type QuoteCheck } from '../../../core/quote/exact';
import { routeBins } from '../../../core/quote/routeBins';
import type {
  Balances,
  PositionReport,
  BinEffect,
  DriftOutcome,
  DriftTable,
  EngineStatus,
  FindingInfo,
  Overview,
  PlanPreview,
  PoolView,
  Positions,
  PreviewItem,
  PreviewOp,
  PriceHistory,
  QuoteParams,
  QuoteResult,
  RouteInfo,
  TokenInfo,
} from '../../../webview/src/protocol';
import { toErrorInfo } from './errorInfo';

/** The parts of core/check/analyze.ts's Analysis the dashboard reads (structural, so any Analysis fits). */
export interface DashboardAnalysis {
  text: string;
  plan?: { sender?: string; policy?: { active_bin_tolerance?: number } } | undefined;
  /** What was read and the plan's execution on it: the drift what-if re-executes those transactions. */
  live?: LiveData | undefined;
  execution?: PlanExecution | undefined;
  findings: readonly Finding[];
  prepared: readonly PreparedOperation[];
  parsed?:
    { rangeOf?(path: (string | number)[]): { offset: number; length: number } | undefined } | undefined;
}

/** The plan open in the editor, with the document it came from. */
export interface ActivePlan {
  uri: string;
  fileName: string;
  analysis: DashboardAnalysis;
}

function statusInfo(s: Status): EngineStatus {
  return {
    ready: s.ready,
    state_height: s.state_height,
    chain_tip: s.chain_tip,
    tip_lag: s.tip_lag,
    pool_count: s.pool_count,
  };
}

/** Token display info; a token missing from /tokens shows its contract name and 0 decimals (raw units). */
function tokenInfo(contract: string, tokens: ReadonlyMap<string, Token>): TokenInfo {
  const t = tokens.get(contract);
  if (t) return { contract, symbol: t.symbol, decimals: t.decimals };
  return { contract, symbol: `${contract.split('.')[1] ?? contract}?`, decimals: 0 };
}

function tokenMap(tokens: readonly Token[]): Map<string, Token> {
  return new Map(tokens.map((t) => [t.contract_address, t]));
}

/** Pools, tokens and engine status: the picker and the quote form. */
export async function readOverview(api: DlmmApi): Promise<Overview> {
  const [pools, tokens, status, v1] = await Promise.all([
    api.pools(),
    api.tokens(),
    api.status(),
    // The v2 records name no alias: the v1 list maps them (display only), when it can be read.
    api.v1Pools().catch(() => undefined),
  ]);
  const byContract = tokenMap(tokens);
  const aliases = aliasesByPrincipal(v1);
  return {
    pools: pools.map((p) => ({
      pool_id: p.pool_id,
      alias: p.pool_alias ?? aliases.get(p.pool_id) ?? null,
      symbol_x: tokenInfo(p.token_x, byContract).symbol,
      symbol_y: tokenInfo(p.token_y, byContract).symbol,
      bin_step: p.bin_step,
      active: p.active,
      quotable: p.quotable,
    })),
    tokens: tokens.map((t) => ({ contract: t.contract_address, symbol: t.symbol, decimals: t.decimals })),
    status: statusInfo(status),
  };
}

/** What a sender's panel says when neither the open plan nor the settings name one. */
const NO_SENDER = {
  state: 'none',
  reason: 'No sender: open a plan with `sender`, or set "dlmm.dashboard.sender".',
} as const;

export interface Sender {
  address: string;
  source: 'plan' | 'setting';
}

/** The sender's position bins, or why there are none; never throws (positions are optional on the ladder). */
async function readPositions(
  api: DlmmApi,
  poolPrincipal: string,
  sender: Sender | undefined,
): Promise<Positions> {
  if (!sender) return NO_SENDER;
  try {
    const rows = await api.userPositionBins(sender.address, poolPrincipal);
    return {
      state: 'ok',
      sender: sender.address,
      source: sender.source,
      bins: rows.map((r) => ({
        bin_id: r.bin_id,
        user_liquidity: r.user_liquidity.toString(),
        liquidity: r.liquidity === null ? null : r.liquidity.toString(),
        reserve_x: r.reserve_x.toString(),
        reserve_y: r.reserve_y.toString(),
      })),
    };
  } catch (e) {
    return {
      state: 'error',
      sender: sender.address,
      error: toErrorInfo(e, `read the positions of ${sender.address}`),
    };
  }
}

/**
 * Header, status, the full bin ladder and the sender's positions for one pool. All reads start at once
 * (positions too when `poolId` is already the contract principal app v2 wants), so opening the panel
 * costs one round trip, not a chain of them.
 */
export async function readPoolView(
  api: DlmmApi,
  poolId: string,
  sender: () => Promise<Sender | undefined>,
): Promise<PoolView> {
  const isPrincipal = poolId.includes('.');
  const early = isPrincipal ? sender().then((s) => readPositions(api, poolId, s)) : undefined;
  const [pool, list, tokens, status, v1] = await Promise.all([
    api.pool(poolId),
    api.bins(poolId),
    api.tokens(),
    api.status(),
    api.v1Pools().catch(() => undefined),
  ]);
  const positions = await (early ?? sender().then((s) => readPositions(api, pool.pool_id, s)));
  const byContract = tokenMap(tokens);
  const activeBin = list.active_bin_id ?? pool.active_bin;
  const bins = list.bins
    .map((b) => ({
      bin_id: b.bin_id,
      price: b.price.toString(),
      reserve_x: b.reserve_x.toString(),
      reserve_y: b.reserve_y.toString(),
    }))
    .sort((a, b) => a.bin_id - b.bin_id);
  return {
    header: {
      pool_id: pool.pool_id,
      alias:
        pool.pool_alias ??
        aliasesByPrincipal(v1).get(pool.pool_id) ??
        (/^dlmm_\d+$/.test(poolId) ? poolId : null),
      token_x: tokenInfo(pool.token_x, byContract),
      token_y: tokenInfo(pool.token_y, byContract),
      bin_step: pool.bin_step,
      fees: {
        x_protocol: pool.x_protocol_fee,
        x_provider: pool.x_provider_fee,
        x_variable: pool.x_variable_fee,
        y_protocol: pool.y_protocol_fee,
        y_provider: pool.y_provider_fee,
        y_variable: pool.y_variable_fee,
      },
      active: pool.active,
      quotable: pool.quotable,
      pool_status: pool.pool_status == null ? null : String(pool.pool_status),
      active_bin: activeBin,
      active_price: bins.find((b) => b.bin_id === activeBin)?.price ?? null,
    },
    status: statusInfo(status),
    bins,
    positions,
  };
}

/**
 * The sender's balances of the pool's two tokens and of STX (the fees), each read as `check` reads it
 * (core/live/live.ts readBalancesOf: the token's SIP-010 get-balance through the node proxy; STX through the
 * network's wrapper). A balance that could not be read says why: never a 0 for unknown.
 */
export async function readSenderBalances(
  api: DlmmApi,
  poolId: string,
  sender: Sender | undefined,
  routers?: RouterOverrides,
): Promise<Balances> {
  if (!sender) return NO_SENDER;
  const [pool, tokens] = await Promise.all([api.pool(poolId), api.tokens()]);
  const stxWrapper = routerConfigFor(networkOfPrincipal(sender.address), routers)?.stxWrapper;
  const list = [...new Set([pool.token_x, pool.token_y])];
  if (stxWrapper !== undefined && !list.includes(stxWrapper)) list.push(stxWrapper);
  const read = await readBalancesOf(api, sender.address, list, stxWrapper);
  const byContract = tokenMap(tokens);
  return {
    state: 'ok',
    sender: sender.address,
    source: sender.source,
    rows: read.map((b) => {
      const t = byContract.get(b.token);
      return {
        token: b.token,
        symbol: b.stx ? 'STX' : (t?.symbol ?? b.token.split('.')[1] ?? b.token),
        // STX is read in micro-STX; a token the list does not name has no known decimals (shown raw).
        decimals: b.stx ? 6 : (t?.decimals ?? null),
        stx: b.stx,
        amount: b.amount !== undefined ? b.amount.toString() : null,
        unread: b.amount !== undefined ? null : (b.unread ?? 'not read (no reason given)'),
      };
    }),
  };
}

/** The what-if shifts the dashboard's Positions panel asks for (bins; the same execution as `dlmm positions --what-if`). */
export const DASHBOARD_WHAT_IF = { from: -10, to: 10 } as const;

/**
 * The sender's position in one pool for the Positions panel: read and valued exactly as `dlmm positions
 * --pool POOL --what-if -10..10` does (readPositionsLive, positionsOf), turned into decimal strings.
 * `maxTipLag`: the tip lag beyond which a tip-pinned book is not believed (DEFAULT_MAX_TIP_LAG, as every reader, when unset).
 */
export async function readSenderPosition(
  api: DlmmApi,
  poolId: string,
  sender: Sender | undefined,
  maxTipLag = DEFAULT_MAX_TIP_LAG,
): Promise<PositionReport> {
  if (!sender) return NO_SENDER;
  const live = await readPositionsLive(api, sender.address, [poolId]);
  const report = positionsOf(live, sender.address, { maxTipLag, whatIf: DASHBOARD_WHAT_IF });
  const who = { sender: sender.address, source: sender.source };
  const p = report.positions[0];
  if (!p) return { state: 'empty', ...who, pool: poolId };
  if (p.unknown !== undefined) return { state: 'unknown', ...who, pool: p.pool, reason: p.unknown };
  if (
    p.active_bin_id === undefined ||
    p.in_range === undefined ||
    p.x_total === undefined ||
    p.y_total === undefined ||
    p.value_in_y === undefined
  )
    return { state: 'unknown', ...who, pool: p.pool, reason: 'the position was read without its figures' };
  const unit = (t: Token | undefined, contract: string | undefined) => ({
    contract: t?.contract_address ?? contract ?? '',
    symbol: t?.symbol ?? contract?.split('.')[1] ?? '?',
    decimals: t?.decimals ?? null,
  });
  const pool = live.byPool.get(poolId)?.pool;
  return {
    state: 'ok',
    ...who,
    pool: p.pool,
    read_from:
      p.source === 'inventory'
        ? 'the inventory (tip-pinned)'
        : p.source === 'current-bins'
          ? 'app v2 current-bins (tip-pinned)'
          : 'app v2 position bins',
    may_lag: p.mayLag ?? null,
    token_x: unit(p.tokenX, pool?.token_x),
    token_y: unit(p.tokenY, pool?.token_y),
    active_bin_id: p.active_bin_id,
    in_range: p.in_range,
    distance: p.distance ?? null,
    side: p.side ?? null,
    bins: p.bins.map((b) => ({
      bin_id: b.bin_id,
      shares: b.shares.toString(),
      x_amount: b.x_amount.toString(),
      y_amount: b.y_amount.toString(),
    })),
    x_total: p.x_total.toString(),
    y_total: p.y_total.toString(),
    value_in_y: p.value_in_y.toString(),
    what_if: (p.what_if ?? []).map((w) => ({
      shift: w.shift,
      active_bin_id: w.active_bin_id,
      value_in_y: w.reached && w.value_in_y !== undefined ? w.value_in_y.toString() : null,
      hold_value_in_y: w.reached && w.hold_value_in_y !== undefined ? w.hold_value_in_y.toString() : null,
      unknown: w.reached ? null : w.detail,
    })),
  };
}

function findingInfo(f: Finding): FindingInfo {
  return { code: f.code, severity: f.severity, message: f.message, offset: f.offset, length: f.length };
}

function safeRange(
  a: DashboardAnalysis,
  path: (string | number)[],
): { offset: number; length: number } | null {
  try {
    return a.parsed?.rangeOf?.(path) ?? null;
  } catch {
    return null;
  }
}

function within(f: Finding, r: { offset: number; length: number } | null): boolean {
  return r !== null && f.offset >= r.offset && f.offset + f.length <= r.offset + r.length;
}

type LiquidityOp = Exclude<PreparedOperation, { op: 'swap' }>;

/** The preview items of one prepared operation, with the findings that fall inside each item's source. */
function previewItems(
  a: DashboardAnalysis,
  op: LiquidityOp,
  opFindings: Finding[],
  used: Set<Finding>,
): PreviewItem[] {
  const attach = (range: { offset: number; length: number } | null): FindingInfo[] =>
    opFindings.filter((f) => within(f, range)).map((f) => (used.add(f), findingInfo(f)));
  // What every item carries the same way: its offset and its amounts as decimal strings.
  const amounts = (it: { active_bin_offset?: number; x_amount: bigint; y_amount: bigint }) => ({
    active_bin_offset: it.active_bin_offset ?? null,
    x_amount: it.x_amount.toString(),
    y_amount: it.y_amount.toString(),
  });
  // What an item's amounts do to one bin: `sign` 1n puts them in, -1n takes them out.
  const effect = (bin_id: number, sign: 1n | -1n, it: { x_amount: bigint; y_amount: bigint }): BinEffect => ({
    bin_id,
    dx: (sign * it.x_amount).toString(),
    dy: (sign * it.y_amount).toString(),
  });
  switch (op.op) {
    case 'add':
      return op.items.map((it) => {
        const range = it.from_distribution
          ? safeRange(a, ['operations', op.index, 'distribution'])
          : safeRange(a, ['operations', op.index, 'bins', it.index]);
        return {
          kind: 'add',
          label: `add bin ${it.bin_id}${it.from_distribution ? ' (distribution)' : ''}${it.active_bin_offset !== undefined ? ` (offset ${it.active_bin_offset})` : ''}`,
          bin_id: it.bin_id,
          from_bin_id: null,
          ...amounts(it),
          effects: [effect(it.bin_id, 1n, it)],
          range,
          findings: attach(range),
        };
      });
    case 'withdraw':
      return op.items.map((it) => ({
        kind: 'withdraw',
        label: `withdraw ${it.withdrawal_percentage}% of bin ${it.bin_id}`,
        bin_id: it.bin_id,
        from_bin_id: null,
        ...amounts(it),
        effects: [effect(it.bin_id, -1n, it)],
        range: null,
        findings: [],
      }));
    case 'move':
      return op.items.map((it) => {
        const range = safeRange(a, ['operations', op.index, 'moves', it.index]);
        return {
          kind: 'move',
          label: `move ${it.from_bin_id} → ${it.to_bin_id}`,
          bin_id: it.to_bin_id,
          from_bin_id: it.from_bin_id,
          ...amounts(it),
          effects: [effect(it.from_bin_id, -1n, it), effect(it.to_bin_id, 1n, it)],
          range,
          findings: attach(range),
        };
      });
  }
}

/** True when a prepared operation is on the pool the dashboard shows (principal or alias, either way). */
function sameId(op: LiquidityOp, ids: ReadonlySet<string>): boolean {
  return (
    ids.has(op.pool.pool_id) ||
    ids.has(op.pool.written_id) ||
    ids.has(op.pool.pool.pool_id) ||
    (op.pool.pool.pool_alias ? ids.has(op.pool.pool.pool_alias) : false)
  );
}

/** The open plan's prepared add/withdraw/move items on one pool, as before/after effects per bin. */
export function buildPlanPreview(active: ActivePlan | undefined, poolIds: ReadonlySet<string>): PlanPreview {
  if (!active)
    return { state: 'none', reason: 'No plan is open: open a *.dlmm.yaml file to preview it on the ladder.' };
  const a = active.analysis;
  const ops: PreviewOp[] = [];
  let other = 0;
  const used = new Set<Finding>();
  const liquidityOps: LiquidityOp[] = [];
  for (const op of a.prepared) {
    if (op.op === 'swap') continue;
    if (!sameId(op, poolIds)) {
      other++;
      continue;
    }
    liquidityOps.push(op);
    const opFindings = a.findings.filter((f) => f.operation === op.id);
    const items = previewItems(a, op, opFindings, used);
    ops.push({
      id: op.id,
      index: op.index,
      op: op.op,
      mode: op.mode,
      active_bin_id: op.pool.active_bin_id,
      range: safeRange(a, ['operations', op.index]),
      items,
      findings: opFindings.filter((f) => !used.has(f)).map(findingInfo),
      costs: costLines(a, op.index),
    });
  }
  return {
    state: 'ok',
    drift: driftTable(a, liquidityOps, ops),
    uri: active.uri,
    file_name: active.fileName,
    sender: a.plan?.sender ?? null,
    active_bin_tolerance: a.plan?.policy?.active_bin_tolerance ?? 1,
    ops,
    other_pool_ops: other,
    file_findings: a.findings.filter((f) => f.operation === undefined).map(findingInfo),
  };
}

/** Each transaction of operation `index` with its share of a block, as core words it. */
function costLines(a: { execution?: PlanExecution | undefined }, index: number): string[] {
  const txs = (a.execution?.transactions ?? []).filter((t) => t.opIndex === index);
  return txs.flatMap((t) =>
    t.blockCost
      ? [
          `${t.functionName}${t.parts > 1 ? ` (${t.part} of ${t.parts})` : ''}: ${blockCostDetail(t.blockCost)}`,
        ]
      : [],
  );
}

/** Shifts the drift what-if offers: -DRIFT_LIMIT..DRIFT_LIMIT bins. */
const DRIFT_LIMIT = 10;

/**
 * The drift what-if: for every shift k of this pool's active bin, the plan's transactions (as `check`
 * built them on the state read) executed in order after a trade moved the active bin k bins
 * (core/check/drift.ts), and what that means for each previewed item.
 */
function driftTable(a: DashboardAnalysis, ops: LiquidityOp[], previews: PreviewOp[]): DriftTable {
  const none = (reason: string): DriftTable => ({ available: false, reason, steps: [] });
  if (ops.length === 0) return none('No add, withdraw or move of the plan runs on this pool.');
  const ex = a.execution;
  if (!a.live || !ex?.sender || !ex.routers)
    return none(
      "The plan's transactions were not executed (it needs a sender, live data and router contracts), so what a shift does is unknown.",
    );
  // The state read, built once; each run executes on its own copy-on-write copy.
  const read = chainStateFromLive(a.live, ex.sender);
  const input: DriftInput = {
    state: () => read.clone(),
    binsRead: (pool) => binsReadOf(a.live as LiveData, pool),
    transactions: ex.transactions,
    sender: ex.sender,
    routers: ex.routers,
  };
  const pool = ops[0]!.pool.pool_id;
  const steps = [];
  // Which list element of which transaction carries each item: the same for every shift.
  const elements = ops.map((op) => elementsOf(ex.transactions, op));
  for (let k = -DRIFT_LIMIT; k <= DRIFT_LIMIT; k++) {
    const run = executeAfterShift(input, pool, k);
    const outcomes: DriftOutcome[] = [];
    ops.forEach((op, n) => {
      const preview = previews[n]!;
      const at = elements[n]!;
      op.items.forEach((it, j) => {
        const item = preview.items[j]!;
        const key = 'index' in it ? it.index : j;
        const el = op.op === 'withdraw' ? at.byOrder[j] : at.byItem.get(key);
        outcomes.push({
          op_id: op.id,
          mode: op.mode,
          kind: item.kind,
          label: item.label,
          range: item.range ?? preview.range,
          ...outcomeOf(run, ex.transactions, el, (active) => landingOf(item, op.mode, active)),
        });
      });
    });
    steps.push({
      k,
      from: run.shift.from,
      to: run.shift.to,
      reached: run.shift.reached,
      detail: run.shift.detail,
      outcomes,
    });
  }
  return { available: true, reason: '', steps };
}

/** What one item's list element `el` did in a run after a shift; `landing`: where the item acts at an active bin. */
function outcomeOf(
  run: DriftRun,
  txs: readonly BuiltTransaction[],
  el: ListElement | undefined,
  landing: (active: number) => number | null,
): Pick<DriftOutcome, 'landing_bin' | 'status' | 'reason'> {
  if (!el) return { landing_bin: null, status: 'unknown', reason: 'no transaction carries this item' };
  const r = run.results[el.tx];
  if (!r || r.status === 'unknown')
    return {
      landing_bin: run.shift.reached ? landing(run.shift.to) : null,
      status: 'unknown',
      reason: r?.detail ?? 'not executed',
    };
  const fn = txs[el.tx]!.functionName;
  if (r.status === 'reverted')
    return {
      landing_bin: landing(run.shift.to),
      status: 'reverts',
      reason:
        r.item === el.element
          ? `${fn} reverts here: ${revertWords(r)}`
          : `${fn} reverts as a whole${r.item !== undefined ? ` at list element ${r.item + 1}` : ''}: ${revertWords(r)}`,
    };
  const e = r.effects[el.element];
  const bin = e ? (e.kind === 'move' ? e.to : e.kind === 'swap' ? null : e.bin) : null;
  const what =
    e?.kind === 'add'
      ? `mints ${e.minted} shares`
      : e?.kind === 'withdraw'
        ? `burns ${e.shares} shares for ${e.x} x and ${e.y} y`
        : e?.kind === 'move'
          ? `burns ${e.shares} shares, mints ${e.minted}`
          : 'executes';
  return {
    landing_bin: bin,
    status: 'ok',
    reason: `executes${bin !== null ? ` in bin ${bin}` : ''}: ${what}`,
  };
}

/** Where a previewed item acts when the active bin is `active` (strict: its bin; simple: active + offset). */
function landingOf(item: PreviewItem, mode: 'strict' | 'simple', active: number): number | null {
  if (mode === 'strict' || item.active_bin_offset === null) return item.bin_id;
  const b = active + item.active_bin_offset;
  return b >= -500 && b <= 500 ? b : null;
}

/** One element of a transaction's list argument: transaction `tx`, element `element`. */
type ListElement = { tx: number; element: number };

/** The list elements of an operation's transactions: by plan item (add, move) and in order (withdraw). */
function elementsOf(
  txs: readonly BuiltTransaction[],
  op: LiquidityOp,
): { byItem: Map<number, ListElement>; byOrder: ListElement[] } {
  const byItem = new Map<number, ListElement>();
  const byOrder: ListElement[] = [];
  txs.forEach((tx, t) => {
    if (tx.opIndex !== op.index) return;
    const first = tx.functionArgs[0];
    const n = first && first.type === 'list' ? first.value.length : 0;
    for (let e = 0; e < n; e++) {
      byOrder.push({ tx: t, element: e });
      const item = tx.itemIndexes?.[e];
      if (item !== undefined) byItem.set(item, { tx: t, element: e });
    }
  });
  return { byItem, byOrder };
}

function routeInfo(
  r: Route,
  c: QuoteCheck,
  slippage: number,
  decimals: { input: number; output: number },
): RouteInfo {
  const { percent: used, ppm } = effectiveSlippage(r.slippage_tolerance, slippage);
  // Minimum received on the exact output (the figure the export bounds with).
  const min = quoteMinReceived(c, r, ppm);
  return {
    amount_in: c.amount_in.toString(),
    amount_in_used: c.amount_in_used.toString(),
    complete: c.complete,
    verified: c.verified,
    unverified_reason: c.unverified_reason ?? null,
    engine_amount_out: c.engine_amount_out !== c.amount_out ? c.engine_amount_out.toString() : null,
    amount_out: c.amount_out.toString(),
    min_received: min.toString(),
    slippage: used,
    price_impact_bps: c.price_impact_bps,
    bins_used: routeBins(r.hops)?.used ?? null,
    bins_crossed: routeBins(r.hops)?.crossed ?? null,
    input_decimals: r.input_token_decimals ?? decimals.input,
    output_decimals: r.output_token_decimals ?? decimals.output,
    hops: r.hops.map((h) => ({
      pool_id: h.pool_id,
      input_token: h.input_token,
      output_token: h.output_token,
      x_for_y: h.x_for_y,
      amount_in: h.amount_in.toString(),
      amount_out: h.amount_out.toString(),
      bins: h.bins?.length ?? 0,
    })),
  };
}

/** Best route and all routes for a swap (amount in base units), with the minimum received at the slippage. */
export async function readQuote(api: DlmmApi, p: QuoteParams): Promise<QuoteResult> {
  const req = {
    input_token: p.input_token,
    output_token: p.output_token,
    amount_in: BigInt(p.amount_in),
    slippage_tolerance: p.slippage,
    amm_strategy: 'best',
  };
  const [best, multi, status] = await Promise.all([
    api.quote(req),
    api.quoteMulti(req).catch(() => undefined),
    api.status().catch(() => undefined),
  ]);
  const amountIn = BigInt(p.amount_in);
  const all = multi && multi.length > 0 ? multi : [best];
  const [bestCheck, ...checks] = await Promise.all(
    [best, ...all].map((r) => checkRouteLive(api, r, amountIn)),
  );
  // The published quote types make the decimals optional: the tokens list gives them when a route does not.
  const needTokens = all
    .concat(best)
    .some((r) => r.input_token_decimals == null || r.output_token_decimals == null);
  const tokens = needTokens ? await api.tokens() : [];
  const decimalsOf = (contract: string, given: number | null | undefined): number => {
    const d = given ?? tokens.find((t) => t.contract_address === contract)?.decimals;
    if (d === undefined)
      throw new Error(
        `the decimals of ${contract} are not known: neither the quote nor the tokens list gives them`,
      );
    return d;
  };
  const info = (r: Route, c: QuoteCheck): RouteInfo =>
    routeInfo(r, c, p.slippage, {
      input: decimalsOf(p.input_token, r.input_token_decimals),
      output: decimalsOf(p.output_token, r.output_token_decimals),
    });
  const bestInfo = info(best, bestCheck as QuoteCheck);
  const routes = all.map((r, i) => info(r, checks[i] as QuoteCheck));
  return { best: bestInfo, routes, state_height: status?.state_height ?? null };
}

/** /app/v2/pools/{id}/bin-price-history as points, oldest first. */
export async function readPriceHistory(api: DlmmApi, poolId: string): Promise<PriceHistory> {
  const points = await api.priceHistory(poolId);
  return {
    points: points
      .map((p) => ({ timestamp: p.timestamp, price: p.price.toString(), bin_id: p.bin_id ?? null }))
      .sort((a, b) => a.timestamp - b.timestamp),
  };
}
