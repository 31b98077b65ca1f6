/** Typed failures the API client raises: each names the endpoint, what was found and what to do. */
import { ApiError, INVENTORY_FAULTS, NOT_THE_SERVICE, type InventoryFault } from './errors';
import { InventoryFaultSchema, type QuoteRequest } from './schemas';
import type { HttpRequest, HttpResponse } from './transport';
import { errorDetail, isRecord, refusedFields, validationDetail } from './validate';

/** The fault code of an inventory 503 body, if it has one of the three. */
export function faultOf(body: unknown): InventoryFault | undefined {
  const r = InventoryFaultSchema.safeParse(body);
  return r.success ? r.data.code : undefined;
}

/** Inventory 503 TIP_LAG / RECONCILE_DIRTY / INCOMPLETE (or clean: false): never an empty book. */
export function inventoryUnavailable(
  req: Pick<HttpRequest, 'endpoint'>,
  fault: InventoryFault,
  detail: string,
): ApiError {
  const why: Record<InventoryFault, string> = {
    TIP_LAG: 'its applied state lags the chain tip',
    RECONCILE_DIRTY: 'the book is not reconciled',
    INCOMPLETE: 'its data is incomplete',
  };
  return new ApiError(
    'inventory-unavailable',
    `${req.endpoint}: inventory unavailable (${fault}): ${why[fault]}. This is not an empty book; retry once the ` +
      'inventory has caught up.',
    { endpoint: req.endpoint, status: 503, fault, detail },
  );
}

/** The `errorCode` of an app v2 current-bins body (POOL_NOT_FOUND, RECONCILE_DIRTY, …), if it carries one. */
export function currentBinsFault(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const code = body.errorCode ?? body.error_code;
  return typeof code === 'string' && code.trim() !== '' ? code.trim() : undefined;
}

/**
 * current-bins answered with a fault code, or a 200 that fails its own gates: inventory-unavailable, never
 * an empty book. The three inventory codes keep their `fault`; another code is named in the message.
 */
export function currentBinsUnavailable(
  req: Pick<HttpRequest, 'endpoint'>,
  status: number,
  code: string | undefined,
  detail: string,
): ApiError {
  const fault = INVENTORY_FAULTS.find((k) => k === code);
  const shown = code !== undefined ? `errorCode ${code.slice(0, 40)}` : detail;
  return new ApiError(
    'inventory-unavailable',
    `${req.endpoint}: the owned-bin inventory is unavailable (HTTP ${status}, ${shown}). This is not an empty book; ` +
      'retry once it is reconciled and complete.',
    { endpoint: req.endpoint, status, ...(fault ? { fault } : {}), detail: code ?? detail },
  );
}

/** 404, or HTTP 200 with empty bins and 'Pool not found'. */
export function poolNotFound(
  req: Pick<HttpRequest, 'endpoint'>,
  pool: string,
  res: HttpResponse,
  text: string,
): ApiError {
  return new ApiError(
    'pool-not-found',
    `${req.endpoint}: the engine does not know pool '${pool}' (HTTP ${res.status}, '${text}'). Use a pool id from ` +
      '/quotes/v2/pools, and keep to one generation: v2 ids with v2 calls, v1 ids with v1 calls.',
    { endpoint: req.endpoint, status: res.status, detail: text },
  );
}

/** The engine has no route for the pair and amount. */
export function noRoute(
  req: Pick<HttpRequest, 'endpoint'>,
  q: QuoteRequest,
  detail: string | undefined,
): ApiError {
  return new ApiError(
    'no-route',
    `${req.endpoint}: the engine found no route from ${q.input_token} to ${q.output_token} for amount ${q.amount_in}.`,
    { endpoint: req.endpoint, detail },
  );
}

/** Any other non-2xx answer; a FastAPI 422 names the fields the service refused. */
export function httpError(req: Pick<HttpRequest, 'endpoint'>, res: HttpResponse, body: unknown): ApiError {
  const detail = errorDetail(body, res.text);
  const refused = res.status === 422 ? validationDetail(body) : undefined;
  const message =
    refused !== undefined
      ? `${req.endpoint}: HTTP 422, the service refused the request: ${refused}. ` +
        'This client and the service disagree on that field; report it with this message.'
      : `${req.endpoint}: HTTP ${res.status} (${detail}).`;
  return new ApiError('http-error', message, {
    endpoint: req.endpoint,
    status: res.status,
    detail,
    ...(res.status === 422 ? { refused: refusedFields(body) } : {}),
  });
}

/**
 * The service's own status or readiness path answered 404: the base URL is not the service's (a wrong path
 * prefix, another host's API). Said as such, with what the URL should end in, never as a missing pool.
 */
export function notTheService(
  req: Pick<HttpRequest, 'endpoint'>,
  res: HttpResponse,
  body: unknown,
  base: string,
): ApiError {
  const detail = errorDetail(body, res.text);
  return new ApiError(
    'http-error',
    `${req.endpoint}: HTTP 404 (${detail}): ${shownBase(base)} does not look like the DLMM service, which ` +
      `answers ${req.endpoint.replace(/^GET /, '')} below its base URL. Give the service's base URL, ending in /api ` +
      `just before /quotes/v2/... (e.g. https://bff.bitflowapis.finance/api, or the URL \`dlmm sim\` prints).`,
    { endpoint: req.endpoint, status: res.status, detail: NOT_THE_SERVICE },
  );
}

/** A base URL as shown in a message: scheme, host and path only (never user info, a query or a fragment). */
function shownBase(base: string): string {
  try {
    const u = new URL(base);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the service URL';
  }
}

/** An inventory or node read without its URL configured. */
export function notConfigured(what: 'inventory' | 'node', endpoint: string, envName: string): ApiError {
  return new ApiError(
    'unreachable',
    `${endpoint}: no ${what} URL is configured. Set ${envName} (or the matching setting) to read it.`,
    { endpoint, detail: 'not configured' },
  );
}
