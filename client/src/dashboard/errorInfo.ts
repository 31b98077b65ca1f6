/** Turns failures into the dashboard's ErrorInfo: what was found and what to do (never a bare string). */
import { isApiError, type ApiError, type ApiErrorCode } from '../../../core/api/errors';
import type { ErrorInfo } from '../../../webview/src/protocol';

/** The engine is not configured: nothing to read from. */
export function noEngineError(): ErrorInfo {
  return {
    code: 'no-engine',
    message: 'No DLMM engine is configured, so there is nothing to show.',
    action: 'Set "dlmm.apiUrl" in the settings, or start the embedded simulator, then press Retry.',
  };
}

/** What was found (after "Could not <what>: ") and what to do, per ApiError code; others: the error's message. */
const API_ERRORS: Partial<Record<ApiErrorCode, (e: ApiError, where: string) => [string, string]>> = {
  unreachable: (_e, where) => [
    `the engine did not answer (${where}).`,
    'Check that the engine (or the simulator) is running and "dlmm.apiUrl" points to it, then press Retry.',
  ],
  'rate-limited': (_e, where) => [
    `the service kept answering 429 (rate limited) at ${where}.`,
    'Wait a few seconds and press Retry; an API key (X-API-Key) raises the limit.',
  ],
  'pool-not-found': (_e, where) => [
    `the engine does not know this pool (${where}).`,
    'Pick another pool; v2 wants the contract principal from the pools list, not a v1 id.',
  ],
  'not-ready': (e, where) => [
    `the engine is not ready (${e.context.detail ?? where}).`,
    'The engine is warming up; press Retry in a moment.',
  ],
  'unexpected-response': (e, where) => [
    `${where} answered an unexpected shape${e.context.field ? ` (field ${e.context.field})` : ''}.`,
    'Check that "dlmm.apiUrl" points to a v2 engine (it ends in /api).',
  ],
  'inventory-unavailable': (e) => [
    `inventory unavailable (${e.context.fault ?? 'unknown fault'}); this is not an empty book.`,
    'Wait for the inventory to catch up, then press Retry.',
  ],
};

/** Maps an ApiError (or anything thrown) while doing `what` to a message with an action. */
export function toErrorInfo(e: unknown, what: string): ErrorInfo {
  if (isApiError(e)) {
    const [found, action] = API_ERRORS[e.code]?.(e, e.context.endpoint) ?? [
      e.message,
      'Press Retry; if it persists, check the engine logs.',
    ];
    return { code: e.code, message: `Could not ${what}: ${found}`, action };
  }
  const text = e instanceof Error ? e.message : String(e);
  return {
    code: 'internal',
    message: `Could not ${what}: ${text}`,
    action: 'Press Retry; if it persists, reopen the dashboard and report the message.',
  };
}
