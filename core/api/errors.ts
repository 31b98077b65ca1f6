/** Typed API errors: values with a code and context, never bare strings. */

/** The market-maker inventory's fault codes (its 503 bodies; the simulator's world names the same). */
export const INVENTORY_FAULTS = ['TIP_LAG', 'RECONCILE_DIRTY', 'INCOMPLETE'] as const;
export type InventoryFault = (typeof INVENTORY_FAULTS)[number];

/** The `detail` of failures.ts notTheService's error (core/live/live.ts reads it without loading the schemas). */
export const NOT_THE_SERVICE = 'not the service';

/**
 * Every code of a service error: commands print it in brackets after the message (`dlmm: ... [http-error]`),
 * and docs/diagnostics.md lists each.
 */
export const API_ERROR_CODES = [
  'pool-not-found', // 404, or HTTP 200 with empty bins and 'Pool not found'
  'inventory-unavailable', // inventory 503 TIP_LAG | RECONCILE_DIRTY | INCOMPLETE (never an empty book)
  'tip-unknown', // status tip_lag is null where a tip gate was required
  'unreachable', // timeout, refused, DNS, reset
  'rate-limited', // 429 after the client's retries
  'not-ready', // a readiness gate said not ready (503 on /ready, or ready:false)
  'no-route', // the quote engine found no route for the pair/amount (swap-no-route)
  'http-error', // any other non-2xx status
  'unexpected-response', // a body failed its schema (endpoint + field in context)
  'cancelled', // every caller that needed the read gave up (its document was closed or edited)
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

interface ApiErrorContext {
  /** Method and path relative to the base, e.g. "GET /quotes/v2/bins/dlmm_1". Never includes keys. */
  endpoint: string;
  status?: number;
  /** For unexpected-response: the dotted path of the field at fault, e.g. "bins.3.reserve_x". */
  field?: string;
  /** For inventory-unavailable. */
  fault?: InventoryFault;
  /** Extra facts for messages (tip lag, retry count, ...). */
  detail?: string;
  /** For a FastAPI 422: the names of the request fields the service refused (last part of each loc). */
  refused?: string[];
}

/** An error from the service (or our simulated engine), with a stable code and its context. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly context: ApiErrorContext,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Type guard for ApiError (works across bundles, where instanceof may not). */
export function isApiError(e: unknown): e is ApiError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ApiError' && 'code' in e;
}

/**
 * The error a cancelled read rejects with: the abort reason when it is one already, else a new one. A
 * cancelled read is never a verdict on the service; the analysis that asked for it is thrown away.
 */
export function cancelledError(signal?: AbortSignal): ApiError {
  const reason: unknown = signal?.reason;
  if (isApiError(reason) && reason.code === 'cancelled') return reason;
  return new ApiError('cancelled', 'the read was cancelled: nothing that asked for it needs it any more', {
    endpoint: '',
  });
}

/** True for the rejection of a cancelled read. */
export function isCancelled(e: unknown): boolean {
  return isApiError(e) && e.code === 'cancelled';
}
