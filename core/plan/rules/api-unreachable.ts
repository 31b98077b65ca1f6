import type { Rule } from './rule';
import { transportFindings } from './transport';

/** Live data could not be read (timeout, refused, DNS): offline checks still ran. */
export const apiUnreachable: Rule = {
  code: 'api-unreachable',
  needsLive: true,
  run: (ctx) =>
    transportFindings(
      ctx,
      'api-unreachable',
      'unreachable',
      (ep, msg) =>
        `live data could not be read: ${ep} failed (${msg}); only offline checks ran — check --api / DLMM_API_URL or run with --offline`,
    ),
};
