/**
 * The command line helps: negative numbers reach their option's own check, an --api without /api says so,
 * a path that is not a plan file is named as such, file errors read the same in every command, and
 * `dlmm sim` prints the environment lines with which `check --api` finds exactly what `check --sim` finds.
 */
import { strict as assert } from 'node:assert';
import type { CliIO } from '../../../cli/src/io';
import { escapeForTerminal } from '../../../cli/src/io';
import { main } from '../../../cli/src/main';
import { serve } from '../../../cli/src/commands/sim';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function dlmm(argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('a command line that helps', function () {
  this.timeout(60_000);

  it('negative numbers are values: --amount -5 must be positive, --max-tip-lag -1 must not be negative', async () => {
    const amount = await dlmm(['quote', '--in', 'sBTC', '--out', 'USDCx', '--amount', '-5', '--sim']);
    assert.equal(amount.code, 2);
    assert.match(amount.err, /--amount must be positive.*'-5'/);
    assert.doesNotMatch(amount.err, /ambiguous/);
    const lag = await dlmm(['check', '--offline', '--max-tip-lag', '-1', 'examples']);
    assert.equal(lag.code, 2);
    assert.match(lag.err, /--max-tip-lag must not be negative, got '-1'/);
    const nonce = await dlmm([
      'export',
      'examples/add-ladder.dlmm.yaml',
      '--sim',
      '--format',
      'json',
      '--public-key',
      '02' + 'ab'.repeat(32),
      '--nonce',
      '-1',
      '--fee',
      '1',
    ]);
    assert.equal(nonce.code, 2);
    assert.match(nonce.err, /--nonce must not be negative/);
    const port = await dlmm(['sim', '--port', '-1']);
    assert.equal(port.code, 2);
    assert.match(port.err, /--port expects 0\.\.65535, got '-1'/);
  });

  it('--api (and DLMM_API_URL) must end in /api, and the message says so', async () => {
    for (const [argv, env, name] of [
      [['status', '--api', 'http://127.0.0.1:8787'], {}, '--api'],
      [['status'], { DLMM_API_URL: 'http://127.0.0.1:8787/' }, 'DLMM_API_URL'],
      [['sim', 'apply', '00', '--api', 'http://127.0.0.1:8787'], {}, '--api'],
    ] as const) {
      const r = await dlmm([...argv], env);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`${name} must be the service base ending in /api`));
      assert.match(r.err, /did you mean http:\/\/127\.0\.0\.1:8787\/api\?/);
    }
  });

  it('an explicit path that is not a plan file is named as such (check and export)', async () => {
    const check = await dlmm(['check', '--offline', 'README.md']);
    assert.equal(check.code, 2);
    assert.equal(check.out, '');
    assert.match(check.err, /README\.md is not a plan file: plan files are named \*\.dlmm\.yaml/);
    const exp = await dlmm(['export', 'README.md', '--sim']);
    assert.equal(exp.code, 2);
    assert.match(exp.err, /README\.md is not a plan file/);
  });

  it('a missing file reads the same in every command', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['check', '--offline', 'nowhere.dlmm.yaml'],
        'plan file nowhere.dlmm.yaml: no such file or folder (ENOENT)',
      ],
      [['export', 'nowhere.dlmm.yaml', '--sim'], 'plan file nowhere.dlmm.yaml: no such file (ENOENT)'],
      [['sim', '--port', '0', '--world', 'nowhere.yaml'], 'world file nowhere.yaml: no such file (ENOENT)'],
      [['sim', 'apply', '--file', 'nowhere.hex'], 'transaction file nowhere.hex: no such file (ENOENT)'],
      [
        ['export', 'examples/add-ladder.dlmm.yaml', '--sim'],
        'router configuration file (DLMM_ROUTERS) nowhere.json: no such file (ENOENT)',
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await dlmm(
        argv,
        argv[0] === 'export' && argv[1] !== 'nowhere.dlmm.yaml' ? { DLMM_ROUTERS: 'nowhere.json' } : {},
      );
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.err.split('\n')[0], `dlmm ${argv[0]}: ${message}`, argv.join(' '));
      assert.doesNotMatch(r.err, /internal error|\n\s+at /);
    }
  });

  it('dlmm sim prints the environment lines; check --api with them finds what check --sim finds', async () => {
    let err = '';
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    let listening!: () => void;
    const up = new Promise<void>((r) => (listening = r));
    const io: CliIO = {
      out: (t) => {
        out += t;
        listening();
      },
      err: (t) => void (err += t),
      env: {},
      cwd: process.cwd(),
    };
    const served = serve(['--port', '0'], io, () => stopped);
    await up;
    try {
      const url = /^dlmm sim listening on (\S+)$/m.exec(out)?.[1];
      assert.ok(url, out);
      const env: Record<string, string> = {};
      for (const m of err.matchAll(/^ {2}export (DLMM_[A-Z_]+)=(\S+)$/gm)) env[m[1]!] = m[2]!;
      assert.deepEqual(Object.keys(env).sort(), ['DLMM_API_URL', 'DLMM_INVENTORY_URL', 'DLMM_NODE_URL']);
      assert.equal(env.DLMM_API_URL, url);
      const viaEnv = await dlmm(['check', '--format', 'json', 'examples'], env);
      const viaApi = await dlmm(['check', '--format', 'json', '--api', url, 'examples'], {
        ...env,
        DLMM_API_URL: undefined,
      });
      const viaSim = await dlmm(['check', '--format', 'json', '--sim', 'examples']);
      assert.equal(viaSim.code, 1);
      assert.equal(viaEnv.out, viaSim.out);
      assert.equal(viaApi.out, viaSim.out);
      assert.equal(viaEnv.code, viaSim.code);
    } finally {
      stop();
      assert.equal(await served, 0);
    }
  });

  it('control characters never reach the terminal raw', () => {
    assert.equal(escapeForTerminal('a\u001b[2Jb\rc\n\td\u009b'), 'a\\x1b[2Jb\\rc\n\td\\x9b');
  });
});
