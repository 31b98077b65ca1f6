/**
 * Small HTTP plumbing for the simulated engine: JSON answers, exact JSON bodies (core/api/json.ts), a
 * typed HTTP error, and a route table matching `/a/:b/c` patterns. node:http only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { parseJsonExact, stringifyJsonExact } from '../api/json';

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

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/** A route table: `add('GET', '/quotes/v2/bins/:pool/:bin', h)`; `:name` matches one path segment. */
export class Router {
  private routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  /** The matching handler and params; `allowed` lists methods when only the method differed. */
  match(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | { allowed: string[] } | undefined {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = r.segments[i] as string;
        const part = parts[i] as string;
        if (seg.startsWith(':')) params[seg.slice(1)] = decodeSegment(part);
        else ok = seg === part;
      }
      if (!ok) continue;
      if (r.method !== method) {
        allowed.push(r.method);
        continue;
      }
      return { handler: r.handler, params };
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badRequest(`path segment '${part}' is not valid percent-encoding`);
  }
}

/** Largest request body accepted (a transaction hex or a quote is far below). */
export const MAX_BODY_BYTES = 1_000_000;

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

/** Writes a reply as JSON (bigint written exactly). */
export function writeReply(res: ServerResponse, reply: Reply): void {
  const text = reply.raw ?? stringifyJsonExact(reply.body ?? null);
  res.writeHead(reply.status ?? 200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': typeof text === 'string' ? Buffer.byteLength(text) : text.length,
    ...reply.headers,
  });
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
