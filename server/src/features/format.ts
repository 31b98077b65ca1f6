/**
 * Formatting of core values for people (hover, quote pickers): human units via core's exact helpers,
 * never floats. Shared by the server's features and the client's commands.
 */
import type { Route, Token } from '../../../core/api/types';
import { formatUnits } from '../../../core/dlmm/bins';

/** `amount` in base units as "1.5 sBTC (150000000)" when the token is known, else the raw integer. */
export function formatAmount(
  amount: bigint,
  token: Pick<Token, 'decimals' | 'symbol'> | undefined,
  withRaw = true,
): string {
  if (!token) return amount.toString();
  const human = `${formatUnits(amount, token.decimals)} ${token.symbol}`;
  return withRaw ? `${human} (${amount})` : human;
}

/** The symbol of a token contract, or its contract name when unknown. */
export function symbolOf(contract: string, tokens: readonly Token[]): string {
  return (
    tokens.find((t) => t.contract_address === contract)?.symbol ?? contract.slice(contract.indexOf('.') + 1)
  );
}

/** One line per route: "0.001 sBTC -> 76.06 USDCx via dlmm_1 (min 75.3, impact 12 bps)". */
export function describeRoute(route: Route, tokens: readonly Token[]): { label: string; detail: string } {
  const first = route.execution_path[0];
  const last = route.execution_path[route.execution_path.length - 1];
  const input = first?.input_token ?? '';
  const output = last?.output_token ?? '';
  const inTok = { symbol: symbolOf(input, tokens), decimals: route.input_token_decimals };
  const outTok = { symbol: symbolOf(output, tokens), decimals: route.output_token_decimals };
  const amountIn = route.amount_in ?? first?.amount_in ?? 0n;
  const label = `${formatAmount(amountIn, inTok, false)} → ${formatAmount(route.amount_out, outTok, false)}`;
  const hops = route.execution_path.map((h) => h.pool_id).join(' → ');
  const parts = [`via ${hops || 'no hop'}`];
  if (route.min_amount_out !== undefined)
    parts.push(
      `min ${formatAmount(route.min_amount_out, outTok, false)} at ${route.slippage_tolerance}% slippage`,
    );
  if (route.price_impact_bps !== undefined && route.price_impact_bps !== null)
    parts.push(`impact ${route.price_impact_bps} bps`);
  return { label, detail: parts.join(', ') };
}
