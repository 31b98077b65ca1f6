/** Turns failures into the dashboard's ErrorInfo: what was found and what to do (never a bare string). */
import { isApiError } from '../../../core/api/errors';
import type { ErrorInfo } from '../../../webview/src/protocol';

/** The engine is not configured: nothing to read from. */
export function noEngineError(): ErrorInfo {
  return {
    code: 'no-engine',
    message: 'No DLMM engine is configured, so there is nothing to show.',
    action: 'Set "dlmm.apiUrl" in the settings, or start the embedded simulator, then press Retry.',
  };
}

/** Maps an ApiError (or anything thrown) while doing `what` to a message with an action. */
export function toErrorInfo(e: unknown, what: string): ErrorInfo {
  if (isApiError(e)) {
    const where = e.context.endpoint;
    switch (e.code) {
      case 'unreachable':
        return {
          code: e.code,
          message: `Could not ${what}: the engine did not answer (${where}).`,
          action:
            'Check that the engine (or the simulator) is running and "dlmm.apiUrl" points to it, then press Retry.',
        };
      case 'rate-limited':
        return {
          code: e.code,
          message: `Could not ${what}: the service kept answering 429 (rate limited) at ${where}.`,
          action: 'Wait a few seconds and press Retry; an API key (X-API-Key) raises the limit.',
        };
      case 'pool-not-found':
        return {
          code: e.code,
          message: `Could not ${what}: the engine does not know this pool (${where}).`,
          action: 'Pick another pool; v2 wants the contract principal from the pools list, not a v1 id.',
        };
      case 'not-ready':
        return {
          code: e.code,
          message: `Could not ${what}: the engine is not ready (${e.context.detail ?? where}).`,
          action: 'The engine is warming up; press Retry in a moment.',
        };
      case 'unexpected-response':
        return {
          code: e.code,
          message: `Could not ${what}: ${where} answered an unexpected shape${e.context.field ? ` (field ${e.context.field})` : ''}.`,
          action: 'Check that "dlmm.apiUrl" points to a v2 engine (it ends in /api).',
        };
      case 'inventory-unavailable':
        return {
          code: e.code,
          message: `Could not ${what}: inventory unavailable (${e.context.fault ?? 'unknown fault'}); this is not an empty book.`,
          action: 'Wait for the inventory to catch up, then press Retry.',
        };
      default:
        return {
          code: e.code,
          message: `Could not ${what}: ${e.message}`,
          action: 'Press Retry; if it persists, check the engine logs.',
        };
    }
  }
  const text = e instanceof Error ? e.message : String(e);
  return {
    code: 'internal',
    message: `Could not ${what}: ${text}`,
    action: 'Press Retry; if it persists, reopen the dashboard and report the message.',
  };
}
