/**
 * `dlmm explain CODE [--format text|json]`: what an on-chain abort code means (core/dlmm/explain.ts): the
 * contract(s) raising it, the constant's name, what the contract checks there, the likely cause in a plan,
 * and the finding or flag of ours that catches it. CODE is `u5008`, `5008`, `(err u5008)` or a constant
 * name. No service is read. Exit 0 explained; 2 a code (or name) we do not know (the plain answer is still
 * printed), or a usage error.
 */
import { explainCode, explainText } from '../../../core/dlmm/explain';
import { findingCodeMeant } from '../../../core/plan/diagnostics';
import { jsonOutput, parseCommand, parseFormat } from '../common';
import { UsageError, type CliIO } from '../io';

/** `dlmm explain` takes --format only (it reads no service: --api, --sim and --api-key-env are refused). */
export const OPTIONS = { format: { type: 'string' } } as const;

export function run(args: string[], io: CliIO): Promise<number> {
  const { common, positionals } = parseCommand(args, OPTIONS, { positionals: true });
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  if (common.api !== undefined || common.sim || common.apiKeyEnv !== undefined)
    throw new UsageError('dlmm explain reads no service: drop --api, --sim and --api-key-env');
  if (positionals.length === 0)
    throw new UsageError(
      'expected an error code, e.g. dlmm explain u5008 (or 5008, "(err u5008)", ERR_ACTIVE_BIN_TOLERANCE)',
    );
  // `dlmm explain '(err' 'u2012)'` (the shell split it) is the same as `dlmm explain '(err u2012)'`.
  const query = positionals.join(' ');
  const found = explainCode(query);
  if (found.kind === 'invalid') throw new UsageError(found.message);
  // A finding code of `dlmm check` (or a slip of one) is not a contract error: say where it is explained.
  const r =
    found.kind === 'unknown' && found.suggestion === undefined ? withFindingCode(found, query) : found;
  if (format === 'json') {
    const doc =
      r.kind === 'known'
        ? {
            query: r.query,
            known: true,
            explanations: r.hits.map((h) => ({
              code: h.code ?? null,
              name: h.name,
              contract: h.contract,
              checks: h.checks,
              cause: h.cause,
              prevented_by: h.prevent,
            })),
          }
        : { query: r.query, known: false, answer: r.answer };
    io.out(jsonOutput(doc));
  } else io.out(explainText(r) + '\n');
  return Promise.resolve(r.kind === 'known' ? 0 : 2);
}

type Unknown = Extract<ReturnType<typeof explainCode>, { kind: 'unknown' }>;

/** An unknown answer that names the finding code the query is (or is near), and docs/diagnostics.md. */
function withFindingCode(r: Unknown, query: string): Unknown {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(query.trim())) return r;
  const meant = findingCodeMeant(query);
  if (!meant) return r;
  const where = `docs/diagnostics.md#${meant.code} explains it`;
  return {
    ...r,
    answer: meant.exact
      ? `${meant.code} is a finding code of dlmm check, not a contract error: ${where}.`
      : `${r.answer.replace(/\.$/, '')}; did you mean the finding code ${meant.code}? ${where}.`,
  };
}
