/**
 * A one-time wallet session: a small HTTP server on 127.0.0.1 that serves the wallet page under a random
 * token and takes the wallet's answers back. Everything lives under `/<token>/`:
 *   GET  /<token>/          the page (CSP with a nonce; no remote resource)
 *   POST /<token>/unsigned  exact-nonce mode: the unsigned transactions for the wallet account's public key
 *   POST /<token>/answer    one answer (txid, signed transaction, or the wallet's error code)
 *   POST /<token>/done      the user is done: the server closes
 * Every other path, and a wrong token, is 404. The server closes when the user is done, when `close()` is
 * called, or after the time limit (15 minutes by default). Nothing is signed or broadcast here: the page
 * hands requests to the user's wallet, and only answers come back.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddressFromPublicKey } from '@stacks/transactions';
import { txHexes, walletRequest } from '../tx/formats';
import { amountText, summaryText } from '../tx/summary';
import type { BuiltTransaction } from '../tx/types';
import {
  allAnswered,
  unsignedRequestSchema,
  walletAnswerSchema,
  type AnswerLabel,
  type WalletAnswer,
} from './answers';
import { pageCsp, walletPageHtml, type WalletPageData } from './page';

export const DEFAULT_SESSION_MS = 15 * 60_000;
/**
 * Largest request body: an answer with a signed transaction (a multi-bin add or withdraw serializes to tens
 * of KB; the router takes at most a few hundred bins) stays well below it.
 */
export const MAX_BODY = 1024 * 1024;

interface WalletSessionOptions {
  transactions: BuiltTransaction[];
  /** The plan's sender: the wallet account must be this address. */
  sender: string;
  /** Plan file name for the page title (no directories). */
  plan: string;
  /** The browser script (dist/wallet-page.js), inlined with the page's nonce. */
  script: string;
  /** 0 or undefined: a random free port. */
  port?: number;
  /** Session lifetime in ms (15 minutes by default). */
  timeoutMs?: number;
  /** Called for every answer as it arrives (in arrival order). */
  onAnswer?: (answer: WalletAnswer, labels: readonly AnswerLabel[]) => void;
}

type SessionEnd = 'done' | 'timeout' | 'closed';

export interface SessionOutcome {
  end: SessionEnd;
  answers: WalletAnswer[];
}

export interface WalletSession {
  /** `http://127.0.0.1:PORT/<token>/` */
  url: string;
  port: number;
  labels: AnswerLabel[];
  /** Settles once the server has closed. */
  done: Promise<SessionOutcome>;
  /**
   * Also accept requests made through `externalUrl`, the address the editor handed to the browser when it
   * is not this loopback one (code-server's `/proxy/PORT/` forwarding keeps the browser's Host and Origin:
   * `asExternalUri`'s origin). Only its host and origin are added; the token still guards every path.
   */
  allowExternal(externalUrl: string): void;
  close(): Promise<SessionOutcome>;
}

/** One label per transaction ("asks (add, strict)"), for the page and the answer lines. */
function transactionLabel(tx: BuiltTransaction): string {
  const part = tx.parts > 1 ? `, part ${tx.part}/${tx.parts}` : '';
  return `${tx.opId} (${tx.op}${tx.mode === 'swap' ? '' : `, ${tx.mode}`}${part})`;
}

/** The page's data: each transaction's stx_callContract request with the sender as `address`. */
function walletPageData(txs: BuiltTransaction[], sender: string, plan: string): WalletPageData {
  const network = txs[0]?.network ?? 'mainnet';
  return {
    sender,
    network,
    plan,
    transactions: txs.map((tx) => {
      const r = walletRequest(tx);
      return {
        label: transactionLabel(tx),
        request: { method: r.method, params: { ...r.params, address: sender } },
        approve: {
          postConditions: tx.postConditionWords,
          totals: tx.totals.map((a) => `${a.label} ${amountText(a)}`),
        },
      };
    }),
  };
}

/** Starts the server and resolves once it listens. */
export async function startWalletSession(opts: WalletSessionOptions): Promise<WalletSession> {
  const txs = opts.transactions;
  if (txs.length === 0) throw new RangeError('no transactions to send');
  const token = randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const data = walletPageData(txs, opts.sender, opts.plan);
  const summary = summaryText(txs);
  const labels: AnswerLabel[] = txs.map((t) => ({ operation: t.opId, part: t.part, parts: t.parts }));
  const answers: WalletAnswer[] = [];

  let finish!: (end: SessionEnd) => void;
  const done = new Promise<SessionOutcome>((resolve) => {
    let ended = false;
    finish = (end) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      server.close(() => resolve({ end, answers: [...answers] }));
      server.closeAllConnections();
    };
  });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  const timer = setTimeout(() => finish('timeout'), opts.timeoutMs ?? DEFAULT_SESSION_MS);
  timer.unref?.();

  /** The path's action when its first segment is the token; undefined otherwise (404). */
  function route(url: string | undefined): string | undefined {
    const path = (url ?? '').split('?')[0]!;
    const m = /^\/([^/]+)\/([a-z]*)$/.exec(path);
    if (!m) return undefined;
    const given = Buffer.from(m[1]!);
    if (given.length !== tokenBytes.length || !timingSafeEqual(given, tokenBytes)) return undefined;
    return m[2]!;
  }

  /** Hosts (`host:port`, lower case) and origins requests may name: this server's, and any allowed since. */
  const hosts = new Set<string>();
  const origins = new Set<string>();

  /** Why the request is refused before its path is looked at (DNS rebinding, a cross-site page), or undefined. */
  function foreign(req: IncomingMessage): string | undefined {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) return 'this page answers only at its own address';
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return 'this page answers only requests from its own page';
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = foreign(req);
    if (refusal !== undefined) {
      send(res, 403, 'text/plain', refusal);
      return;
    }
    const action = route(req.url);
    if (action === '' && (req.method === 'GET' || req.method === 'HEAD')) {
      const nonce = randomBytes(18).toString('base64');
      const html = walletPageHtml(data, summary, opts.script, nonce);
      send(res, 200, 'text/html; charset=utf-8', req.method === 'HEAD' ? '' : html, {
        'Content-Security-Policy': pageCsp(nonce),
      });
      return;
    }
    if (req.method !== 'POST' || (action !== 'answer' && action !== 'unsigned' && action !== 'done')) {
      send(res, 404, 'text/plain', 'not found');
      return;
    }
    const body = await readJson(req);
    if (body === TOO_LARGE) {
      sendJson(res, 413, { ok: false, message: 'the body is too large' });
      return;
    }
    if (body === undefined) {
      sendJson(res, 400, { ok: false, message: 'expected a JSON body' });
      return;
    }
    if (action === 'answer') {
      if (allAnswered(answers, txs.length)) {
        // Every transaction has its txid or signed transaction: the session is complete, nothing replaces them.
        sendJson(res, 409, { ok: false, message: 'the session is complete' });
        return;
      }
      const parsed = walletAnswerSchema.safeParse(body);
      if (!parsed.success || (parsed.data.index !== null && parsed.data.index >= txs.length)) {
        sendJson(res, 400, { ok: false, message: 'not an answer' });
        return;
      }
      answers.push(parsed.data);
      opts.onAnswer?.(parsed.data, labels);
      sendJson(res, 200, { ok: true });
      return;
    }
    if (action === 'unsigned') {
      const parsed = unsignedRequestSchema.safeParse(body);
      if (!parsed.success) {
        sendJson(res, 400, { ok: false, message: parsed.error.issues[0]?.message });
        return;
      }
      const result = await unsignedFor(txs, opts.sender, parsed.data);
      sendJson(res, result.ok ? 200 : 400, result);
      return;
    }
    // Answer first, then close: the page sees its "done" acknowledged.
    res.on('finish', () => finish('done'));
    sendJson(res, 200, { ok: true });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts.add(`127.0.0.1:${port}`);
  origins.add(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    labels,
    done,
    allowExternal: (externalUrl: string) => {
      const u = new URL(externalUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return;
      // URL drops a default port from `host`; a browser's Host header does too.
      hosts.add(u.host.toLowerCase());
      origins.add(u.origin.toLowerCase());
    },
    close: () => {
      finish('closed');
      return done;
    },
  };
}

/** Exact-nonce mode: unsigned transactions for this public key, which must be the plan's sender's. */
async function unsignedFor(
  txs: BuiltTransaction[],
  sender: string,
  req: { publicKey: string; nonce: string; fee: string },
): Promise<{ ok: true; transactions: string[] } | { ok: false; message: string }> {
  const publicKey = req.publicKey.replace(/^0x/, '');
  const network = txs[0]?.network ?? 'mainnet';
  let address: string;
  try {
    address = getAddressFromPublicKey(publicKey, network);
  } catch {
    return { ok: false, message: 'the wallet gave a public key that is not a secp256k1 key' };
  }
  if (address !== sender) {
    return {
      ok: false,
      message: `the wallet account's public key belongs to ${address}, but the plan's sender is ${sender}`,
    };
  }
  const transactions = await txHexes(txs, { publicKey, nonce: BigInt(req.nonce), fee: BigInt(req.fee) });
  return { ok: true, transactions };
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    ...headers,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json', JSON.stringify(value));
}

const TOO_LARGE = Symbol('too large');

/** The request's JSON body (at most MAX_BODY bytes); undefined when it is not JSON. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY) return TOO_LARGE;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return TOO_LARGE;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
