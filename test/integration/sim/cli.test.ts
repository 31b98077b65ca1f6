/** `dlmm sim` and `dlmm sim apply` as a user runs them: a real child process, real signals, real HTTP. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { revertingTxHex } from './helpers';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'cli/src/main.ts');

function dlmm(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects a child's output and exit code (bounded by mocha's timeout). */
async function finish(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
}

/** Resolves with the first stdout line (the listening line). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`dlmm sim exited (${code}) before listening`)));
  });
}

describe('dlmm sim (CLI)', function () {
  this.timeout(60_000);

  it('prints exactly the listening line, serves, applies a transaction, and stops on SIGTERM with status 0', async () => {
    const child = dlmm(['sim', '--host', '127.0.0.1', '--port', '0']);
    const exited = once(child, 'exit');
    try {
      const line = await firstLine(child);
      const m = /^dlmm sim listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/.exec(line);
      assert.ok(m, line);
      const res = await fetch(`${m[1]}/quotes/v2/status`);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { pool_count: number }).pool_count, 3);

      const applied = await finish(dlmm(['sim', 'apply', await revertingTxHex(), '--api', m[1]!]));
      assert.equal(applied.code, 1, applied.err);
      assert.equal(JSON.parse(applied.out).ok, false);
      // Not a transaction at all: a usage error (2), before any request; 1 is for "reverted".
      const notTx = await finish(dlmm(['sim', 'apply', '00deadbeef', '--api', m[1]!]));
      assert.equal(notTx.code, 2, notTx.err);
      assert.match(notTx.err, /'00deadbeef' is not a serialized Stacks transaction/);

      // Its port again: one line that says the port is taken and how to get a free one.
      const busy = await finish(dlmm(['sim', '--port', new URL(m[1]!).port]));
      assert.equal(busy.code, 2);
      assert.match(
        busy.err,
        /^dlmm sim: port \d+ on 127\.0\.0\.1 is already in use .*--port 0 for any free port\n$/,
      );
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0);
  });

  it('takes the common flags: --api-key-env adds an accepted key, --format json notes, --api refused', async () => {
    process.env.DLMM_TEST_SIM_KEY = 'sim-cli-test-key-3f9a';
    const child = dlmm([
      'sim',
      '--port',
      '0',
      '--sim',
      '--format',
      'json',
      '--api-key-env',
      'DLMM_TEST_SIM_KEY',
    ]);
    const exited = once(child, 'exit');
    try {
      const line = await firstLine(child);
      const m = /^dlmm sim listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/.exec(line);
      assert.ok(m, line);
      const withKey = await fetch(`${m[1]}/quotes/v2/status`, {
        headers: { 'x-api-key': 'sim-cli-test-key-3f9a' },
      });
      assert.equal(withKey.status, 200);
      const wrongKey = await fetch(`${m[1]}/quotes/v2/status`, { headers: { 'x-api-key': 'not-a-key' } });
      assert.equal(wrongKey.status, 401);
    } finally {
      child.kill('SIGTERM');
      delete process.env.DLMM_TEST_SIM_KEY;
    }
    assert.equal(((await exited) as [number | null])[0], 0);
    const refused = await finish(dlmm(['sim', '--port', '0', '--api', 'http://127.0.0.1:9/api']));
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--api/);
  });

  it('refuses an invalid world file with its problems and status 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlmm-sim-'));
    const file = join(dir, 'bad.world.yaml');
    writeFileSync(file, 'tokens: []\npools: []\n');
    const r = await finish(dlmm(['sim', '--port', '0', '--world', file]));
    assert.equal(r.code, 2);
    assert.match(r.err, /bad\.world\.yaml.*invalid world file/s);
    assert.match(r.err, /tokens/);
    assert.equal(r.out, '');
  });

  it('reports an unreachable simulator for sim apply with status 2', async () => {
    const r = await finish(dlmm(['sim', 'apply', await revertingTxHex(), '--api', 'http://127.0.0.1:9/api']));
    assert.equal(r.code, 2);
    assert.match(r.err, /no simulator answers/);
  });
});
