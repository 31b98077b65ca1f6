/**
 * The export's check-then-build step, shared by `dlmm export` and `dlmm wallet`: the plan is analyzed
 * against live data; unavailable live data (exit 2) and a plan with errors or an export refusal (exit 1)
 * are reported on stderr; otherwise the unsigned transactions come back with the export's own findings
 * already printed.
 */
import type { DlmmApi } from '../../core/api/types';
import { analyzePlan } from '../../core/check/analyze';
import { LIVE_UNAVAILABLE } from '../../core/plan/diagnostics';
import { buildTransactions } from '../../core/tx/build';
import type { SigningParams } from '../../core/tx/formats';
import type { RouterOverrides } from '../../core/chain/deployments';
import type { BuiltTransaction } from '../../core/tx/types';
import { zPrincipal } from '../../core/api/schemas';
import { UsageError, type CliIO } from './io';

/**
 * The attribution address for swaps from BITFLOW_PROVIDER_ADDRESS (the client library's variable), validated
 * as a principal; an operation's own `provider` wins. No revenue sharing runs from attribution.
 */
function providerFromEnv(io: CliIO): string | undefined {
  const v = io.env.BITFLOW_PROVIDER_ADDRESS?.trim();
  if (!v) return undefined;
  if (!zPrincipal.safeParse(v).success)
    throw new UsageError(
      `BITFLOW_PROVIDER_ADDRESS is not a principal (expected SP…, SM… or ADDR.contract-name); unset it or fix it`,
    );
  return v;
}

export type CheckedExport =
  { ok: true; transactions: BuiltTransaction[]; sender: string | undefined } | { ok: false; exitCode: 1 | 2 };

/** Analyzes `text` live and builds its transactions; `command` prefixes the messages ("dlmm export"). */
export async function checkAndBuild(
  api: DlmmApi,
  text: string,
  path: string,
  opts: {
    opId?: string;
    signing?: SigningParams;
    routers?: RouterOverrides;
    allowUnprotected?: boolean;
    allowUncheckedSwap?: boolean;
  },
  io: CliIO,
  command: string,
): Promise<CheckedExport> {
  // A live analysis reads the status before anything else: asked now, its answer travels while the plan is
  // parsed, and the analysis joins that read (a failure is its to report: it is the same read).
  api.status().catch(() => undefined);
  const analysis = await analyzePlan(text, {
    api,
    fileName: path,
    // The export shows no infos: the what-if after a shift (strict-drift-risk) would be computed for nothing.
    driftRisk: false,
    ...(opts.routers ? { routers: opts.routers } : {}),
  });
  const unavailable = analysis.findings.filter((f) => LIVE_UNAVAILABLE.has(f.code));
  if (unavailable.length > 0) {
    // Never build from partial live data: bounds and post-conditions would rest on what was not read.
    for (const f of unavailable) io.err(`${command}: ${f.severity} ${f.code}: ${f.message}\n`);
    io.err(`${command}: not exported: live data was unavailable; rerun when the service answers\n`);
    return { ok: false, exitCode: 2 };
  }
  const signing = opts.signing;
  const provider = providerFromEnv(io);
  const outcome = await buildTransactions(analysis, {
    api,
    ...(provider ? { provider } : {}),
    ...(opts.routers ? { routers: opts.routers } : {}),
    ...(opts.opId !== undefined ? { opId: opts.opId } : {}),
    ...(signing ? { publicKey: signing.publicKey, nonce: signing.nonce, fee: signing.fee } : {}),
    ...(opts.allowUnprotected ? { allowUnprotected: true } : {}),
    ...(opts.allowUncheckedSwap ? { allowUncheckedSwap: true } : {}),
  });
  if (!outcome.ok) {
    io.err(`${command}: not exported (${outcome.error.code}): ${outcome.error.message}\n`);
    return { ok: false, exitCode: 1 };
  }
  for (const f of outcome.findings) io.err(`${command}: ${f.severity} ${f.code}: ${f.message}\n`);
  return { ok: true, transactions: outcome.transactions, sender: analysis.plan?.sender };
}
