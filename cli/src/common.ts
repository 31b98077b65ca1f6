/**
 * Options every `dlmm` command shares (docs/cli.md): --api URL, --sim, --api-key-env NAME, --format,
 * with the environment defaults DLMM_API_URL, DLMM_API_KEY, DLMM_INVENTORY_URL, DLMM_NODE_URL; and
 * `withApi`, which builds the API client (starting the embedded simulator for --sim) around a command.
 * Keys are read from the environment only: never from argv, never printed.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nodeCacheDir } from '../../core/api/nodeStore';
import { stringifyJsonExact } from '../../core/api/json';
import { isApiError, type ApiError } from '../../core/api/errors';
import type { ApiClientOptions, DlmmApi } from '../../core/api/types';
import type { RunningSimulator } from '../../core/sim/server';
import { UsageError, type CliIO } from './io';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** The shared options as parsed from argv. */
export interface CommonOptions {
  api?: string;
  sim: boolean;
  apiKeyEnv?: string;
  format?: string;
}

export interface ParsedCommand<V> {
  common: CommonOptions;
  /** The command's own options. */
  values: V;
  positionals: string[];
}

/** Facts about the service a command talks to, for messages. */
export interface ApiContext {
  /** 'sim' when the embedded simulator serves this run. */
  source: 'sim' | 'api';
  baseUrl: string;
  /** The embedded simulator with --sim (its engine can be inspected or changed), else undefined. */
  sim?: RunningSimulator;
}

export const COMMON_OPTIONS = {
  api: { type: 'string' },
  sim: { type: 'boolean' },
  'api-key-env': { type: 'string' },
  format: { type: 'string' },
} as const satisfies OptionSpecs;

const FORBIDDEN_KEY_OPTIONS = /^--(api-key|apikey|key|x-api-key)(=|$)/i;

/**
 * Parses argv with the shared options plus the command's own (node:util parseArgs, strict). Unknown
 * options, missing values and a key passed as an argument become UsageErrors.
 */
export function parseCommand<O extends OptionSpecs>(
  args: string[],
  own: O,
  opts: { positionals?: boolean } = {},
): ParsedCommand<Record<keyof O, string | boolean | undefined>> {
  const keyArg = args.find((a) => FORBIDDEN_KEY_OPTIONS.test(a));
  if (keyArg !== undefined) {
    // Never echo the argument: it may carry the key itself.
    throw new UsageError(
      'API keys are never taken as command-line arguments (they would leak into shell history and process ' +
        'lists). Put the key in an environment variable and pass --api-key-env NAME, or set DLMM_API_KEY.',
    );
  }
  const parsed = parseArgv(args, { ...COMMON_OPTIONS, ...own }, opts.positionals ?? false);
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const common: CommonOptions = {
    api: v.api as string | undefined,
    sim: v.sim === true,
    apiKeyEnv: v['api-key-env'] as string | undefined,
    format: v.format as string | undefined,
  };
  if (common.api !== undefined && common.sim)
    throw new UsageError('give either --api URL or --sim, not both');
  if (common.api !== undefined) parseApiBase(common.api, '--api');
  return {
    common,
    values: v as Record<keyof O, string | boolean | undefined>,
    positionals: parsed.positionals,
  };
}

/** argv by node:util's parseArgs (strict), a negative option value kept as a value, its errors in our words. */
export function parseArgv(args: string[], options: OptionSpecs, allowPositionals: boolean) {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals,
      strict: true,
      tokens: true,
    });
  } catch (e) {
    throw argvError(e, options);
  }
  refuseRepeats(parsed.tokens, options);
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * An option given twice is a usage error unless it is declared as a list (`multiple`): the parser would keep
 * the last value, so `--amount 0.001 --amount 0.5` would quietly quote 0.5.
 */
function refuseRepeats(tokens: ReadonlyArray<{ kind: string; name?: string }>, options: OptionSpecs): void {
  // The values are not quoted: an option such as --api may carry a credential.
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined) continue;
    if ((options[t.name] as { multiple?: boolean } | undefined)?.multiple) continue;
    if (seen.has(t.name))
      throw new UsageError(`--${t.name} is given more than once: give it once (the last would win unseen)`);
    seen.add(t.name);
  }
}

/**
 * node's parseArgs errors in our words: an unknown option names the nearest known one, a missing value
 * and a stray argument say what the command expected (never node's text, whose quoting is unbalanced).
 */
function argvError(e: unknown, options: OptionSpecs): UsageError {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = quoted.split('=')[0] ?? quoted;
    const near = nearestOption(flag.replace(/^-+/, ''), Object.keys(options));
    return new UsageError(`unknown option ${flag}${near ? `; did you mean --${near}?` : ''}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /^(-\S+)/.exec(quoted)?.[1] ?? quoted;
    const spec = options[flag.replace(/^-+/, '')];
    return new UsageError(
      spec?.type === 'boolean'
        ? `${flag} takes no value`
        : `${flag} needs a value (write ${flag} VALUE or ${flag}=VALUE)`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new UsageError(`unexpected argument '${quoted}': this command takes options only`);
  return new UsageError(message.split('\n')[0] ?? message);
}

/** The known option closest to `name` (a typo: at most 2 edits, or a prefix of it), if any. */
function nearestOption(name: string, known: readonly string[]): string | undefined {
  let best: { option: string; d: number } | undefined;
  for (const option of known) {
    const d = option.startsWith(name) && name.length >= 3 ? 1 : editDistance(name, option);
    if (d <= 2 && (!best || d < best.d)) best = { option, d };
  }
  return best?.option;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * `--amount -5` as `--amount=-5`: node's parser reads a value that starts with '-' as an option ("argument is
 * ambiguous"), so a negative number would never reach the option's own check and its clear message.
 */
function joinNegativeValues(args: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const next = args[i + 1];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (
      name !== undefined &&
      options[name]?.type === 'string' &&
      next !== undefined &&
      /^-\.?\d/.test(next)
    ) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The --format value among `allowed` (default `fallback`). */
export function parseFormat<F extends string>(common: CommonOptions, allowed: readonly F[], fallback: F): F {
  const f = common.format ?? fallback;
  if (!(allowed as readonly string[]).includes(f)) {
    throw new UsageError(`--format '${f}' is not supported here; expected ${allowed.join(', ')}`);
  }
  return f as F;
}

/**
 * A command's --format json document: integers exact (a bigint is written as its digits, never through a
 * float), indented by two spaces, ending in a newline.
 */
export function jsonOutput(doc: unknown): string {
  return stringifyJsonExact(doc, 2) + '\n';
}

/** A non-negative integer option (e.g. --max-tip-lag, --nonce); exact digits only. */
export function parseNonNegativeInt(value: string, name: string): bigint {
  if (/^-\.?\d/.test(value.trim())) throw new UsageError(`${name} must not be negative, got '${value}'`);
  if (!/^\d+$/.test(value.trim()))
    throw new UsageError(`${name} expects a non-negative integer, got '${value}'`);
  return BigInt(value.trim());
}

/** A required string option. */
export function requireOption(value: string | boolean | undefined, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`missing ${name}`);
  return value.trim();
}

/** True when a service is configured (--api, --sim or DLMM_API_URL), i.e. withApi can run. */
export function hasApiConfigured(common: CommonOptions, io: CliIO): boolean {
  return common.sim || common.api !== undefined || !!io.env.DLMM_API_URL;
}

/**
 * The API key from --api-key-env NAME, else DLMM_API_KEY (not with --sim: a production key in the
 * environment is not the embedded simulator's, which would refuse it). A named variable that is unset is
 * a usage error.
 */
export function resolveApiKey(common: CommonOptions, io: CliIO): string | undefined {
  if (common.apiKeyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(common.apiKeyEnv)) {
      throw new UsageError(`--api-key-env expects an environment variable name, got an invalid name`);
    }
    const key = io.env[common.apiKeyEnv];
    if (!key)
      throw new UsageError(
        `--api-key-env ${common.apiKeyEnv}: that environment variable is not set or empty`,
      );
    return key;
  }
  return common.sim ? undefined : io.env.DLMM_API_KEY || undefined;
}

/** Client options for a remote service (not --sim) from the flags and the environment. */
export function resolveRemoteOptions(common: CommonOptions, io: CliIO): ApiClientOptions {
  const baseUrl = common.api ?? io.env.DLMM_API_URL;
  if (!baseUrl) {
    throw new UsageError(
      'no service configured: pass --api URL (ending in /api), set DLMM_API_URL, or use --sim',
    );
  }
  parseApiBase(baseUrl, common.api ? '--api' : 'DLMM_API_URL');
  const inventoryUrl = io.env.DLMM_INVENTORY_URL || undefined;
  const nodeUrl = io.env.DLMM_NODE_URL || undefined;
  if (inventoryUrl) parseUrl(inventoryUrl, 'DLMM_INVENTORY_URL');
  if (nodeUrl) parseUrl(nodeUrl, 'DLMM_NODE_URL');
  return { baseUrl, inventoryUrl, nodeUrl, apiKey: resolveApiKey(common, io) };
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (esbuild.mjs bundles each apart) */
/** The HTTP client (core/api/client.ts): loaded only by commands that read the service, so `check --offline` never does. */
const loadClient = () => require('../../core/api/client') as typeof import('../../core/api/client');
/** The embedded simulator: loaded only for --sim. */
const loadSimulator = () => require('../../core/sim/server') as typeof import('../../core/sim/server');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Runs `fn` with an API client for the configured service. With --sim the embedded simulator is started
 * in-process on a free loopback port (its inventory and node URLs are used) and stopped afterwards.
 * An ApiError escaping `fn` is reported on stderr and gives exit status 2 (live data unavailable).
 */
export async function withApi(
  common: CommonOptions,
  io: CliIO,
  fn: (api: DlmmApi, ctx: ApiContext) => Promise<number>,
  extra: Partial<ApiClientOptions> = {},
): Promise<number> {
  const apiKey = resolveApiKey(common, io);
  const remote = common.sim ? undefined : resolveRemoteOptions(common, io);
  const sim = common.sim ? await loadSimulator().startSimulator({ host: '127.0.0.1', port: 0 }) : undefined;
  if (sim) io.err(`dlmm: using the embedded simulator at ${sim.url}\n`);
  const options: ApiClientOptions = sim
    ? { baseUrl: sim.url, inventoryUrl: sim.inventoryUrl, nodeUrl: sim.nodeUrl, apiKey, ...extra }
    : { ...(remote as ApiClientOptions), ...extra };
  const cacheDir = nodeCacheDir(io.env, options.nodeUrl);
  if (cacheDir !== undefined) options.cacheDir ??= cacheDir;
  options.notice ??= (line) => io.err(`dlmm: ${line}\n`);
  options.progress ??= (line) => io.err(`dlmm: ${line}\n`);
  const api = loadClient().createApiClient(options);
  try {
    return await fn(api, { source: sim ? 'sim' : 'api', baseUrl: options.baseUrl, sim });
  } catch (e) {
    return apiErrorExit(e, io);
  } finally {
    await api.close?.();
    await sim?.close();
  }
}

/** One line for a person: the error's message (which never holds a key) with its code. */
export function describeApiError(e: ApiError): string {
  return `${e.message} [${e.code}]`;
}

/** An ApiError escaping a command: reported on stderr, exit status 2 (live data unavailable); else rethrown. */
export function apiErrorExit(e: unknown, io: CliIO): number {
  if (!isApiError(e)) throw e;
  io.err(`dlmm: ${describeApiError(e)}\n`);
  return 2;
}

/**
 * A service base: an http(s) URL whose path ends in /api (the interface's paths hang below it). A bare
 * `http://host:port` is the usual slip: say what is missing.
 */
function parseUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} expects an http(s) URL such as http://127.0.0.1:8787/api, got '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name} expects an http(s) URL, got protocol '${url.protocol}'`);
  }
  return url;
}

/** A service base (--api, DLMM_API_URL): an http(s) URL ending in /api. */
export function parseApiBase(text: string, name: string): URL {
  const url = parseUrl(text, name);
  if (!/\/api\/?$/.test(url.pathname)) {
    const suggestion = `${url.origin}${url.pathname.replace(/\/+$/, '')}/api`;
    throw new UsageError(
      `${name} must be the service base ending in /api (the interface's paths sit below it), got '${text}'; did you mean ${suggestion}?`,
    );
  }
  return url;
}
