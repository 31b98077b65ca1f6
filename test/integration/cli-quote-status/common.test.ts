/** Shared CLI option handling (cli/src/common.ts): the rules every command inherits. */
import { strict as assert } from 'node:assert';
import {
  hasApiConfigured,
  parseCommand,
  parseFormat,
  parseNonNegativeInt,
  resolveApiKey,
  resolveRemoteOptions,
  withApi,
} from '../../../cli/src/common';
import { UsageError, type CliIO } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';

const io = (env: Record<string, string> = {}): CliIO => ({ out: () => {}, err: () => {}, env, cwd: '/' });

describe('cli common options', () => {
  it('parses shared and own options, with positionals when allowed', () => {
    const p = parseCommand(
      ['a.dlmm.yaml', '--api', 'http://h:1/api', '--max-tip-lag', '3', '--offline'],
      {
        'max-tip-lag': { type: 'string' },
        offline: { type: 'boolean' },
      },
      { positionals: true },
    );
    assert.deepEqual(p.positionals, ['a.dlmm.yaml']);
    assert.equal(p.common.api, 'http://h:1/api');
    assert.equal(p.common.sim, false);
    assert.equal(p.values['max-tip-lag'], '3');
    assert.equal(p.values.offline, true);
  });

  it('turns unknown options, stray positionals and bad URLs into usage errors', () => {
    assert.throws(
      () => parseCommand(['--nope'], {}),
      (e) => e instanceof UsageError && /--nope/.test(e.message),
    );
    assert.throws(() => parseCommand(['file'], {}), UsageError);
    assert.throws(() => parseCommand(['--api', 'ftp://x/api'], {}), /http\(s\)/);
    assert.throws(() => parseCommand(['--api', 'not a url'], {}), /expects an http\(s\) URL/);
    assert.throws(() => parseCommand(['--api', 'http://h/api', '--sim'], {}), /not both/);
  });

  it("says an unknown option's nearest known one, and what a missing value or a stray argument means", () => {
    const own = { offline: { type: 'boolean' }, 'max-tip-lag': { type: 'string' } } as const;
    const message = (args: string[], positionals = false) => {
      try {
        parseCommand(args, own, { positionals });
      } catch (e) {
        assert.ok(e instanceof UsageError);
        return e.message;
      }
      return assert.fail(`${args.join(' ')} was accepted`);
    };
    assert.equal(message(['--simm']), 'unknown option --simm; did you mean --sim?');
    assert.equal(message(['--ofline']), 'unknown option --ofline; did you mean --offline?');
    assert.equal(message(['--max-tip']), 'unknown option --max-tip; did you mean --max-tip-lag?');
    assert.equal(message(['--zzzzzz']), 'unknown option --zzzzzz');
    assert.equal(message(['--api']), '--api needs a value (write --api VALUE or --api=VALUE)');
    assert.equal(message(['--offline=yes']), '--offline takes no value');
    assert.equal(message(['extra']), "unexpected argument 'extra': this command takes options only");
  });

  it('refuses an option given twice (the last would win unseen), except a list option', () => {
    const own = { amount: { type: 'string' }, pool: { type: 'string', multiple: true } } as const;
    for (const args of [
      ['--amount', '0.001', '--amount', '0.5'],
      ['--amount=1', '--amount=1'],
      ['--sim', '--sim'],
      ['--api', 'http://h/api?key=secret', '--api=http://h/api'],
    ])
      assert.throws(
        () => parseCommand(args, own),
        (e) =>
          e instanceof UsageError &&
          /is given more than once: give it once/.test(e.message) &&
          !/secret|0\.5/.test(e.message),
      );
    assert.deepEqual(parseCommand(['--pool', 'a', '--pool', 'b'], own).values.pool, ['a', 'b']);
    assert.equal(parseCommand(['--amount', '2'], own).values.amount, '2');
  });

  it('refuses keys as arguments in every spelling, without echoing them', () => {
    for (const args of [['--api-key', 'k1'], ['--api-key=k2'], ['--apikey=k3'], ['--x-api-key', 'k4']]) {
      assert.throws(
        () => parseCommand(args, {}),
        (e) => e instanceof UsageError && /--api-key-env NAME/.test(e.message) && !/k\d/.test(e.message),
      );
    }
  });

  it('resolves the key from the named variable or DLMM_API_KEY, and the URLs from the environment', () => {
    const env = {
      MINE: 'key-a',
      DLMM_API_KEY: 'key-b',
      DLMM_API_URL: 'http://svc/api',
      DLMM_NODE_URL: 'http://node',
    };
    assert.equal(resolveApiKey(parseCommand(['--api-key-env', 'MINE'], {}).common, io(env)), 'key-a');
    assert.equal(resolveApiKey(parseCommand([], {}).common, io(env)), 'key-b');
    assert.equal(resolveApiKey(parseCommand(['--sim'], {}).common, io(env)), undefined);
    assert.throws(
      () => resolveApiKey(parseCommand(['--api-key-env', 'bad name'], {}).common, io(env)),
      UsageError,
    );
    const remote = resolveRemoteOptions(parseCommand([], {}).common, io(env));
    assert.equal(remote.baseUrl, 'http://svc/api');
    assert.equal(remote.nodeUrl, 'http://node');
    assert.equal(remote.inventoryUrl, undefined);
    assert.equal(hasApiConfigured(parseCommand([], {}).common, io()), false);
    assert.equal(hasApiConfigured(parseCommand([], {}).common, io(env)), true);
  });

  it('validates --format and integer options', () => {
    const common = parseCommand(['--format', 'json'], {}).common;
    assert.equal(parseFormat(common, ['text', 'json'] as const, 'text'), 'json');
    assert.throws(() => parseFormat(common, ['text', 'sarif'] as const, 'text'), /expected text, sarif/);
    assert.equal(
      parseNonNegativeInt('340282366920938463463374607431768211455', '--nonce'),
      (1n << 128n) - 1n,
    );
    assert.throws(() => parseNonNegativeInt('1.5', '--fee'), /--fee expects a non-negative integer/);
  });

  it('withApi --sim hands the command the simulator and stops it afterwards', async () => {
    let url = '';
    const code = await withApi(parseCommand(['--sim'], {}).common, io(), async (api, ctx) => {
      assert.equal(ctx.source, 'sim');
      assert.ok(ctx.sim);
      assert.equal(api.options.inventoryUrl, ctx.sim.inventoryUrl);
      assert.equal(api.options.nodeUrl, ctx.sim.nodeUrl);
      assert.equal((await api.status()).pool_count, 3);
      url = ctx.baseUrl;
      return 7;
    });
    assert.equal(code, 7);
    await assert.rejects(fetch(`${url}/quotes/v2/status`), 'the simulator is stopped when the command ends');
  });

  it('no command: usage on stderr, exit 2; --help: usage on stdout, exit 0', async () => {
    let out = '';
    let err = '';
    const cap: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: '/' };
    assert.equal(await main([], cap), 2);
    assert.equal(out, '');
    assert.match(err, /^usage: dlmm <command>/);
    err = '';
    assert.equal(await main(['--help'], cap), 0);
    assert.equal(err, '');
    assert.match(out, /^usage: dlmm <command>/);
  });
});
