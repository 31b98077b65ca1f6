/**
 * `dlmm export PLAN [--op ID] --format tx-hex|wallet-request|summary|json [--public-key HEX --nonce N --fee N]
 * [--out FILE] [--allow-unprotected]`: unsigned payloads only (docs/export-formats.md). The plan is analyzed against
 * live data first; a plan with any error-severity finding is not exported and the findings are listed on
 * stderr (exit 1). An operation whose min-dlp bound cannot be computed is refused (exit 1) unless
 * --allow-unprotected is given; the summary then names the bounds that fell back.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  EXPORT_FORMATS,
  formatJson,
  formatSummary,
  formatTxHex,
  formatWalletRequest,
  type ExportFormat,
  type SigningParams,
} from '../../../core/tx/formats';
import { hasApiConfigured, parseCommand, parseFormat, parseNonNegativeInt, withApi } from '../common';
import { configuredSecrets, fileProblem, readTextFile, UsageError, type CliIO } from '../io';
import { checkAndBuild } from '../exportPlan';
import { notAPlanFile, PLAN_FILE } from './check';
import { loadRouterOverrides } from '../routers';
import { safeText } from '../../../core/text/safe';

export const OPTIONS = {
  op: { type: 'string' },
  'public-key': { type: 'string' },
  nonce: { type: 'string' },
  fee: { type: 'string' },
  out: { type: 'string' },
  'allow-unprotected': { type: 'boolean' },
} as const;

/** Runs `dlmm export`. Exit: 0 exported; 1 the plan has errors or cannot be exported; 2 usage / live data. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values, positionals } = parseCommand(args, OPTIONS, { positionals: true });
  if (positionals.length !== 1) throw new UsageError('export takes exactly one PLAN file');
  const format = parseFormat<ExportFormat>(common, EXPORT_FORMATS, 'summary');
  const signing = signingParams(values, format);
  if (!hasApiConfigured(common, io)) {
    throw new UsageError('export reads live pool state: pass --api URL, set DLMM_API_URL, or use --sim');
  }
  const routers = await loadRouterOverrides(io);
  const planArg = positionals[0]!;
  if (!PLAN_FILE.test(planArg)) throw new UsageError(notAPlanFile(planArg));
  const path = resolve(io.cwd, planArg);
  const text = await readTextFile(planArg, io.cwd, 'plan file');
  return withApi(common, io, async (api) => {
    const checked = await checkAndBuild(
      api,
      text,
      path,
      {
        ...(routers ? { routers } : {}),
        ...(typeof values.op === 'string' ? { opId: values.op } : {}),
        ...(signing ? { signing } : {}),
        ...(values['allow-unprotected'] === true ? { allowUnprotected: true } : {}),
      },
      io,
      'dlmm export',
    );
    if (!checked.ok) return checked.exitCode;
    const txs = checked.transactions;
    const body =
      format === 'tx-hex'
        ? await formatTxHex(txs, signing!)
        : format === 'wallet-request'
          ? formatWalletRequest(txs)
          : format === 'json'
            ? await formatJson(txs, signing)
            : formatSummary(txs);
    if (typeof values.out === 'string') {
      try {
        // The file gets what the terminal would: no key, no raw control character.
        await writeFile(resolve(io.cwd, values.out), safeText(body, configuredSecrets(io.env, args)), 'utf8');
      } catch (e) {
        io.err(
          `dlmm export: --out file ${values.out}: ${fileProblem(e).replace('cannot be read', 'cannot be written')}; nothing was written\n`,
        );
        return 2;
      }
      io.err(`dlmm export: wrote ${txs.length} transaction(s) to ${values.out}\n`);
    } else {
      io.out(body);
    }
    return 0;
  });
}

/** --public-key/--nonce/--fee: all three for tx-hex; optional (all or none) otherwise. */
function signingParams(
  values: Record<string, string | boolean | undefined>,
  format: ExportFormat,
): SigningParams | undefined {
  const pk = values['public-key'];
  const nonce = values.nonce;
  const fee = values.fee;
  const given = [pk, nonce, fee].filter((v) => typeof v === 'string').length;
  if (given === 0) {
    if (format === 'tx-hex')
      throw new UsageError('tx-hex needs --public-key HEX --nonce N --fee N (no network lookups are made)');
    return undefined;
  }
  if (given !== 3) throw new UsageError('give --public-key, --nonce and --fee together');
  const publicKey = String(pk).trim().replace(/^0x/, '');
  if (!/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(publicKey)) {
    throw new UsageError(
      '--public-key expects a secp256k1 public key in hex (33 bytes compressed or 65 uncompressed)',
    );
  }
  return {
    publicKey,
    nonce: parseNonNegativeInt(String(nonce), '--nonce'),
    fee: parseNonNegativeInt(String(fee), '--fee'),
  };
}
