/**
 * Reading bodies at the boundary: exact JSON, zod validation with the failing field named, tolerant list
 * shapes (a bare array or an object holding it under the resource's name), and 'Pool not found' answers.
 */
import type { z } from 'zod';
import { ApiError } from './errors';
import { isJsonDecimal, JsonSyntaxError, parseJsonExact } from './json';
import { escapeControl } from '../text/safe';

/** How every answer is read: integers exact, a fraction or an exponent kept as its text (json.ts). */
const EXACT = { keepDecimals: true } as const;

/** Parses a body exactly; malformed JSON is an unexpected-response naming the endpoint and position. */
export function parseBody(endpoint: string, status: number, text: string): unknown {
  try {
    return parseJsonExact(text, EXACT);
  } catch (e) {
    const why = e instanceof JsonSyntaxError ? e.message : String(e);
    throw new ApiError('unexpected-response', `${endpoint}: the body is not valid JSON (${why}).`, {
      endpoint,
      status,
      detail: why,
    });
  }
}

/** A body read exactly, or undefined when it is empty or not JSON (an error answer's body, read if it can be). */
export function tryParse(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return parseJsonExact(text, EXACT);
  } catch {
    return undefined;
  }
}

/** Validates `value` (found at `prefix` inside the body) and names the first failing field. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  endpoint: string,
  prefix: Array<string | number> = [],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = deepestIssue(result.error.issues);
  const path = [...prefix, ...(issue?.path ?? [])];
  const field = path.length > 0 ? path.map(String).join('.') : '(body)';
  const at = pick(value, issue?.path ?? []);
  const why =
    at === undefined ? 'is missing' : `${issue?.message ?? 'is invalid'} (found ${describeValue(at)})`;
  throw new ApiError(
    'unexpected-response',
    `${endpoint}: unexpected response, field '${field}' ${why}. ` +
      'The service may be a different version than this client supports.',
    { endpoint, field, detail: issue?.message },
  );
}

/** An answer not believed for one field: `<endpoint>: unexpected response, field '<field>' <what>`. */
export function unexpectedField(endpoint: string, field: string, what: string, status?: number): ApiError {
  return new ApiError('unexpected-response', `${endpoint}: unexpected response, field '${field}' ${what}`, {
    endpoint,
    field,
    ...(status !== undefined ? { status } : {}),
  });
}

/**
 * Reads a list resource: a bare array, or an object holding the array under one of `names`
 * (e.g. `{"tokens": [...]}`), then validates every item.
 */
export function readList<S extends z.ZodType>(
  body: unknown,
  names: string[],
  item: S,
  endpoint: string,
): Array<z.output<S>> {
  if (Array.isArray(body)) return body.map((v, i) => validate(item, v, endpoint, [i]));
  if (isRecord(body)) {
    for (const name of names) {
      const list = body[name];
      if (Array.isArray(list)) return list.map((v, i) => validate(item, v, endpoint, [name, i]));
    }
  }
  throw new ApiError(
    'unexpected-response',
    `${endpoint}: expected a list, or an object holding it under '${names.join("' or '")}', found ${describeValue(body)}.`,
    { endpoint, field: names[0] ?? '(body)' },
  );
}

/**
 * Rejects a bin list (a body's `bins`) in which one bin id appears twice: which entry is true cannot be
 * known, so the list is not believed (never "the last one wins").
 */
export function rejectDuplicateBins<T extends { bin_id: number }>(
  bins: readonly T[],
  endpoint: string,
): void {
  const seen = new Map<number, number>();
  bins.forEach((b, i) => {
    const first = seen.get(b.bin_id);
    if (first !== undefined) {
      throw unexpectedField(
        endpoint,
        `bins.${i}.bin_id`,
        `repeats bin ${b.bin_id} (also at bins.${first}); a list with duplicate bins is not used.`,
      );
    }
    seen.set(b.bin_id, i);
  });
}

/** The text of a body's error/message fields when it says 'Pool not found'. */
export function poolNotFoundText(body: unknown, rawText: string): string | undefined {
  if (isRecord(body)) {
    for (const k of ['error', 'message', 'detail']) {
      const v = body[k];
      if (typeof v === 'string' && /pool not found/i.test(v)) return v;
    }
    return undefined;
  }
  return /pool not found/i.test(rawText) ? 'Pool not found' : undefined;
}

/** True for HTTP 200 answers with an empty bin list and 'Pool not found' (generation mixing). */
export function isEmptyPoolNotFound(body: unknown, rawText: string): boolean {
  if (!isRecord(body)) return false;
  const bins = body.bins;
  return (
    (bins === undefined || bins === null || (Array.isArray(bins) && bins.length === 0)) &&
    poolNotFoundText(body, rawText) !== undefined
  );
}

/**
 * The refused fields of a FastAPI 422 body `{detail: [{loc, msg, type}]}` (published HTTPValidationError),
 * e.g. "body.amount_in: Input should be a valid string (string_type)"; undefined for any other body.
 * Control characters are escaped (the transport already redacted the key).
 */
export function validationDetail(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.detail) || body.detail.length === 0) return undefined;
  const parts: string[] = [];
  for (const d of body.detail) {
    if (!isRecord(d) || !Array.isArray(d.loc) || typeof d.msg !== 'string') return undefined;
    const loc = d.loc.map((x) => String(x)).join('.');
    const type = typeof d.type === 'string' ? ` (${d.type})` : '';
    parts.push(`${loc}: ${d.msg}${type}`);
  }
  return escapeControl(parts.join('; ').slice(0, 300));
}

/** The `loc` paths a FastAPI 422 body refuses, each as its last name (e.g. 'amount_in'). */
export function refusedFields(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.detail)) return [];
  return body.detail
    .map((d) => (isRecord(d) && Array.isArray(d.loc) ? d.loc.map(String) : []))
    .filter((loc) => loc.length > 0)
    .map((loc) => loc[loc.length - 1] as string);
}

/** A short human reason from an error body ({error|message|detail|code}, a FastAPI 422) or its text. */
export function errorDetail(body: unknown, rawText: string): string {
  const validation = validationDetail(body);
  if (validation !== undefined) return validation;
  if (isRecord(body)) {
    const parts = ['code', 'error', 'message', 'detail', 'reason']
      .map((k) => body[k])
      .filter((v): v is string => typeof v === 'string' && v.length > 0);
    if (parts.length > 0) return [...new Set(parts)].join(': ').slice(0, 300);
  }
  return rawText.trim().slice(0, 200) || '(empty body)';
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/** The first issue, with union issues replaced by the branch that got furthest (it names the field best). */
function deepestIssue(issues: readonly Issue[]): Issue | undefined {
  const first = issues[0];
  if (!first) return undefined;
  if (first.code === 'invalid_union' && first.errors && first.errors.length > 0) {
    const inner = first.errors
      .map((branch) => deepestIssue(branch))
      .filter((i): i is Issue => i !== undefined);
    const deepest = inner.sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest && deepest.path.length > 0) return { ...deepest, path: [...first.path, ...deepest.path] };
    // No branch got inside the value: a branch whose type matched says why the value itself is wrong.
    const matchedType = inner.find((i) => i.code !== 'invalid_type');
    if (matchedType) return { ...matchedType, path: first.path };
    const expected = [...new Set(inner.map((i) => /expected (\w+)/.exec(i.message)?.[1]).filter(Boolean))];
    return { ...first, message: expected.length > 0 ? `expected ${expected.join(' or ')}` : first.message };
  }
  return first;
}

/** The value at `path` inside `value`, or undefined where the path leaves the objects. */
export function pick(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur = value;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (isJsonDecimal(v)) return `number ${v.text.length > 40 ? v.text.slice(0, 40) + '…' : v.text}`;
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  return `${typeof v} ${String(v)}`;
}
