/**
 * HTTP transport of the API client over Node's own http client (node:http, node:https loaded only for an
 * https URL): one keep-alive agent per protocol, the client-side limiters, bounded retries (429 honouring
 * Retry-After, 5xx, dropped keep-alive sockets) and typed errors for what never produced an answer.
 * Interpreting bodies is the client's job; this layer only moves bytes. (Node's built-in client loads in a
 * few ms where undici took ~100 ms of CPU and its retained memory, in every `dlmm` process and the language
 * server.)
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type * as https from 'node:https';
import { redactSecrets } from '../text/safe';
import { ApiError, cancelledError } from './errors';
import type { ApiStats } from './types';
import { grantFromHeaders, retryAfterMs, type RateGrant, type RateLimiter } from './limiter';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Method and path for messages and logs, e.g. "GET /quotes/v2/status". Never holds a key. */
  endpoint: string;
  body?: string;
  /** Send X-API-Key (service requests only: the key is never handed to another host). */
  withKey: boolean;
  limiter: RateLimiter;
  /** A status that is an answer, not a failure to retry (a readiness 503, an inventory 503 with a code). */
  isAnswer?: (status: number, text: string) => boolean;
}

export interface HttpResponse {
  status: number;
  text: string;
  /** The answer's HTTP `Date` header (the server's clock, whole seconds), when it sent one. */
  date?: string;
}

interface TransportOptions {
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  maxRetryDelayMs: number;
  log?: (line: string) => void;
  /**
   * Pass each answer's rate-limit headers (X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After) to the
   * request's limiter, so pacing follows what the server grants (default true).
   */
  followRateHeaders?: boolean;
}

const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Errors of a kept-alive socket the server closed under us: safe to retry, every request here is a read. */
const RETRYABLE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
/** Sockets per host; an idle kept-alive socket is closed after KEEP_ALIVE_MS (it never holds the process). */
const MAX_SOCKETS = 16;
const KEEP_ALIVE_MS = 4_000;

/**
 * Agent options: kept-alive sockets, at most MAX_SOCKETS per host; the agent closes a socket idle in its free
 * list for `timeout` ms (a socket in use is bounded by the exchange's own timer, not by this).
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: KEEP_ALIVE_MS } as const;

export class Transport {
  private readonly httpAgent = new HttpAgent(AGENT_OPTIONS);
  private httpsAgent: https.Agent | undefined;
  private httpsModule: typeof https | undefined;
  /** Exchanges on the wire: close() lets them finish before the sockets go. */
  private readonly onWire = new Set<Promise<unknown>>();

  constructor(
    private readonly opts: TransportOptions,
    private readonly stats: ApiStats,
  ) {}

  /**
   * Sends with retries; resolves with the final answer (any status) or rejects unreachable / rate-limited.
   * When `signal` aborts, the request leaves the limiter's queue (or its HTTP exchange is abandoned, or its
   * retry wait ends) and this rejects with a 'cancelled' ApiError.
   */
  async send(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      const release = await req.limiter.acquire(signal);
      this.stats.requests++;
      const started = performance.now();
      let res: HttpResponse & { retryAfter?: string; grant: RateGrant };
      try {
        res = await this.once(req, signal);
      } catch (e) {
        release();
        if (signal?.aborted) throw cancelledError(signal);
        const code = errorCode(e);
        this.log(`${req.endpoint} failed ${code ?? 'error'} ${Math.round(performance.now() - started)}ms`);
        if (code !== undefined && RETRYABLE_SOCKET_CODES.has(code) && attempt < this.opts.maxRetries) {
          this.stats.retries++;
          await sleep(this.backoff(attempt), signal);
          continue;
        }
        throw this.unreachable(req, e);
      }
      // The server's word on its limit applies before this request's slot is counted as answered.
      // A Retry-After holds the other requests only on a 429 (on a 503 it speaks of the service, not of our
      // rate), and never longer than this transport would wait to retry.
      if (this.opts.followRateHeaders !== false) {
        const { retryAfterMs, ...grant } = res.grant;
        req.limiter.grant(
          res.status === 429 && retryAfterMs !== undefined
            ? { ...grant, retryAfterMs: Math.min(retryAfterMs, this.opts.maxRetryDelayMs) }
            : grant,
        );
      }
      release();
      this.log(`${req.endpoint} ${res.status} ${Math.round(performance.now() - started)}ms`);
      if (res.status === 429) {
        this.stats.rateLimited++;
        if (attempt < this.opts.maxRetries) {
          this.stats.retries++;
          await sleep(this.retryDelay(attempt, res.retryAfter), signal);
          continue;
        }
        throw new ApiError(
          'rate-limited',
          `${req.endpoint}: the service kept answering 429 Too Many Requests after ${attempt + 1} attempts. ` +
            'Wait a moment, or use an API key for a raised limit (--api-key-env NAME).',
          { endpoint: req.endpoint, status: 429, detail: `${attempt + 1} attempts` },
        );
      }
      if (res.status >= 500 && !req.isAnswer?.(res.status, res.text) && attempt < this.opts.maxRetries) {
        this.stats.retries++;
        await sleep(this.retryDelay(attempt, res.retryAfter), signal);
        continue;
      }
      return { status: res.status, text: res.text, ...(res.date !== undefined ? { date: res.date } : {}) };
    }
  }

  /** Releases the keep-alive sockets once the exchanges on the wire have finished. */
  async close(): Promise<void> {
    while (this.onWire.size > 0) await Promise.allSettled([...this.onWire]);
    this.httpAgent.destroy();
    this.httpsAgent?.destroy();
  }

  private async once(
    req: HttpRequest,
    signal: AbortSignal | undefined,
  ): Promise<HttpResponse & { retryAfter?: string; grant: RateGrant }> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'dlmm-studio' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (req.withKey && this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new TimeoutError(this.opts.timeoutMs)),
      this.opts.timeoutMs,
    );
    const onAbort = (): void => controller.abort(cancelledError(signal));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const exchange = this.exchange(req, headers, controller.signal);
    this.onWire.add(exchange);
    try {
      const res = await exchange;
      // A body that echoes our key (an error page quoting the request) never carries it further.
      const text = redactSecrets(res.text, [this.opts.apiKey]);
      const retryAfter = res.headers['retry-after'];
      const date = res.headers.date;
      return {
        status: res.status,
        text,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        ...(typeof date === 'string' ? { date } : {}),
        grant: grantFromHeaders(res.headers),
      };
    } finally {
      this.onWire.delete(exchange);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One HTTP exchange: the answer's status, headers and whole body (UTF-8), or the error that ended it. When
   * `abort` fires, the exchange is torn down and rejects with its reason (a timeout or a cancellation).
   */
  private exchange(
    req: HttpRequest,
    headers: Record<string, string>,
    abort: AbortSignal,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
    return new Promise((resolve, reject) => {
      if (abort.aborted) {
        reject(abort.reason);
        return;
      }
      let url: URL;
      try {
        url = new URL(req.url);
      } catch (e) {
        reject(e);
        return;
      }
      const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
      if (body) headers['content-length'] = String(body.length);
      const options = { method: req.method, headers };
      const out =
        url.protocol === 'https:'
          ? this.https().request(url, { ...options, agent: this.httpsAgentOf() })
          : httpRequest(url, { ...options, agent: this.httpAgent });
      const onAbort = (): void => {
        out.destroy(abort.reason instanceof Error ? abort.reason : new Error(String(abort.reason)));
      };
      abort.addEventListener('abort', onAbort, { once: true });
      const fail = (e: unknown): void => {
        abort.removeEventListener('abort', onAbort);
        reject(e);
      };
      out.on('error', fail);
      out.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            const e = Object.assign(new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`), {
              code: 'RESPONSE_TOO_LARGE',
            });
            res.destroy(e);
            out.destroy(e);
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('answer cut short'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          abort.removeEventListener('abort', onAbort);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks, size).toString('utf8'),
          });
        });
      });
      out.end(body);
    });
  }

  /** node:https, loaded on the first https request (TLS is not loaded for a loopback service). */
  private https(): typeof https {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
    this.httpsModule ??= require('node:https') as typeof https;
    return this.httpsModule;
  }

  private httpsAgentOf(): https.Agent {
    this.httpsAgent ??= new (this.https().Agent)(AGENT_OPTIONS);
    return this.httpsAgent;
  }

  private unreachable(req: HttpRequest, e: unknown): ApiError {
    const code = errorCode(e);
    const timedOut = e instanceof TimeoutError || code === 'ETIMEDOUT';
    const host = safeHost(req.url);
    const what = timedOut
      ? `no answer from ${host} within ${this.opts.timeoutMs} ms`
      : code === 'ECONNREFUSED'
        ? `connection to ${host} refused`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `host ${host} not found (DNS)`
          : `connection to ${host} failed (${code ?? (e instanceof Error ? e.message : String(e))})`;
    return new ApiError(
      'unreachable',
      `${req.endpoint}: ${what}. Check the service URL (--api or DLMM_API_URL) and that the service is running.`,
      { endpoint: req.endpoint, detail: timedOut ? 'timeout' : (code ?? 'network error') },
    );
  }

  private backoff(attempt: number): number {
    return Math.min(this.opts.maxRetryDelayMs, this.opts.retryBaseMs * 2 ** attempt);
  }

  /** Retry-After (seconds or an HTTP date) when given, else exponential backoff; always bounded. */
  private retryDelay(attempt: number, retryAfter: string | undefined): number {
    const ms = retryAfterMs(retryAfter);
    return ms !== undefined ? Math.min(this.opts.maxRetryDelayMs, ms) : this.backoff(attempt);
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  // A wrapped socket error: the system code sits on the error or its cause.
  for (let i = 0; i < 3 && typeof cur === 'object' && cur !== null; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the service';
  }
}

/** Waits `ms`; rejects with a 'cancelled' ApiError as soon as `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
