/**
 * The zod schemas of what the client sends the server (protocol.ts declares the messages): settings,
 * validated on arrival, and the initialization options. Kept apart from protocol.ts so the server answers
 * `initialize` without loading zod (server.ts); the server's working part (engine.ts) loads them.
 */
import * as z from 'zod';

/**
 * Settings the server works with, resolved by the client from `dlmm.*` (environment -> URLs, simulator
 * port) and answered to `workspace/configuration` for section `dlmm`. Validated on arrival (a boundary).
 * A client that sends nothing (any editor running `dlmm lsp --stdio`) gets the environment's values.
 */
/**
 * A service URL: http or https only. `file:`, `javascript:`, `data:` and every other scheme are refused,
 * with a message that says so (the CLI's parseUrl and the extension's settings schema refuse them too).
 */
const zServiceUrl = z.url({
  protocol: /^https?$/,
  error: 'must be an http(s) URL; file:, javascript:, data: and other schemes are refused',
});

export const ServerSettingsSchema = z.object({
  /** Service base ending in /api; absent: offline checks only. */
  apiUrl: zServiceUrl.optional(),
  inventoryUrl: zServiceUrl.optional(),
  nodeUrl: zServiceUrl.optional(),
  /** Overrides the plan's policy.max_tip_lag when set. */
  maxTipLag: z.number().int().min(0).nullable().optional(),
  /** Percent (1 means 1%): the slippage for hover figures when the plan sets none. */
  slippageTolerance: z.number().min(0).max(100).optional(),
  /** Where the URLs came from, for status messages. */
  environment: z.enum(['production', 'development', 'custom', 'simulator', 'env']).optional(),
});
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;

/** Commands the client registered, so lenses never point at an absent command (client -> server, at init). */
export const InitializationOptionsSchema = z.object({
  commands: z.array(z.string()).default([]),
  /** Per-document debounce before a change's results are published (its analysis starts at once), ms. */
  debounceMs: z.number().int().min(0).max(600_000).optional(),
  /** Engine status poll interval while plan files are open, ms. */
  statusPollMs: z.number().int().min(200).max(600_000).optional(),
  /** Send `dlmm/analysis` after each publish (tests and benches wait for the live one). */
  analysisEvents: z.boolean().optional(),
});
export type InitializationOptions = z.infer<typeof InitializationOptionsSchema>;
