/**
 * Settings per resource (vscode-eslint style): asked from the client with `workspace/configuration`,
 * validated, cached per document URI, dropped on `workspace/didChangeConfiguration`. A client that
 * answers nothing usable gets the environment's values (DLMM_API_URL, ...), as `dlmm lsp --stdio` promises.
 */
import { ServerSettingsSchema, type ServerSettings } from './protocolSchemas';

/** Reads the `dlmm` section for one resource from the client; undefined when the client cannot. */
export type ConfigurationReader = (uri: string) => Promise<unknown>;

/** Settings from the process environment (the standalone server's source); `warn` hears what was refused. */
export function settingsFromEnv(
  env: Record<string, string | undefined>,
  warn?: (message: string) => void,
): ServerSettings {
  const raw = {
    apiUrl: env.DLMM_API_URL || undefined,
    inventoryUrl: env.DLMM_INVENTORY_URL || undefined,
    nodeUrl: env.DLMM_NODE_URL || undefined,
    environment: 'env' as const,
  };
  const parsed = ServerSettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = { apiUrl: 'DLMM_API_URL', inventoryUrl: 'DLMM_INVENTORY_URL', nodeUrl: 'DLMM_NODE_URL' }[
    String(issue?.path[0]) as 'apiUrl'
  ];
  warn?.(
    `${name ?? 'the environment'} ${issue?.message ?? 'is not understood'}; offline checks only until it is fixed`,
  );
  return { environment: 'env' };
}

export class SettingsStore {
  private readonly cache = new Map<string, Promise<ServerSettings>>();

  constructor(
    private readonly read: ConfigurationReader | undefined,
    private readonly fallback: ServerSettings,
    private readonly warn: (message: string) => void,
  ) {}

  /** The settings that apply to `uri` (cached until `clear`). */
  get(uri: string): Promise<ServerSettings> {
    let s = this.cache.get(uri);
    if (!s) {
      s = this.load(uri);
      this.cache.set(uri, s);
    }
    return s;
  }

  /** Forget one resource (document closed) or all of them (settings changed). */
  clear(uri?: string): void {
    if (uri === undefined) this.cache.clear();
    else this.cache.delete(uri);
  }

  private async load(uri: string): Promise<ServerSettings> {
    if (!this.read) return this.fallback;
    let raw: unknown;
    try {
      raw = await this.read(uri);
    } catch {
      return this.fallback;
    }
    if (raw === null || raw === undefined || (typeof raw === 'object' && Object.keys(raw).length === 0))
      return this.fallback;
    const parsed = ServerSettingsSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.warn(
        `dlmm settings for ${uri} were not understood (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}); ` +
          'using the environment (DLMM_API_URL, ...) instead. Check the dlmm.* settings.',
      );
      return this.fallback;
    }
    return parsed.data;
  }
}
