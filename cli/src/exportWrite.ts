/**
 * The one export writer of the CLI: the four formats (core/tx/formats.ts, docs/export-formats.md), the
 * signing parameters they take, and the file or stdout they go to with keys redacted and control characters
 * escaped. `dlmm export` (a plan) and `dlmm quote --source core --export` (getSwapParams) both write here.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  formatJson,
  formatSummary,
  formatTxHex,
  formatWalletRequest,
  type ExportFormat,
  type SigningParams,
} from '../../core/tx/formats';
import type { BuiltTransaction } from '../../core/tx/types';
import { safeText } from '../../core/text/safe';
import { parseNonNegativeInt } from './common';
import { configuredSecrets, fileProblem, UsageError, type CliIO } from './io';

/** --public-key/--nonce/--fee: all three for tx-hex; optional (all or none) otherwise. */
export function signingParams(
  values: Record<string, unknown>,
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

/** The export's text in `format`. */
export async function exportBody(
  txs: BuiltTransaction[],
  format: ExportFormat,
  signing: SigningParams | undefined,
): Promise<string> {
  return format === 'tx-hex'
    ? await formatTxHex(txs, signing!)
    : format === 'wallet-request'
      ? formatWalletRequest(txs)
      : format === 'json'
        ? await formatJson(txs, signing)
        : formatSummary(txs);
}

/**
 * Writes the export to `outFile` (what the terminal would get: no key, no raw control character) or, without
 * one, to stdout. Returns the exit status: 0 written, 2 the file could not be written (nothing was).
 */
export async function writeExport(
  txs: BuiltTransaction[],
  format: ExportFormat,
  signing: SigningParams | undefined,
  outFile: string | undefined,
  io: CliIO,
  argv: readonly string[],
  who: string,
  flag = '--out',
): Promise<number> {
  const body = await exportBody(txs, format, signing);
  if (outFile === undefined) {
    io.out(body);
    return 0;
  }
  try {
    await writeFile(resolve(io.cwd, outFile), safeText(body, configuredSecrets(io.env, argv)), 'utf8');
  } catch (e) {
    io.err(
      `${who}: ${flag} file ${outFile}: ${fileProblem(e).replace('cannot be read', 'cannot be written')}; nothing was written\n`,
    );
    return 2;
  }
  io.err(`${who}: wrote ${txs.length} transaction(s) to ${outFile}\n`);
  return 0;
}
