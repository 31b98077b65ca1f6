/**
 * `dlmm --help`, `dlmm <command> --help` and the help table (cli/src/help.ts): every command has an entry,
 * every option a command accepts is listed in it, and docs/cli.md describes every entry.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMON_OPTIONS } from '../../../cli/src/common';
import { OPTIONS as CHECK } from '../../../cli/src/commands/check';
import { OPTIONS as EXPORT } from '../../../cli/src/commands/export';
import { OPTIONS as QUOTE } from '../../../cli/src/commands/quote';
import { APPLY_OPTIONS, SERVE_OPTIONS } from '../../../cli/src/commands/sim';
import { ADD_OPTIONS, OPTIONS as PLAN, RECENTRE_OPTIONS } from '../../../cli/src/commands/plan';
import { OPTIONS as STATUS } from '../../../cli/src/commands/status';
import { OPTIONS as BALANCES } from '../../../cli/src/commands/balances';
import { OPTIONS as POSITIONS } from '../../../cli/src/commands/positions';
import { OPTIONS as WALLET } from '../../../cli/src/commands/wallet';
import { OPTIONS as TOKENS } from '../../../cli/src/commands/tokens';
import { OPTIONS as ROUTES } from '../../../cli/src/commands/routes';
import { OPTIONS as EXPLAIN } from '../../../cli/src/commands/explain';
import { OPTIONS as BACKTEST } from '../../../cli/src/commands/backtest';
import { COMMON_OPTIONS_HELP, HELP, topLevelHelp } from '../../../cli/src/help';
import { COMMANDS, main } from '../../../cli/src/main';
import { capture } from './capture';

/**
 * The options each help entry's command accepts (its parseArgs spec). A new command: export its option spec
 * from its module and add it here; `common: true` entries also accept COMMON_OPTIONS.
 */
const ACCEPTED: Record<string, object> = {
  check: CHECK,
  quote: QUOTE,
  export: EXPORT,
  status: STATUS,
  balances: BALANCES,
  positions: POSITIONS,
  wallet: WALLET,
  tokens: TOKENS,
  routes: ROUTES,
  explain: EXPLAIN,
  backtest: BACKTEST,
  sim: SERVE_OPTIONS,
  'sim apply': APPLY_OPTIONS,
  lsp: { stdio: { type: 'boolean' } },
  plan: PLAN,
  'plan add': ADD_OPTIONS,
  'plan recentre': RECENTRE_OPTIONS,
};
/** Accepted but deliberately not listed: `dlmm sim` takes --sim (it is one) and refuses --api with a hint; `wallet` refuses --format. */
const UNLISTED: Record<string, string[]> = { sim: ['--sim', '--api'], wallet: ['--format'] };

const flagName = (flag: string) => flag.split(/\s/)[0] as string;

describe('dlmm help', () => {
  it('every command has a help entry, and every entry a command', () => {
    for (const name of Object.keys(COMMANDS))
      assert.ok(HELP[name], `add a HELP['${name}'] entry in cli/src/help.ts for the command '${name}'`);
    for (const key of Object.keys(HELP))
      assert.ok(COMMANDS[key.split(' ')[0]!], `HELP['${key}'] names no command registered in main.ts`);
  });

  it('lists every option each command accepts, and no other', () => {
    for (const [key, h] of Object.entries(HELP)) {
      const spec = ACCEPTED[key];
      assert.ok(
        spec,
        `test/unit/cli/help.test.ts: add ACCEPTED['${key}'] (the option spec the command parses, exported from its module)`,
      );
      const accepted = new Set(
        Object.keys({ ...(h.common ? COMMON_OPTIONS : {}), ...spec }).map((k) => `--${k}`),
      );
      const listed = new Set(
        [...h.options, ...(h.common ? COMMON_OPTIONS_HELP : [])].map((o) => flagName(o.flag)),
      );
      for (const u of UNLISTED[key] ?? []) accepted.delete(u);
      assert.deepEqual([...listed].sort(), [...accepted].sort(), `HELP['${key}'] options vs what it parses`);
      for (const o of h.options)
        assert.ok(
          h.usage.some((u) => u.includes(flagName(o.flag))),
          `HELP['${key}']: the usage line does not show ${o.flag}`,
        );
    }
  });

  it('shows optional options in brackets and required ones bare', () => {
    for (const [key, h] of Object.entries(HELP)) {
      const usage = h.usage.join(' ');
      for (const o of h.options) {
        const name = flagName(o.flag);
        const at = usage.indexOf(name);
        const bracketed = usage.lastIndexOf('[', at) > usage.lastIndexOf(']', at);
        // One of alternatives (`(TX_HEX | --file FILE)`): neither bracketed nor required.
        if (!o.required && /[(|]\s*$/.test(usage.slice(0, at))) continue;
        assert.equal(
          bracketed,
          !o.required,
          `HELP['${key}'] usage: ${name} is ${o.required ? 'required' : 'optional'}`,
        );
      }
    }
    assert.match(HELP.export!.usage.join(' '), /\[--format tx-hex\|wallet-request\|summary\|json\]/);
  });

  it('top-level help: one line per command (sim apply included) and the exit codes, on stdout with exit 0', async () => {
    const io = capture();
    assert.equal(await main(['--help'], io), 0);
    const { out, err } = io.text();
    assert.equal(err, '');
    assert.equal(out, topLevelHelp());
    for (const [key, h] of Object.entries(HELP))
      assert.ok(out.includes(`  ${key.padEnd(11)}`) && out.includes(h.summary), key);
    assert.match(out, /^ {2}sim apply +dry-run/m);
    assert.match(out, /exit codes[\s\S]*0 {2}success[\s\S]*1 {2}error findings[\s\S]*2 {2}usage error/);
  });

  for (const key of Object.keys(HELP)) {
    it(`dlmm ${key} --help (and -h, and dlmm help ${key}) prints its usage, options and exit codes`, async () => {
      for (const argv of [
        [...key.split(' '), '--help'],
        [...key.split(' '), '-h'],
        ['help', ...key.split(' ')],
      ]) {
        const io = capture();
        assert.equal(await main(argv, io), 0, argv.join(' '));
        const { out, err } = io.text();
        assert.equal(err, '');
        assert.ok(out.startsWith(`usage: dlmm ${key} `), out);
        for (const o of HELP[key]!.options) assert.ok(out.includes(o.flag), `${key}: ${o.flag}`);
        assert.match(out, /exit codes:\n {2}0 /);
      }
    });
  }

  it('--help wins over other arguments, even invalid ones', async () => {
    const io = capture();
    assert.equal(await main(['export', 'nope.dlmm.yaml', '--bogus', '--help'], io), 0);
    assert.ok(io.text().out.startsWith('usage: dlmm export '));
  });

  it("the README's command list has a line for every command and subcommand, and `dlmm --help` names each", async () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    const block = /## The command line\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const io = capture();
    assert.equal(await main(['--help'], io), 0);
    const top = io.text().out;
    for (const key of Object.keys(HELP)) {
      if (key === 'plan') continue; // its subcommands have their own lines
      assert.ok(
        block.split('\n').some((l) => l.startsWith(`dlmm ${key} `)),
        `README: add a line for dlmm ${key}`,
      );
    }
    for (const name of Object.keys(COMMANDS)) assert.ok(top.includes(name), `dlmm --help: list ${name}`);
  });

  it('docs/cli.md describes every command of the help table', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/cli.md'), 'utf8');
    for (const [key, h] of Object.entries(HELP)) {
      assert.ok(doc.includes(`### \`dlmm ${key}\``), `docs/cli.md: add a section "### \`dlmm ${key}\`"`);
      for (const o of h.options)
        assert.ok(
          doc.includes(`\`${flagName(o.flag)}`),
          `docs/cli.md: describe ${flagName(o.flag)} of dlmm ${key}`,
        );
    }
  });
});
