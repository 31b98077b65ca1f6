/**
 * Small HTTP plumbing for the simulated engine: JSON answers, exact JSON bodies (core/api/json.ts), a
 * typed HTTP error, and a route table matching `/a/:b/c` patterns. node:http only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { parseJsonExact, stringifyJsonExact } from '../api/json';
import { pick } from '../api/validate';

/** An answer other than 2xx, thrown by handlers and written by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/** 400 with a JSON error naming what was wrong and what was expected. */
export function badRequest(message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, { success: false, error: message, code: 'BAD_REQUEST', ...extra });
}

/**
 * FastAPI's 422 for a required query parameter that is missing (`{detail: [{type, loc, msg, input}]}`), as
 * the real engine answers GET /quotes/v2/pairs without `input_token`.
 */
export function missingQuery(name: string): HttpError {
  return new HttpError(422, {
    detail: [{ type: 'missing', loc: ['query', name], msg: 'Field required', input: null }],
  });
}

/** A handler's answer: status (default 200), JSON body, extra headers. Or a pre-serialized body. */
export interface Reply {
  status?: number;
  body?: unknown;
  /** Already serialized JSON (cached answers; a Buffer skips re-encoding). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface RequestContext {
  req: IncomingMessage;
  method: string;
  /** Path below the server root, e.g. /api/quotes/v2/pools. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** Parsed JSON body (POST only), read exactly: big integers arrive as bigint. */
  body: () => Promise<unknown>;
}

type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  /** Per segment: the parameter name, or undefined for a literal segment. */
  paramNames: (string | undefined)[];
  handler: Handler;
}

/** A route table: `add('GET', '/quotes/v2/bins/:pool/:bin', h)`; `:name` matches one path segment. */
export class Router {
  /** Routes by segment count, in insertion order (only routes of the path's length can match). */
  private byLength = new Map<number, Route[]>();

  add(method: string, pattern: string, handler: Handler): this {
    const segments = pattern.split('/').filter(Boolean);
    const paramNames = segments.map((s) => (s.startsWith(':') ? s.slice(1) : undefined));
    const list = this.byLength.get(segments.length) ?? [];
    list.push({ method, segments, paramNames, handler });
    this.byLength.set(segments.length, list);
    return this;
  }

  /** The matching handler and params; `allowed` lists methods when only the method differed. */
  match(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | { allowed: string[] } | undefined {
    const parts = path.split('/').filter(Boolean);
    const routes = this.byLength.get(parts.length);
    if (routes === undefined) return undefined;
    // Segments are decoded at most once, and only when a route reaches them (a bad encoding is a 400
    // as soon as a route whose earlier literal segments match needs that segment as a parameter).
    const decoded: (string | undefined)[] = [];
    let allowed: string[] | undefined;
    for (const r of routes) {
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const name = r.paramNames[i];
        if (name === undefined) {
          if (r.segments[i] !== parts[i]) {
            ok = false;
            break;
          }
        } else if (decoded[i] === undefined) {
          decoded[i] = decodeSegment(parts[i] as string);
        }
      }
      if (!ok) continue;
      if (r.method !== method) {
        (allowed ??= []).push(r.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const name = r.paramNames[i];
        if (name !== undefined) params[name] = decoded[i] as string;
      }
      return { handler: r.handler, params };
    }
    return allowed !== undefined ? { allowed } : undefined;
  }
}

function decodeSegment(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    throw badRequest(`path segment '${part}' is not valid percent-encoding`);
  }
}

/** Largest request body accepted (a transaction hex or a quote is far below). */
const MAX_BODY_BYTES = 1_000_000;

/** Reads the request body as exact JSON; 400 on bad JSON, 413 when too large. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES)
      throw new HttpError(413, {
        success: false,
        error: `body above ${MAX_BODY_BYTES} bytes`,
        code: 'TOO_LARGE',
      });
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '')
    throw badRequest('expected a JSON body (Content-Type: application/json), got an empty body');
  try {
    return parseJsonExact(text);
  } catch (e) {
    throw badRequest(`body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Validates a body with a zod schema; 400 listing each problem with its field path. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  throw badRequest(`invalid ${what}: ${problems.join('; ')}`, { problems });
}

/**
 * Validates a body as FastAPI does: 422 `{detail: [{loc, msg, type, input}]}` (the published
 * HTTPValidationError of leather-io/mono bitflow-bff-api.types.ts), one entry per refused field, `loc`
 * starting with "body". An issue may carry its FastAPI type in `params.type` (e.g. string_type).
 */
export function parseFastApiBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  // A union refuses with one issue holding each branch's: the first branch's issues are the ones shown.
  type Issue = z.core.$ZodIssue;
  const flat = (issues: readonly Issue[]): Issue[] =>
    issues.flatMap((i) =>
      i.code === 'invalid_union' && i.errors[0]
        ? flat(i.errors[0]).map((e) => ({ ...e, path: [...i.path, ...e.path] }))
        : [i],
    );
  const detail = flat(r.error.issues).map((i) => {
    const input = pick(value, i.path);
    const params = (i as { params?: { type?: string } }).params;
    const missing = input === undefined && i.code === 'invalid_type';
    return {
      loc: ['body', ...i.path.map((k) => (typeof k === 'symbol' ? String(k) : k))],
      msg: missing ? 'Field required' : i.message,
      type: params?.type ?? (missing ? 'missing' : i.code === 'invalid_type' ? 'type_error' : 'value_error'),
      ...(input !== undefined ? { input } : {}),
    };
  });
  throw new HttpError(422, { detail });
}

/** Writes a reply as JSON (bigint written exactly); the reply's own headers override `headers` (e.g. rate limits). */
export function writeReply(res: ServerResponse, reply: Reply, headers?: Record<string, string>): void {
  const text = reply.raw ?? stringifyJsonExact(reply.body ?? null);
  const all: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': typeof text === 'string' ? Buffer.byteLength(text) : text.length,
  };
  if (headers !== undefined) Object.assign(all, headers);
  if (reply.headers !== undefined) Object.assign(all, reply.headers);
  res.writeHead(reply.status ?? 200, all);
  res.end(text);
}

/** Is the peer on this machine (admin endpoints are loopback only)? */
export function isLoopback(address: string | undefined): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    (address?.startsWith('127.') ?? false)
  );
}
