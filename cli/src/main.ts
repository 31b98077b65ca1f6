/** `dlmm` entry: chooses the subcommand; each lives in commands/<name>.ts with `run(args, io)`. */
import { processIO, UsageError, type CliIO, type Command } from './io';
import { run as check } from './commands/check';
import { run as quote } from './commands/quote';
import { run as exportCmd } from './commands/export';
import { run as status } from './commands/status';
import { run as sim } from './commands/sim';
import { run as lsp } from './commands/lsp';
import { run as wallet } from './commands/wallet';

const COMMANDS: Record<string, Command> = { check, quote, export: exportCmd, wallet, status, sim, lsp };

const USAGE = `usage: dlmm <command> [options]

commands:
  check [PATH ...] [--format text|json|sarif] [--max-tip-lag N] [--offline]
  quote --in TOKEN --out TOKEN --amount N [--multi] [--slippage P] [--format text|json]
  export PLAN [--op ID] --format tx-hex|wallet-request|summary|json [--public-key HEX --nonce N --fee N] [--out FILE]
  wallet PLAN [--op ID] [--port N] [--no-open]   (serves a one-time page for your own wallet to sign)
  status [--format text|json]
  sim [--host 127.0.0.1] [--port N] [--world FILE]
  lsp --stdio

common options: --api URL  --sim  --api-key-env NAME  --format FMT
environment: DLMM_API_URL, DLMM_API_KEY, DLMM_INVENTORY_URL, DLMM_NODE_URL,
  DLMM_ROUTERS (JSON file of router contracts per network, for export and sim apply)
`;

/** Runs the CLI with argv (without node and script) and returns the exit status. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    // No command is a usage error: the usage goes to stderr, stdout stays for results.
    io.err(USAGE);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (name === '--version') {
    io.out(`${process.env.DLMM_STUDIO_VERSION ?? '0.1.0'}\n`);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`dlmm: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  try {
    return await cmd(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`dlmm ${name}: ${e.message}\n`);
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
