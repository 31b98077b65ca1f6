/**
 * The core swap API for the CLI: with --sim, the embedded simulator's core API and node proxy; otherwise
 * `--core-api URL` or BITFLOW_API_HOST, the read-only host from READONLY_CALL_API_HOST (else DLMM_NODE_URL),
 * keys only from the environment (BITFLOW_API_KEY, READONLY_CALL_API_KEY, KEEPER_API_KEY), never argv.
 */
import type { CoreSwapClient, CoreToken } from '../../core/api/coreClient';
import type { DlmmApi } from '../../core/api/types';
import { apiErrorExit, hasApiConfigured, withApi, type CommonOptions } from './common';
import { UsageError, type CliIO } from './io';

export const CORE_OPTIONS = { 'core-api': { type: 'string' } } as const;

/** Runs `fn` with a core swap API client (and the quote engine client when one is configured). */
export async function withCoreApi(
  common: CommonOptions,
  coreFlag: string | undefined,
  io: CliIO,
  fn: (core: CoreSwapClient, api: DlmmApi | undefined) => Promise<number>,
): Promise<number> {
  const run = async (hosts: { apiHost?: string; readOnlyHost?: string }, api?: DlmmApi) => {
    // Loaded here, not at start: the client's schemas (zod) and codec (@stacks/transactions) serve only
    // the commands that ask the core swap API.
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    const client = require('../../core/api/coreClient') as typeof import('../../core/api/coreClient');
    let core: CoreSwapClient;
    try {
      core = client.createCoreSwapClient(hosts, io.env);
    } catch (e) {
      throw new UsageError(
        `${e instanceof Error ? e.message : String(e)}; give --core-api URL (or BITFLOW_API_HOST) and READONLY_CALL_API_HOST, or use --sim`,
      );
    }
    try {
      return await fn(core, api);
    } catch (e) {
      return apiErrorExit(e, io);
    } finally {
      const s = core.stats();
      io.err(`dlmm: core swap API and node: ${s.requests} request(s)\n`);
      await core.close();
    }
  };
  const nodeFallback = io.env.READONLY_CALL_API_HOST ? undefined : io.env.DLMM_NODE_URL || undefined;
  const hosts = {
    ...(coreFlag ? { apiHost: coreFlag } : {}),
    ...(nodeFallback ? { readOnlyHost: nodeFallback } : {}),
  };
  if (!hasApiConfigured(common, io)) return run(hosts);
  return withApi(common, io, (api, ctx) =>
    run(ctx.sim ? { apiHost: ctx.sim.coreUrl, readOnlyHost: ctx.sim.nodeUrl } : hosts, api),
  );
}

/** A core token by library id, symbol (case-insensitive) or contract. */
export function resolveCoreToken(tokens: CoreToken[], text: string, flag: string): CoreToken {
  const exact = tokens.find((t) => t.tokenId === text || t.contract === text);
  if (exact) return exact;
  const bySymbol = tokens.filter((t) => t.symbol.toLowerCase() === text.toLowerCase());
  if (bySymbol.length === 1) return bySymbol[0] as CoreToken;
  if (bySymbol.length > 1)
    throw new UsageError(`${flag} '${text}' matches ${bySymbol.length} tokens; give the token id`);
  throw new UsageError(
    `${flag} '${text}' is not a token of the core swap API (known: ${tokens.map((t) => `${t.symbol} (${t.tokenId})`).join(', ') || 'none'})`,
  );
}
