/**
 * `dlmm sim [--host 127.0.0.1] [--port N] [--world FILE]`: serves the simulated engine until SIGINT/SIGTERM,
 * printing exactly `dlmm sim listening on http://HOST:PORT/api` on stdout.
 * `dlmm sim apply TX_HEX|--file F [--api URL]`: dry-runs a serialized transaction on a running simulator
 * (POST {api}/admin/apply) and prints the result as JSON; exit 0 when it applied, 1 when it reverted.
 */
import { deserializeTransaction } from '@stacks/transactions';
import { startSimulator } from '../../../core/sim/server';
import { WorldError, loadWorld, type World } from '../../../core/sim/world';
import { defaultWorld } from '../../../core/sim/defaultWorld';
import { parseApiBase, parseArgv } from '../common';
import { readTextFile, UsageError, type CliIO } from '../io';
import { loadRouterSettings } from '../routers';

/** Port `dlmm sim` listens on without --port (0 = any free port). */
export const DEFAULT_SIM_PORT = 8787;
const DEFAULT_API = `http://127.0.0.1:${DEFAULT_SIM_PORT}/api`;

/** Resolves when the process gets SIGINT or SIGTERM. */
function untilSignal(): Promise<string> {
  return new Promise((done) => {
    // A signal's listener is called with the signal's name.
    const stop = (sig: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done(sig);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * `dlmm sim` options. The shared flags too (docs/cli.md): --sim is what this command is; --format only picks
 * text|json for the stderr notes (the listening line on stdout never changes); --api-key-env NAME adds that
 * key to the keys the engine accepts with the raised limit (the key itself is never an argument); --api is
 * refused with a pointer to `sim apply`.
 */
export const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  world: { type: 'string' },
  sim: { type: 'boolean' },
  format: { type: 'string' },
  'api-key-env': { type: 'string' },
  api: { type: 'string' },
} as const;

/** `dlmm sim apply` options. */
export const APPLY_OPTIONS = { file: { type: 'string' }, api: { type: 'string' } } as const;

/** Serves until `stop` resolves (a signal in the CLI; anything in tests). */
export async function serve(
  args: string[],
  io: CliIO,
  stop: () => Promise<unknown> = untilSignal,
): Promise<number> {
  const { values } = parseArgv(args, SERVE_OPTIONS, false);
  if (values.api !== undefined)
    throw new UsageError(
      '--api names an engine to use; `dlmm sim` serves one (use it with `dlmm sim apply`)',
    );
  const format = (values.format as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format expects text or json, got '${format}'`);
  let extraKey: string | undefined;
  const keyEnv = values['api-key-env'] as string | undefined;
  if (keyEnv !== undefined) {
    extraKey = io.env[keyEnv];
    if (!extraKey)
      throw new UsageError(`--api-key-env ${keyEnv}: that environment variable is empty or unset`);
  }
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const portText = (values.port as string | undefined) ?? String(DEFAULT_SIM_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new UsageError(`--port expects 0..65535, got '${portText}'`);
  let world: World | undefined;
  try {
    // WorldError messages name the file and each problem.
    const file = values.world as string | undefined;
    world = file ? loadWorld(await readTextFile(file, io.cwd, 'world file'), file) : undefined;
    if (extraKey !== undefined) {
      const base = world ?? defaultWorld();
      if (!base.api_keys.some((k) => k.key === extraKey))
        world = {
          ...base,
          api_keys: [
            ...base.api_keys,
            { key: extraKey, requests_per_second: 100_000, label: `--api-key-env ${keyEnv}` },
          ],
        };
    }
  } catch (e) {
    if (e instanceof WorldError) {
      io.err(`dlmm sim: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  let sim;
  try {
    sim = await startSimulator({ host, port: Number(portText), world });
  } catch (e) {
    if (e instanceof WorldError) {
      io.err(`dlmm sim: ${e.message}\n`);
      return 2;
    }
    const code = (e as { code?: string }).code;
    io.err(
      code === 'EADDRINUSE'
        ? `dlmm sim: port ${portText} on ${host} is already in use (another \`dlmm sim\`?); choose another with --port N, or --port 0 for any free port\n`
        : `dlmm sim: cannot listen on ${host}:${portText}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 2;
  }
  io.out(`dlmm sim listening on ${sim.url}\n`);
  if (format === 'json')
    io.err(
      JSON.stringify({
        url: sim.url,
        inventory_url: sim.inventoryUrl,
        node_url: sim.nodeUrl,
        core_api_url: sim.coreUrl,
      }) + '\n',
    );
  else io.err(simEnvText(sim) + 'stop with Ctrl-C\n');
  await stop();
  await sim.close();
  return 0;
}

/**
 * The environment lines that point the other commands (and `dlmm lsp`) at this simulator: with them,
 * `dlmm check --api URL` reads positions from the simulator's inventory and shares from its node proxy,
 * exactly as `--sim` does.
 */
export function simEnvText(sim: {
  url: string;
  inventoryUrl: string;
  nodeUrl: string;
  coreUrl?: string;
}): string {
  return (
    'to use it from another shell (check, quote, export, status, lsp), copy:\n' +
    `  export DLMM_API_URL=${sim.url}\n` +
    `  export DLMM_INVENTORY_URL=${sim.inventoryUrl}\n` +
    `  export DLMM_NODE_URL=${sim.nodeUrl}\n` +
    (sim.coreUrl
      ? `core api: ${sim.coreUrl} (tokens, routes, quote --source core), copy:\n` +
        `  export BITFLOW_API_HOST=${sim.coreUrl}\n` +
        `  export READONLY_CALL_API_HOST=${sim.nodeUrl}\n`
      : '')
  );
}

/** `dlmm sim apply`: posts the transaction to a running simulator's admin endpoint. */
export async function apply(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgv(args, APPLY_OPTIONS, true);
  if (positionals.length > 1) throw new UsageError('give one transaction (hex) or --file F');
  let hex = positionals[0];
  if (values.file !== undefined) {
    if (hex !== undefined) throw new UsageError('give either TX_HEX or --file F, not both');
    hex = (await readTextFile(values.file as string, io.cwd, 'transaction file')).trim().split(/\s+/)[0];
  }
  if (!hex)
    throw new UsageError(
      'expected TX_HEX or --file F (a serialized transaction, e.g. from `dlmm export --format tx-hex`)',
    );
  if (!/^(0x)?[0-9a-fA-F]+$/.test(hex))
    throw new UsageError('the transaction must be hex (optionally 0x-prefixed)');
  // DLMM_ROUTERS (validated here) travels with the transaction: the simulator cannot read our environment.
  const routers = (await loadRouterSettings(io))?.settings;
  const apiText = (values.api as string | undefined) ?? io.env.DLMM_API_URL ?? DEFAULT_API;
  parseApiBase(apiText, values.api !== undefined ? '--api' : 'DLMM_API_URL');
  const api = apiText.replace(/\/+$/, '');
  try {
    deserializeTransaction(hex.replace(/^0x/, ''));
  } catch (e) {
    throw new UsageError(
      `'${hex.length > 24 ? `${hex.slice(0, 20)}…` : hex}' is not a serialized Stacks transaction (${e instanceof Error ? e.message : String(e)}); pass what \`dlmm export --format tx-hex\` prints`,
    );
  }
  let res: Response;
  try {
    res = await fetch(`${api}/admin/apply`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tx_hex: hex, ...(routers ? { routers } : {}) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    io.err(
      `dlmm sim apply: no simulator answers at ${api} (${e instanceof Error ? e.message : String(e)}); start one with \`dlmm sim\` or pass --api URL\n`,
    );
    return 2;
  }
  const text = await res.text();
  if (!res.ok) {
    io.err(`dlmm sim apply: ${api}/admin/apply answered HTTP ${res.status}: ${text}\n`);
    return 2;
  }
  let result: { ok?: unknown };
  try {
    result = JSON.parse(text) as { ok?: unknown };
  } catch {
    io.err(`dlmm sim apply: the answer is not JSON: ${text.slice(0, 200)}\n`);
    return 2;
  }
  // Print the simulator's own text: amounts in it may exceed 2^53 and must not pass through a float.
  io.out(`${text}\n`);
  return result.ok === true ? 0 : 1;
}

/** `dlmm sim ...` entry. */
export async function run(args: string[], io: CliIO): Promise<number> {
  if (args[0] === 'apply') return apply(args.slice(1), io);
  return serve(args, io);
}
