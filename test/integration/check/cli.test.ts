/** `dlmm check` end to end (in-process, real simulator over loopback): formats, exit codes, golden outputs. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { DIAGNOSTIC_CODES } from '../../../core/plan/diagnostics';
import { startSimulator } from '../../../core/sim/server';
import { skipBecause } from '../../skip';

const ROOT = join(__dirname, '../../..');
const GOLDEN = join(__dirname, 'golden');

async function dlmm(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd = ROOT,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd };
  const code = await main(['check', ...args], io);
  return { code, out, err };
}

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, actual);
  assert.equal(actual, readFileSync(file, 'utf8'), `golden ${name} differs (UPDATE_GOLDEN=1 to accept)`);
}

describe('dlmm check', function () {
  this.timeout(60_000);

  it('text output like a compiler, exit 1 on errors, progress on stderr', async () => {
    const r = await dlmm(['--sim', 'examples']);
    assert.equal(r.code, 1);
    assert.match(
      r.out,
      /^examples\/mistakes\/wrong-side\.dlmm\.yaml:12:34 error wrong-token-side bin 135 is below the active bin 139/m,
    );
    assert.match(r.out, /\n6 files checked: \d+ errors, \d+ warnings, \d+ infos\n$/);
    assert.match(r.err, /dlmm check: 6 plan files/);
    golden('examples.txt', r.out);
  });

  it('JSON: exactly one document as docs/cli.md shows (golden)', async () => {
    const r = await dlmm(['--sim', '--format', 'json', 'examples']);
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.out) as {
      version: number;
      files: Array<{ path: string; diagnostics: Array<Record<string, unknown>> }>;
      summary: Record<string, number>;
    };
    assert.equal(doc.version, 1);
    assert.deepEqual(Object.keys(doc.summary), ['errors', 'warnings', 'infos']);
    const d = doc.files
      .find((f) => f.path === 'examples/mistakes/wrong-side.dlmm.yaml')
      ?.diagnostics.find((x) => x.code === 'wrong-token-side');
    assert.deepEqual(d, {
      code: 'wrong-token-side',
      severity: 'error',
      message: d?.message,
      range: { start: { line: 11, character: 33 }, end: { line: 11, character: 39 } },
      operation: 'asks',
    });
    const total = doc.files.reduce((n, f) => n + f.diagnostics.length, 0);
    assert.equal(total, doc.summary.errors! + doc.summary.warnings! + doc.summary.infos!);
    // Against the simulator every example's live rules ran.
    assert.deepEqual(
      doc.files.map((f) => (f as { live?: unknown }).live),
      doc.files.map(() => true),
    );
    golden('examples.json', r.out);
  });

  it('SARIF 2.1.0 with every rule and stable output (golden)', async () => {
    const r = await dlmm(['--sim', '--format', 'sarif', 'examples']);
    const log = JSON.parse(r.out) as {
      version: string;
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string }> } };
        results: Array<{ ruleId: string; level: string; locations: unknown[] }>;
      }>;
    };
    assert.equal(log.version, '2.1.0');
    assert.deepEqual(
      log.runs[0]?.tool.driver.rules.map((x) => x.id),
      Object.keys(DIAGNOSTIC_CODES),
    );
    assert.ok(log.runs[0]?.results.some((x) => x.ruleId === 'strict-drift-risk' && x.level === 'note'));
    assert.doesNotMatch(r.out, /\d{4}-\d{2}-\d{2}T/);
    golden('examples.sarif', r.out);
  });

  it('--offline checks without a service; a clean folder exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-check-'));
    try {
      writeFileSync(
        join(dir, 'ok.dlmm.yaml'),
        'version: 1\nsender: SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR\noperations:\n  - { op: swap, input_token: SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token, output_token: SP120SBRBQJ00MCWS7TM5R8WJNTTKD5K0HFRC2CNE.usdcx, amount_in: 5 }\n',
      );
      writeFileSync(join(dir, 'ignored.yaml'), 'not: a plan\n');
      const r = await dlmm(['--offline', dir]);
      // Never a silent clean: the plan says its live rules did not run, and the exit stays 0 (a warning).
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(
        r.out,
        /^.*ok\.dlmm\.yaml:1:1 warning live-unchecked the live rules did not run: checked offline by choice \(--offline\).*\n1 file checked: 0 errors, 1 warning, 0 infos\n$/,
      );
      writeFileSync(join(dir, 'bad.dlmm.json'), '{"version": 1,}');
      const r2 = await dlmm(['--offline', '--format', 'json', dir]);
      assert.equal(r2.code, 1);
      const doc = JSON.parse(r2.out) as {
        files: Array<{ path: string; live: boolean; diagnostics: Array<{ code: string; range: unknown }> }>;
      };
      assert.deepEqual(
        doc.files.map((f) => [f.path.replace(/^.*\//, ''), f.live, f.diagnostics.map((d) => d.code)]),
        [
          // A plan that does not parse could not be checked live either way: its syntax error says it all.
          ['bad.dlmm.json', false, ['syntax']],
          ['ok.dlmm.yaml', false, ['live-unchecked']],
        ],
      );
      const sarif = JSON.parse((await dlmm(['--offline', '--format', 'sarif', dir])).out) as {
        runs: Array<{
          artifacts: Array<{ properties: { live: boolean } }>;
          results: Array<{ ruleId: string; level: string }>;
        }>;
      };
      assert.deepEqual(
        sarif.runs[0]?.artifacts.map((a) => a.properties.live),
        [false, false],
      );
      assert.ok(sarif.runs[0]?.results.some((x) => x.ruleId === 'live-unchecked' && x.level === 'warning'));
      assert.deepEqual(doc.files[0]?.diagnostics[0]?.range, {
        start: { line: 0, character: 14 },
        end: { line: 0, character: 15 },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exit 2: usage errors, and live data unavailable without --offline', async () => {
    assert.equal((await dlmm(['--format', 'xml', 'examples'])).code, 2);
    assert.equal((await dlmm(['--offline', 'no/such/path'])).code, 2);
    assert.equal((await dlmm(['examples'], {})).code, 2); // no service configured
    const r = await dlmm(['--api', 'http://127.0.0.1:9/api', 'examples/swap.dlmm.json']);
    assert.equal(r.code, 2);
    assert.match(r.out, /api-unreachable/);
  });

  it('a dead service gives one api-unreachable finding per operation or file, not one per read', async () => {
    const r = await dlmm([
      '--api',
      'http://127.0.0.1:9/api',
      '--format',
      'json',
      'examples/add-ladder.dlmm.yaml',
    ]);
    assert.equal(r.code, 2);
    const doc = JSON.parse(r.out) as { files: { diagnostics: { code: string; operation?: string }[] }[] };
    const found = doc.files[0]!.diagnostics.filter((d) => d.code === 'api-unreachable');
    assert.ok(found.length >= 1, 'reported');
    const keys = found.map((d) => d.operation ?? '(file)');
    assert.equal(new Set(keys).size, keys.length, `one per operation or file: ${keys.join(', ')}`);
  });

  it('exit 2 with a clear message, never a stack trace, for a plan that cannot be read', async function () {
    // /proc/self/mem stats as a file but every read fails (EIO), even for root, where chmod 000 would not;
    // a link named like a plan file points at it.
    if (!existsSync('/proc/self/mem'))
      skipBecause(this, 'no /proc/self/mem on this platform: no file whose every read fails');
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-unreadable-'));
    symlinkSync('/proc/self/mem', join(dir, 'mem.dlmm.yaml'));
    const r = await dlmm(['--offline', join(dir, 'mem.dlmm.yaml')]);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /plan file .*mem\.dlmm\.yaml: cannot be read \(EIO\)/);
    assert.doesNotMatch(r.err, /internal error|\n\s+at /);
  });

  it('a service that refuses every read (HTTP 401, bad key) is live data unavailable: exit 2, never a pass', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    try {
      const r = await dlmm(
        ['--api', sim.url, '--api-key-env', 'WRONG_KEY', '--format', 'json', 'examples/add-ladder.dlmm.yaml'],
        { WRONG_KEY: 'not-a-key-of-this-engine' },
      );
      assert.equal(r.code, 2, r.out + r.err);
      const doc = JSON.parse(r.out) as {
        files: Array<{ diagnostics: Array<{ code: string; message: string }> }>;
      };
      const unreachable = doc.files[0]?.diagnostics.filter((d) => d.code === 'api-unreachable') ?? [];
      assert.ok(unreachable.length > 0, r.out);
      assert.match(unreachable[0]?.message ?? '', /HTTP 401/);
      assert.doesNotMatch(r.out + r.err, /not-a-key-of-this-engine/);
    } finally {
      await sim.close();
    }
  });

  it('a URL with a wrong path (every read 404) says it is not the service, never pool-not-found (issue 28 item 3)', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    try {
      // The simulator's base is .../api; a wrong prefix makes it answer 404 to every read, as a wrong host path would.
      const wrong = sim.url.replace(/\/api$/, '/v2/api');
      const r = await dlmm([
        '--api',
        wrong,
        '--format',
        'json',
        'examples/add-ladder.dlmm.yaml',
        'examples/swap.dlmm.json',
      ]);
      assert.equal(r.code, 2, r.out + r.err);
      const doc = JSON.parse(r.out) as {
        files: Array<{ diagnostics: Array<{ code: string; message: string }> }>;
      };
      for (const f of doc.files) {
        const codes = f.diagnostics.map((d) => d.code);
        assert.ok(!codes.includes('pool-not-found'), r.out);
        assert.ok(!codes.includes('swap-no-route'), r.out);
        const unreachable = f.diagnostics.filter((d) => d.code === 'api-unreachable');
        assert.equal(unreachable.length, 1, r.out);
        assert.match(unreachable[0]!.message, /\/v2\/api does not look like the DLMM service/);
        assert.match(unreachable[0]!.message, /ending in \/api just before \/quotes\/v2\//);
      }
      // The right URL on the same simulator reads (the finding is about the path, not the service being down).
      const right = await dlmm(['--api', sim.url, '--format', 'json', 'examples/add-ladder.dlmm.yaml']);
      assert.doesNotMatch(right.out, /does not look like the DLMM service/);
    } finally {
      await sim.close();
    }
  });

  it('--max-tip-lag overrides the policy', async () => {
    const r = await dlmm([
      '--sim',
      '--max-tip-lag',
      '5',
      '--format',
      'json',
      'examples/add-ladder.dlmm.yaml',
    ]);
    assert.equal(r.code, 0, r.out);
  });
});
