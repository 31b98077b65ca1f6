/**
 * The core swap API's getSwapParams as an unsigned export: the route's router call, its arguments and
 * post-conditions (core/api/coreClient.ts) become one BuiltTransaction, written by the same formats as every
 * plan export (core/tx/formats.ts: tx-hex, wallet-request, summary, json). Nothing is signed or broadcast.
 *
 * A transaction is written only when it was checked:
 * - the route was recomputed exactly from the bins read (core/quote/exact.ts); an unreadable pool or bin
 *   list refuses (`operation-unchecked`);
 * - the route takes the whole input (`swap-partial-fill` otherwise);
 * - the core API's quoted output and the exact recomputation agree within the slippage band the
 *   transaction states (quoted output minus its minimum): beyond it, `quote-mismatch` refuses;
 * - its cost stays within the safe share of a block (cost.ts): above it, `exceeds-block-budget` refuses
 *   with the largest amount that fits;
 * - the call executes on the chain model (core/chain) on the state read, post-conditions included: a
 *   revert refuses (`would-revert`), and so does a call the model cannot run (`operation-unchecked`).
 */
import {
  executeCall,
  MemoryChainState,
  revertWords,
  chainPoolFromListing,
  type ChainPool,
  type ExecResult,
} from '../chain/index';
import type { CoreSwapClient, CoreSwapParams, RouteQuote } from '../api/coreClient';
import type { BinList, DlmmApi, Pool } from '../api/types';
import { formatUnits } from '../dlmm/bins';
import type { BinBalances } from '../dlmm/math';
import { fillWords, poolFees, type QuoteCheck } from '../quote/exact';
import { exportError, words } from './context';
import { costProblem, costVerdict, largestSwapWithin, simpleSwapCost } from './cost';
import {
  networkOfPrincipal,
  routerConfigFor,
  type Network,
  type RouterConfig,
  type RouterOverrides,
} from '../chain/deployments';
import type { BuiltTransaction, ExportError, ExportOutcome } from './types';

interface CoreSwapExportInput {
  /** getSwapParams' answer for `quote`. */
  params: CoreSwapParams;
  /** The core API's quote of the route (its read-only call). */
  quote: RouteQuote;
  /** The route recomputed exactly from the bins read. */
  check: QuoteCheck;
  /** The state read: the route's pool and its bin list (undefined when they could not be read). */
  pool: Pool | undefined;
  bins: BinList | undefined;
  sender: string;
  network: Network;
  routers: RouterConfig;
  now?: () => number;
}

/**
 * A chain pool from a pool record and its bin list, for a swap: reserves and prices as listed; the bins'
 * total shares were not read (a swap does not need them), so anything that would need them is unknown.
 */
function chainPoolFromRead(pool: Pool, list: BinList, principal: string): ChainPool | undefined {
  const active = list.active_bin_id ?? pool.active_bin;
  if (active === undefined || active === null) return undefined;
  const bins = new Map<number, BinBalances>();
  for (const b of list.bins)
    bins.set(b.bin_id, { price: b.price, reserve_x: b.reserve_x, reserve_y: b.reserve_y, shares: 0n });
  return chainPoolFromListing({
    id: principal,
    tokenX: pool.token_x,
    tokenY: pool.token_y,
    fees: poolFees(pool),
    active: pool.active,
    activeBinId: active,
    bins,
    positions: new Map(),
    unknownShares: new Set(bins.keys()),
  });
}

/** Builds and checks the transaction; a refusal says why, in words, and writes nothing. */
export function buildCoreSwapExport(input: CoreSwapExportInput): ExportOutcome {
  const { params: p, quote, check } = input;
  const refuse = (code: ExportError['code'], message: string): ExportOutcome => ({
    ok: false,
    error: exportError(code, message),
  });
  const tin = p.tokenIn;
  const tout = p.tokenOut;
  const fin = (v: bigint) => `${formatUnits(v, tin.decimals)} ${tin.symbol}`;
  const fout = (v: bigint) => `${formatUnits(v, tout.decimals)} ${tout.symbol}`;
  const route = quote.route.tokenPath.join(' -> ');

  if (!check.verified)
    return refuse(
      'operation-unchecked',
      `core route ${route}: the quote could not be recomputed from the bins read (${check.unverified_reason}); a transaction that cannot be checked is not written`,
    );
  if (!check.complete || (quote.amountInUsed !== undefined && quote.amountInUsed < quote.amountIn))
    return refuse(
      'swap-partial-fill',
      `core route ${route}: only ${fin(check.amount_in_used)} of ${fin(check.amount_in)} finds liquidity; a partial fill is never exported: lower the amount to at most ${fin(check.amount_in_used)} or split the swap`,
    );
  const band = quote.amountOut - p.minOut;
  const gap =
    check.amount_out > quote.amountOut
      ? check.amount_out - quote.amountOut
      : quote.amountOut - check.amount_out;
  if (gap > band)
    return refuse(
      'quote-mismatch',
      `core route ${route}: the core swap API quotes ${fout(quote.amountOut)} but the bins read give ${fout(check.amount_out)}; ` +
        `the difference ${fout(gap)} is beyond the slippage band ${fout(band)} the transaction would state, so it is not written`,
    );
  if (p.contract !== input.routers.swapRouter)
    return refuse(
      'swap-route-unsupported',
      `core route ${route} calls ${p.contract}.${p.functionName}, not the ${input.network} swap router ${input.routers.swapRouter}: the chain model cannot check it, so it is not written`,
    );
  if (!input.pool || !input.bins)
    return refuse(
      'live-data-unavailable',
      `core route ${route}: pool ${p.pool} or its bins could not be read, so the transaction cannot be executed on the state read`,
    );
  const cp = chainPoolFromRead(input.pool, input.bins, p.pool);
  if (!cp)
    return refuse(
      'live-data-unavailable',
      `core route ${route}: pool ${p.pool} has no readable active bin, so the transaction cannot be executed on the state read`,
    );
  // A one-pool swap cannot be split: above a block's limit it is refused with the largest amount that fits
  // the safe budget (cost.ts), weighed on the state read before the call runs on it; above the safe budget
  // it is written with the problem as a note, as a plan's swap is.
  const version = input.routers.version;
  const xForY = p.functionName.includes('x-for-y');
  const blockCost = simpleSwapCost(p.functionName, cp, xForY, p.amountIn, p.minOut, version);
  const costNotes: string[] = [];
  if (blockCost && costVerdict(blockCost) !== 'fits') {
    blockCost.largestAmount = largestSwapWithin(
      p.functionName,
      cp,
      xForY,
      p.amountIn,
      p.slippagePpm,
      version,
    );
    const words = (v: bigint) => `${fin(v)} (${v})`;
    const problem = `core route ${route}: ${costProblem(blockCost, p.functionName, words) ?? ''}`;
    if (costVerdict(blockCost) === 'over-limit') return refuse('exceeds-block-budget', problem);
    costNotes.push(`COST: ${problem}`);
  }
  const names = new Map<string, string>();
  for (const t of [tin, tout]) if (t.assetName) names.set(t.contract, t.assetName);
  const state = new MemoryChainState([cp], names, 'it is not on the route read');
  const execution: ExecResult = executeCall(
    state,
    {
      contract: p.contract,
      functionName: p.functionName,
      args: p.functionArgs,
      postConditions: p.postConditions,
      deny: p.postConditionMode === 'deny',
      sender: input.sender,
    },
    { routers: input.routers, ...(input.now ? { now: input.now } : {}) },
  );
  if (execution.status === 'reverted')
    return refuse(
      'would-revert',
      `core route ${route}: ${p.functionName} would revert on the state read: ${revertWords(execution)}`,
    );
  if (execution.status === 'unknown')
    return refuse(
      'operation-unchecked',
      `core route ${route}: ${p.functionName} could not be executed on the state read: ${execution.detail}`,
    );

  const slippagePercent = formatUnits(p.slippagePpm, 4);
  const notes = [
    ...fillWords(check, fin, fout),
    `route from the core swap API (getSwapParams): ${route} through ${p.pool}`,
    `slippage ${slippagePercent}% (the library's fraction ${formatUnits(p.slippagePpm, 6)})`,
    `executed on the chain model on the state read: gives ${fout(check.amount_out)}`,
    ...(p.provider ? [`provider ${p.provider} (attribution only: no revenue sharing runs from it)`] : []),
  ];
  const tx: BuiltTransaction = {
    opId: 'core-swap',
    opIndex: 0,
    op: 'swap',
    mode: 'swap',
    part: 1,
    parts: 1,
    network: input.network,
    contract: p.contract,
    functionName: p.functionName,
    functionArgs: p.functionArgs,
    argNames: p.argNames,
    postConditions: p.postConditions,
    postConditionWords: words(p.postConditions, [tin, tout]),
    postConditionMode: p.postConditionMode,
    rows: [
      {
        label: `${p.pool} (walks up to 350 bins)`,
        amounts: [
          { label: 'in', amount: p.amountIn, token: tin },
          { label: 'input used (whole amount)', amount: check.amount_in_used, token: tin },
          { label: 'quoted out (core swap API)', amount: quote.amountOut, token: tout },
          { label: 'exact out on the bins read', amount: check.amount_out, token: tout },
        ],
        bounds: [
          {
            label: p.functionName.includes('x-for-y') ? 'min-dy' : 'min-dx',
            amount: p.minOut,
            token: tout,
            basis: `quoted output ${fout(quote.amountOut)} less ${slippagePercent}% slippage`,
          },
        ],
      },
    ],
    totals: [
      { label: 'in', amount: p.amountIn, token: tin },
      { label: 'min out', amount: p.minOut, token: tout },
    ],
    notes: [...notes, ...costNotes],
    deadline: null,
    execution,
    ...(blockCost ? { blockCost } : {}),
  };
  return { ok: true, transactions: [tx], findings: [] };
}

/**
 * The whole path, as the CLI and the editor run it: getSwapParams for `quote` (the quote's slippage in parts
 * per million, handed to the library as its fraction, exactly), the route's pool and bins read through the
 * quote engine, then buildCoreSwapExport. Never throws for a route it cannot use: that is a refusal.
 */
export async function coreSwapExport(o: {
  core: CoreSwapClient;
  api: DlmmApi;
  quote: RouteQuote;
  check: QuoteCheck;
  sender: string;
  slippagePpm: bigint;
  routers?: RouterOverrides;
  now?: () => number;
}): Promise<ExportOutcome> {
  const network = networkOfPrincipal(o.sender);
  const routers = routerConfigFor(network, o.routers);
  if (!routers)
    return {
      ok: false,
      error: exportError(
        'router-config-missing',
        `no router contracts are configured for ${network} (DLMM_ROUTERS or dlmm.routers), so the transaction cannot be checked`,
      ),
    };
  let params: CoreSwapParams;
  try {
    // The library's unit: a fraction (0.01 = 1%), from the quote's parts per million, exactly.
    params = await o.core.getSwapParams(o.quote, o.sender, formatUnits(o.slippagePpm, 6));
  } catch (e) {
    return {
      ok: false,
      error: exportError(
        'swap-route-unsupported',
        `getSwapParams failed for the core route ${o.quote.route.tokenPath.join(' -> ')}: ${e instanceof Error ? e.message : String(e)}`,
      ),
    };
  }
  const [pools, bins] = await Promise.all([
    o.api.pools().catch(() => undefined),
    o.api.bins(params.pool).catch(() => undefined),
  ]);
  return buildCoreSwapExport({
    params,
    quote: o.quote,
    check: o.check,
    pool: pools?.find((p) => p.pool_id === params.pool),
    bins,
    sender: o.sender,
    network,
    routers,
    ...(o.now ? { now: o.now } : {}),
  });
}
