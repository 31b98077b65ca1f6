/**
 * Swap operations to swap-router calls from the engine's chosen route: one pool -> the simple-multi walk
 * (swap-x-for-y-simple-multi / swap-y-for-x-simple-multi); several pools -> swap-multi with one explicit
 * step per bin the walk crosses and max-unfavorable-bins. Post-condition mode deny: the sender sends at most
 * what each step spends, each pool sends at least the minimum received.
 *
 * swap-multi runs each step in the pool's CURRENT active bin (expected-bin-id only feeds the unfavourable
 * count) and a step cannot skip a bin: a bin the walk crosses without trading (it holds only the input
 * token, or nothing) still takes one step, which swaps nothing, gives 0 and moves the active bin on. Such a
 * step is written with amount 1 (the contract asserts amount > 0; at the quoted state it uses 0) and
 * min-received 0. With the chain state (check, and exports after a check), the walk is recomputed on the
 * state the plan's earlier operations leave, so bounds of a later swap reflect the earlier ones.
 */
import { Cl, type ClarityValue, type PostCondition } from '@stacks/transactions';
import { formatUnits } from '../dlmm/bins';
import { slippageToPpm } from '../dlmm/bounds';
import { fillWords, quoteBoundOutput } from '../quote/exact';
import { isApiError } from '../api/errors';
import type { PreparedOperation } from '../prepare/prepared';
import type { RouteHop, SwapParams } from '../api/schemas';
import { slippageBasis } from './callBounds';
import {
  contractCV,
  exportError,
  isExportError,
  tokenInfo,
  txHead,
  withDeadline,
  withExportFields,
  words,
  type BuildContext,
  type PartialTx,
} from './context';
import { fungibleCondition } from '../chain/postConditions';
import { quotePool } from '../chain/index';
import { minReceived, type SwapStep } from '../dlmm/math';
import { costVerdict, largestSwapWithin, simpleSwapCost, type BlockCost } from './cost';
import type { Bound, ExportError, PositionRow, TokenInfo } from './types';

type SwapOp = Extract<PreparedOperation, { op: 'swap' }>;

/** A route hop with its pool's contract principal and token records. */
interface Hop {
  hop: RouteHop;
  pool: string;
  tin: TokenInfo;
  tout: TokenInfo;
  tx: TokenInfo;
  ty: TokenInfo;
}

/** Contract principal of a hop's pool (aliases resolved through the engine). */
async function hopPool(ctx: BuildContext, hop: RouteHop): Promise<string | ExportError> {
  if (hop.pool_id.includes('.')) return hop.pool_id;
  const known = ctx.resolvePool?.(hop.pool_id);
  if (known?.includes('.')) return known;
  if (ctx.api) {
    try {
      const p = await ctx.api.pool(hop.pool_id);
      if (p.pool_id.includes('.')) return p.pool_id;
    } catch {
      // reported below
    }
  }
  return exportError(
    'swap-route-unsupported',
    `route pool ${hop.pool_id} could not be resolved to a contract principal (GET /quotes/v2/pools/${hop.pool_id})`,
  );
}

/** Builds the one transaction of a swap operation. */
export async function buildSwapOp(ctx: BuildContext, op: SwapOp): Promise<PartialTx[] | ExportError> {
  const s = op.swap;
  const route = s.route;
  if (!route || route.hops.length === 0) {
    return exportError(
      'swap-route-missing',
      `swap ${op.id}: no route was read for ${s.amount_in} ${s.input_token} -> ${s.output_token} (the engine gave none, or its quote could not be read); nothing can be exported`,
    );
  }
  const check = s.check;
  if (check && !check.complete) {
    return exportError(
      'swap-partial-fill',
      `swap ${op.id}: the route takes only ${check.amount_in_used} of amount_in ${check.amount_in} ` +
        `(${s.input_token}); a partial fill is never exported: lower amount_in to at most ${check.amount_in_used} or split the swap`,
    );
  }
  const hops: Hop[] = [];
  for (const hop of route.hops) {
    const pool = await hopPool(ctx, hop);
    if (isExportError(pool)) return pool;
    const tin = tokenInfo(ctx, hop.input_token);
    if (isExportError(tin)) return tin;
    const tout = tokenInfo(ctx, hop.output_token);
    if (isExportError(tout)) return tout;
    hops.push({ hop, pool, tin, tout, tx: hop.x_for_y ? tin : tout, ty: hop.x_for_y ? tout : tin });
  }
  const notes: string[] = [];
  notes.push(...fillNotes(op, hops[0]!.tin, hops[hops.length - 1]!.tout));
  // The engine's lines follow the fill lines; a build without them (the check's) keeps their place.
  const engineAt = notes.length;
  if (!ctx.skipSwapParams) notes.push(...(await requestSwapParams(ctx, op)));
  const built = swapCall(ctx, op, hops, notes);
  if (ctx.skipSwapParams && !isExportError(built)) for (const tx of built) engineLinesAt.set(tx, engineAt);
  return built;
}

/**
 * Where the engine's swap-parameter lines go in the notes of a swap transaction built without them (the
 * check's build: `skipSwapParams`); undefined for any other transaction.
 */
const engineLinesAt = new WeakMap<object, number>();

export function engineLinesIndex(tx: object): number | undefined {
  return engineLinesAt.get(tx);
}

/**
 * The export's part of a swap the check built: asks the engine for its swap parameters (sending the
 * provider attribution) and puts its lines in `tx`'s notes at `at` (engineLinesIndex of the check's
 * transaction), where the export's own build of the swap would have them. The call itself is the check's.
 */
export async function addEngineLines(
  ctx: BuildContext,
  op: SwapOp,
  tx: PartialTx,
  at: number,
): Promise<void> {
  const lines = await requestSwapParams(ctx, op);
  if (lines.length > 0) tx.notes = [...tx.notes.slice(0, at), ...lines, ...tx.notes.slice(at)];
}

/** The router call of a swap whose hops are resolved, from its notes so far. */
function swapCall(ctx: BuildContext, op: SwapOp, hops: Hop[], notes: string[]): PartialTx[] | ExportError {
  const s = op.swap;
  const route = s.route!;
  const check = s.check;
  const ppm = slippageToPpm(s.slippage_tolerance) ?? ctx.slippagePpm;
  const first = hops[0]!;
  const last = hops[hops.length - 1]!;
  // The output we bound with: the walk on the chain state (the state read after the plan's earlier
  // operations) when there is one; else the exact recomputation from the bins read (the engine's figure is
  // shown beside it when they differ); else the engine's quote.
  const walked = walkOnState(ctx, hops, s.amount_in);
  const walkDiffers = walked !== undefined && !(check?.verified && check.amount_out === walked.amountOut);
  if (walkDiffers) notes.push("bounds from the walk on the state the plan's earlier operations leave");
  const quotedOut = walked ? walked.amountOut : quoteBoundOutput(check, route);
  const minOut = minReceived(quotedOut, ppm);
  const tokens = uniqueTokens(hops.flatMap((h) => [h.tin, h.tout]));
  if (hops.length === 1) {
    const pcs: PostCondition[] = [fungibleCondition(ctx.sender, 'lte', s.amount_in, first.tin)];
    pcs.push(fungibleCondition(first.pool, 'gte', minOut, first.tout));
    const fn = first.hop.x_for_y ? 'swap-x-for-y-simple-multi' : 'swap-y-for-x-simple-multi';
    const call = withDeadline(
      ctx,
      [
        contractCV(first.pool),
        contractCV(first.tx.contract),
        contractCV(first.ty.contract),
        Cl.uint(s.amount_in),
        Cl.uint(minOut),
      ],
      [
        'pool-trait',
        'x-token-trait',
        'y-token-trait',
        first.hop.x_for_y ? 'x-amount' : 'y-amount',
        first.hop.x_for_y ? 'min-dy' : 'min-dx',
      ],
    );
    const bound: Bound = {
      label: first.hop.x_for_y ? 'min-dy' : 'min-dx',
      amount: minOut,
      token: first.tout,
      basis: slippageBasis(
        walkDiffers
          ? "output of the walk on the state the plan's earlier operations leave"
          : check?.verified
            ? 'exact output on the bins read'
            : 'quoted output',
        quotedOut,
        ppm,
      ),
    };
    const blockCost = simpleSwapBlockCost(ctx, fn, first, s.amount_in, minOut, ppm, walked?.steps[0]?.length);
    return [
      withExportFields(
        {
          ...txHead(ctx, op, fn),
          functionArgs: call.args,
          argNames: call.names,
          postConditions: pcs,
          notes,
          ...(blockCost ? { blockCost } : {}),
        },
        {
          postConditionWords: () => words(pcs, tokens),
          rows: () => [
            {
              label: `${first.pool} (walks up to 350 bins)`,
              amounts: [
                { label: 'in', amount: s.amount_in, token: first.tin },
                {
                  label: check?.complete ? 'input used (whole amount)' : 'input used',
                  amount: check?.amount_in_used ?? s.amount_in,
                  token: first.tin,
                },
                { label: 'quoted out', amount: quotedOut, token: first.tout },
              ],
              bounds: [bound],
            },
          ],
          totals: () => [
            { label: 'in', amount: s.amount_in, token: first.tin },
            { label: 'min out', amount: minOut, token: last.tout },
          ],
        },
      ),
    ];
  }
  return buildSwapMulti(ctx, op, hops, ppm, notes, tokens, walked?.steps);
}

/**
 * A simple swap's cost on the state it runs on (the state read after the plan's earlier operations): the
 * bins its walk may take (cost.ts simpleSwapBins) and, above the safe budget, the largest amount that fits.
 * Undefined without the state (the bins beyond the route are unknown).
 */
function simpleSwapBlockCost(
  ctx: BuildContext,
  fn: string,
  hop: Hop,
  amountIn: bigint,
  minOut: bigint,
  ppm: bigint,
  used: number | undefined,
): BlockCost | undefined {
  const pool = ctx.state?.pool(hop.pool);
  if (!pool) return undefined;
  const version = ctx.routers.version;
  const c = simpleSwapCost(fn, pool, hop.hop.x_for_y, amountIn, minOut, version, used);
  if (c && costVerdict(c) !== 'fits')
    c.largestAmount = largestSwapWithin(fn, pool, hop.hop.x_for_y, amountIn, ppm, version);
  return c;
}

/** The route walked on the chain state hop after hop (none when a hop's pool is not in the state). */
function walkOnState(
  ctx: BuildContext,
  hops: { hop: RouteHop; pool: string }[],
  amountIn: bigint,
): { amountOut: bigint; steps: SwapStep[][] } | undefined {
  if (!ctx.state) return undefined;
  const pools = hops.map((h) => ctx.state!.pool(h.pool));
  if (pools.some((p) => p === undefined)) return undefined;
  let amount = amountIn;
  const steps: SwapStep[][] = [];
  for (const [i, h] of hops.entries()) {
    if (amount <= 0n) return undefined;
    const w = quotePool(pools[i]!, h.hop.x_for_y, amount);
    steps.push(w.steps);
    amount = w.amount_out;
  }
  return { amountOut: amount, steps };
}

/** The fill and exact-check lines of a swap's summary (input used, complete or not, engine vs exact). */
function fillNotes(op: SwapOp, tin: TokenInfo, tout: TokenInfo): string[] {
  const c = op.swap.check;
  if (!c) return ['fill not checked: the quote was not recomputed from the bins (no live quote)'];
  const fmt = (t: TokenInfo) => (v: bigint) => `${formatUnits(v, t.decimals)} ${t.symbol} (${v})`;
  return fillWords(c, fmt(tin), fmt(tout));
}

function uniqueTokens(ts: TokenInfo[]): TokenInfo[] {
  const m = new Map<string, TokenInfo>();
  for (const t of ts) m.set(t.contract, t);
  return [...m.values()];
}

function buildSwapMulti(
  ctx: BuildContext,
  op: SwapOp,
  hops: Hop[],
  ppm: bigint,
  notes: string[],
  tokens: TokenInfo[],
  walked: SwapStep[][] | undefined,
): PartialTx[] | ExportError {
  const steps: ClarityValue[] = [];
  const rows: PositionRow[] = [];
  const senderOut = new Map<string, { token: TokenInfo; amount: bigint }>();
  const poolOut = new Map<string, { pool: string; token: TokenInfo; amount: bigint }>();
  for (const [hi, h] of hops.entries()) {
    const bins = walked?.[hi] ?? h.hop.bins;
    if (!bins || bins.length === 0) {
      return exportError(
        'swap-route-unsupported',
        `swap ${op.id}: hop through ${h.pool} has no per-bin steps in the route; swap-multi needs one step per bin`,
      );
    }
    for (const b of bins) {
      // A crossed bin that trades nothing still takes its step (see the file comment).
      const pass = b.amount_in === 0n;
      const amount = pass ? 1n : b.amount_in;
      const min = pass ? 0n : minReceived(b.amount_out, ppm);
      steps.push(
        Cl.tuple({
          'pool-trait': contractCV(h.pool),
          'x-token-trait': contractCV(h.tx.contract),
          'y-token-trait': contractCV(h.ty.contract),
          'expected-bin-id': Cl.int(b.bin_id),
          amount: Cl.uint(amount),
          'min-received': Cl.uint(min),
          'x-for-y': Cl.bool(h.hop.x_for_y),
        }),
      );
      rows.push({
        label: `${h.pool} bin ${b.bin_id} (${h.hop.x_for_y ? 'x for y' : 'y for x'}${pass ? ', crossed: holds no output' : ''})`,
        amounts: [
          { label: 'in', amount, token: h.tin },
          { label: 'quoted out', amount: b.amount_out, token: h.tout },
        ],
        bounds: [
          {
            label: 'min-received',
            amount: min,
            token: h.tout,
            basis: pass
              ? 'a crossed bin without output: the step swaps nothing and moves the active bin'
              : slippageBasis('quoted step output', b.amount_out, ppm),
          },
        ],
      });
      const so = senderOut.get(h.tin.contract) ?? { token: h.tin, amount: 0n };
      so.amount += amount;
      senderOut.set(h.tin.contract, so);
      const key = `${h.pool}|${h.tout.contract}`;
      const po = poolOut.get(key) ?? { pool: h.pool, token: h.tout, amount: 0n };
      po.amount += min;
      poolOut.set(key, po);
    }
  }
  if (steps.length > ctx.maxPositionsPerTx) {
    return exportError(
      'swap-route-unsupported',
      `swap ${op.id}: the route needs ${steps.length} per-bin steps, above the router's list limit of ${ctx.maxPositionsPerTx}; split the amount`,
    );
  }
  const pcs: PostCondition[] = [
    ...[...senderOut.values()].map((o) => fungibleCondition(ctx.sender, 'lte', o.amount, o.token)),
    ...[...poolOut.values()].map((o) => fungibleCondition(o.pool, 'gte', o.amount, o.token)),
  ];
  const call = withDeadline(
    ctx,
    [Cl.list(steps), Cl.uint(ctx.activeBinTolerance)],
    ['swaps', 'max-unfavorable-bins'],
  );
  const first = hops[0]!;
  const last = hops[hops.length - 1]!;
  const lastMin = poolOut.get(`${last.pool}|${last.tout.contract}`)?.amount ?? 0n;
  return [
    withExportFields(
      {
        ...txHead(ctx, op, 'swap-multi'),
        functionArgs: call.args,
        argNames: call.names,
        postConditions: pcs,
        notes: [
          ...notes,
          `max-unfavorable-bins ${ctx.activeBinTolerance} (policy.active_bin_tolerance): total unfavourable drift of the active bins summed over the steps`,
        ],
      },
      {
        postConditionWords: () => words(pcs, tokens),
        rows: () => rows,
        totals: () => [
          { label: 'in', amount: op.swap.amount_in, token: first.tin },
          { label: 'min out (last hop)', amount: lastMin, token: last.tout },
        ],
      },
    ),
  ];
}

/**
 * The engine's proposed call, in words: shown, never used. The export builds its own router call from the
 * route recomputed on the state read; the engine's simple swap names swap-simple-multi, which Bitflow's own
 * market-maker bot documents as broken on dlmm-swap-router-v-1-2 (its fold calls the range function with
 * the pre-deadline arity).
 */
function engineCall(p: SwapParams): string {
  const broken = p.function_name === 'swap-simple-multi' ? ', documented as broken on v-1-2' : '';
  return `${p.swap_contract} ${p.function_name} over ${p.total_hops} hop(s) (not used${broken}: this export builds its own call)`;
}

/** Why the aggregator was not used: it is not offered (404/405/501), so the plain swap endpoint is. */
function notOffered(e: unknown): boolean {
  const status = isApiError(e) ? e.context.status : undefined;
  return status === 404 || status === 405 || status === 501;
}

/**
 * The engine's swap parameters for the route: POST /quotes/v2/agg/swap when the operation asks for the
 * aggregator (falling back to /quotes/v2/swap when the engine does not offer it), else /quotes/v2/swap;
 * `provider` (the operation's, else the export's default) is sent for attribution. Lines for the summary.
 */
async function requestSwapParams(ctx: BuildContext, op: SwapOp): Promise<string[]> {
  const s = op.swap;
  const provider = s.provider ?? ctx.provider;
  const attribution = provider
    ? `provider ${provider} (attribution only: no revenue sharing runs from it)`
    : undefined;
  if (!ctx.api || !s.route) return provider ? [`${attribution} not sent: no engine configured`] : [];
  const r = s.route;
  const req = {
    execution_path: r.execution_path,
    amount_in: s.amount_in,
    amount_out: r.amount_out,
    input_token: s.input_token,
    output_token: s.output_token,
    input_token_decimals: r.input_token_decimals,
    output_token_decimals: r.output_token_decimals,
    slippage_tolerance: s.slippage_tolerance,
    ...(provider ? { provider } : {}),
  };
  const lines: string[] = [];
  const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));
  if (s.aggregator) {
    try {
      const p = await ctx.api.aggSwap(req);
      lines.push(`aggregator swap parameters (POST /quotes/v2/agg/swap): ${engineCall(p)}`);
      if (attribution) lines.push(`${attribution}, sent to /quotes/v2/agg/swap`);
      return lines;
    } catch (e) {
      if (!notOffered(e)) {
        lines.push(`aggregator swap parameters request failed (${errText(e)})`);
        if (attribution) lines.push(`${attribution} not attributed`);
        return lines;
      }
      lines.push('the engine does not offer the aggregator (POST /quotes/v2/agg/swap): /quotes/v2/swap used');
    }
  }
  try {
    const p = await ctx.api.swapParams(req);
    lines.push(`engine swap parameters (POST /quotes/v2/swap): ${engineCall(p)}`);
    if (attribution) lines.push(`${attribution}, sent to /quotes/v2/swap`);
  } catch (e) {
    lines.push(`engine swap parameters request failed (${errText(e)})`);
    if (attribution) lines.push(`${attribution} not attributed`);
  }
  return lines;
}
