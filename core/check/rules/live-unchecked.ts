/**
 * `live-unchecked`: the live rules did not run for this plan (checked offline by choice, or no service was
 * configured). One file-level warning says so and why, so a plan we could not check live is never shown
 * clean: an empty list of findings means the live rules ran and found nothing.
 */
import type { Finding } from '../../plan/diagnostics';
import type { ParsedPlan } from '../../plan/parse';
import { fileRange } from './rule';

/**
 * The finding for a plan whose live rules did not run; `why` says why and what to do, in the face's own
 * words (`--offline` on the command line, the `dlmm` settings in an editor).
 */
export function liveUncheckedFinding(parsed: ParsedPlan, why: string): Finding {
  const at = fileRange(parsed);
  return {
    code: 'live-unchecked',
    severity: 'warning',
    message:
      `the live rules did not run: ${why}. Only the offline rules ran: the pools' bins and active bins, the ` +
      "sender's positions and balances, and the plan's transactions executed on them were not checked, so " +
      'the absence of other findings does not mean the plan would succeed',
    offset: at.offset,
    length: at.length,
  };
}
