/**
 * Tokens as a plan must name them: by contract principal. A swap token written as a symbol (`sBTC`) or as a
 * principal near one the engine lists gets the principal of the tokens read, in its message and as a quick
 * fix; `token-unknown` lists only tokens a plan can name (a contract principal of the plan's network).
 */
import type { Token } from '../api/types';
import type { Finding } from '../plan/diagnostics';
import { addressNetwork, principalAddress } from '../plan/address';
import type { ParsedPlan } from '../plan/parse';
import { closestMatch } from '../text/suggest';

const CONTRACT = /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}$/;

/** The tokens of `tokens` a plan on `network` can name: a contract principal of that network. */
export function planTokens(tokens: readonly Token[], network: string): Token[] {
  return tokens.filter(
    (t) =>
      CONTRACT.test(t.contract_address) && addressNetwork(principalAddress(t.contract_address)) === network,
  );
}

/**
 * The listed tokens `written` most likely stands for: those whose symbol it is (any case), else the one
 * whose principal or symbol it is a slip of; empty when none is.
 */
export function tokensMeant(written: string, tokens: readonly Token[]): Token[] {
  const bySymbol = tokens.filter((t) => t.symbol.toLowerCase() === written.toLowerCase());
  if (bySymbol.length > 0) return bySymbol;
  const principal = closestMatch(
    written,
    tokens.map((t) => t.contract_address),
  );
  if (principal !== undefined) return tokens.filter((t) => t.contract_address === principal);
  const symbol = closestMatch(written, new Set(tokens.map((t) => t.symbol)));
  return symbol === undefined ? [] : tokens.filter((t) => t.symbol === symbol);
}

/** `sBTC (SM3...sbtc-token)`, the way messages name a token a plan can use. */
export const tokenLabel = (t: Token): string => `${t.symbol} (${t.contract_address})`;

/** Replaces the text at `r` with `principal`, keeping the quotes of a quoted scalar (JSON strings stay quoted). */
export function principalEdit(
  parsed: ParsedPlan,
  r: { offset: number; length: number },
  principal: string,
): Finding['fixes'] {
  const old = parsed.text.slice(r.offset, r.offset + r.length);
  const newText =
    old.startsWith('"') || parsed.format === 'json'
      ? JSON.stringify(principal)
      : old.startsWith("'")
        ? `'${principal}'`
        : principal;
  return [{ title: `Use ${principal}`, edits: [{ ...r, newText }], preferred: true }];
}

/**
 * The `schema` findings on a swap token that is not a principal, with the principal the tokens read list
 * for it (its symbol, or a near one) and a quick fix; the others as they are. `parsed` is the whole document.
 */
export function withTokenPrincipals(
  findings: Finding[],
  parsed: ParsedPlan,
  tokens: readonly Token[] | undefined,
  network: string,
): Finding[] {
  const ops = (parsed.value as { operations?: unknown } | undefined)?.operations;
  if (!tokens || !Array.isArray(ops)) return findings;
  const usable = planTokens(tokens, network);
  const meant = new Map<
    number,
    { tokens: Token[]; written: string; range: { offset: number; length: number } }
  >();
  ops.forEach((op: unknown, i) => {
    if (op === null || typeof op !== 'object' || (op as { op?: unknown }).op !== 'swap') return;
    for (const field of ['input_token', 'output_token'] as const) {
      const written = (op as Record<string, unknown>)[field];
      if (typeof written !== 'string' || CONTRACT.test(written)) continue;
      const range = parsed.rangeOf(['operations', i, field]);
      const hits = tokensMeant(written, usable);
      if (range && hits.length > 0) meant.set(range.offset, { tokens: hits, written, range });
    }
  });
  if (meant.size === 0) return findings;
  return findings.map((f) => {
    const m = f.code === 'schema' ? meant.get(f.offset) : undefined;
    if (!m || f.length !== m.range.length) return f;
    const named = m.tokens.map(tokenLabel).join(' or ');
    const out: Finding = {
      ...f,
      message: `${f.message}; the engine lists '${m.written}' as ${named}: write its contract principal`,
    };
    if (m.tokens.length === 1) out.fixes = principalEdit(parsed, m.range, m.tokens[0]!.contract_address);
    return out;
  });
}
