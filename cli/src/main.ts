/**
 * `dlmm` entry: chooses the subcommand; each lives in commands/<name>.ts with `run(args, io)` and has its
 * help entry in help.ts (`dlmm <command> --help` is answered here, before the command parses anything).
 */
import { processIO, UsageError, type CliIO, type Command } from './io';
import { run as check } from './commands/check';
import { run as quote } from './commands/quote';
import { run as exportCmd } from './commands/export';
import { run as status } from './commands/status';
import { run as sim } from './commands/sim';
import { run as lsp } from './commands/lsp';
import { run as wallet } from './commands/wallet';
import { commandHelpText, helpKey, topLevelHelp, wantsHelp } from './help';

/** Every command; each has an entry in HELP (help.ts). */
export const COMMANDS: Record<string, Command> = {
  check,
  quote,
  export: exportCmd,
  wallet,
  status,
  sim,
  lsp,
};

/** Runs the CLI with argv (without node and script) and returns the exit status. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
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
    if (e instanceof UsageError) {
      io.err(`dlmm ${name}: ${e.message}\n(see: dlmm ${helpKey(argv) ?? name} --help)\n`);
      return 2;
    }
    io.err(`dlmm ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(String(e) + '\n');
      process.exitCode = 2;
    },
  );
}
