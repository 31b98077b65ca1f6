/**
 * The webview's side of the protocol: a transport wrapper around acquireVsCodeApi (tests replace the
 * global), and a client that matches replies to requests and bounds every wait. The host's messages are
 * trusted (protocol.ts says why): only their envelope is checked, so the page loads no validator.
 */
import type {
  ErrorInfo,
  HostMessage,
  RequestMethod,
  RequestParams,
  RequestResult,
  WebviewMessage,
} from './protocol';

export interface Transport {
  post(msg: WebviewMessage): void;
  /** Registers the listener for messages from the host. */
  listen(handler: (data: unknown) => void): void;
  getState(): unknown;
  setState(state: unknown): void;
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The transport over VS Code's webview API (acquireVsCodeApi may be called once per document). */
export function vscodeTransport(): Transport {
  const api = acquireVsCodeApi();
  return {
    post: (msg) => api.postMessage(msg),
    listen: (handler) => window.addEventListener('message', (e: MessageEvent) => handler(e.data)),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
  };
}

/** A request that failed: carries what to tell the user. */
class RequestFailed extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

const REQUEST_TIMEOUT_MS = 20_000;

/** Requests with matched replies, plus notifications from the host. */
export class HostClient {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    {
      method: RequestMethod;
      resolve(v: unknown): void;
      reject(e: RequestFailed): void;
      timer: ReturnType<typeof setTimeout>;
    }
  >();
  private readonly listeners = new Set<(m: HostMessage) => void>();

  constructor(private readonly transport: Transport) {
    transport.listen((data) => this.onMessage(data));
  }

  /** Sends a request and resolves with the validated result; rejects (never hangs) after the timeout. */
  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.nextId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new RequestFailed({
            code: 'timeout',
            message: `The extension did not answer "${method}" within ${Math.round(REQUEST_TIMEOUT_MS / 1000)} s.`,
            action: 'Press Retry; if it keeps happening, reload the window (Developer: Reload Window).',
          }),
        );
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, timer });
      this.transport.post({ type: 'request', id, method, params });
    });
  }

  /** Fire-and-forget messages (ready, selectPool, revealRange, exportSwap). */
  send(msg: Exclude<WebviewMessage, { type: 'request' }>): void {
    this.transport.post(msg);
  }

  onNotification(listener: (m: HostMessage) => void): void {
    this.listeners.add(listener);
  }

  private onMessage(data: unknown): void {
    if (!isHostMessage(data)) {
      console.warn('dlmm dashboard: ignored a message that is not from the extension');
      return;
    }
    const msg = data;
    if (msg.type === 'reply' || msg.type === 'replyError') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.type === 'replyError') return p.reject(new RequestFailed(msg.error));
      p.resolve(msg.result);
      return;
    }
    for (const l of this.listeners) l(msg);
  }
}

/** Every host message type (a Record, so a new one in protocol.ts must be listed here to compile). */
const HOST_TYPES: Record<HostMessage['type'], true> = {
  init: true,
  reply: true,
  replyError: true,
  stateChanged: true,
  showPool: true,
  planChanged: true,
  notice: true,
};

/** The envelope of a host message (other windows' messages, e.g. from extensions in the page, are not). */
function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { type?: unknown; id?: unknown; error?: unknown };
  if (typeof m.type !== 'string' || !Object.hasOwn(HOST_TYPES, m.type)) return false;
  if (m.type === 'reply' || m.type === 'replyError') return typeof m.id === 'number';
  return true;
}

/** ErrorInfo of anything a request rejected with. */
export function errorInfoOf(e: unknown): ErrorInfo {
  if (e instanceof RequestFailed) return e.info;
  return {
    code: 'internal',
    message: e instanceof Error ? e.message : String(e),
    action: 'Press Retry; if it persists, reopen the dashboard.',
  };
}
