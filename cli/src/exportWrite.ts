/**
 * The one export writer of the CLI: the four formats (core/tx/formats.ts, docs/export-formats.md), the
 * signing parameters they take, and the file or stdout they go to with keys redacted and control characters
 * escaped. `dlmm export` (a plan) and `dlmm quote --source core --export` (getSwapParams) both write here.
 */
import { resolve } from 'node:path';
import { formatExport, type ExportFormat, type SigningParams } from '../../core/tx/formats';
import type { BuiltTransaction } from '../../core/tx/types';
import { safeText } from '../../core/text/safe';
import { OutputFileError, outputIsInput, writeOutputFile } from '../../core/files/output';
import { ROUTERS_ENV } from './routers';
import { parseNonNegativeInt } from './common';
import { configuredSecrets, UsageError, type CliIO } from './io';

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

/**
 * Refuses (UsageError, exit 2) an output file that is one of the run's inputs (`inputs`, plus the
 * DLMM_ROUTERS file when set): asked before any work, so a plan is never replaced by its own export.
 */
export function refuseOutputOverInput(
  outFile: string | undefined,
  inputs: readonly string[],
  io: CliIO,
  flag = '--out',
): void {
  if (outFile === undefined) return;
  const routers = io.env[ROUTERS_ENV]?.trim();
  const all = [...inputs, ...(routers ? [routers] : [])].map((f) => resolve(io.cwd, f));
  const clash = outputIsInput(resolve(io.cwd, outFile), all);
  if (clash !== undefined)
    throw new UsageError(
      `${flag} ${outFile} is ${clash === all[0] && inputs.length > 0 ? 'the plan file' : 'an input file'} of this run (${clash}); nothing was written: give ${flag} another file name`,
    );
}

/**
 * Writes `text` to the output file the user named (`flag` FILE): never over `inputs`, through a link only
 * because the user named it, and atomically (core/files/output.ts). Returns undefined when written, or the
 * message of why not (the old file is unchanged).
 */
export function writeNamedOutput(
  outFile: string,
  text: string,
  io: CliIO,
  flag = '--out',
): string | undefined {
  try {
    writeOutputFile(resolve(io.cwd, outFile), text, { followLink: true });
    return undefined;
  } catch (e) {
    if (e instanceof OutputFileError)
      return `${flag} file ${e.message.replace(resolve(io.cwd, outFile), outFile)}`;
    throw e;
  }
}

/**
 * Writes the export to `outFile` (what the terminal would get: no key, no raw control character) or, without
 * one, to stdout. Returns the exit status: 0 written, 2 the file could not be written (the old file, if any,
 * is unchanged, and stderr says what happened).
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
  const body = await formatExport(txs, format, signing);
  if (outFile === undefined) {
    io.out(body);
    return 0;
  }
  const problem = writeNamedOutput(outFile, safeText(body, configuredSecrets(io.env, argv)), io, flag);
  if (problem !== undefined) {
    io.err(`${who}: ${problem}\n`);
    return 2;
  }
  io.err(`${who}: wrote ${txs.length} transaction(s) to ${outFile}\n`);
  return 0;
}
