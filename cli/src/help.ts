/**
 * The help of every `dlmm` command, in one table. `dlmm --help` prints one line per entry (sub-commands such
 * as `sim apply` included) and the exit codes; `dlmm <command> [sub] --help` prints the entry itself.
 *
 * Adding a command: add its entry to HELP (key = the words typed after `dlmm`, e.g. 'plan add'), register its
 * `run` in COMMANDS (main.ts), and describe it in docs/cli.md. test/unit/cli/help.test.ts checks that every
 * command has help, that every option a command accepts is listed, and that docs/cli.md names every entry.
 */

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface OptionHelp {
  /** The flag with its value placeholder, e.g. '--format FMT' or '--multi'. */
  flag: string;
  /** What it does; say the default here ("default: text"). */
  text: string;
  /** True when the command cannot run without it (shown without brackets in the usage line). */
  required?: boolean;
}

interface CommandHelp {
  /** One line for the top-level list. */
  summary: string;
  /** Usage lines after `dlmm <words> `, e.g. '[PATH ...] [options]'. */
  usage: string[];
  /** A few sentences on what the command does. */
  description?: string;
  options: OptionHelp[];
  /** True when the command takes the shared --api / --sim / --api-key-env options. */
  common?: boolean;
  /** What each exit status means for this command (the meanings follow EXIT_CODES_TEXT). */
  exit: { 0: string; 1?: string; 2: string };
}

const EXIT_CODES_TEXT = `exit codes (the same for every command):
  0  success; for check, no error finding
  1  error findings, or a refusal (plan not exported, no route, engine not usable, dry-run reverted)
  2  usage error (unknown option, bad value, unreadable file) or the live data needed was unavailable
`;

export const COMMON_OPTIONS_HELP: OptionHelp[] = [
  { flag: '--api URL', text: 'service base URL, ending in /api (default: $DLMM_API_URL)' },
  { flag: '--sim', text: 'start the embedded simulated engine in-process and use it' },
  {
    flag: '--api-key-env NAME',
    text: 'read the X-API-Key from environment variable NAME (default: $DLMM_API_KEY); keys are never arguments',
  },
];

/** Option rows that several commands share, written once. */
const TEXT_OR_JSON: OptionHelp = { flag: '--format text|json', text: 'output format (default: text)' };
const POOL: OptionHelp = {
  flag: '--pool P',
  text: 'pool contract principal or alias dlmm_<n>',
  required: true,
};
const OUT_PLAN: OptionHelp = { flag: '--out FILE', text: 'write the plan to FILE (default: stdout)' };
const PLAN_FORMAT: OptionHelp = { flag: '--format yaml|json', text: 'plan file format (default: yaml)' };
const CORE_API: OptionHelp = {
  flag: '--core-api URL',
  text: 'core swap API host (default: $BITFLOW_API_HOST)',
};
const IN_TOKEN: OptionHelp = { flag: '--in TOKEN', text: 'token to sell', required: true };
const shape = (text: string): OptionHelp => ({ flag: '--shape spot|curve|bid-ask', text, required: true });

export const HELP: Record<string, CommandHelp> = {
  check: {
    summary: 'check plan files against the plan rules and live pool state',
    usage: ['[PATH ...] [--format text|json|sarif] [--max-tip-lag N] [--offline]'],
    description:
      'PATH is a plan file (*.dlmm.yaml, *.dlmm.yml, *.dlmm.json) or a folder (every plan file below it; ' +
      'default: the current folder). Findings go to stdout, progress to stderr.',
    options: [
      { flag: '--format text|json|sarif', text: 'output format (default: text)' },
      {
        flag: '--max-tip-lag N',
        text: "blocks of tip lag accepted; overrides each plan's policy.max_tip_lag",
      },
      {
        flag: '--offline',
        text: 'run only the rules that need no live data (no --api / --sim); each plan says so (live-unchecked)',
      },
    ],
    common: true,
    exit: {
      0: 'no error finding',
      1: 'at least one error finding',
      2: 'usage error, or live data unavailable without --offline',
    },
  },
  plan: {
    summary: 'write a plan file from intent: a liquidity shape, or a re-centring move',
    usage: ['add ... | recentre ...'],
    description:
      'See `dlmm plan add --help` and `dlmm plan recentre --help`. Both read live data like `check`, write the ' +
      'plan (to --out or stdout) and check it at once, findings on stderr.',
    options: [],
    exit: { 0: 'see the sub-commands', 2: 'no or an unknown sub-command' },
  },
  'plan add': {
    summary: 'write an add operation spreading amounts over a range as spot, curve or bid-ask',
    usage: [
      '--pool P --shape spot|curve|bid-ask --range A..B [--x AMOUNT] [--y AMOUNT] [--sender S] [--mode simple|strict] [--out FILE] [--format yaml|json]',
    ],
    description:
      "Amounts are human (decimals accepted: --x 1.5 --y 76000), converted exactly with the tokens' decimals; " +
      'token X goes above the active bin, token Y below, the active bin takes both in its reserve ratio. ' +
      'A..B are offsets from the active bin (simple) or signed bin ids (strict). See docs/distributions.md.',
    options: [
      POOL,
      shape('how the amounts are weighted over the bins'),
      { flag: '--range A..B', text: 'bins A..B inclusive, e.g. -20..20', required: true },
      { flag: '--x AMOUNT', text: 'total of token X, human units (default: 0)' },
      { flag: '--y AMOUNT', text: 'total of token Y, human units (default: 0)' },
      { flag: '--sender S', text: 'the signer principal written as the plan sender' },
      {
        flag: '--mode simple|strict',
        text: 'simple: offsets from the active bin; strict: absolute ids (default: simple)',
      },
      OUT_PLAN,
      PLAN_FORMAT,
    ],
    common: true,
    exit: {
      0: 'plan written; it has no error finding',
      1: 'plan written; it has error findings (on stderr)',
      2: 'usage error, or live data unavailable',
    },
  },
  'plan recentre': {
    summary: "write a move that re-centres the sender's liquidity in a shape around the active bin",
    usage: ['--pool P --sender S --shape spot|curve|bid-ask --width N [--out FILE] [--format yaml|json]'],
    description:
      'Positions farther than N bins from the active bin move (simple mode, one transaction) into bins ' +
      'active+1..active+N (token X) and active-N..active-1 (token Y), each target bin taking one source. ' +
      'Positions within N bins stay.',
    options: [
      POOL,
      { flag: '--sender S', text: 'the principal whose positions move', required: true },
      shape('how the liquidity is weighted over the target bins'),
      { flag: '--width N', text: 'bins on each side of the active bin (1..500)', required: true },
      OUT_PLAN,
      PLAN_FORMAT,
    ],
    common: true,
    exit: {
      0: 'plan written (or nothing to move); no error finding',
      1: 'plan written; it has error findings (on stderr)',
      2: 'usage error, or live data (pool, positions) unavailable',
    },
  },
  quote: {
    summary: 'quote a swap: best route, amount out, price impact, minimum received',
    usage: [
      '--in TOKEN --out TOKEN --amount N [--multi] [--slippage P] [--format text|json]',
      '      [--source engine|core] [--core-api URL]',
      '      [--sender ADDRESS --export FILE [--export-format tx-hex|wallet-request|summary|json]',
      '       [--public-key HEX --nonce N --fee N]]',
    ],
    description:
      'TOKEN is a contract id or a symbol the quote engine lists. N is in units of the input token ' +
      '(0.5 means half a token), parsed exactly. Every route is recomputed exactly from the bins read: the ' +
      'input used and a partial fill are stated.',
    options: [
      IN_TOKEN,
      { flag: '--out TOKEN', text: 'token to buy', required: true },
      { flag: '--amount N', text: 'amount of the input token, greater than 0', required: true },
      { flag: '--multi', text: 'print every route the engine offers, best first' },
      { flag: '--slippage P', text: 'slippage tolerance in percent, 1 means 1% (default: 1)' },
      TEXT_OR_JSON,
      {
        flag: '--source engine|core',
        text: 'quote with the quote engine, or the core swap API (TOKEN may then be a library id) (default: engine)',
      },
      { flag: '--core-api URL', text: 'core swap API host for --source core (default: $BITFLOW_API_HOST)' },
      {
        flag: '--export FILE',
        text: "with --source core: write the best route's getSwapParams call as an unsigned transaction, after checking it (refused for a partial fill, a quote mismatch, unreadable state or a revert)",
      },
      { flag: '--sender ADDRESS', text: 'the signing account (required with --export)' },
      {
        flag: '--export-format tx-hex|wallet-request|summary|json',
        text: 'export format (default: summary)',
      },
      { flag: '--public-key HEX', text: 'the signer public key, for tx-hex (with --nonce N and --fee N)' },
      { flag: '--nonce N', text: 'nonce of the transaction (tx-hex)' },
      { flag: '--fee N', text: 'fee in micro-STX (tx-hex)' },
    ],
    common: true,
    exit: {
      0: 'a route that fills the whole amount (with --export: written)',
      1: 'no route, or only a partial fill, or the export was refused',
      2: 'usage error (an unknown token included), or the service could not be read',
    },
  },
  export: {
    summary: 'export a plan as unsigned transactions (nothing is signed or broadcast)',
    usage: [
      'PLAN [--op ID] [--format tx-hex|wallet-request|summary|json]',
      '     [--public-key HEX --nonce N --fee N] [--out FILE] [--allow-unprotected]',
      '     [--allow-unchecked-swap]',
    ],
    description:
      'The plan is checked against live data first; a plan with an error finding is not exported. ' +
      'tx-hex needs --public-key, --nonce and --fee (no network lookups are made).',
    options: [
      { flag: '--op ID', text: 'export only the operation with this id (or index)' },
      { flag: '--format tx-hex|wallet-request|summary|json', text: 'payload format (default: summary)' },
      { flag: '--public-key HEX', text: 'the signer public key (33 or 65 bytes in hex)' },
      { flag: '--nonce N', text: 'nonce of the first transaction; the next ones count up' },
      { flag: '--fee N', text: 'fee per transaction in micro-STX' },
      { flag: '--out FILE', text: 'write the payload to FILE instead of stdout' },
      {
        flag: '--allow-unprotected',
        text: 'export an operation whose min-dlp cannot be computed (bin shares unknown) with min-dlp 1; without it such an operation is refused',
      },
      {
        flag: '--allow-unchecked-swap',
        text: 'export a swap whose route was not checked on the state read (swap-unchecked); its summary says so. Without it such a swap is refused',
      },
    ],
    common: true,
    exit: {
      0: 'exported',
      1: 'refused: the plan has error findings or cannot be exported',
      2: 'usage error, unreadable plan, or live data unavailable',
    },
  },
  wallet: {
    summary: 'send a checked plan to your own wallet through a one-time local page',
    usage: ['PLAN [--op ID] [--port N] [--no-open]'],
    description:
      'The plan is checked live as for export (a plan with errors is refused). A page on 127.0.0.1 hands each ' +
      'transaction to your SIP-030 wallet; its answers print here and are written beside the plan. Nothing is ' +
      'signed or broadcast by this tool. See docs/wallet.md.',
    options: [
      { flag: '--op ID', text: 'send only the operation with this id (or index)' },
      { flag: '--port N', text: 'serve the page on this port (default: any free port)' },
      { flag: '--no-open', text: 'print the URL only; do not open the browser' },
    ],
    common: true,
    exit: {
      0: 'every transaction answered by the wallet',
      1: 'refused (the plan has errors), rejected in the wallet, or unfinished',
      2: 'usage error, unreadable plan, or live data unavailable',
    },
  },
  tokens: {
    summary: 'list the tokens of the core swap API (the client library operations)',
    usage: ['[--core-api URL] [--format text|json]'],
    description:
      'getAvailableTokens: library id, symbol, decimals, contract. The core swap API host comes from ' +
      '--core-api or BITFLOW_API_HOST (with --sim: the embedded simulator). The request count goes to stderr.',
    options: [CORE_API, TEXT_OR_JSON],
    common: true,
    exit: { 0: 'listed', 2: 'usage error, no core swap API configured, or it could not be read' },
  },
  routes: {
    summary: 'list what a token can be swapped into, and the routes (core swap API)',
    usage: ['--in TOKEN [--out TOKEN] [--core-api URL] [--format text|json]'],
    description:
      'getAllPossibleTokenY, or getAllPossibleTokenYRoutes with --out. TOKEN is a library id (token-sbtc), ' +
      'a symbol or a contract. The request count goes to stderr.',
    options: [
      IN_TOKEN,
      { flag: '--out TOKEN', text: 'only the routes to this token' },
      CORE_API,
      TEXT_OR_JSON,
    ],
    common: true,
    exit: {
      0: 'listed',
      1: 'no route to --out',
      2: 'usage error (an unknown token included), or the core swap API could not be read',
    },
  },
  status: {
    summary: 'show whether the engine is ready: readiness, state height, tip lag',
    usage: ['[--format text|json]'],
    options: [TEXT_OR_JSON],
    common: true,
    exit: {
      0: 'ready and caught up (tip lag 0)',
      1: 'not ready, lagging, or tip lag unknown',
      2: 'usage error, or the service could not be read',
    },
  },
  balances: {
    summary: "show a principal's token balances, read from the node as check reads them",
    usage: ['--sender PRINCIPAL [--network mainnet|testnet] [--format text|json]'],
    description:
      "Every token of the service's token list, and STX: the token's SIP-010 get-balance through the node " +
      'proxy (DLMM_NODE_URL; with --sim the embedded one), STX through its wrapper (token-stx-v-1-2). A ' +
      'balance that cannot be read is listed with the reason, never as 0.',
    options: [
      { flag: '--sender PRINCIPAL', text: 'the address whose balances to read', required: true },
      {
        flag: '--network mainnet|testnet',
        text: "which network's STX wrapper to read (default: from the address, ST/SN is testnet)",
      },
      TEXT_OR_JSON,
    ],
    common: true,
    exit: {
      0: 'every balance read',
      1: 'some balance could not be read (each says why)',
      2: 'usage error, or the token list could not be read',
    },
  },
  positions: {
    summary: "show a principal's positions: per-bin amounts, value, range, and a what-if of price moves",
    usage: ['--sender PRINCIPAL [--pool POOL ...] [--what-if A..B] [--max-tip-lag N] [--format text|json]'],
    description:
      'Each pool where the sender holds shares (every pool of the pools list, or the --pool ones), read as a ' +
      "plan's withdraw reads it (the inventory, else app v2 current-bins, else app v2 position bins, which " +
      'may lag): per bin exactly what withdrawing all its shares returns on the chain model, the totals, ' +
      "their value in Y at the active bin's price, whether the active bin is within the position's bins. " +
      'A position that cannot be read or believed is unknown, with the reason (docs/positions.md).',
    options: [
      { flag: '--sender PRINCIPAL', text: 'the address whose positions to show', required: true },
      {
        flag: '--pool POOL',
        text: 'a pool to read (principal or dlmm_<n>; repeatable; default: every pool)',
      },
      {
        flag: '--what-if A..B',
        text: 'for each shift k in A..B, move the active bin k bins by the smallest trade and value the position beside holding (IL)',
      },
      { flag: '--max-tip-lag N', text: "the tip-pinned inventory's tip lag still believed (default: 0)" },
      TEXT_OR_JSON,
    ],
    common: true,
    exit: {
      0: 'every position valued',
      1: 'some position is unknown (each says why)',
      2: 'usage error, or the pools list could not be read',
    },
  },
  sim: {
    summary: 'serve the simulated engine on loopback until stopped',
    usage: ['[--host 127.0.0.1] [--port N] [--world FILE] [--api-key-env NAME] [--format text|json]'],
    description:
      'Prints `dlmm sim listening on http://HOST:PORT/api` on stdout, then on stderr the environment lines ' +
      'that point the other commands at it. Stop with Ctrl-C.',
    options: [
      { flag: '--host HOST', text: 'address to listen on (default: 127.0.0.1)' },
      { flag: '--port N', text: 'port, 0 for any free port (default: 8787)' },
      { flag: '--world FILE', text: 'world file to serve (default: the shipped world; see docs/world.md)' },
      {
        flag: '--api-key-env NAME',
        text: 'also accept the key in variable NAME, with the raised rate limit',
      },
      { flag: '--format text|json', text: 'form of the notes on stderr (default: text)' },
    ],
    exit: { 0: 'stopped by a signal', 2: 'usage error, bad world file, or the port is taken' },
  },
  'sim apply': {
    summary: 'dry-run a serialized transaction on a running simulator',
    usage: ['(TX_HEX | --file FILE) [--api URL]'],
    description:
      'Posts the transaction (e.g. from `dlmm export --format tx-hex`) to the simulator and prints its ' +
      'answer as JSON. Nothing changes on any chain.',
    options: [
      { flag: '--file FILE', text: 'read the transaction hex from FILE (first word)' },
      {
        flag: '--api URL',
        text: 'the simulator, ending in /api (default: $DLMM_API_URL, else http://127.0.0.1:8787/api)',
      },
    ],
    exit: {
      0: 'the transaction applied',
      1: 'the transaction reverted',
      2: 'usage error, or no simulator answered',
    },
  },
  backtest: {
    summary: "replay a plan's ranges and the sender's positions over the pool's price history",
    usage: ['PLAN [--history 7d|30d] [--recentre-after N] [--format text|json]'],
    description:
      "For each add operation (its bins, listed or a shape) and the sender's current positions in the " +
      "plan's pools, replays the pool's active bin over /app/v2/pools/{pool}/bin-price-history: the share of " +
      'points the range held the active bin, the longest stretch out of range, and the re-centres a ' +
      '"re-centre after N points out of range" rule would make. A history that cannot be read is refused.',
    options: [
      { flag: '--history 7d|30d', text: 'the window replayed, back from the newest point (default: 7d)' },
      {
        flag: '--recentre-after N',
        text: 're-centre after N points in a row out of range (default: 6)',
      },
      TEXT_OR_JSON,
    ],
    common: true,
    exit: {
      0: 'replayed',
      1: 'nothing to backtest (no add operation, no position), or the plan fails its schema',
      2: 'usage error, the live data could not be read, or a price history could not be replayed',
    },
  },
  explain: {
    summary: 'explain an on-chain error code: contract, constant, what it checks, cause, what prevents it',
    usage: ['CODE [--format text|json]'],
    description:
      'CODE is u5008, 5008, "(err u5008)" or a constant name such as ERR_ACTIVE_BIN_TOLERANCE (also ' +
      'RUNTIME_UNDERFLOW, RUNTIME_OVERFLOW, POST_CONDITION_FAILED). A code several contracts use is explained ' +
      'for each. Reads no service.',
    options: [TEXT_OR_JSON],
    exit: {
      0: 'explained',
      2: 'a code or name we do not know (the plain answer is printed), or a usage error',
    },
  },
  lsp: {
    summary: 'run the language server on stdio, for any editor',
    usage: ['--stdio'],
    description:
      'Settings (section dlmm: environment, apiUrl, ...) come from the client by any route ' +
      '(initializationOptions.dlmm, workspace/didChangeConfiguration, workspace/configuration) or else from ' +
      'DLMM_API_URL, DLMM_API_KEY, DLMM_INVENTORY_URL and DLMM_NODE_URL; environment simulator starts the ' +
      'simulated engine in the server. Editor setups: docs/editors.md.',
    options: [
      { flag: '--stdio', text: 'talk JSON-RPC on stdin/stdout (the only transport offered)', required: true },
    ],
    exit: { 0: 'the client ended the session', 2: 'usage error' },
  },
};

/** The help entry for argv after `dlmm` ('sim apply ...' finds 'sim apply', 'sim --port 1' finds 'sim'). */
export function helpKey(argv: readonly string[]): string | undefined {
  const [name, sub] = argv;
  if (name === undefined) return undefined;
  if (sub !== undefined && !sub.startsWith('-') && HELP[`${name} ${sub}`]) return `${name} ${sub}`;
  return HELP[name] ? name : undefined;
}

/** True when argv asks for help (`--help` or `-h` before a `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

function optionLines(options: OptionHelp[]): string[] {
  const width = Math.max(...options.map((o) => o.flag.length)) + 2;
  return options.map((o) => `  ${o.flag.padEnd(width)}${o.text}${o.required ? ' (required)' : ''}`);
}

/** The usage lines of `dlmm <key>` (after a usage error), each ending in a newline; '' for no such command. */
export function usageLines(key: string): string {
  const h = HELP[key];
  if (!h) return '';
  return h.usage.map((u, i) => `${i === 0 ? 'usage:' : '      '} dlmm ${key} ${u}\n`).join('');
}

/** `dlmm <key> --help`. */
export function commandHelpText(key: string): string {
  const h = HELP[key];
  if (!h) throw new Error(`no help for '${key}'`);
  const lines: string[] = [];
  lines.push(...usageLines(key).trimEnd().split('\n'));
  lines.push('', h.summary + '.');
  if (h.description) lines.push(h.description);
  if (h.options.length) lines.push('', 'options:', ...optionLines(h.options));
  if (h.common) lines.push('', 'service options (optional):', ...optionLines(COMMON_OPTIONS_HELP));
  lines.push('', 'exit codes:');
  for (const code of [0, 1, 2] as const) {
    const text = h.exit[code];
    if (text) lines.push(`  ${code}  ${text}`);
  }
  lines.push('', ...whereDocsAre());
  return lines.join('\n') + '\n';
}

/**
 * Where the docs and examples are, as paths that work from any folder: the package's own folder (an
 * installed `dlmm` or a clone), found from this bundle's location; the relative names when it is not found.
 */
export function whereDocsAre(): string[] {
  let dir = __dirname;
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'docs', 'cli.md')) && existsSync(join(dir, 'examples'))) {
      return [`more: ${join(dir, 'docs', 'cli.md')}`, `examples: ${join(dir, 'examples')}`];
    }
    dir = dirname(dir);
  }
  return ['more: docs/cli.md in the dlmm-studio package'];
}

/** `dlmm --help`: one line per command, the shared options, the environment and the exit codes. */
export function topLevelHelp(): string {
  const keys = Object.keys(HELP);
  const width = Math.max(...keys.map((k) => k.length)) + 2;
  return [
    'usage: dlmm <command> [options]',
    '       dlmm <command> --help   (the options of one command)',
    '',
    'commands:',
    ...keys.map((k) => `  ${k.padEnd(width)}${HELP[k]!.summary}`),
    '',
    `service options (${keys.filter((k) => HELP[k]!.common).join(', ')}; optional):`,
    ...optionLines(COMMON_OPTIONS_HELP),
    '',
    'environment:',
    '  DLMM_API_URL        service base URL ending in /api (instead of --api)',
    '  DLMM_API_KEY        X-API-Key for the service (never for the inventory or node hosts)',
    '  DLMM_INVENTORY_URL  market-maker inventory base (positions for withdraw/move)',
    '  DLMM_NODE_URL       Stacks node base (bin shares via read-only calls)',
    '  DLMM_ROUTERS        JSON file of router contracts per network (export, sim apply)',
    "  DLMM_CACHE_DIR      machine-wide cache of node bin reads and compiled code (default: the user's cache folder; off: none)",
    '  BITFLOW_API_HOST, BITFLOW_API_KEY, BITFLOW_PROVIDER_ADDRESS, READONLY_CALL_API_HOST,',
    '  READONLY_CALL_API_KEY, KEEPER_API_HOST, KEEPER_API_KEY',
    '                      the core swap API (tokens, routes, quote --source core); see docs/core-api.md',
    '',
    EXIT_CODES_TEXT.trimEnd(),
    '',
    ...whereDocsAre(),
    '',
  ].join('\n');
}
