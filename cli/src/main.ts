/**
 * `dlmm` entry: chooses the subcommand; each lives in commands/<name>.ts with `run(args, io)` and has its
 * help entry in help.ts (`dlmm <command> --help` is answered here, before the command parses anything).
 */
import { safeText } from '../../core/text/safe';
import { configuredSecrets, processIO, UsageError, type CliIO, type Command } from './io';
import { commandHelpText, helpKey, topLevelHelp, usageLines, wantsHelp } from './help';
import { enableCodeCache } from '../../core/codeCache';

/**
 * A command whose module is loaded on first use, so `dlmm --version`, `--help` and each command load only
 * what they need (esbuild.mjs bundles every command into its own file, dist/cli-<name>.js).
 */
const lazy =
  (load: () => { run: Command }): Command =>
  (args, io) =>
    load().run(args, io);

/* eslint-disable @typescript-eslint/no-require-imports -- the lazy loads are the point (see `lazy`) */
/** Every command; each has an entry in HELP (help.ts). */
export const COMMANDS: Record<string, Command> = {
  check: lazy(() => require('./commands/check') as typeof import('./commands/check')),
  quote: lazy(() => require('./commands/quote') as typeof import('./commands/quote')),
  plan: lazy(() => require('./commands/plan') as typeof import('./commands/plan')),
  export: lazy(() => require('./commands/export') as typeof import('./commands/export')),
  wallet: lazy(() => require('./commands/wallet') as typeof import('./commands/wallet')),
  status: lazy(() => require('./commands/status') as typeof import('./commands/status')),
  balances: lazy(() => require('./commands/balances') as typeof import('./commands/balances')),
  positions: lazy(() => require('./commands/positions') as typeof import('./commands/positions')),
  sim: lazy(() => require('./commands/sim') as typeof import('./commands/sim')),
  lsp: lazy(() => require('./commands/lsp') as typeof import('./commands/lsp')),
  tokens: lazy(() => require('./commands/tokens') as typeof import('./commands/tokens')),
  routes: lazy(() => require('./commands/routes') as typeof import('./commands/routes')),
  explain: lazy(() => require('./commands/explain') as typeof import('./commands/explain')),
  backtest: lazy(() => require('./commands/backtest') as typeof import('./commands/backtest')),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Called by bin/dlmm.js before `main`: the bundles next to this one (dist/cli-<name>.js, dist/lazy-*.js) load
 * through the V8 code cache in the user's cache folder (core/codeCache.ts; `DLMM_CACHE_DIR=off`: none).
 */
export function useCodeCache(): void {
  enableCodeCache(__dirname, () =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:os only once a bundle loads
    (require('../../core/cacheDir') as typeof import('../../core/cacheDir')).userCacheDir(process.env),
  );
}

/** Runs the CLI with argv (without node and script) and returns the exit status. */
export async function main(argv: string[], rawIO: CliIO = processIO): Promise<number> {
  const io = safeIO(rawIO, argv);
  const [name, ...rest] = argv;
  if (!name) {
    // No command is a usage error: the usage goes to stderr, stdout stays for results.
    io.err(topLevelHelp());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `dlmm help check` is `dlmm check --help`.
    const key = helpKey(rest);
    if (rest.length > 0 && key === undefined) {
      io.err(`dlmm: unknown command '${rest.join(' ')}'\n\n${topLevelHelp()}`);
      return 2;
    }
    io.out(key === undefined ? topLevelHelp() : commandHelpText(key));
    return 0;
  }
  if (name === '--version') {
    io.out(`${process.env.DLMM_STUDIO_VERSION ?? '0.1.0'}\n`);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`dlmm: unknown command '${name}'\n\n${topLevelHelp()}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.out(commandHelpText(helpKey(argv) ?? name));
    return 0;
  }
  try {
    return await cmd(rest, io);
  } catch (e) {
    // By name too: each command is its own bundle (dist/cli-<name>.js) with its own copy of the class.
    if (e instanceof UsageError || (e instanceof Error && e.name === 'UsageError')) {
      const key = helpKey(argv) ?? name;
      io.err(`dlmm ${name}: ${e.message}\n${usageLines(key)}(see: dlmm ${key} --help)\n`);
      return 2;
    }
    io.err(`dlmm ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

/**
 * The last-resort line bin/dlmm.js prints when `main` itself fails (it reports its own errors; this is for a
 * failure of the reporting, e.g. a closed stream): as safe as everything else the CLI prints.
 */
export function fatalText(e: unknown, argv: readonly string[], env: CliIO['env'] = process.env): string {
  const what = e instanceof Error ? e.message : String(e);
  return `dlmm: ${safeText(what, configuredSecrets(env, argv))}\n`;
}

/**
 * Everything the CLI prints goes through here: the configured keys (DLMM_API_KEY, the variable named by
 * --api-key-env) are redacted wherever the text came from, and control characters are escaped, so neither a
 * service body nor a plan value can put a key or a terminal escape sequence on the user's screen.
 */
function safeIO(io: CliIO, argv: readonly string[]): CliIO {
  const secrets = configuredSecrets(io.env, argv);
  return {
    env: io.env,
    cwd: io.cwd,
    out: (t) => io.out(safeText(t, secrets)),
    err: (t) => io.err(safeText(t, secrets)),
  };
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(fatalText(e, process.argv.slice(2)));
      process.exitCode = 2;
    },
  );
}
