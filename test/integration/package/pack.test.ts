/**
 * `npm pack` gives a package whose `dlmm` bin works after `npm install -g` of the tarball: packed from this
 * checkout (after `npm run build`), installed into a temporary prefix with no registry access (--offline:
 * the bundles carry every dependency, the package declares none), then run as a user would: help, an
 * offline check of the shipped examples, and a live check against the embedded simulator.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipBecause } from '../../skip';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function status(file: string, args: string[], cwd: string) {
  try {
    const r = await run(file, args, { cwd, env: { ...process.env, DLMM_API_URL: '', DLMM_API_KEY: '' } });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

describe('npm pack + npm install -g of the tarball', function () {
  this.timeout(120_000);
  let dir: string;
  let bin: string;
  let pkg: string;
  before(async function () {
    if (!existsSync(join(ROOT, 'dist', 'cli.js')))
      skipBecause(this, 'dist/cli.js is not built: run `npm run build` first (`npm test` does)');
    dir = mkdtempSync(join(tmpdir(), 'dlmm-pack-'));
    const packed = await run(NPM, ['pack', '--pack-destination', dir, '--ignore-scripts', '--json'], {
      cwd: ROOT,
    });
    const info = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info[0]!.files.map((f) => f.path);
    assert.ok(files.includes('bin/dlmm.js') && files.includes('dist/cli.js'), files.join(' '));
    assert.ok(
      !files.some((f) => /^(node_modules|test|core|cli\/src|server|client)\//.test(f)),
      'sources stay out',
    );
    assert.ok(!files.includes('dist/client.js'), 'the extension bundle stays out (it is in the VSIX)');
    const prefix = join(dir, 'prefix');
    await run(
      NPM,
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        join(dir, info[0]!.filename),
        '--offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: dir },
    );
    bin = join(prefix, 'bin', 'dlmm');
    pkg = join(prefix, 'lib', 'node_modules', 'dlmm-studio');
    assert.ok(existsSync(bin), 'the dlmm bin is linked');
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('dlmm --help and dlmm check --help', async () => {
    const top = await status(bin, ['--help'], dir);
    assert.equal(top.code, 0, top.err);
    assert.match(top.out, /^ {2}sim apply +dry-run/m);
    const check = await status(bin, ['check', '--help'], dir);
    assert.equal(check.code, 0);
    assert.match(check.out, /^usage: dlmm check /);
  });

  it('checks the shipped examples offline (exit 0) and the deliberate mistakes against --sim (exit 1)', async () => {
    const clean = await status(
      bin,
      ['check', '--offline', join(pkg, 'examples', 'add-ladder.dlmm.yaml')],
      dir,
    );
    assert.equal(clean.code, 0, clean.err);
    const mistakes = await status(
      bin,
      ['check', '--sim', '--format', 'json', join(pkg, 'examples', 'mistakes')],
      dir,
    );
    assert.equal(mistakes.code, 1, mistakes.err);
    const doc = JSON.parse(mistakes.out) as { summary: { errors: number } };
    assert.ok(doc.summary.errors > 0);
  });

  it('quotes and exports against --sim', async () => {
    const quote = await status(
      bin,
      ['quote', '--sim', '--in', 'sBTC', '--out', 'USDCx', '--amount', '0.01'],
      dir,
    );
    assert.equal(quote.code, 0, quote.err);
    const exp = await status(bin, ['export', join(pkg, 'examples', 'add-ladder.dlmm.yaml'), '--sim'], dir);
    assert.equal(exp.code, 0, exp.err);
    assert.match(exp.out, /unsigned transaction\(s\) to sign/);
  });
});
