/**
 * `dlmm quote --in TOKEN --out TOKEN --amount N [--multi] [--slippage P] [--format text|json]`.
 * Tokens by contract id or symbol (from /quotes/v2/tokens); the amount in human units of the input token,
 * parsed exactly; prints the best route (every route with --multi) with the minimum received at the
 * slippage. Every route is recomputed exactly from the bins read (core/quote/exact.ts): the input used,
 * whether it fills the whole amount, and any disagreement with the engine's figure are printed.
 * Exit 0 with a route that fills the whole amount, 1 when there is none or only a partial fill; 2 on usage
 * errors (an unknown token included, like a bad amount) or read errors.
 */
import { isApiError, isCancelled } from '../../../core/api/errors';
import { aliasesByPrincipal } from '../../../core/api/aliases';
import type { DlmmApi, Pool, Route, Token, V1Pool } from '../../../core/api/types';
import { formatUnits, MAX_UINT128, parseUnits } from '../../../core/dlmm/bins';
import { DEFAULT_SLIPPAGE, slippagePlausible, slippageToPpm } from '../../../core/dlmm/bounds';
import { checkRoute, checkRouteLive, quoteMinReceived, type QuoteCheck } from '../../../core/quote/exact';
import { routeBins, routeBinsText, type RouteBins } from '../../../core/quote/routeBins';
import type { CoreSwapClient, RouteQuote } from '../../../core/api/coreClient';
import type { ExportFormat, SigningParams } from '../../../core/tx/formats';
import { CORE_OPTIONS, resolveCoreToken, withCoreApi } from '../coreApi';
import { jsonOutput, parseCommand, parseFormat, requireOption, withApi } from '../common';
import { checkSenderOption } from '../sender';

/*
 * A quote starts only what it needs: the core swap API's client (and its zod schemas) is loaded by
 * --source core, and the export (core/tx, @stacks/transactions, the writer, DLMM_ROUTERS) by --export. In a
 * bundle each require below runs its modules when first called, not at start (docs/cli.md, Startup).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const coreClient = (): typeof import('../../../core/api/coreClient') =>
  require('../../../core/api/coreClient');
const exporting = (): typeof import('../exportWrite') &
  typeof import('../../../core/tx/formats') &
  typeof import('../../../core/tx/coreSwapExport') &
  typeof import('../routers') => ({
  ...(require('../exportWrite') as typeof import('../exportWrite')),
  ...(require('../../../core/tx/formats') as typeof import('../../../core/tx/formats')),
  ...(require('../../../core/tx/coreSwapExport') as typeof import('../../../core/tx/coreSwapExport')),
  ...(require('../routers') as typeof import('../routers')),
});
/* eslint-enable @typescript-eslint/no-require-imports */
import { UsageError, type CliIO } from '../io';

export const OPTIONS = {
  in: { type: 'string' },
  out: { type: 'string' },
  amount: { type: 'string' },
  multi: { type: 'boolean' },
  slippage: { type: 'string' },
  source: { type: 'string' },
  ...CORE_OPTIONS,
  sender: { type: 'string' },
  export: { type: 'string' },
  'export-format': { type: 'string' },
  'public-key': { type: 'string' },
  nonce: { type: 'string' },
  fee: { type: 'string' },
} as const;

/** One route as printed: exact integers plus their human forms, from the exact recomputation. */
interface RouteView {
  path: Array<{ pool_id: string; pool_alias: string | null; input_token: string; output_token: string }>;
  check: QuoteCheck;
  min_received: bigint;
  /** Bins used and crossed (core/quote/routeBins.ts); undefined without per-bin steps. */
  bins: RouteBins | undefined;
  /** The core swap API's quote the view was made from (--source core). */
  core?: RouteQuote;
  /** The engine's amount_out as it answered (a decimal: it keeps its fraction). */
  engine_amount_out_text: string;
  /** /quote/multi: the engine's 1-based route_index. */
  route_index: number | null;
}

/** What was asked, as every output states it: the two tokens, the exact input, the slippage as written. */
interface Ask {
  tokenIn: Token;
  tokenOut: Token;
  amountIn: bigint;
  slippage: string;
}

/** `--export FILE`: getSwapParams for the best route, written with the plan exports' writer. */
interface ExportRequest {
  file: string;
  sender: string;
  format: ExportFormat;
  signing: SigningParams | undefined;
}

/** Runs `dlmm quote`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  const inText = requireOption(values.in, '--in TOKEN (contract id or symbol)');
  const outText = requireOption(values.out, '--out TOKEN (contract id or symbol)');
  const amountText = requireOption(values.amount, '--amount N (in units of the input token, e.g. 0.5)');
  if (amountText.startsWith('-'))
    throw new UsageError(
      `--amount must be positive (an amount of the input token to sell), got '${amountText}'`,
    );
  const slippageText =
    typeof values.slippage === 'string' ? values.slippage.trim() : String(DEFAULT_SLIPPAGE);
  const slippagePpm = slippageToPpm(slippageText);
  if (slippagePpm === undefined) {
    throw new UsageError(
      `--slippage expects a percent from 0 to below 100 (1 means 1%; 100 would accept receiving nothing), got '${slippageText}'`,
    );
  }
  // The plausibility band of the plan rule slippage-unit (core/dlmm/bounds.ts), 0 included as there.
  if (!slippagePlausible(slippagePpm)) {
    io.err(
      `dlmm quote: warning: --slippage ${slippageText} means ${slippageText}% (the engine's unit: 1 means 1%); ` +
        'a fraction such as 0.01 for 1% is the library style, not this one\n',
    );
  }

  const source = typeof values.source === 'string' ? values.source : 'engine';
  if (source !== 'engine' && source !== 'core')
    throw new UsageError(
      `--source expects engine (the quote engine) or core (the core swap API), got '${source}'`,
    );
  const exportRequest = parseExportRequest(values, source);
  if (exportRequest) exporting().refuseOutputOverInput(exportRequest.file, [], io, '--export');
  if (source === 'core') {
    const ctx = {
      format,
      inText,
      outText,
      amountText,
      slippageText,
      slippagePpm,
      exportRequest,
      argv: args,
    };
    return withCoreApi(common, values['core-api'] as string | undefined, io, (core, api) =>
      quoteFromCore(core, api, io, ctx),
    );
  }

  return withApi(
    common,
    io,
    async (api) => {
      // The applied state height first: what the engine answered at that height before (tokens, pools, bin
      // lists, kept on disk by earlier commands) is read from there, so a warm quote asks for the quote alone
      // beside this status. A status that cannot be read only means nothing is reused.
      await api.status().catch((e: unknown) => {
        if (isCancelled(e)) throw e;
      });
      const tokens = await api.tokens();
      const tokenIn = resolveToken(tokens, inText, '--in');
      const tokenOut = resolveToken(tokens, outText, '--out');
      // A token the engine does not list is a bad argument value (exit 2), like a bad amount.
      if (typeof tokenIn === 'string') throw new UsageError(tokenIn);
      if (typeof tokenOut === 'string') throw new UsageError(tokenOut);
      if (tokenIn.contract_address === tokenOut.contract_address) {
        throw new UsageError('--in and --out name the same token');
      }
      const amountIn = parseAmount(amountText, tokenIn);
      const ask: Ask = { tokenIn, tokenOut, amountIn, slippage: slippageText };
      const request = {
        input_token: tokenIn.contract_address,
        output_token: tokenOut.contract_address,
        amount_in: amountIn,
        slippage_tolerance: Number(slippageText),
      };
      // The pools list (aliases, fees for the exact check) is read beside the quote, not after its answer.
      const poolsRead = api.pools().catch(() => undefined);
      // The v2 pool record names no alias: the v1 pools list pairs each alias with its principal (display only).
      const aliasesRead = api.v1Pools().catch(() => undefined);
      let routes: Route[];
      try {
        routes = values.multi === true ? await api.quoteMulti(request) : [await api.quote(request)];
      } catch (e) {
        if (isApiError(e) && e.code === 'no-route') routes = [];
        else throw e;
      }
      if (routes.length === 0) {
        io.err(
          `dlmm quote: no route from ${tokenIn.symbol} to ${tokenOut.symbol} for ${amountText} ${tokenIn.symbol}\n`,
        );
        if (format === 'json') io.out(renderJson(ask, []));
        return 1;
      }
      const pools = await poolsRead;
      const aliases = poolAliases(pools, await aliasesRead);
      const checks = await Promise.all(
        routes.map((r) => checkRouteLive(api, r, amountIn, pools ? { pools } : {})),
      );
      const views = routes.map((r, i) => viewOf(r, checks[i] as QuoteCheck, slippagePpm, aliases));
      sortViews(views);
      io.out(format === 'json' ? renderJson(ask, views) : renderText(tokens, ask, views));
      return views[0]?.check.complete ? 0 : 1;
    },
    // One status read for the whole command: its reads belong to the height it read first, however long the
    // process takes (a loaded machine made the default 250 ms reuse read it again mid-quote).
    { statusTtlMs: 60_000 },
  );
}

/**
 * `--source core`: every route of the core swap API quoted through its read-only call (getQuoteForRoute),
 * then recomputed exactly from the bins read through the quote engine when one is configured.
 */
async function quoteFromCore(
  core: CoreSwapClient,
  api: DlmmApi | undefined,
  io: CliIO,
  c: {
    format: 'text' | 'json';
    inText: string;
    outText: string;
    amountText: string;
    slippageText: string;
    slippagePpm: bigint;
    exportRequest: ExportRequest | undefined;
    argv: string[];
  },
): Promise<number> {
  const coreTokens = await core.getAvailableTokens();
  const from = resolveCoreToken(coreTokens, c.inText, '--in');
  const to = resolveCoreToken(coreTokens, c.outText, '--out');
  if (from.tokenId === to.tokenId) throw new UsageError('--in and --out name the same token');
  if (!from.contract || !to.contract)
    throw new UsageError('the core swap API gives no contract for this token');
  const asToken = (t: typeof from): Token => ({
    contract_address: t.contract as string,
    symbol: t.symbol,
    decimals: t.decimals,
    asset_name: t.assetName,
  });
  const tokenIn = asToken(from);
  const tokenOut = asToken(to);
  const amountIn = parseAmount(c.amountText, tokenIn);
  const ask: Ask = { tokenIn, tokenOut, amountIn, slippage: c.slippageText };
  const q = await core.getQuoteForRoute(from.tokenId, to.tokenId, amountIn);
  const quoted = q.allRoutes.filter((r) => !r.error && r.amountOut > 0n);
  for (const r of q.allRoutes.filter((x) => x.error))
    io.err(`dlmm quote: route ${r.route.tokenPath.join(' -> ')} not quoted: ${r.error}
`);
  if (quoted.length === 0) {
    io.err(`dlmm quote: the core swap API has no quoted route from ${from.symbol} to ${to.symbol}
`);
    if (c.format === 'json') io.out(renderJson(ask, []));
    return 1;
  }
  // The same Route shape as the engine's, so the exact check and the views are one code path.
  const { coreQuoteToRoute } = coreClient();
  const routes: Route[] = quoted.map((r) =>
    coreQuoteToRoute(r, tokenIn.contract_address, tokenOut.contract_address, Number(c.slippageText)),
  );
  const checks = await Promise.all(
    routes.map((r) =>
      api
        ? checkRouteLive(api, r, amountIn)
        : Promise.resolve(checkRoute(r, amountIn, { pool: () => undefined, bins: () => undefined })),
    ),
  );
  const views = routes.map((r, i) => ({
    ...viewOf(r, checks[i] as QuoteCheck, c.slippagePpm, new Map()),
    core: quoted[i] as RouteQuote,
  }));
  sortViews(views);
  io.out(
    c.format === 'json'
      ? renderJson(ask, views)
      : renderText(coreTokens.map(asToken), ask, views, 'core swap API'),
  );
  if (c.exportRequest)
    return exportCoreSwap(core, api, io, views[0]!, c.slippagePpm, c.exportRequest, c.argv);
  return views[0]?.check.complete ? 0 : 1;
}

/** --export / --export-format / --sender and the signing flags, checked before anything is read. */
function parseExportRequest(values: Record<string, unknown>, source: string): ExportRequest | undefined {
  const file = values.export;
  if (typeof file !== 'string') {
    for (const flag of ['export-format', 'public-key', 'nonce', 'fee'])
      if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --export FILE`);
    return undefined;
  }
  if (source !== 'core')
    throw new UsageError(
      "--export writes the core swap API's getSwapParams transaction: use it with --source core (a plan's swap is exported with dlmm export)",
    );
  if (file.trim() === '') throw new UsageError('--export expects a file name');
  const sender = typeof values.sender === 'string' ? values.sender.trim() : '';
  if (!sender)
    throw new UsageError(
      '--export needs --sender ADDRESS (the account that signs; its post-conditions name it)',
    );
  checkSenderOption(sender);
  const { EXPORT_FORMATS, signingParams } = exporting();
  const formatText = typeof values['export-format'] === 'string' ? values['export-format'] : 'summary';
  if (!(EXPORT_FORMATS as readonly string[]).includes(formatText))
    throw new UsageError(`--export-format expects one of ${EXPORT_FORMATS.join(', ')}, got '${formatText}'`);
  const format = formatText as ExportFormat;
  return { file, sender, format, signing: signingParams(values, format) };
}

/**
 * getSwapParams for the best route, checked (exact recomputation, fill, agreement within the slippage band,
 * execution on the chain model on the state read) and written with the plan exports' writer. Exit 0
 * written; 1 refused (nothing written, the reason on stderr); 2 usage or the file could not be written.
 */
async function exportCoreSwap(
  core: CoreSwapClient,
  api: DlmmApi | undefined,
  io: CliIO,
  best: RouteView,
  slippagePpm: bigint,
  req: ExportRequest,
  argv: string[],
): Promise<number> {
  if (!api)
    throw new UsageError(
      '--export checks the transaction on the pool state read through the quote engine: give --api URL (or DLMM_API_URL) or use --sim',
    );
  if (!best.core) throw new UsageError('--export: the best route did not come from the core swap API');
  const { coreSwapExport, loadRouterOverrides, writeExport } = exporting();
  const outcome = await coreSwapExport({
    core,
    api,
    quote: best.core,
    check: best.check,
    sender: req.sender,
    slippagePpm,
    routers: await loadRouterOverrides(io),
  });
  if (!outcome.ok) {
    io.err(`dlmm quote: not exported: ${outcome.error.code}: ${outcome.error.message}\n`);
    return 1;
  }
  return writeExport(
    outcome.transactions,
    req.format,
    req.signing,
    req.file,
    io,
    argv,
    'dlmm quote',
    '--export',
  );
}

/** Complete routes first, then the larger exact output (a partial fill never outranks a full one). */
function sortViews(views: RouteView[]): void {
  views.sort(
    (a, b) =>
      Number(b.check.complete) - Number(a.check.complete) ||
      (b.check.amount_out > a.check.amount_out ? 1 : b.check.amount_out < a.check.amount_out ? -1 : 0),
  );
}

/** A token by exact contract id, else by symbol (case-insensitive); a string is the reason it failed. */
export function resolveToken(tokens: Token[], text: string, flag: string): Token | string {
  const byContract = tokens.find((t) => t.contract_address === text);
  if (byContract) return byContract;
  const bySymbol = tokens.filter((t) => t.symbol.toLowerCase() === text.toLowerCase());
  if (bySymbol.length === 1) return bySymbol[0] as Token;
  if (bySymbol.length > 1) {
    throw new UsageError(
      `${flag} '${text}' matches ${bySymbol.length} tokens (${bySymbol.map((t) => t.contract_address).join(', ')}); ` +
        'give the contract id',
    );
  }
  const known = tokens.map((t) => t.symbol).join(', ');
  return `${flag} '${text}' is not a token of /quotes/v2/tokens (known: ${known || 'none'}); give a symbol or a contract id`;
}

/** Human amount to base units, exactly; more decimals than the token has is a usage error. */
export function parseAmount(text: string, token: Token): bigint {
  const amount = parseUnits(text, token.decimals);
  if (amount === undefined) {
    const frac = /\.(\d+)$/.exec(text.trim())?.[1];
    if (frac && /^\d*\.\d+$/.test(text.trim()) && frac.length > token.decimals) {
      throw new UsageError(
        `--amount ${text} has ${frac.length} decimals but ${token.symbol} has ${token.decimals}; ` +
          `the smallest unit is ${formatUnits(1n, token.decimals)}`,
      );
    }
    throw new UsageError(
      `--amount expects a plain decimal number of ${token.symbol} (e.g. 0.5), got '${text}'`,
    );
  }
  if (amount === 0n) throw new UsageError('--amount must be greater than 0');
  if (amount > MAX_UINT128) {
    throw new UsageError(
      `--amount ${text} ${token.symbol} is ${amount} base units, above uint128 (${MAX_UINT128}), the largest amount a contract call can carry`,
    );
  }
  return amount;
}

/**
 * Pool aliases for the output, by principal: from the v1 pools list (`pool_token` -> `pool_id`), or a v2
 * record that names one. They only decorate it: none when neither list could be read.
 */
function poolAliases(pools: Pool[] | undefined, v1: V1Pool[] | undefined): Map<string, string> {
  const out = aliasesByPrincipal(v1);
  for (const p of pools ?? []) if (p.pool_alias) out.set(p.pool_id, p.pool_alias);
  return out;
}

function viewOf(
  route: Route,
  check: QuoteCheck,
  slippagePpm: bigint,
  aliases: Map<string, string>,
): RouteView {
  const hops = route.hops;
  // The one definition of bins used and crossed (core/quote/routeBins.ts); unknown without per-bin steps.
  const bins = routeBins(hops);
  return {
    bins,
    engine_amount_out_text: route.amount_out_text,
    route_index: route.route_index ?? null,
    path: hops.map((h) => ({
      pool_id: h.pool_id,
      pool_alias: h.alias ?? aliases.get(h.pool_id) ?? (/^dlmm_\d+$/.test(h.pool_id) ? h.pool_id : null),
      input_token: h.input_token,
      output_token: h.output_token,
    })),
    check,
    min_received: quoteMinReceived(check, route, slippagePpm),
  };
}

function symbolOf(tokens: Token[], contract: string): string {
  return tokens.find((t) => t.contract_address === contract)?.symbol ?? contract;
}

function impactText(bps: number | null): string {
  if (bps === null) return 'unknown (not reported by the engine)';
  const sign = bps < 0 ? '-' : '';
  const abs = Math.abs(bps);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`;
}

function renderText(tokens: Token[], ask: Ask, views: RouteView[], quoter = 'engine'): string {
  const { tokenIn, tokenOut, amountIn, slippage } = ask;
  const out = (v: bigint) => `${formatUnits(v, tokenOut.decimals)} ${tokenOut.symbol}`;
  // The engine's figure by its digits, fraction kept: "76.06123456 USDCx (76061234.56 base units)".
  const engineOut = (v: RouteView) =>
    `${out(v.check.engine_amount_out)} (${v.engine_amount_out_text} base units as it answered)`;
  const inp = (v: bigint) => `${formatUnits(v, tokenIn.decimals)} ${tokenIn.symbol}`;
  const lines = [`quote: ${inp(amountIn)} -> ${tokenOut.symbol}`];
  views.forEach((v, i) => {
    const path = v.path
      .map(
        (h, j) =>
          `${j === 0 ? symbolOf(tokens, h.input_token) + ' ' : ''}-> ${symbolOf(tokens, h.output_token)} (${h.pool_alias ?? h.pool_id})`,
      )
      .join(' ');
    const c = v.check;
    const index = v.route_index !== null && v.route_index !== i + 1 ? ` [engine route ${v.route_index}]` : '';
    lines.push(`route ${i + 1}${i === 0 ? ' (best)' : ''}${index}: ${path}`);
    if (c.complete) {
      lines.push(`  fill              complete: the whole ${inp(c.amount_in)} is used`);
      lines.push(`  amount out        ${out(c.amount_out)}`);
    } else {
      lines.push(
        `  fill              PARTIAL: only ${inp(c.amount_in_used)} of ${inp(c.amount_in)} finds liquidity`,
      );
      lines.push(`  input used        ${inp(c.amount_in_used)}`);
      lines.push(
        `  amount out        ${out(c.amount_out)} for the ${inp(c.amount_in_used)} used (not for the whole amount)`,
      );
    }
    if (!c.verified)
      lines.push(`  exact check       not recomputed: ${c.unverified_reason}; engine figures shown`);
    else if (c.mismatch)
      lines.push(
        `  exact check       DIFFERS: ${quoter} says ${engineOut(v)}, the bins read give ${out(c.amount_out)} (shown above)`,
      );
    else lines.push(`  exact check       agrees with the ${quoter} (recomputed from the bins read)`);
    lines.push(`  price impact      ${impactText(c.price_impact_bps)}`);
    lines.push(`  bins crossed      ${routeBinsText(v.bins)}`);
    lines.push(`  minimum received  ${out(v.min_received)} at ${slippage}% slippage`);
  });
  return lines.join('\n') + '\n';
}

function renderJson({ tokenIn, tokenOut, amountIn, slippage }: Ask, views: RouteView[]): string {
  const token = (t: Token) => ({ contract: t.contract_address, symbol: t.symbol, decimals: t.decimals });
  // Amounts as exact integer strings (scripts must not read them through a float), human forms beside.
  const doc = {
    input_token: token(tokenIn),
    output_token: token(tokenOut),
    amount_in: amountIn.toString(),
    amount_in_human: formatUnits(amountIn, tokenIn.decimals),
    slippage_tolerance: slippage,
    routes: views.map((v) => ({
      path: v.path,
      hops: v.check.hops,
      amount_in: v.check.amount_in.toString(),
      amount_in_used: v.check.amount_in_used.toString(),
      complete: v.check.complete,
      verified: v.check.verified,
      ...(v.check.verified ? {} : { unverified_reason: v.check.unverified_reason }),
      // The engine's figure as it answered: a decimal string read by its digits (it keeps its fraction).
      ...(v.check.engine_amount_out !== v.check.amount_out
        ? { engine_amount_out: v.engine_amount_out_text }
        : {}),
      route_index: v.route_index,
      amount_out: v.check.amount_out.toString(),
      amount_out_human: formatUnits(v.check.amount_out, tokenOut.decimals),
      min_received: v.min_received.toString(),
      min_received_human: formatUnits(v.min_received, tokenOut.decimals),
      price_impact_bps: v.check.price_impact_bps,
      bins_used: v.bins?.used ?? null,
      bins_crossed: v.bins?.crossed ?? null,
    })),
  };
  return jsonOutput(doc);
}
