/**
 * "DLMM: Get Quote": pick tokens from the engine's token list, type an amount in human units, see the best
 * route and all routes, copy one (or all) as JSON. A swap lens passes its operation to skip the pickers.
 */
import { DEFAULT_SLIPPAGE } from '../../../core/dlmm/bounds';
import * as vscode from 'vscode';
import * as z from 'zod';
import { stringifyJsonExact } from '../../../core/api/json';
import type { DlmmApi, Pool, Route, Token } from '../../../core/api/types';
import { formatUnits, parseUnits } from '../../../core/dlmm/bins';
import { checkRouteLive } from '../../../core/quote/exact';
import {
  coreQuoteToRoute,
  createCoreSwapClient,
  type CoreSwapClient,
  type RouteQuote,
} from '../../../core/api/coreClient';
import { zPrincipal } from '../../../core/api/schemas';
import { percentToPpm } from '../../../core/dlmm/percent';
import type { QuoteCheck } from '../../../core/quote/exact';
import { networkOfPrincipal } from '../../../core/chain/deployments';
import { coreSwapExport } from '../../../core/tx/coreSwapExport';
import type { SigningParams } from '../../../core/tx/formats';
import type { BuiltTransaction } from '../../../core/tx/types';
import { askSigningFor, pickExportFormat, showUnsaved } from '../export/command';
import type { KeyValueStore } from '../export/keyMemory';
import { renderExport } from '../export/pipeline';
import { routersForExport } from '../export/routers';
import { describeRoute, routePoolsLabel } from '../../../protocol/format';
import { withAliases } from '../../../core/api/aliases';
import { routeBins, routeBinsText } from '../../../core/quote/routeBins';
import { describeError, pickWhileLoading, requireApi, withReadProgress, type CommandDeps } from './common';
import { notify } from '../notify';
import { ClientCommands } from '../../../protocol/messages';
import { userData, userText } from '../userText';

const QuoteArgsSchema = z.object({
  input_token: z.string(),
  output_token: z.string(),
  amount_in: z.string().regex(/^\d+$/),
  slippage_tolerance: z.number().optional(),
});

interface RouteItem extends vscode.QuickPickItem {
  route?: Route;
  all?: Route[];
  /** Core swap API routes: export the best route's getSwapParams call, or hand it to the wallet. */
  action?: 'export' | 'wallet';
}

/** The core swap API's answer kept for the export: the client, and each route's quote beside its Route. */
interface CoreQuotes {
  best: Route;
  all: Route[];
  bestQuote: RouteQuote;
  core: CoreSwapClient;
}

/** `store`: where the tx-hex export remembers the signer's public key (globalState). */
type QuoteDeps = CommandDeps & { store: KeyValueStore };

/** Runs the quote flow; `args` comes from a swap code lens (validated). */
export async function getQuote(deps: QuoteDeps, args?: unknown): Promise<void> {
  const api = await requireApi(deps);
  if (!api) return;
  // Read while the first picker is already open (it shows its own progress until the list is in).
  const tokens = api.tokens();
  tokens.catch(() => undefined);
  const fromLens = QuoteArgsSchema.safeParse(args);
  let input: string, output: string, amount: bigint;
  let slippage = deps.engine.currentSettings.slippageTolerance ?? DEFAULT_SLIPPAGE;
  if (fromLens.success) {
    input = fromLens.data.input_token;
    output = fromLens.data.output_token;
    amount = BigInt(fromLens.data.amount_in);
    slippage = fromLens.data.slippage_tolerance ?? slippage;
  } else {
    let picked: Awaited<ReturnType<typeof pickRequest>>;
    try {
      picked = await pickRequest(tokens);
    } catch (e) {
      void notify.error(`DLMM: could not read the token list: ${describeError(e)}`);
      return;
    }
    if (!picked) return;
    ({ input, output, amount } = picked);
    const source = await vscode.window.showQuickPick(
      [
        { label: 'Quote engine', description: 'POST /quotes/v2/quote (default)', id: 'engine' as const },
        {
          label: 'Core swap API',
          description: "the client library's operations (getQuoteForRoute)",
          id: 'core' as const,
        },
      ],
      { title: 'DLMM Get Quote: quote with', ignoreFocusOut: true },
    );
    if (!source) return;
    if (source.id === 'core') {
      const routes = await coreRoutes(deps, { input, output, amount, slippage });
      if (!routes) return;
      try {
        await showRoutes(deps, api, tokens, { input, output, amount, slippage }, routes);
      } finally {
        await routes.core.close();
      }
      return;
    }
  }
  await showRoutes(deps, api, tokens, { input, output, amount, slippage });
}

/**
 * The core swap API's routes for the request, in the quote engine's Route shape: hosts from the simulator
 * environment (its /core and /node), else BITFLOW_API_HOST and READONLY_CALL_API_HOST (or dlmm.nodeUrl)
 * from the environment the editor runs in; keys only from the environment. Undefined after telling why.
 */
async function coreRoutes(
  deps: CommandDeps,
  req: { input: string; output: string; amount: bigint; slippage: number },
): Promise<CoreQuotes | undefined> {
  const s = deps.engine.currentSettings;
  const hosts: { apiHost?: string; readOnlyHost?: string } = {};
  if (s.environment === 'simulator' && s.apiUrl) {
    hosts.apiHost = s.apiUrl.replace(/\/api\/?$/, '/core');
    if (s.nodeUrl) hosts.readOnlyHost = s.nodeUrl;
  } else if (!process.env.READONLY_CALL_API_HOST && s.nodeUrl) hosts.readOnlyHost = s.nodeUrl;
  let core: CoreSwapClient;
  try {
    core = createCoreSwapClient(hosts, process.env);
  } catch (e) {
    void notify.error(
      `DLMM: the core swap API is not configured (${describeError(e)}). Use the simulator environment, or set BITFLOW_API_HOST and READONLY_CALL_API_HOST in the environment VS Code starts with.`,
    );
    return undefined;
  }
  let keep = false;
  try {
    const coreTokens = await core.getAvailableTokens();
    const idOf = (c: string) => coreTokens.find((t) => t.contract === c)?.tokenId;
    const x = idOf(req.input);
    const y = idOf(req.output);
    if (!x || !y) {
      void notify.error('DLMM: the core swap API does not list these tokens.');
      return undefined;
    }
    const q = await withReadProgress('DLMM: quoting with the core swap API…', () =>
      core.getQuoteForRoute(x, y, req.amount),
    );
    for (const r of q.allRoutes.filter((r) => r.error))
      deps.log(`core route ${r.route.tokenPath.join(' -> ')} not quoted: ${r.error}`);
    const all = q.allRoutes
      .filter((r) => !r.error && r.amountOut > 0n)
      .map((r) => coreQuoteToRoute(r, req.input, req.output, req.slippage));
    if (!q.bestRoute || all.length === 0) {
      void notify.error('DLMM: the core swap API has no quoted route for this swap.');
      return undefined;
    }
    keep = true;
    return {
      best: coreQuoteToRoute(q.bestRoute, req.input, req.output, req.slippage),
      all,
      bestQuote: q.bestRoute,
      core,
    };
  } catch (e) {
    void notify.error(`DLMM: the core swap API could not be read: ${describeError(e)}`);
    return undefined;
  } finally {
    // The client stays open while the routes are shown (the export calls getSwapParams on it).
    if (!keep) await core.close();
  }
}

async function pickRequest(
  tokensP: Promise<Token[]>,
): Promise<{ input: string; output: string; amount: bigint } | undefined> {
  const itemsOf = (tokens: Token[]) =>
    tokens.map((t) => ({
      label: t.symbol,
      description: t.contract_address,
      detail: `${t.decimals} decimals`,
      token: t,
    }));
  const from = await pickWhileLoading(
    {
      title: 'DLMM Get Quote (1/3): token to sell',
      loadingPlaceholder: 'Reading the token list…',
      placeholder: 'input token',
      matchOnDescription: true,
    },
    async () => ({ items: itemsOf(await tokensP) }),
  );
  const items = itemsOf(await tokensP);
  if (!from) return undefined;
  const to = await vscode.window.showQuickPick(
    items.filter((i) => i.token.contract_address !== from.token.contract_address),
    {
      title: 'DLMM Get Quote (2/3): token to buy',
      placeHolder: 'output token',
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  if (!to) return undefined;
  const decimals = from.token.decimals;
  const text = await vscode.window.showInputBox({
    title: `DLMM Get Quote (3/3): amount of ${from.token.symbol}`,
    prompt: `Amount of ${from.token.symbol} to sell, in ${from.token.symbol} (not base units; ${decimals} decimals)`,
    placeHolder: decimals > 0 ? `e.g. 0.${'0'.repeat(Math.max(0, Math.min(decimals, 4) - 1))}1` : 'e.g. 100',
    ignoreFocusOut: true,
    validateInput: (v) => {
      const n = parseUnits(v, decimals);
      if (n === undefined)
        return `Expected a plain decimal with at most ${decimals} fraction digits, e.g. 0.5`;
      if (n === 0n) return 'The amount must be greater than 0';
      return undefined;
    },
  });
  if (text === undefined) return undefined;
  const amount = parseUnits(text, decimals);
  if (amount === undefined || amount === 0n) return undefined;
  return { input: from.token.contract_address, output: to.token.contract_address, amount };
}

async function showRoutes(
  deps: QuoteDeps,
  api: DlmmApi,
  tokensP: Promise<Token[]>,
  req: { input: string; output: string; amount: bigint; slippage: number },
  fromCore?: CoreQuotes,
): Promise<void> {
  const body = {
    input_token: req.input,
    output_token: req.output,
    amount_in: req.amount,
    amm_strategy: 'best',
    slippage_tolerance: req.slippage,
  };
  // The pools list names each route's pools (pair, bin step, alias); without it the ids are shown.
  const poolsP = Promise.all([api.pools(), api.v1Pools().catch(() => undefined)])
    .then(([pools, v1]) => withAliases(pools, v1))
    .catch(() => [] as Pool[]);
  let shown:
    | { best: Route; all: Route[]; bestCheck: QuoteCheck | undefined; checks: (QuoteCheck | undefined)[] }
    | undefined;
  const load = async (): Promise<{ items: RouteItem[]; title: string }> => {
    const tokens = await tokensP.catch((e: unknown) => {
      throw new ReadFailure('could not read the token list', e);
    });
    let best: Route;
    let all: Route[] = [];
    try {
      [best, all] = fromCore
        ? [fromCore.best, fromCore.all]
        : await Promise.all([api.quote(body), api.quoteMulti(body).catch(() => [] as Route[])]);
    } catch (e) {
      throw new ReadFailure('no quote for this swap', e);
    }
    if (all.length === 0) all = [best];
    // Every route recomputed exactly from the bins read: input used, fill, disagreement with the engine.
    const [[bestCheck, ...checks], pools] = await Promise.all([
      Promise.all([best, ...all].map((r) => checkRouteLive(api, r, req.amount))),
      poolsP,
    ]);
    shown = { best, all, bestCheck, checks };
    const inTok = tokens.find((t) => t.contract_address === req.input);
    const outTok = tokens.find((t) => t.contract_address === req.output);
    const title = `DLMM quote: ${inTok ? `${formatUnits(req.amount, inTok.decimals)} ${inTok.symbol}` : req.amount} → ${outTok?.symbol ?? req.output}`;
    const b = describeRoute(best, tokens, bestCheck);
    deps.log(`quote ${title}: best ${b.label} ${b.detail}; ${all.length} route(s)`);
    for (const line of b.lines) deps.log(`  ${line}`);
    if (bestCheck && !bestCheck.complete) void notify.warn(`DLMM: partial fill. ${b.lines[0] ?? ''}`);
    // Routes by their pools' names (pair, bin step, alias), amounts beside, contract ids last. The best
    // route is marked where it appears in the list, not repeated above it.
    const bestIndex = all.findIndex((r) => sameRoute(r, best));
    const routeItem = (r: Route, check: QuoteCheck | undefined, n: number | undefined): RouteItem => {
      const d = describeRoute(r, tokens, check);
      const mark =
        n === undefined || n === bestIndex
          ? check?.complete === false
            ? '$(warning) Best: '
            : '$(star-full) Best: '
          : '';
      return {
        label: userText(`${mark}${n !== undefined ? `${n + 1}. ` : ''}${routePoolsLabel(r, pools, tokens)}`),
        description: userText(d.label),
        detail: userText(`${d.detail}; bins crossed ${routeBinsText(routeBins(r.hops))}`),
        route: r,
      };
    };
    const items: RouteItem[] = [
      // A separator only under a best route the list does not hold (its label would take the first
      // row's room, truncating the amounts).
      ...(bestIndex < 0
        ? [
            routeItem(best, bestCheck, undefined),
            { label: `All routes (${all.length})`, kind: vscode.QuickPickItemKind.Separator },
          ]
        : []),
      ...all.map((r, i) => routeItem(r, checks[i], i)),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(copy) Copy all routes as JSON', all },
      ...(fromCore
        ? [
            {
              label: '$(export) Export unsigned transaction',
              detail:
                "The best route's getSwapParams call, checked on the bins read; refused for a partial fill or a quote mismatch. Nothing is signed or sent.",
              action: 'export' as const,
            },
            {
              label: '$(link-external) Send to Wallet',
              detail:
                'The same checked transaction, handed to your own wallet through a one-time local page.',
              action: 'wallet' as const,
            },
          ]
        : []),
    ];
    return { items, title: userText(title) };
  };
  let chosen: RouteItem | undefined;
  try {
    // The picker opens at once and shows its own progress while the quote is read and checked: no
    // notification that could outlive the read.
    chosen = await pickWhileLoading(
      {
        title: 'DLMM quote',
        loadingPlaceholder: 'Quoting, then checking every route on the bins read…',
        placeholder: 'Select a route to copy it as JSON',
      },
      load,
    );
  } catch (e) {
    const what = e instanceof ReadFailure ? e.what : 'the quote could not be checked';
    void notify.error(`DLMM: ${what}: ${describeError(e instanceof ReadFailure ? e.cause : e)}`);
    return;
  }
  if (!chosen || !shown) return;
  const { best, all, bestCheck, checks } = shown;
  if (chosen.action && fromCore && bestCheck) {
    await exportCore(deps, api, fromCore, bestCheck, req.slippage, chosen.action);
    return;
  }
  const checkOf = (r: Route | undefined) => (r === best ? bestCheck : checks[all.indexOf(r as Route)]);
  const json = chosen.all
    ? stringifyJsonExact({ best, best_check: bestCheck, routes: chosen.all, checks }, 2)
    : stringifyJsonExact({ route: chosen.route, check: checkOf(chosen.route) }, 2);
  await vscode.env.clipboard.writeText(userData(json));
  void notify.info(
    chosen.all ? `DLMM: copied ${chosen.all.length} route(s) as JSON.` : 'DLMM: copied the route as JSON.',
  );
}

/** A read that failed, with what the user asked for in words. */
class ReadFailure extends Error {
  constructor(
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(what);
  }
}

/**
 * "Export unsigned transaction" / "Send to Wallet" for a core swap API route: getSwapParams, checked and built
 * by core/tx/coreSwapExport.ts exactly as `dlmm quote --source core --export` does, rendered by the plan exports'
 * renderer, or handed to Send to Wallet. A refusal is shown and nothing is written.
 */
async function exportCore(
  deps: QuoteDeps,
  api: DlmmApi,
  q: CoreQuotes,
  check: QuoteCheck,
  slippagePercent: number,
  action: 'export' | 'wallet',
): Promise<void> {
  const configured = vscode.workspace.getConfiguration('dlmm').get<string>('dashboard.sender')?.trim();
  const sender = await vscode.window.showInputBox({
    title: 'DLMM: the account that signs the swap',
    prompt: 'A Stacks address (SP…/ST…); the post-conditions name it. No key is asked for.',
    ...(configured ? { value: configured } : {}),
    ignoreFocusOut: true,
    validateInput: (v) =>
      zPrincipal.safeParse(v.trim()).success && !v.includes('.')
        ? undefined
        : 'Expected a standard Stacks address, e.g. SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR',
  });
  if (sender === undefined) return;
  const slippagePpm = percentToPpm(String(slippagePercent));
  if (slippagePpm === undefined) {
    void notify.error(`DLMM: slippage ${slippagePercent}% is not a percent the export can state.`);
    return;
  }
  const outcome = await withReadProgress('DLMM: checking the swap transaction on the bins read…', () =>
    coreSwapExport({
      core: q.core,
      api,
      quote: q.bestQuote,
      check,
      sender: sender.trim(),
      slippagePpm,
      routers: routersForExport(undefined, deps.log),
    }),
  );
  if (!outcome.ok) {
    deps.log(`core swap export refused: ${outcome.error.code}: ${outcome.error.message}`);
    void notify.error(`DLMM: not exported (${outcome.error.code}): ${outcome.error.message}`);
    return;
  }
  const txs: BuiltTransaction[] = outcome.transactions;
  if (action === 'wallet') {
    await vscode.commands.executeCommand(ClientCommands.sendToWallet, {
      transactions: txs,
      sender: sender.trim(),
      name: 'core-swap',
    });
    return;
  }
  const pick = await pickExportFormat('the core swap');
  if (!pick) return;
  let signing: SigningParams | undefined;
  if (pick.format === 'tx-hex') {
    signing = await askSigningFor(deps.store, sender.trim(), networkOfPrincipal(sender.trim()));
    if (!signing) return;
  }
  const rendered = await renderExport(txs, pick.format, signing, 'core swap: 1 unsigned transaction');
  await showUnsaved(userData(rendered.body), pick.format);
  const choice = await notify.info(
    'DLMM: 1 unsigned transaction exported (core swap API route, checked on the bins read). Nothing was signed or sent.',
    'Copy wallet request',
  );
  if (choice === 'Copy wallet request') await vscode.env.clipboard.writeText(rendered.walletRequest);
}

/** Two routes through the same pools in the same direction (the best route as it appears in the list). */
function sameRoute(a: Route, b: Route): boolean {
  return (
    a.hops.length === b.hops.length &&
    a.hops.every((h, i) => h.pool_id === b.hops[i]?.pool_id && h.x_for_y === b.hops[i]?.x_for_y)
  );
}
