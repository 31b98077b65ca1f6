/**
 * `dlmm routes --in TOKEN [--out TOKEN] [--format text|json] [--core-api URL]`: what the core swap API can
 * swap TOKEN into (getAllPossibleTokenY), or the routes to one token (getAllPossibleTokenYRoutes). Tokens
 * by library id, symbol or contract. The request count goes to stderr.
 */
import type { CoreRoute } from '../../../core/api/coreClient';
import { jsonOutput, parseCommand, parseFormat, requireOption } from '../common';
import { CORE_OPTIONS, resolveCoreToken, withCoreApi } from '../coreApi';
import type { CliIO } from '../io';

export const OPTIONS = { ...CORE_OPTIONS, in: { type: 'string' }, out: { type: 'string' } } as const;

function routeJson(r: CoreRoute): Record<string, unknown> {
  return {
    token_path: r.tokenPath,
    dex_path: r.dexPath,
    pools: [r.swapData.parameters['pool-trait']].filter((p) => typeof p === 'string'),
    quote_call: r.quoteData ? `${r.quoteData.contract}::${r.quoteData.function}` : null,
    swap_call: `${r.swapData.contract}::${r.swapData.function}`,
  };
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  const inText = requireOption(values.in, '--in TOKEN (token id, symbol or contract)');
  return withCoreApi(common, values['core-api'] as string | undefined, io, async (core) => {
    const tokens = await core.getAvailableTokens();
    const from = resolveCoreToken(tokens, inText, '--in');
    const swaps = await core.getPossibleSwaps(from.tokenId);
    const sym = (id: string) => tokens.find((t) => t.tokenId === id)?.symbol ?? id;
    let entries = Object.entries(swaps);
    if (typeof values.out === 'string') {
      const to = resolveCoreToken(tokens, values.out, '--out');
      entries = entries.filter(([id]) => id === to.tokenId);
      if (entries.length === 0 || (entries[0]?.[1].length ?? 0) === 0) {
        io.err(`dlmm routes: no route from ${from.symbol} to ${to.symbol}\n`);
        if (format === 'json') io.out(jsonOutput({ token_x: from.tokenId, routes: {} }));
        return 1;
      }
    }
    if (format === 'json') {
      io.out(
        jsonOutput({
          token_x: from.tokenId,
          routes: Object.fromEntries(entries.map(([id, rs]) => [id, rs.map(routeJson)])),
        }),
      );
      return 0;
    }
    const lines = [`${from.symbol} (${from.tokenId}) can be swapped into ${entries.length} token(s):`];
    for (const [id, rs] of entries) {
      lines.push(`${sym(id)} (${id}): ${rs.length} route(s)`);
      for (const r of rs) {
        const j = routeJson(r);
        lines.push(
          `  ${r.tokenPath.map(sym).join(' -> ')} via ${(j.pools as string[]).join(', ') || r.dexPath.join(', ')} (${j.swap_call})`,
        );
      }
    }
    io.out(lines.join('\n') + '\n');
    return 0;
  });
}
