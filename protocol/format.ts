/**
 * Formatting of core values for people (hover, quote pickers): human units via core's exact helpers,
 * never floats. Shared by the server's features and the client's commands.
 */
import type { Pool, Route, Token } from '../core/api/types';
import { formatUnits } from '../core/dlmm/bins';
import { effectiveSlippage } from '../core/dlmm/bounds';
import { fillWords, quoteMinReceived, type QuoteCheck } from '../core/quote/exact';

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

/** A contract principal as people tell contracts apart: its name (`ADDR.name` -> `name`). */
export function contractName(contract: string): string {
  return contract.slice(contract.indexOf('.') + 1);
}

/** The symbol of a token contract, or its contract name when unknown. */
function symbolOf(contract: string, tokens: readonly Token[]): string {
  return tokens.find((t) => t.contract_address === contract)?.symbol ?? contractName(contract);
}

/** A route end's symbol and decimals (the route's when it gives them, else the tokens list's; else raw). */
function tokenFor(
  contract: string,
  decimals: number | null | undefined,
  tokens: readonly Token[],
): Pick<Token, 'decimals' | 'symbol'> | undefined {
  const d = decimals ?? tokens.find((t) => t.contract_address === contract)?.decimals;
  return d === undefined ? undefined : { symbol: symbolOf(contract, tokens), decimals: d };
}

/**
 * One line per route: "0.001 sBTC -> 76.06 USDCx via dlmm_1 (min 75.3, impact 12 bps)". With the exact
 * check (core/quote/exact.ts) the label uses the input actually used and the exact output; a partial fill
 * says so in the label ("PARTIAL: 0.86 of 1000 sBTC -> …, output for the used part"), and a disagreement
 * with the engine names both figures in the detail.
 */
export function describeRoute(
  route: Route,
  tokens: readonly Token[],
  check?: QuoteCheck,
): { label: string; detail: string; lines: string[] } {
  const first = route.hops[0];
  const last = route.hops[route.hops.length - 1];
  const input = first?.input_token ?? '';
  const output = last?.output_token ?? '';
  const inTok = tokenFor(input, route.input_token_decimals, tokens);
  const outTok = tokenFor(output, route.output_token_decimals, tokens);
  const amountIn = check?.amount_in ?? first?.amount_in ?? 0n;
  const amountOut = check?.amount_out ?? route.amount_out;
  const label =
    check && !check.complete
      ? `PARTIAL: ${formatAmount(check.amount_in_used, inTok, false)} of ${formatAmount(amountIn, inTok, false)} → ${formatAmount(amountOut, outTok, false)} (output for the used part)`
      : `${formatAmount(amountIn, inTok, false)} → ${formatAmount(amountOut, outTok, false)}`;
  const hops = route.hops.map((h) => h.pool_id).join(' → ');
  const parts: string[] = [];
  if (check) {
    if (check.complete) parts.push('fills the whole amount');
    if (!check.verified) parts.push(`not recomputed (${check.unverified_reason})`);
    else if (check.mismatch)
      parts.push(
        `engine says ${formatAmount(check.engine_amount_out, outTok, false)}, exact ${formatAmount(check.amount_out, outTok, false)}`,
      );
    else parts.push('exact check agrees');
  } else {
    // The one minimum-received figure (core/quote/exact.ts), at the slippage the engine was asked for.
    const slip = effectiveSlippage(route.slippage_tolerance);
    const min = quoteMinReceived(undefined, route, slip.ppm);
    parts.push(`min ${formatAmount(min, outTok, false)} at ${slip.percent}% slippage`);
  }
  const impact = check ? check.price_impact_bps : route.price_impact_bps;
  if (impact !== undefined && impact !== null) parts.push(`impact ${impact} bps`);
  // The contract ids last: the pools' names (routePoolsLabel) are what tell routes apart.
  parts.push(`via ${hops || 'no hop'}`);
  const lines = check
    ? fillWords(
        check,
        (v) => formatAmount(v, inTok),
        (v) => formatAmount(v, outTok),
      )
    : [];
  return { label, detail: parts.join(', '), lines };
}

/**
 * A pool as people tell pools apart: "sBTC/USDCx · 10 bps · dlmm_1" (pair, bin step, alias), from the pools
 * list; the contract id when the list does not name it.
 */
function poolName(poolId: string, pools: readonly Pool[], tokens: readonly Token[], alias?: string): string {
  const p = pools.find((x) => x.pool_id === poolId || x.pool_alias === poolId);
  if (!p) return alias ? `${alias} (${poolId})` : poolId;
  const name = alias ?? p.pool_alias ?? (p.pool_id !== poolId ? poolId : undefined);
  return `${symbolOf(p.token_x, tokens)}/${symbolOf(p.token_y, tokens)} · ${p.bin_step} bps${name ? ` · ${name}` : ''}`;
}

/** A route's pools in order by name ("sBTC/STX · 10 bps · dlmm_3 → STX/USDCx · 10 bps · dlmm_2"). */
export function routePoolsLabel(route: Route, pools: readonly Pool[], tokens: readonly Token[]): string {
  return (
    route.hops.map((h) => poolName(h.pool_id, pools, tokens, h.alias ?? undefined)).join(' → ') || 'no hop'
  );
}
