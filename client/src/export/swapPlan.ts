/**
 * `dlmm.exportSwap` (the dashboard's "Export swap"): its arguments, read with zod, and the one-swap plan
 * (docs/plan-format.md) it writes, so the export goes through the same checks and formats as any plan. Amounts
 * stay decimal strings (never a JS number). Pure: no vscode, unit-tested.
 */
import * as z from 'zod';
import { MAX_UINT128 } from '../../../core/dlmm/bins';
import { slippageToPpm } from '../../../core/dlmm/bounds';
import { zContractPrincipal, zPrincipalStandard } from '../../../core/plan/schema';
import { networkOfPrincipal } from '../../../core/chain/deployments';

/** Slippage percent (number or decimal string, up to 4 fraction digits, 0 to below 100) -> parts per million. */
const zSlippagePpm = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ppm = slippageToPpm(v);
  if (ppm === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `slippage_tolerance ${String(v)} is not a percent from 0 to below 100 with at most 4 fraction digits (100 would accept receiving nothing)`,
    });
    return z.NEVER;
  }
  return ppm;
});

/** Base units as a decimal string: digits only, 1..uint128. */
const zAmountIn = z
  .union([z.string().trim(), z.bigint().transform(String)])
  .refine((s) => /^\d+$/.test(s), 'amount_in must be a decimal string of base units (digits only)')
  .transform((s) => BigInt(s).toString())
  .refine((s) => s !== '0', 'amount_in must be positive')
  .refine((s) => BigInt(s) <= MAX_UINT128, `amount_in must be at most ${MAX_UINT128} (uint128)`);

/** A token contract principal by the plan schema's own rule (core/plan/schema.ts), with its messages. */
const zToken = z.unknown().transform((v, ctx): string => {
  const r = zContractPrincipal.safeParse(v);
  if (r.success) return r.data;
  for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
  return z.NEVER;
});

/** What the dashboard passes: `{input_token, output_token, amount_in, slippage_tolerance}`. */
export const ExportSwapArgsSchema = z
  .object({
    input_token: zToken,
    output_token: zToken,
    amount_in: zAmountIn,
    slippage_tolerance: zSlippagePpm.optional(),
  })
  .refine((a) => a.input_token !== a.output_token, {
    message: 'input_token and output_token must differ',
    path: ['output_token'],
  });
export type ExportSwapArgs = z.output<typeof ExportSwapArgsSchema>;

/** The command's first argument as ExportSwapArgs, or one message saying what is wrong. */
export function parseExportSwapArgs(
  args: readonly unknown[],
): { ok: true; value: ExportSwapArgs } | { ok: false; message: string } {
  const parsed = ExportSwapArgsSchema.safeParse(args[0]);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
  return { ok: false, message: issues.join('; ') };
}

/** Why `text` is not a standard principal (the plan's sender), or undefined when it is one. */
export function senderProblem(text: string): string | undefined {
  const t = text.trim();
  if (t === '')
    return 'Enter the principal that will sign the swap (e.g. SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR).';
  const r = zPrincipalStandard.safeParse(t);
  return r.success ? undefined : `'${t}' is not a standard principal: ${r.error.issues[0]?.message ?? ''}`;
}

/** ppm back to the shortest plain percent text ("0.5", "1", "0.1234"); exact, no float. */
export function ppmToPercentText(ppm: bigint): string {
  const whole = ppm / 10_000n;
  const frac = (ppm % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

interface SwapPlanInput {
  sender: string;
  swap: ExportSwapArgs;
  /** When the plan was made (written in its header comment, local time). */
  at: Date;
}

/** The plan text: version 1, network from the sender, api v2, one `op: swap`. */
export function swapPlanText({ sender, swap, at }: SwapPlanInput): string {
  const lines = [
    `# Swap from the DLMM dashboard quote, ${localStamp(at, '-', ' ', ':')}.`,
    '# Export it with "DLMM: Export Unsigned Transactions"; nothing is signed or sent.',
    'version: 1',
    `network: ${networkOfPrincipal(sender)}`,
    'api: v2',
    `sender: ${sender}`,
    'operations:',
    '  - id: swap',
    '    op: swap',
    `    input_token: ${swap.input_token}`,
    `    output_token: ${swap.output_token}`,
    // Quoted: a digit string is read exactly by any YAML reader, whatever its integer range.
    `    amount_in: "${swap.amount_in}"`,
  ];
  if (swap.slippage_tolerance !== undefined)
    lines.push(`    slippage_tolerance: ${ppmToPercentText(swap.slippage_tolerance)}`);
  return lines.join('\n') + '\n';
}

/** A token's part of the file name: its symbol (or name), else the contract name; file-name safe. */
export function tokenLabel(principal: string, token?: { symbol?: string; name?: string | null }): string {
  const candidates = [token?.symbol, token?.name, principal.split('.').pop()];
  for (const c of candidates) {
    const cleaned = (c ?? '')
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40);
    if (cleaned !== '') return cleaned;
  }
  return 'token';
}

/** `swap-<in>-<out>-<yyyymmdd-hhmmss>.dlmm.yaml`; `attempt` > 1 adds `-<attempt>` (never overwrite). */
export function swapPlanFileName(inLabel: string, outLabel: string, at: Date, attempt = 1): string {
  const suffix = attempt > 1 ? `-${attempt}` : '';
  return `swap-${inLabel}-${outLabel}-${localStamp(at, '', '-', '')}${suffix}.dlmm.yaml`;
}

/** Local date and time as yyyy<d>mm<d>dd<s>hh<t>mm<t>ss. */
function localStamp(at: Date, dateSep: string, sep: string, timeSep: string): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = [at.getFullYear(), p(at.getMonth() + 1), p(at.getDate())].join(dateSep);
  const time = [p(at.getHours()), p(at.getMinutes()), p(at.getSeconds())].join(timeSep);
  return `${date}${sep}${time}`;
}
