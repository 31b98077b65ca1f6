import type { Rule } from './rule';
import { transportFindings } from './liveErrors';

/** A response failed its schema: the message names endpoint and field. */
export const unexpectedResponse: Rule = {
  code: 'unexpected-response',
  needsLive: true,
  run: (ctx) =>
    transportFindings(
      ctx,
      'unexpected-response',
      'unexpected-response',
      (ep, msg) => `unexpected response from ${ep}: ${msg}`,
    ),
};
