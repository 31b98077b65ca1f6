import type { Rule } from './rule';
import { transportFindings } from './liveErrors';

/**
 * The service kept answering 429 after the client's retries, or a read was not sent because its pacing would
 * have waited longer than the client waits at most (core/api/limiter.ts MAX_PACING_WAIT_MS).
 */
export const rateLimited: Rule = {
  code: 'rate-limited',
  needsLive: true,
  run: (ctx) =>
    transportFindings(ctx, 'rate-limited', 'rate-limited', (ep, msg, e) =>
      e.status === 429
        ? `the service kept answering 429 for ${ep} after retries (${msg}); live checks are incomplete — wait, or use an API key (--api-key-env)`
        : `${ep} was not sent: ${msg} Live checks are incomplete.`,
    ),
};
