/**
 * The client's own API client (commands and the dashboard read the engine directly through core's
 * DlmmApi): rebuilt when settings, the simulator or the API key change. The key comes from SecretStorage
 * only and is never logged.
 */
import * as vscode from 'vscode';
import type { DlmmApi } from '../../core/api/types';
import type { ServerSettings } from '../../protocol/messages';

const API_KEY_SECRET = 'dlmm.apiKey';

export class ClientEngine implements vscode.Disposable {
  private api: DlmmApi | undefined;
  /** The client is built on first use (its HTTP stack is not needed to activate). */
  private stale = true;
  private apiKey: string | undefined;
  private settings: ServerSettings = {};
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the API client was rebuilt (new endpoint or key). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads the stored key (call once at activation). */
  async loadKey(): Promise<string | undefined> {
    this.apiKey = (await this.secrets.get(API_KEY_SECRET)) || undefined;
    return this.apiKey;
  }

  /** Stores (or with '' deletes) the key; returns whether one is set now. */
  async setKey(key: string): Promise<boolean> {
    if (key) await this.secrets.store(API_KEY_SECRET, key);
    else await this.secrets.delete(API_KEY_SECRET);
    this.apiKey = key || undefined;
    this.rebuild();
    return this.apiKey !== undefined;
  }

  get key(): string | undefined {
    return this.apiKey;
  }

  /** New endpoints (settings or simulator changed). */
  configure(settings: ServerSettings): void {
    const same =
      settings.apiUrl === this.settings.apiUrl &&
      settings.inventoryUrl === this.settings.inventoryUrl &&
      settings.nodeUrl === this.settings.nodeUrl;
    this.settings = settings;
    if (!same) this.rebuild();
  }

  get currentSettings(): ServerSettings {
    return this.settings;
  }

  /** The API client, or undefined when no engine is configured. */
  get(): DlmmApi | undefined {
    if (this.stale) {
      this.stale = false;
      this.api = this.build();
    }
    return this.api;
  }

  private rebuild(): void {
    this.stale = true;
    this.api = undefined;
    this.changed.fire();
  }

  private build(): DlmmApi | undefined {
    const s = this.settings;
    if (!s.apiUrl) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load of the HTTP client (activation time)
    const { createApiClient } = require('../../core/api/client') as typeof import('../../core/api/client');
    return createApiClient({
      baseUrl: s.apiUrl,
      inventoryUrl: s.inventoryUrl,
      nodeUrl: s.nodeUrl,
      apiKey: this.apiKey,
      log: (line) => this.log(`[client] ${line}`),
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
