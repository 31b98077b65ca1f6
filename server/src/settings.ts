/**
 * Settings per resource (vscode-eslint style), from every route a client may use (docs/editors.md): the
 * `dlmm` section answered to `workspace/configuration` (when the client offers it), else the one pushed in
 * `workspace/didChangeConfiguration` or given in `initializationOptions`, else the process environment
 * (DLMM_API_URL, ...), as `dlmm lsp --stdio` promises. Validated, resolved into URLs here for every client
 * (core/api/environment.ts; `simulator` starts the server's own simulated engine unless the client runs
 * one), cached per document URI and dropped when settings change.
 */
import { resolveService, type SimulatorEndpoints } from '../../core/api/environment';
import { DlmmSectionSchema, type DlmmSection, type ServerSettings } from '../../protocol/schemas';

/** Reads the `dlmm` section for one resource from the client; undefined when the client cannot. */
export type ConfigurationReader = (uri: string) => Promise<unknown>;

/** Why there is no service when neither the client nor the environment names one. */
const NOTHING_CONFIGURED =
  'no service configured: the editor sent no dlmm settings and DLMM_API_URL is not set; set dlmm.environment ' +
  '(simulator, production) or dlmm.apiUrl in the editor (docs/editors.md), or DLMM_API_URL';

/** Why there is no service when the client's settings name neither an environment nor an apiUrl. */
const NO_ENVIRONMENT =
  'no service configured: the dlmm settings set neither dlmm.environment nor dlmm.apiUrl and DLMM_API_URL ' +
  'is not set; set dlmm.environment (simulator, production) or dlmm.apiUrl (docs/editors.md)';

/** Settings from the process environment (the standalone server's source); `warn` hears what was refused. */
export function settingsFromEnv(
  env: Record<string, string | undefined>,
  warn?: (message: string) => void,
): ServerSettings {
  const raw = {
    apiUrl: env.DLMM_API_URL || undefined,
    inventoryUrl: env.DLMM_INVENTORY_URL || undefined,
    nodeUrl: env.DLMM_NODE_URL || undefined,
  };
  const parsed = DlmmSectionSchema.safeParse(raw);
  if (parsed.success)
    return parsed.data.apiUrl
      ? { environment: 'env', ...withoutEmpty(parsed.data) }
      : { environment: 'env', noService: NOTHING_CONFIGURED };
  const issue = parsed.error.issues[0];
  const name = { apiUrl: 'DLMM_API_URL', inventoryUrl: 'DLMM_INVENTORY_URL', nodeUrl: 'DLMM_NODE_URL' }[
    String(issue?.path[0]) as 'apiUrl'
  ];
  const why = `${name ?? 'the environment'} ${issue?.message ?? 'is not understood'}`;
  warn?.(`${why}; offline checks only until it is fixed`);
  return { environment: 'env', noService: `no service: ${why}` };
}

function withoutEmpty(urls: Pick<DlmmSection, 'apiUrl' | 'inventoryUrl' | 'nodeUrl'>) {
  return {
    ...(urls.apiUrl ? { apiUrl: urls.apiUrl } : {}),
    ...(urls.inventoryUrl ? { inventoryUrl: urls.inventoryUrl } : {}),
    ...(urls.nodeUrl ? { nodeUrl: urls.nodeUrl } : {}),
  };
}

/** The simulated engine the server runs itself for `environment: simulator` (started on first need). */
export type OwnSimulator = () => Promise<SimulatorEndpoints>;

/**
 * The server's settings for a client's `dlmm` section. Without `environment`, an `apiUrl` means `custom`
 * and none means the environment's service (`envSettings`), with the section's other values.
 */
export async function resolveSection(
  section: DlmmSection,
  envSettings: ServerSettings,
  ownSimulator: OwnSimulator,
): Promise<ServerSettings> {
  const maxTipLag = section.policy?.maxTipLag;
  const tuning: ServerSettings = {
    ...(maxTipLag !== undefined ? { maxTipLag } : {}),
    ...(section.slippageTolerance !== undefined ? { slippageTolerance: section.slippageTolerance } : {}),
  };
  const environment = section.environment ?? (section.apiUrl ? 'custom' : undefined);
  if (environment === undefined)
    return envSettings.apiUrl
      ? { ...envSettings, ...tuning }
      : { ...envSettings, ...tuning, noService: NO_ENVIRONMENT };
  let simulator: SimulatorEndpoints | undefined;
  if (environment === 'simulator') {
    if (section.simulator) simulator = withUrl(section.simulator);
    else if (section.simulator === undefined) {
      try {
        simulator = await ownSimulator();
      } catch (e) {
        return {
          environment,
          ...tuning,
          noService: `dlmm.environment is simulator and the embedded simulator did not start (${e instanceof Error ? e.message : String(e)})`,
        };
      }
    }
  }
  const service = resolveService(
    {
      environment,
      ...(section.apiUrl ? { apiUrl: section.apiUrl } : {}),
      ...(section.inventoryUrl ? { inventoryUrl: section.inventoryUrl } : {}),
      ...(section.nodeUrl ? { nodeUrl: section.nodeUrl } : {}),
    },
    simulator,
  );
  return { environment, ...service, ...tuning };
}

function withUrl(s: NonNullable<DlmmSection['simulator']>): SimulatorEndpoints | undefined {
  if (!s.url) return undefined;
  return {
    url: s.url,
    ...(s.inventoryUrl ? { inventoryUrl: s.inventoryUrl } : {}),
    ...(s.nodeUrl ? { nodeUrl: s.nodeUrl } : {}),
  };
}

/** Nothing said: no answer, `null`, or an empty object (Neovim answers `vim.NIL` for a missing section). */
function isEmpty(raw: unknown): boolean {
  return (
    raw === null ||
    raw === undefined ||
    (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)
  );
}

export class SettingsStore {
  private readonly cache = new Map<string, Promise<ServerSettings>>();
  /** The section pushed by `workspace/didChangeConfiguration` or given at `initialize`, as sent. */
  private pushed: unknown;

  constructor(
    private readonly read: ConfigurationReader | undefined,
    private readonly resolve: (section: DlmmSection) => Promise<ServerSettings>,
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

  /**
   * A `dlmm` section from `initializationOptions.dlmm`, or the `settings` of a `didChangeConfiguration`
   * push: `{ dlmm: {...} }` replaces the section held; anything without a `dlmm` key (VS Code's `null`: ask
   * again) keeps it. Cached settings are dropped either way.
   */
  push(settings: unknown, isSection = false): void {
    if (isSection) this.pushed = settings;
    else if (settings !== null && typeof settings === 'object' && 'dlmm' in settings)
      this.pushed = (settings as { dlmm: unknown }).dlmm;
    this.clear();
  }

  /** Forget one resource (document closed) or all of them (settings changed). */
  clear(uri?: string): void {
    if (uri === undefined) this.cache.clear();
    else this.cache.delete(uri);
  }

  private async load(uri: string): Promise<ServerSettings> {
    let pulled: unknown;
    if (this.read) {
      try {
        pulled = await this.read(uri);
      } catch {
        pulled = undefined;
      }
    }
    let refused: string | undefined;
    for (const [route, raw] of [
      ['workspace/configuration', pulled],
      ['workspace/didChangeConfiguration or initializationOptions', this.pushed],
    ] as const) {
      if (isEmpty(raw)) continue;
      const parsed = DlmmSectionSchema.safeParse(raw);
      if (parsed.success) return this.resolve(parsed.data);
      const issue = parsed.error.issues[0];
      refused = issue ? `${issue.path.join('.') || 'dlmm'}: ${issue.message}` : 'invalid';
      this.warn(
        `dlmm settings from ${route} for ${uri} were not understood (${refused}); ` +
          'using the next source (pushed settings, then DLMM_API_URL, ...). Check the dlmm settings.',
      );
    }
    if (refused !== undefined && !this.fallback.apiUrl)
      return {
        ...this.fallback,
        noService: `the dlmm settings were refused (${refused}) and DLMM_API_URL is not set`,
      };
    return this.fallback;
  }
}
