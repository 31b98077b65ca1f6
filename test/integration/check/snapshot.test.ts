/**
 * `dlmm check` from the startup snapshot (cli/src/snapshot.ts, the launcher bin/dlmm) through the real built
 * bundles (`npm run build` first) and the real node: the launcher's first run builds the snapshot in the
 * background and the next one starts from it; a snapshot run prints exactly what the plain CLI prints (stdout,
 * stderr, exit code) for valid, invalid and hostile plans, with the environment and the working directory
 * of the run, not of the build; a stale, foreign, linked or mis-dated snapshot is never used. Which way the
 * launcher went is read from its own trace (`sh -x`), not from the output (which is the same by design).
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SNAPSHOT_NODE_FLAGS,
  buildWanted,
  snapshotName,
  supervise,
  withoutLoadedCodeCache,
} from '../../../cli/src/snapshot';
import { REDACTED } from '../../../core/text/safe';
import { ROOT, run } from './run';
import { skipBecause } from '../../skip';

const EXAMPLES = join(ROOT, 'examples');
const PLAN = join(EXAMPLES, 'add-ladder.dlmm.yaml');

/** How the launcher ran the CLI: 'snapshot', 'plain' (bin/dlmm.js), or what it printed otherwise. */
async function launcherPath(launcher: string, args: string[], env: Record<string, string>): Promise<string> {
  const r = await run('/bin/sh', ['-x', launcher, ...args], env);
  // The snapshot run is a child of the launcher (it falls back when node refuses the blob); the plain run an exec.
  const exec = r.stderr.split('\n').find((l) => /^\+ (exec |\S+ (--[a-z-]+ )*--snapshot-blob )/.test(l));
  if (exec === undefined) return `no exec in: ${r.stderr}`;
  return exec.includes('--snapshot-blob') ? 'snapshot' : exec.includes('dlmm.js') ? 'plain' : exec;
}

/** Waits (no fixed sleep: polls the folder) until the background build has left a snapshot and its lock. */
async function builtSnapshot(folder: string, deadlineMs = 90_000): Promise<string> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const names = existsSync(folder) ? readdirSync(folder) : [];
    const blob = names.find((n) => n.endsWith('.blob'));
    if (blob && !names.some((n) => n.endsWith('.lock'))) return join(folder, blob);
    if (Date.now() > until) throw new Error(`no snapshot in ${folder}: ${names.join(' ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A private copy of the package (bin/ and the bundles), so its files can be re-dated and edited. */
function copyPackage(to: string): void {
  mkdirSync(join(to, 'bin'), { recursive: true });
  mkdirSync(join(to, 'dist'), { recursive: true });
  for (const f of ['dlmm', 'dlmm.js']) copyFileSync(join(ROOT, 'bin', f), join(to, 'bin', f));
  chmodSync(join(to, 'bin', 'dlmm'), 0o755);
  for (const f of readdirSync(join(ROOT, 'dist')))
    if (/^(cli.*|lazy-.*|snapshot)\.js$|^snapshot\.id$/.test(f))
      copyFileSync(join(ROOT, 'dist', f), join(to, 'dist', f));
}

/** The snapshot the launcher in `pkg`/bin looks for in `cache` (its bundles' folder named `<bin>/../dist`). */
function blobFor(pkg: string, cache: string, node = nodeOnPath()): string {
  const id = readFileSync(join(pkg, 'dist', 'snapshot.id'), 'utf8').trim();
  return join(cache, 'snapshot', `${snapshotName(id, node, launcherDist(pkg))}.blob`);
}
const launcherDist = (pkg: string): string => `${join(pkg, 'bin')}/../dist`;

const nodeOnPath = (): string => {
  for (const d of (process.env.PATH ?? '').split(':')) {
    const f = join(d || '.', 'node');
    try {
      if (statSync(f).isFile()) return f;
    } catch {
      /* next */
    }
  }
  throw new Error('no node on PATH');
};

describe('dlmm check from a startup snapshot (built bundles)', function () {
  this.timeout(180_000);
  let tmp: string;
  let cache: string;
  let blob: string;
  let env: Record<string, string>;

  before(async function () {
    if (process.platform === 'win32')
      skipBecause(this, 'the launcher is a POSIX shell script: not run on Windows');
    if (!existsSync(join(ROOT, 'dist', 'snapshot.js')))
      skipBecause(this, 'dist/snapshot.js is not built: run `npm run build` first (`npm test` does)');
    tmp = mkdtempSync(join(tmpdir(), 'dlmm-snapshot-'));
    cache = join(tmp, 'cache');
    env = { PATH: process.env.PATH ?? '', DLMM_CACHE_DIR: cache };
    // The first run of the launcher runs the plain CLI and starts the build in the background.
    assert.equal(await launcherPath(join(ROOT, 'bin', 'dlmm'), ['check', '--offline', PLAN], env), 'plain');
    blob = await builtSnapshot(join(cache, 'snapshot'));
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the next check runs from the snapshot, which is private to the user and named for this build and node', async () => {
    assert.equal(
      await launcherPath(join(ROOT, 'bin', 'dlmm'), ['check', '--offline', PLAN], env),
      'snapshot',
    );
    assert.equal(blob, blobFor(ROOT, cache));
    assert.equal(statSync(blob).mode & 0o077, 0);
    assert.equal(statSync(join(cache, 'snapshot')).mode & 0o077, 0);
    assert.equal(readFileSync(blob.replace(/\.blob$/, '.node'), 'utf8'), `${nodeOnPath()}\n`);
    // Other commands keep the plain path.
    assert.equal(await launcherPath(join(ROOT, 'bin', 'dlmm'), ['--version'], env), 'plain');
    // The launcher runs node with the flags the snapshot was built with.
    const trace = (await run('/bin/sh', ['-x', join(ROOT, 'bin', 'dlmm'), 'check', '--offline', PLAN], env))
      .stderr;
    assert.ok(trace.includes(` ${SNAPSHOT_NODE_FLAGS.join(' ')} --snapshot-blob /dev/fd/3 `), trace);
  });

  it('holds no code cache for the built-in modules it has loaded (Node writes one for every module)', () => {
    // The file still ends with Node's code cache: an entry for a module the snapshot has not loaded (http2)
    // is there to drop, none for modules it has loaded (fs, vm, path: the builder's own) is left.
    const data = readFileSync(blob);
    const withoutHttp2 = withoutLoadedCodeCache(data, new Set(['internal/http2/core']));
    assert.ok(withoutHttp2 !== undefined && withoutHttp2.length < data.length);
    assert.equal(withoutLoadedCodeCache(data, new Set(['fs', 'vm', 'path'])), undefined);
  });

  describe('prints exactly what the plain CLI prints', () => {
    let hostile: string;
    /** The same `dlmm` arguments run on the plain path and from the snapshot. */
    const bothPaths = async (args: string[], cwd?: string) => ({
      plain: await run(process.execPath, [join(ROOT, 'bin', 'dlmm.js'), ...args], env, cwd),
      snap: await run(
        process.execPath,
        [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', blob, join(ROOT, 'dist'), ...args],
        env,
        cwd,
      ),
    });
    before(() => {
      hostile = join(tmp, 'plans');
      mkdirSync(hostile);
      // Terminal escapes, bidi overrides, a NUL, a long value, a bad bin, broken YAML and a JSON plan.
      writeFileSync(
        join(hostile, 'escapes.dlmm.yaml'),
        'version: 1\nsender: "SP\\e]0;pwned\\a"\noperations:\n' +
          '  - { id: "\\e[2J\\u202eevil\\0", op: add, mode: strict, pool: "x\\r\\n", bins: [{ bin_id: 1, x_amount: 1, y_amount: 0 }] }\n' +
          `  - { id: ${'a'.repeat(5000)}, op: swap, input_token: a, output_token: b, amount_in: "-1" }\n`,
      );
      writeFileSync(join(hostile, 'broken.dlmm.yaml'), 'version: 1\noperations: [\n  - {{{\n');
      writeFileSync(join(hostile, 'deep.dlmm.json'), '['.repeat(5000) + ']'.repeat(5000));
      writeFileSync(join(hostile, 'empty.dlmm.yml'), '');
      writeFileSync(join(hostile, 'not json.dlmm.json'), '{"version": 1, "operations": [{"op": "\u0007"}]');
    });
    const cases: Array<[string, string[], string?]> = [
      ['a valid YAML plan', ['check', '--offline', PLAN]],
      ['a JSON plan as JSON', ['check', '--offline', '--format', 'json', join(EXAMPLES, 'swap.dlmm.json')]],
      [
        'plans with findings as SARIF',
        ['check', '--offline', '--format', 'sarif', join(EXAMPLES, 'mistakes')],
      ],
      ['every example, relative to the working directory', ['check', '--offline', '.'], EXAMPLES],
      ['a relative path from another folder', ['check', '--offline', 'add-ladder.dlmm.yaml'], EXAMPLES],
      ['a missing file', ['check', '--offline', 'nope.dlmm.yaml']],
      ['not a plan file', ['check', '--offline', 'README.md']],
      ['a usage error', ['check', '--offline', '--format', 'nope', PLAN]],
      ['--offline with --sim', ['check', '--offline', '--sim', PLAN]],
      ['check --help', ['check', '--help']],
    ];
    for (const [name, args, cwd] of cases) {
      it(name, async () => {
        const { plain, snap } = await bothPaths(args, cwd);
        assert.deepEqual(snap, plain);
        // A command's usage error is one line (each command bundle has its own UsageError class).
        assert.doesNotMatch(plain.stderr, /internal error/);
      });
    }
    it('a plan above 1 MiB (its analysis changes a V8 flag for a while: cli/src/heapGrowth.ts)', async () => {
      const big = join(tmp, 'big.dlmm.yaml');
      // Its size in a comment line (the analysis of that many bins would take a while on a busy machine).
      const plan = readFileSync(join(EXAMPLES, 'mistakes', 'wrong-side.dlmm.yaml'), 'utf8');
      writeFileSync(big, `# ${'x'.repeat(1.1 * 1024 * 1024)}\n${plan}`);
      const args = ['check', '--offline', '--format', 'json', big];
      const { plain, snap } = await bothPaths(args);
      assert.equal(plain.code, 1, plain.stderr);
      assert.deepEqual(snap, plain);
    });
    it('hostile plans (escapes, broken YAML, deep JSON, an empty file), text and JSON', async () => {
      for (const format of ['text', 'json']) {
        const args = ['check', '--offline', '--format', format, hostile];
        const { plain, snap } = await bothPaths(args);
        assert.equal(plain.code, 1, plain.stderr);
        assert.deepEqual(snap, plain);
        // eslint-disable-next-line no-control-regex
        assert.doesNotMatch(snap.stdout + snap.stderr, /[\u0000-\u0008\u000b-\u001f\u007f]/);
      }
    });
  });

  it('reads the environment of the run, not of the build: keys are redacted, settings apply', async () => {
    // A plan whose pool alias is the key's value: the finding quoting it must show it redacted.
    const secret = 'k3y-0123456789-abcdefghij';
    const plan = join(tmp, 'keyed.dlmm.yaml');
    writeFileSync(
      plan,
      `version: 1\noperations:\n  - { id: a, op: add, mode: strict, pool: ${secret}, bins: [{ bin_id: 1, x_amount: 1, y_amount: 0 }] }\n`,
    );
    const args = ['check', '--offline', '--format', 'json', plan];
    const snapArgs = [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', blob, join(ROOT, 'dist')];
    const without = await run(process.execPath, [...snapArgs, ...args], env);
    assert.ok(without.stdout.includes(secret), without.stdout);
    const keyEnvs: Array<Record<string, string>> = [{ DLMM_API_KEY: secret }, { MY_KEY: secret }];
    for (const keyEnv of keyEnvs) {
      const extra = 'MY_KEY' in keyEnv ? ['--api-key-env', 'MY_KEY'] : [];
      const withKey = { ...env, ...keyEnv };
      const plain = await run(process.execPath, [join(ROOT, 'bin', 'dlmm.js'), ...args, ...extra], withKey);
      const snap = await run(process.execPath, [...snapArgs, ...args, ...extra], withKey);
      assert.deepEqual(snap, plain);
      assert.ok(!snap.stdout.includes(secret) && snap.stdout.includes(REDACTED), snap.stdout);
    }
    const version = await run(process.execPath, [...snapArgs, '--version'], {
      ...env,
      DLMM_STUDIO_VERSION: '9.8.7',
    });
    assert.deepEqual(version, { code: 0, stdout: '9.8.7\n', stderr: '' });
  });

  it('a snapshot node cannot load (damaged) is set aside, and that check runs on the plain path', async () => {
    const good = readFileSync(blob);
    const launcher = join(ROOT, 'bin', 'dlmm');
    const args = ['check', '--offline', PLAN];
    const plain = await run(process.execPath, [join(ROOT, 'bin', 'dlmm.js'), ...args], env);
    try {
      writeFileSync(blob, good.subarray(0, 100_000)); // newer than the bundles, so the launcher takes it
      const r = await run(launcher, args, env);
      assert.equal(r.code, plain.code, r.stderr);
      assert.equal(r.stdout, plain.stdout);
      assert.match(r.stderr, /startup snapshot could not be used \(node exited \d+\); it is set aside/);
      assert.equal(existsSync(blob), false, 'the damaged snapshot is removed');
      assert.match(readFileSync(`${blob}.failed`, 'utf8'), /node exited \d+/);
      // The next run takes the plain path at once (no rebuild for a day: the .failed marker).
      assert.equal(await launcherPath(launcher, args, env), 'plain');
    } finally {
      rmSync(`${blob}.failed`, { force: true });
      writeFileSync(blob, good, { mode: 0o600 });
    }
  });

  describe('a stale, foreign or untrusted snapshot is never used', () => {
    let pkg: string;
    let launcher: string;
    let pkgCache: string;
    let pkgEnv: Record<string, string>;
    let pkgBlob: string;
    before(() => {
      pkg = join(tmp, 'pkg');
      copyPackage(pkg);
      launcher = join(pkg, 'bin', 'dlmm');
      pkgCache = join(tmp, 'pkg-cache');
      pkgEnv = { PATH: process.env.PATH ?? '', DLMM_CACHE_DIR: pkgCache };
      pkgBlob = blobFor(pkg, pkgCache);
    });
    /** The launcher's way for a check; after a plain run, waits for the rebuild that run started. */
    async function probe(e: Record<string, string> = pkgEnv): Promise<string> {
      const before = existsSync(pkgBlob) ? statSync(pkgBlob).mtimeMs : 0;
      const way = await launcherPath(launcher, check, e);
      if (way === 'plain' && e === pkgEnv) {
        const until = Date.now() + 90_000;
        const lock = `${pkgBlob}.lock`;
        while (!(existsSync(pkgBlob) && statSync(pkgBlob).mtimeMs > before && !existsSync(lock))) {
          if (Date.now() > until) throw new Error('no rebuild');
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      return way;
    }
    const check = ['check', '--offline', PLAN];

    it('a copy of the package at another path gets its own snapshot, and uses it', async () => {
      assert.equal(await probe(), 'plain');
      assert.equal(await probe(), 'snapshot');
    });
    it('not once a bundle is newer than the snapshot (rebuilt or edited); the plain run rebuilds it', async () => {
      const file = join(pkg, 'dist', 'cli-check.js');
      const later = new Date(statSync(pkgBlob).mtimeMs + 10);
      utimesSync(file, later, later);
      assert.equal(await probe(), 'plain');
      assert.equal(await probe(), 'snapshot');
    });
    it('not for another node binary (another path, or the same path re-dated)', async () => {
      const ref = pkgBlob.replace(/\.blob$/, '.node');
      const { mtime } = statSync(ref);
      utimesSync(ref, mtime, new Date(mtime.getTime() + 1000));
      assert.equal(await probe(), 'plain');
      assert.equal(await probe(), 'snapshot');
      // Another node earlier on PATH (here a wrapper script, as a version manager's shim is): the plain
      // path, and no snapshot built for it (the launcher could not tell which node the wrapper runs).
      const fake = join(tmp, 'fakebin');
      mkdirSync(fake, { recursive: true });
      writeFileSync(
        join(fake, 'node'),
        `#!/bin/sh\nif [ "$1" = --version ]; then echo v99.0.0; exit 0; fi\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
        { mode: 0o755 },
      );
      const other = { ...pkgEnv, PATH: `${fake}:${pkgEnv.PATH}` };
      assert.equal(await probe(other), 'plain');
      const r = await run(launcher, check, other);
      assert.equal(r.code, 0, r.stderr);
      const saved = process.env.DLMM_CACHE_DIR;
      process.env.DLMM_CACHE_DIR = pkgCache;
      try {
        const fakeNode = join(fake, 'node');
        const target = pkgBlob.replace(nodeOnPath().split('/').join('_'), fakeNode.split('/').join('_'));
        assert.equal(
          supervise(target, fakeNode, join(pkg, 'dist'), launcherDist(pkg)),
          'the node on PATH is not the node binary itself',
        );
      } finally {
        if (saved === undefined) delete process.env.DLMM_CACHE_DIR;
        else process.env.DLMM_CACHE_DIR = saved;
      }
      // No snapshot for it, only the marker that keeps the plain runs from starting a build for a day.
      const forFake = readdirSync(join(pkgCache, 'snapshot')).filter((n) => n.includes('_fakebin_'));
      assert.deepEqual(
        forFake.map((n) => n.replace(/^.*_fakebin_node/, '')),
        ['.blob.failed'],
      );
      const fakeBlob = join(pkgCache, 'snapshot', forFake[0]!.replace(/\.failed$/, ''));
      assert.equal(buildWanted(fakeBlob), false);
      assert.equal(await probe(), 'snapshot');
    });
    it('a snapshot built after a run with a key set holds no trace of it', async () => {
      const key = 'k3y-9f8e7d6c5b4a-never-in-a-file';
      const later = new Date(statSync(pkgBlob).mtimeMs + 10);
      utimesSync(join(pkg, 'dist', 'cli.js'), later, later);
      const before = statSync(pkgBlob).mtimeMs;
      const r = await run(launcher, check, { ...pkgEnv, DLMM_API_KEY: key, MY_SECRET: key });
      assert.equal(r.code, 0, r.stderr);
      const until = Date.now() + 90_000;
      while (!(statSync(pkgBlob).mtimeMs > before && !existsSync(`${pkgBlob}.lock`))) {
        if (Date.now() > until) throw new Error('no rebuild');
        await new Promise((res) => setTimeout(res, 100));
      }
      assert.ok(!readFileSync(pkgBlob).includes(key));
      assert.equal(await probe(), 'snapshot');
    });
    it('not through a link, nor with DLMM_CACHE_DIR=off or NODE_OPTIONS', async () => {
      assert.equal(await probe({ ...pkgEnv, DLMM_CACHE_DIR: 'off' }), 'plain');
      assert.equal(await probe({ ...pkgEnv, NODE_OPTIONS: '--max-old-space-size=100' }), 'plain');
      renameSync(pkgBlob, `${pkgBlob}.real`);
      symlinkSync(`${pkgBlob}.real`, pkgBlob);
      assert.equal(await probe(), 'plain'); // and the rebuild replaces the link by a file
      assert.ok(!lstatSync(pkgBlob).isSymbolicLink());
      assert.equal(await probe(), 'snapshot');
    });
    it('two installs of one build sharing a cache folder each keep their own snapshot (no rebuilding each other’s)', async () => {
      // The repository's launcher and a second copy's, with one cache folder: the copy's first run builds its
      // own snapshot beside the repository's, and from then on both run from their own, untouched.
      const twin = join(tmp, 'twin');
      copyPackage(twin);
      const twinLauncher = join(twin, 'bin', 'dlmm');
      const rootLauncher = join(ROOT, 'bin', 'dlmm');
      const twinBlob = blobFor(twin, cache);
      assert.notEqual(twinBlob, blob);
      const rootBuilt = statSync(blob).mtimeMs;
      assert.equal(await launcherPath(twinLauncher, check, env), 'plain');
      await builtSnapshot(join(cache, 'snapshot'));
      const until = Date.now() + 90_000;
      while (!existsSync(twinBlob) || existsSync(`${twinBlob}.lock`)) {
        if (Date.now() > until) throw new Error('no snapshot for the second install');
        await new Promise((r) => setTimeout(r, 100));
      }
      const twinBuilt = statSync(twinBlob).mtimeMs;
      for (let i = 0; i < 2; i++) {
        assert.equal(await launcherPath(twinLauncher, check, env), 'snapshot');
        assert.equal(await launcherPath(rootLauncher, check, env), 'snapshot');
      }
      // Neither was rebuilt (no plain run, no background build) and each answers as its own plain CLI.
      assert.equal(statSync(blob).mtimeMs, rootBuilt);
      assert.equal(statSync(twinBlob).mtimeMs, twinBuilt);
      assert.equal(existsSync(`${blob}.lock`) || existsSync(`${twinBlob}.lock`), false);
      const r = await run(twinLauncher, check, env);
      const plain = await run(process.execPath, [join(twin, 'bin', 'dlmm.js'), ...check], env);
      assert.deepEqual(r, plain);
      // A plain run told another install's folder builds nothing (the name would be that install's).
      const saved = process.env.DLMM_CACHE_DIR;
      process.env.DLMM_CACHE_DIR = cache;
      try {
        assert.equal(
          supervise(twinBlob, nodeOnPath(), join(pkg, 'dist'), launcherDist(twin)),
          'not this build’s snapshot in the cache folder',
        );
      } finally {
        if (saved === undefined) delete process.env.DLMM_CACHE_DIR;
        else process.env.DLMM_CACHE_DIR = saved;
      }
    });
    it('a snapshot built for another copy of this build runs the plain CLI of the copy it is asked for', async () => {
      // The repository's own snapshot (same build id) handed the copy's folder.
      const args = ['check', '--offline', '--format', 'json', join(EXAMPLES, 'mistakes')];
      const plain = await run(process.execPath, [join(pkg, 'bin', 'dlmm.js'), ...args], pkgEnv);
      const snap = await run(
        process.execPath,
        [...SNAPSHOT_NODE_FLAGS, '--snapshot-blob', blob, join(pkg, 'dist'), ...args],
        pkgEnv,
      );
      assert.deepEqual(snap, plain);
    });
    it('no second build while one runs, nor for a day after one failed', async () => {
      const failed = `${pkgBlob}.failed`;
      const lock = `${pkgBlob}.lock`;
      assert.equal(buildWanted(pkgBlob), true);
      writeFileSync(failed, 'test\n');
      assert.equal(buildWanted(pkgBlob), false);
      assert.equal(buildWanted(pkgBlob, Date.now() + 25 * 3600_000), true);
      rmSync(failed);
      writeFileSync(lock, 'test\n');
      assert.equal(buildWanted(pkgBlob), false);
      assert.equal(buildWanted(pkgBlob, Date.now() + 11 * 60_000), true);
      rmSync(lock);
      // A build that fails (here: a check bundle that throws as it loads) leaves the marker, and no snapshot.
      const saved = process.env.DLMM_CACHE_DIR;
      const bundle = join(pkg, 'dist', 'cli-check.js');
      const good = readFileSync(bundle);
      process.env.DLMM_CACHE_DIR = pkgCache;
      try {
        rmSync(pkgBlob);
        writeFileSync(bundle, "throw new Error('broken bundle');\n");
        assert.equal(
          supervise(pkgBlob, nodeOnPath(), join(pkg, 'dist'), launcherDist(pkg)),
          'the build failed',
        );
        assert.ok(existsSync(failed) && !existsSync(pkgBlob) && !existsSync(lock));
        assert.equal(buildWanted(pkgBlob), false);
        // Repaired: the build succeeds and drops the marker.
        writeFileSync(bundle, good);
        assert.equal(supervise(pkgBlob, nodeOnPath(), join(pkg, 'dist'), launcherDist(pkg)), undefined);
        assert.ok(!existsSync(failed) && existsSync(pkgBlob));
        assert.equal(await probe(), 'snapshot');
      } finally {
        writeFileSync(bundle, good);
        if (saved === undefined) delete process.env.DLMM_CACHE_DIR;
        else process.env.DLMM_CACHE_DIR = saved;
      }
    });
    it('the build refuses a folder others may write, and no snapshot with DLMM_CACHE_DIR=off', () => {
      const folder = join(tmp, 'open-cache', 'snapshot');
      mkdirSync(folder, { recursive: true, mode: 0o777 });
      chmodSync(folder, 0o777);
      const saved = process.env.DLMM_CACHE_DIR;
      try {
        process.env.DLMM_CACHE_DIR = join(tmp, 'open-cache');
        const target = join(
          folder,
          `${snapshotName(readFileSync(join(pkg, 'dist', 'snapshot.id'), 'utf8').trim(), nodeOnPath(), join(pkg, 'dist'))}.blob`,
        );
        assert.equal(
          supervise(target, nodeOnPath(), join(pkg, 'dist')),
          'the folder is not private to this user',
        );
        assert.deepEqual(readdirSync(folder), []);
        process.env.DLMM_CACHE_DIR = 'off';
        assert.notEqual(supervise(target, nodeOnPath(), join(pkg, 'dist')), undefined);
      } finally {
        if (saved === undefined) delete process.env.DLMM_CACHE_DIR;
        else process.env.DLMM_CACHE_DIR = saved;
      }
    });
  });
});
