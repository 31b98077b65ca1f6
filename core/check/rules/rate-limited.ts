import type { Rule } from './rule';
import { transportFindings } from './liveErrors';

/** The service kept answering 429 after the client's retries. */
export const rateLimited: Rule = {
  code: 'rate-limited',
  needsLive: true,
  run: (ctx) =>
    transportFindings(
      ctx,
      'rate-limited',
      'rate-limited',
      (ep, msg) =>
        `the service kept answering 429 for ${ep} after retries (${msg}); live checks are incomplete — wait, or use an API key (--api-key-env)`,
    ),
};
