/**
 * `dlmm export PLAN [--op ID] --format tx-hex|wallet-request|summary|json [--public-key HEX --nonce N --fee N]
 * [--out FILE] [--allow-unprotected] [--allow-unchecked-swap]`: unsigned payloads only (docs/export-formats.md). The
 * plan is analyzed against live data first; a plan with any error-severity finding is not exported and the
 * findings are listed on stderr (exit 1). An operation whose min-dlp bound cannot be computed is refused
 * (exit 1) unless --allow-unprotected is given; the summary then names the bounds that fell back. A swap
 * whose route was not checked on the state read (swap-unchecked) is refused unless --allow-unchecked-swap is
 * given; its summary then says so, with the reasons.
 */
import { resolve } from 'node:path';
import { EXPORT_FORMATS, type ExportFormat } from '../../../core/tx/formats';
import { hasApiConfigured, parseCommand, parseFormat, withApi } from '../common';
import { readTextFile, UsageError, type CliIO } from '../io';
import { refuseOutputOverInput, signingParams, writeExport } from '../exportWrite';
import { checkAndBuild } from '../exportPlan';
import { notAPlanFile, PLAN_FILE } from './check';
import { loadRouterOverrides } from '../routers';

export const OPTIONS = {
  op: { type: 'string' },
  'public-key': { type: 'string' },
  nonce: { type: 'string' },
  fee: { type: 'string' },
  out: { type: 'string' },
  'allow-unprotected': { type: 'boolean' },
  'allow-unchecked-swap': { type: 'boolean' },
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
  const out = typeof values.out === 'string' ? values.out : undefined;
  refuseOutputOverInput(out, [path], io);
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
        ...(values['allow-unchecked-swap'] === true ? { allowUncheckedSwap: true } : {}),
      },
      io,
      'dlmm export',
    );
    if (!checked.ok) return checked.exitCode;
    return writeExport(checked.transactions, format, signing, out, io, args, 'dlmm export');
  });
}
