/**
 * The extension's settings (`dlmm.*`): one zod schema, mirrored by package.json `contributes.configuration`
 * (a unit test keeps the two in step), and their resolution into the server's settings. No `vscode`
 * import, so it is tested as plain code.
 */
import * as z from 'zod';
import { zPrincipalStandard } from '../../core/plan/schema';
import { RouterSettingsSchema } from '../../core/chain/routerSettings';
import type { ServerSettings } from '../../server/src/protocol';

export const ENVIRONMENTS = ['production', 'development', 'custom', 'simulator'] as const;

/**
 * Service base of the hosted production environment (the interface document's {base_url}), as public
 * integrations use it. The development service ({dev_base_url}) has no public address: `development` uses
 * `dlmm.apiUrl`, and runs offline checks only until it is set (never a guessed host).
 */
export const ENVIRONMENT_URLS: Record<'production', { apiUrl: string }> = {
  production: { apiUrl: 'https://bff.bitflowapis.finance/api' },
};

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
  slippageTolerance: z.number().min(0).max(100).default(1),
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

/** Endpoints of a running embedded simulator. */
export interface SimulatorEndpoints {
  url: string;
  inventoryUrl?: string;
  nodeUrl?: string;
}

/**
 * The server's settings for a config: the environment picks the URLs (`simulator` needs the running
 * simulator; without it the server runs offline checks only).
 */
export function resolveServerSettings(
  config: DlmmConfig,
  simulator: SimulatorEndpoints | undefined,
): ServerSettings {
  const common = {
    environment: config.environment,
    maxTipLag: config.policy.maxTipLag,
    slippageTolerance: config.slippageTolerance,
  } satisfies ServerSettings;
  /** The URLs that are set (an empty one is left out). */
  const urls = (apiUrl?: string, inventoryUrl?: string, nodeUrl?: string) => ({
    ...(apiUrl ? { apiUrl } : {}),
    ...(inventoryUrl ? { inventoryUrl } : {}),
    ...(nodeUrl ? { nodeUrl } : {}),
  });
  switch (config.environment) {
    case 'production':
      return { ...common, ...urls(ENVIRONMENT_URLS.production.apiUrl, config.inventoryUrl, config.nodeUrl) };
    case 'development':
    case 'custom':
      return { ...common, ...urls(config.apiUrl, config.inventoryUrl, config.nodeUrl) };
    case 'simulator':
      return simulator
        ? { ...common, ...urls(simulator.url, simulator.inventoryUrl, simulator.nodeUrl) }
        : common;
  }
}
