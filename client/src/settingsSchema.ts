/**
 * The extension's settings (`dlmm.*`): one zod schema, mirrored by package.json `contributes.configuration`
 * (a unit test keeps the two in step), and their resolution into the server's settings. No `vscode`
 * import, so it is tested as plain code.
 */
import * as z from 'zod';
import { DEFAULT_SLIPPAGE, slippageToPpm } from '../../core/dlmm/bounds';
import { zPrincipalStandard } from '../../core/plan/schema';
import { RouterSettingsSchema } from '../../core/chain/routerSettings';
import { ENVIRONMENTS, resolveService, type SimulatorEndpoints } from '../../core/api/environment';
import type { DlmmSection, ServerSettings } from '../../protocol/messages';

export { ENVIRONMENTS };

/** A trimmed string: empty (none set, the default) or one that passes `ok`; `message` says what is expected. */
function optionalText(ok: (s: string) => boolean, message: string) {
  return z
    .string()
    .trim()
    .refine((s) => s === '' || ok(s), message)
    .default('');
}

/** A standard principal (SP…/ST…) or an empty string (none set). */
const zOptionalSender = optionalText(
  (s) => zPrincipalStandard.safeParse(s).success,
  'expected a standard principal (SP…) or an empty string',
);

/** A principal (standard or contract) or an empty string (none set): the swap attribution address. */
const zOptionalProvider = optionalText(
  (s) => /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/.test(s),
  'expected a principal (SP…, or ADDR.contract-name) or an empty string',
);

const zOptionalUrl = optionalText(
  (s) => /^https?:\/\/[^\s]+$/.test(s),
  'expected an http(s) URL or an empty string',
);

/**
 * A folder relative to the workspace folder ("exports", "out/dlmm"), or an empty string (beside the plan):
 * never absolute, never above the workspace folder.
 */
const zExportFolder = optionalText(
  (s) => !/^([/\\]|[A-Za-z]:)/.test(s) && !s.split(/[/\\]/).some((seg) => seg === '..') && !s.includes('\0'),
  'expected a folder relative to the workspace folder (e.g. exports), without ".." segments, or an empty string',
);

export const DlmmConfigSchema = z.object({
  environment: z.enum(ENVIRONMENTS).default('production'),
  apiUrl: zOptionalUrl,
  inventoryUrl: zOptionalUrl,
  nodeUrl: zOptionalUrl,
  policy: z
    .object({ maxTipLag: z.number().int().min(0).nullable().default(null) })
    .default({ maxTipLag: null }),
  slippageTolerance: z
    .number()
    .refine((p) => slippageToPpm(p) !== undefined, {
      message:
        'expected a percent from 0 to below 100 with at most 4 decimals (1 means 1%); 100 would accept receiving nothing',
    })
    .default(DEFAULT_SLIPPAGE),
  /** Whose positions the dashboard shows when the plan names no sender; the sender of exported swaps. */
  dashboard: z.object({ sender: zOptionalSender }).default({ sender: '' }),
  /** Router contracts per network for exports (merged over the mainnet defaults; testnet has none). */
  routers: RouterSettingsSchema.default({}),
  /** Attribution address sent as `provider` with exported swaps (no revenue sharing runs from it). */
  provider: zOptionalProvider,
  /** Where editor exports are written: a folder of the workspace, chosen once; empty: beside the plan. */
  export: z.object({ folder: zExportFolder }).default({ folder: '' }),
});
export type DlmmConfig = z.infer<typeof DlmmConfigSchema>;

/** Flat setting keys (as in package.json) with their defaults, for the consistency test and readers. */
export const SETTING_KEYS = [
  'environment',
  'apiUrl',
  'inventoryUrl',
  'nodeUrl',
  'policy.maxTipLag',
  'slippageTolerance',
  'dashboard.sender',
  'routers',
  'provider',
  'export.folder',
] as const;

/** Parses raw values read from the editor; bad values fall back to defaults with a message each. */
export function parseConfig(raw: Record<string, unknown>): { config: DlmmConfig; problems: string[] } {
  const problems: string[] = [];
  // The flat keys as the schema nests them ("policy.maxTipLag" -> { policy: { maxTipLag } }); unset keys stay out.
  const input: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (raw[key] === undefined) continue;
    const [group, field] = key.split('.') as [string, string | undefined];
    input[group] = field === undefined ? raw[key] : { [field]: raw[key] };
  }
  const parsed = DlmmConfigSchema.safeParse(input);
  if (parsed.success) return { config: parsed.data, problems };
  // Keep every valid field; reset only the ones at fault.
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  for (const issue of parsed.error.issues) {
    problems.push(`dlmm.${issue.path.join('.')}: ${issue.message}; the default is used instead`);
  }
  for (const k of bad) delete input[k];
  return { config: DlmmConfigSchema.parse(input), problems };
}

export type { SimulatorEndpoints };

/**
 * The extension's own settings for its reads (dashboard, export, status): the environment resolved into
 * URLs by the same function the language server uses (core/api/environment.ts); `simulator` is the
 * simulator this window runs, and without it only offline checks run.
 */
export function resolveServerSettings(
  config: DlmmConfig,
  simulator: SimulatorEndpoints | undefined,
): ServerSettings {
  return {
    environment: config.environment,
    maxTipLag: config.policy.maxTipLag,
    slippageTolerance: config.slippageTolerance,
    ...resolveService(config, simulator),
  };
}

/**
 * The `dlmm` section the extension answers the language server (which resolves it like any client's):
 * the settings as the user wrote them, and for `simulator` the one this window runs (`null` until it is
 * up), so the diagnostics and the dashboard read one engine and the server starts none of its own.
 */
export function sectionForServer(config: DlmmConfig, simulator: SimulatorEndpoints | undefined): DlmmSection {
  return {
    environment: config.environment,
    apiUrl: config.apiUrl,
    inventoryUrl: config.inventoryUrl,
    nodeUrl: config.nodeUrl,
    policy: { maxTipLag: config.policy.maxTipLag },
    slippageTolerance: config.slippageTolerance,
    ...(config.environment === 'simulator' ? { simulator: simulator ?? null } : {}),
  };
}
