/**
 * One API client per distinct endpoint set, shared by every document that uses it (so its cache and
 * rate limiter are shared too). The key is never part of the pool key, a log line or an error.
 */
import type { ApiClientOptions, DlmmApi } from '../../core/api/types';
import type { ServerSettings } from '../../protocol/messages';

export type ApiFactory = (opts: ApiClientOptions) => DlmmApi;

export class ApiPool {
  private readonly clients = new Map<string, DlmmApi>();
  private apiKey: string | undefined;

  constructor(
    private readonly create: ApiFactory,
    apiKey: string | undefined,
    private readonly log: (line: string) => void,
    /** The machine-wide node cache directory for a node URL (core/api/nodeStore.ts), if any. */
    private readonly cacheDirFor: (nodeUrl: string | undefined) => string | undefined,
    /** How long a status answer is reused (the engine watch refreshes it); absent: the client's default. */
    private readonly statusTtlMs?: number,
  ) {
    this.apiKey = apiKey || undefined;
  }

  /** The client for these settings, or undefined when no API URL is configured (offline). */
  get(settings: ServerSettings): DlmmApi | undefined {
    if (!settings.apiUrl) return undefined;
    const key = [settings.apiUrl, settings.inventoryUrl ?? '', settings.nodeUrl ?? ''].join('\n');
    let api = this.clients.get(key);
    if (!api) {
      const cacheDir = this.cacheDirFor(settings.nodeUrl);
      api = this.create({
        baseUrl: settings.apiUrl,
        inventoryUrl: settings.inventoryUrl,
        nodeUrl: settings.nodeUrl,
        apiKey: this.apiKey,
        log: this.log,
        ...(cacheDir !== undefined ? { cacheDir } : {}),
        ...(this.statusTtlMs !== undefined ? { statusTtlMs: this.statusTtlMs } : {}),
      });
      this.clients.set(key, api);
    }
    return api;
  }

  /** The configured secrets, for redaction of everything the server publishes. */
  secrets(): string[] {
    return this.apiKey ? [this.apiKey] : [];
  }

  /** Every client in use. */
  all(): DlmmApi[] {
    return [...this.clients.values()];
  }

  /** A new key drops every client (their limiters and caches were built for the old one). */
  setApiKey(apiKey: string | null): void {
    const next = apiKey || undefined;
    if (next === this.apiKey) return;
    this.apiKey = next;
    this.reset();
  }

  /**
   * Settings changed (or the key): forgets every client, rebuilt on next use, and closes it: requests it has
   * on the wire finish (the transport's graceful close), its sockets and on-disk pacing are released. The
   * analyses still using it are cancelled by the service's revalidation that follows every reset, so their
   * queued reads leave its limiters.
   */
  reset(): void {
    const old = [...this.clients.values()];
    this.clients.clear();
    for (const api of old) void api.close?.().catch(() => undefined);
  }
}
