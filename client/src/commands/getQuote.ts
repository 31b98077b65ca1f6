/**
 * "DLMM: Get Quote": pick tokens from the engine's token list, type an amount in human units, see the best
 * route and all routes, copy one (or all) as JSON. A swap lens passes its operation to skip the pickers.
 */
import * as vscode from 'vscode';
import { z } from 'zod';
import { stringifyJsonExact } from '../../../core/api/json';
import type { DlmmApi, Route, Token } from '../../../core/api/types';
import { formatUnits, parseUnits } from '../../../core/dlmm/bins';
import { checkRouteLive } from '../../../core/quote/exact';
import { coreQuoteToRoute, createCoreSwapClient, type CoreSwapClient } from '../../../core/api/coreSwap';
import { describeRoute } from '../../../server/src/features/format';
import { describeError, requireApi, withReadProgress, type CommandDeps } from './common';
import { notify } from '../notify';
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
}

/** Runs the quote flow; `args` comes from a swap code lens (validated). */
export async function getQuote(deps: CommandDeps, args?: unknown): Promise<void> {
  const api = await requireApi(deps);
  if (!api) return;
  let tokens: Token[];
  try {
    tokens = await withReadProgress('DLMM: reading the token list…', () => api.tokens());
  } catch (e) {
    void notify.error(`DLMM: could not read the token list: ${describeError(e)}`);
    return;
  }
  const fromLens = QuoteArgsSchema.safeParse(args);
  let input: string, output: string, amount: bigint;
  let slippage = deps.engine.currentSettings.slippageTolerance ?? 1;
  if (fromLens.success) {
    input = fromLens.data.input_token;
    output = fromLens.data.output_token;
    amount = BigInt(fromLens.data.amount_in);
    slippage = fromLens.data.slippage_tolerance ?? slippage;
  } else {
    const picked = await pickRequest(tokens);
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
      await showRoutes(deps, api, tokens, { input, output, amount, slippage }, routes);
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
): Promise<{ best: Route; all: Route[] } | undefined> {
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
    return { best: coreQuoteToRoute(q.bestRoute, req.input, req.output, req.slippage), all };
  } catch (e) {
    void notify.error(`DLMM: the core swap API could not be read: ${describeError(e)}`);
    return undefined;
  } finally {
    await core.close();
  }
}

async function pickRequest(
  tokens: Token[],
): Promise<{ input: string; output: string; amount: bigint } | undefined> {
  const items = tokens.map((t) => ({
    label: t.symbol,
    description: t.contract_address,
    detail: `${t.decimals} decimals`,
    token: t,
  }));
  const from = await vscode.window.showQuickPick(items, {
    title: 'DLMM Get Quote (1/3): token to sell',
    placeHolder: 'input token',
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
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
  deps: CommandDeps,
  api: DlmmApi,
  tokens: Token[],
  req: { input: string; output: string; amount: bigint; slippage: number },
  fromCore?: { best: Route; all: Route[] },
): Promise<void> {
  const body = {
    input_token: req.input,
    output_token: req.output,
    amount_in: req.amount,
    amm_strategy: 'best',
    slippage_tolerance: req.slippage,
  };
  let best: Route;
  let all: Route[] = [];
  try {
    [best, all] = fromCore
      ? [fromCore.best, fromCore.all]
      : await withReadProgress('DLMM: quoting…', () =>
          Promise.all([api.quote(body), api.quoteMulti(body).catch(() => [] as Route[])]),
        );
  } catch (e) {
    void notify.error(`DLMM: no quote for this swap: ${describeError(e)}`);
    return;
  }
  if (all.length === 0) all = [best];
  // Every route recomputed exactly from the bins read: input used, fill, disagreement with the engine.
  const [bestCheck, ...checks] = await withReadProgress('DLMM: checking the quote on the bins…', () =>
    Promise.all([best, ...all].map((r) => checkRouteLive(api, r, req.amount))),
  );
  const inTok = tokens.find((t) => t.contract_address === req.input);
  const outTok = tokens.find((t) => t.contract_address === req.output);
  const title = `DLMM quote: ${inTok ? `${formatUnits(req.amount, inTok.decimals)} ${inTok.symbol}` : req.amount} → ${outTok?.symbol ?? req.output}`;
  const b = describeRoute(best, tokens, bestCheck);
  deps.log(`quote ${title}: best ${b.label} ${b.detail}; ${all.length} route(s)`);
  for (const line of b.lines) deps.log(`  ${line}`);
  if (bestCheck && !bestCheck.complete) void notify.warn(`DLMM: partial fill. ${b.lines[0] ?? ''}`);
  const items: RouteItem[] = [
    {
      label: userText(`${bestCheck?.complete === false ? '$(warning)' : '$(star-full)'} Best: ${b.label}`),
      detail: userText(b.detail),
      route: best,
    },
    { label: 'All routes', kind: vscode.QuickPickItemKind.Separator },
    ...all.map((r, i) => {
      const d = describeRoute(r, tokens, checks[i]);
      return { label: userText(`${i + 1}. ${d.label}`), detail: userText(d.detail), route: r };
    }),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(copy) Copy all routes as JSON', all },
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    title: userText(title),
    placeHolder: 'Select a route to copy it as JSON',
    ignoreFocusOut: true,
  });
  if (!chosen) return;
  const checkOf = (r: Route | undefined) => (r === best ? bestCheck : checks[all.indexOf(r as Route)]);
  const json = chosen.all
    ? stringifyJsonExact({ best, best_check: bestCheck, routes: chosen.all, checks }, 2)
    : stringifyJsonExact({ route: chosen.route, check: checkOf(chosen.route) }, 2);
  await vscode.env.clipboard.writeText(userData(json));
  void notify.info(
    chosen.all ? `DLMM: copied ${chosen.all.length} route(s) as JSON.` : 'DLMM: copied the route as JSON.',
  );
}
