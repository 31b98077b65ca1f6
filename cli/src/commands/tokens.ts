/**
 * `dlmm tokens [--format text|json] [--core-api URL]`: the core swap API's tokens (getAvailableTokens):
 * library id, symbol, decimals, contract. The request count goes to stderr.
 */
import { jsonOutput, parseCommand, parseFormat } from '../common';
import { CORE_OPTIONS, withCoreApi } from '../coreApi';
import type { CliIO } from '../io';

export const OPTIONS = CORE_OPTIONS;

export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  return withCoreApi(common, values['core-api'] as string | undefined, io, async (core) => {
    const tokens = await core.getAvailableTokens();
    if (format === 'json') {
      io.out(
        jsonOutput({
          tokens: tokens.map((t) => ({
            token_id: t.tokenId,
            symbol: t.symbol,
            name: t.name,
            decimals: t.decimals,
            contract: t.contract,
            asset_name: t.assetName,
          })),
        }),
      );
      return 0;
    }
    const rows = tokens.map((t) => [t.tokenId, t.symbol, String(t.decimals), t.contract ?? '(none)']);
    const head = ['token id', 'symbol', 'decimals', 'contract'];
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
    const line = (r: string[]) =>
      r
        .map((c, i) => c.padEnd(w[i] as number))
        .join('  ')
        .trimEnd();
    io.out([line(head), ...rows.map(line)].join('\n') + '\n');
    return 0;
  });
}
