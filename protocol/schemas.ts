/**
 * The zod schemas of what the client sends the server (messages.ts declares the messages): settings,
 * validated on arrival, and the initialization options. Kept apart from messages.ts so the server answers
 * `initialize` without loading zod (server.ts); the server's working part (handlers.ts) loads them.
 */
import * as z from 'zod';
import { ENVIRONMENTS, type Environment } from '../core/api/environment';

/**
 * The settings the server works with, resolved from the client's `dlmm` section or the environment
 * (server/src/settings.ts): the service's URLs, or why there is none.
 */
export interface ServerSettings {
  /** Service base ending in /api; absent: offline checks only, and `noService` says why. */
  apiUrl?: string;
  inventoryUrl?: string;
  nodeUrl?: string;
  /** Why no service is configured and what to set (shown on every plan: `live-unchecked`). */
  noService?: string;
  /** Overrides the plan's policy.max_tip_lag when set. */
  maxTipLag?: number | null;
  /** Percent (1 means 1%): the slippage for hover figures when the plan sets none. */
  slippageTolerance?: number;
  /** Where the URLs came from (`env`: the process environment), for status messages. */
  environment?: Environment | 'env';
}

/**
 * A service URL: http or https only. `file:`, `javascript:`, `data:` and every other scheme are refused,
 * with a message that says so (the CLI's parseUrl and the extension's settings schema refuse them too).
 * An empty string is "not set" (as the VS Code settings write it).
 */
const zServiceUrl = z.union([
  z.literal(''),
  z.url({
    protocol: /^https?$/,
    error: 'must be an http(s) URL; file:, javascript:, data: and other schemes are refused',
  }),
]);

/**
 * The `dlmm` settings section as any client sends it (docs/editors.md): in `initializationOptions.dlmm`,
 * pushed in `workspace/didChangeConfiguration` (`settings.dlmm`), or answered to `workspace/configuration`
 * for section `dlmm`. The names are the VS Code settings' (`dlmm.environment`, `dlmm.policy.maxTipLag`, ...);
 * other keys of the section (export folder, routers, ...) are the extension's and are ignored here.
 * Validated on arrival (a boundary); the server resolves `environment` into URLs (core/api/environment.ts).
 */
export const DlmmSectionSchema = z.object({
  environment: z.enum(ENVIRONMENTS).optional(),
  /** Service base ending in /api (`custom`, `development`). */
  apiUrl: zServiceUrl.optional(),
  inventoryUrl: zServiceUrl.optional(),
  nodeUrl: zServiceUrl.optional(),
  /** Overrides the plan's policy.max_tip_lag when set. */
  policy: z.object({ maxTipLag: z.number().int().min(0).nullable().optional() }).optional(),
  /** Percent (1 means 1%): the slippage for hover figures when the plan sets none. */
  slippageTolerance: z.number().min(0).max(100).optional(),
  /**
   * For `simulator`, a simulator the client runs itself (the VS Code extension: its dashboard and the
   * diagnostics then read one engine); `null`: the client runs it and it is not up yet. Absent: the server
   * starts its own embedded simulator.
   */
  simulator: z
    .object({ url: zServiceUrl, inventoryUrl: zServiceUrl.optional(), nodeUrl: zServiceUrl.optional() })
    .nullable()
    .optional(),
});
export type DlmmSection = z.infer<typeof DlmmSectionSchema>;

/** Commands the client registered, so lenses never point at an absent command (client -> server, at init). */
export const InitializationOptionsSchema = z.object({
  commands: z.array(z.string()).default([]),
  /** Per-document debounce before a change's results are published (its analysis starts at once), ms. */
  debounceMs: z.number().int().min(0).max(600_000).optional(),
  /** Engine status poll interval while plan files are open, ms. */
  statusPollMs: z.number().int().min(200).max(600_000).optional(),
  /** Send `dlmm/analysis` after each publish (tests and benches wait for the live one). */
  analysisEvents: z.boolean().optional(),
  /** The `dlmm` settings section (DlmmSectionSchema), for clients that pass settings at start. */
  dlmm: z.unknown().optional(),
});
export type InitializationOptions = z.infer<typeof InitializationOptionsSchema>;
