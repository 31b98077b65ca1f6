/**
 * The CLI's V8 code cache (core/codeCache.ts) through the real `bin/dlmm.js` and the built bundles
 * (`npm run build` first): the same output with, without, and with a broken or unwritable cache; a cache
 * file per bundle, reused and not rewritten on the next run; never for a bundle without its hash line.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
import { BUNDLE_HASH_MARK, checksum } from '../../../core/codeCache';
import { ROOT, run, type Run } from './run';
import { skipBecause } from '../../skip';

const PLAN = join(ROOT, 'examples', 'add-ladder.dlmm.yaml');
const BAD_PLAN = join(ROOT, 'examples', 'mistakes', 'wrong-side.dlmm.yaml');

/** Runs node with only PATH and the cache settings: DLMM_CACHE_DIR, or XDG_CACHE_HOME when `xdg` is set. */
function node(args: string[], cacheDir: string, xdg?: string): Promise<Run> {
  const env =
    xdg === undefined
      ? { DLMM_CACHE_DIR: cacheDir }
      : { XDG_CACHE_HOME: xdg, ...(cacheDir ? { DLMM_CACHE_DIR: cacheDir } : {}) };
  return run(process.execPath, args, { PATH: process.env.PATH ?? '', ...env });
}

const dlmm = (args: string[], cacheDir: string, xdg?: string): Promise<Run> =>
  node([join(ROOT, 'bin', 'dlmm.js'), ...args], cacheDir, xdg);

function cacheFiles(dir: string): string[] {
  const v8 = join(dir, 'v8');
  return existsSync(v8) ? readdirSync(v8).sort() : [];
}

/** core/codeCache.ts's checksum as its comment states it, in BigInt arithmetic (the module runs it as WebAssembly). */
function checksumByHand(data: Uint8Array): bigint {
  const M = (1n << 64n) - 1n;
  const padded = Buffer.alloc(Math.ceil(data.length / 8) * 8);
  padded.set(data);
  let h = BigInt(data.length);
  for (let i = 0; i < padded.length; i += 8) {
    const t = ((h ^ padded.readBigUInt64LE(i)) * 0x100000001b3n) & M;
    h = t ^ (t >> 29n);
  }
  return h;
}

describe('code cache checksum', () => {
  it('is the function its comment states, for every length up to two words and a larger buffer', () => {
    const bytes = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 131 + 7) & 0xff));
    for (let n = 0; n <= 17; n++)
      assert.equal(checksum(bytes.subarray(0, n)), checksumByHand(bytes.subarray(0, n)));
    assert.equal(checksum(bytes), checksumByHand(bytes));
  });

  it('changes with any one flipped bit, and with trailing zero bytes', () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff));
    const sum = checksum(bytes);
    for (let at = 0; at < bytes.length; at += 61)
      for (const bit of [0x01, 0x80]) {
        const damaged = Buffer.from(bytes);
        damaged[at]! ^= bit;
        assert.notEqual(checksum(damaged), sum, `byte ${at} bit ${bit}`);
      }
    assert.notEqual(checksum(Buffer.concat([bytes, Buffer.alloc(3)])), sum);
  });
});

describe('CLI code cache (built bundles)', function () {
  this.timeout(120_000);
  let tmp: string;
  let plain: Run;
  let plainBad: Run;

  before(async function () {
    if (!existsSync(join(ROOT, 'dist', 'cli-check.js')))
      skipBecause(this, 'dist/cli-check.js is not built: run `npm run build` first (`npm test` does)');
    tmp = mkdtempSync(join(tmpdir(), 'dlmm-codecache-'));
    plain = await dlmm(['check', '--offline', PLAN], 'off');
    plainBad = await dlmm(['check', '--offline', '--format', 'json', BAD_PLAN], 'off');
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plainBad.code, 1, plainBad.stderr);
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('without DLMM_CACHE_DIR it is the user cache folder; DLMM_CACHE_DIR=off writes nothing there', async () => {
    const xdg = join(tmp, 'xdg');
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], 'off', xdg), plain);
    assert.equal(existsSync(join(xdg, 'dlmm-studio')), false);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], '', xdg), plain);
    assert.equal(cacheFiles(join(xdg, 'dlmm-studio')).length, 1);
  });

  it('the first run writes the bundle cache, the next reuses it unchanged; the output is the same', async () => {
    const dir = join(tmp, 'warm');
    const first = await dlmm(['check', '--offline', PLAN], dir);
    assert.deepEqual(first, plain);
    const files = cacheFiles(dir);
    assert.equal(files.length, 1, files.join(' '));
    assert.match(
      files[0]!,
      /^cli-check\.[0-9a-f]{32}\.\d+\.\d+\.v\d+\.\d+\.\d+\.[a-z0-9]+\.[0-9a-f]{8}\.bin$/,
    );
    const file = join(dir, 'v8', files[0]!);
    const before = statSync(file).mtimeMs;
    const again = await dlmm(['check', '--offline', PLAN], dir);
    assert.deepEqual(again, plain);
    // Error findings and JSON go through the cached code too.
    assert.deepEqual(await dlmm(['check', '--offline', '--format', 'json', BAD_PLAN], dir), plainBad);
    assert.equal(statSync(file).mtimeMs, before, 'an accepted cache is not written again');
    assert.deepEqual(cacheFiles(dir), files);
  });

  it('a broken cache file is refused by V8 and replaced; the output is the same', async () => {
    const dir = join(tmp, 'broken');
    await dlmm(['check', '--offline', PLAN], dir);
    const [name] = cacheFiles(dir);
    const file = join(dir, 'v8', name!);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
    assert.notDeepEqual(readFileSync(file), garbage);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
  });

  it('a bit-flipped cache file (its header intact) never reaches V8: compiled around, rewritten, same output', async () => {
    // The issue-26 probe: V8 checks only its header, and damaged code in a cache crashed every command.
    const dir = join(tmp, 'flipped');
    await dlmm(['check', '--offline', PLAN], dir);
    const [name] = cacheFiles(dir);
    const file = join(dir, 'v8', name!);
    const good = readFileSync(file);
    assert.equal(good.subarray(0, 8).toString('latin1'), 'DLMMV8C2', 'our header: magic, then the checksum');
    assert.equal(good.readBigUInt64LE(8), checksumByHand(good.subarray(16)), 'the checksum of the data');
    const flipped = Buffer.from(good);
    // Past our 16-byte header and V8's own (its checksum is not verified by release builds of V8).
    for (let at = 200; at < flipped.length; at += Math.floor(flipped.length / 16)) flipped[at]! ^= 0x10;
    writeFileSync(file, flipped);
    const r = await dlmm(['check', '--offline', PLAN], dir);
    assert.deepEqual(r, plain);
    assert.ok(!readFileSync(file).equals(flipped), 'the damaged file is written again');
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
  });

  it('a FIFO in place of a cache file is never opened (no hang); the output is the same', async function () {
    if (process.platform === 'win32') skipBecause(this, 'no FIFOs on Windows');
    const dir = join(tmp, 'fifo');
    await dlmm(['check', '--offline', PLAN], dir);
    const [name] = cacheFiles(dir);
    const file = join(dir, 'v8', name!);
    rmSync(file);
    try {
      execFileSync('mkfifo', [file]);
    } catch {
      skipBecause(this, 'mkfifo is not on this machine: there is no FIFO to test');
    }
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
  });

  it('a cache file that others may write is not used, and is replaced by one that only the user may', async function () {
    if (process.platform === 'win32') skipBecause(this, 'POSIX file modes: not on Windows');
    const dir = join(tmp, 'shared');
    await dlmm(['check', '--offline', PLAN], dir);
    const [name] = cacheFiles(dir);
    const file = join(dir, 'v8', name!);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'v8')).mode & 0o777, 0o700);
    chmodSync(file, 0o666);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'compiled around and written again');
  });

  it('a cache folder others may write, or a cache file behind a link, is not used; nothing is written through them', async function () {
    if (process.platform === 'win32') skipBecause(this, 'POSIX file modes and links: not on Windows');
    // A folder anyone may write: its files could have been put there by anyone, and V8 checks only the header
    // of cached data. A file V8 would refuse shows it: in a trusted folder it would be compiled around and
    // replaced; here it is neither read nor replaced.
    const open = join(tmp, 'open');
    await dlmm(['check', '--offline', PLAN], open);
    const [name] = cacheFiles(open);
    const file = join(open, 'v8', name!);
    chmodSync(join(open, 'v8'), 0o777);
    const planted = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, planted);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], open), plain);
    assert.deepEqual(readFileSync(file), planted, 'not used, and nothing written into that folder');
    // A cache file that is a link to a file elsewhere (even the user's own).
    const linked = join(tmp, 'linked');
    await dlmm(['check', '--offline', PLAN], linked);
    const [lname] = cacheFiles(linked);
    const lfile = join(linked, 'v8', lname!);
    const elsewhere = join(tmp, 'elsewhere.bin');
    renameSync(lfile, elsewhere);
    symlinkSync(elsewhere, lfile);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], linked), plain);
    assert.equal(lstatSync(lfile).isSymbolicLink(), false, 'compiled around the link and replaced by a file');
  });

  it('a relative cache folder (the current directory) is never used', async () => {
    const run = await dlmm(['check', '--offline', PLAN], 'relative-cache');
    assert.deepEqual(run, plain);
    assert.equal(existsSync(join(ROOT, 'relative-cache')), false);
  });

  it("writing a bundle's cache removes that bundle's caches of other builds written over a day ago", async () => {
    const dir = join(tmp, 'builds');
    mkdirSync(join(dir, 'v8'), { recursive: true });
    const old = join(dir, 'v8', 'cli-check.0000.1.1.v0.0.0.x.bin');
    const recent = join(dir, 'v8', 'cli-check.1111.1.1.v0.0.0.x.bin');
    const otherBundle = join(dir, 'v8', 'lazy-yaml.0000.1.1.v0.0.0.x.bin');
    for (const f of [old, recent, otherBundle]) writeFileSync(f, 'x', { mode: 0o600 });
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    utimesSync(otherBundle, twoDaysAgo, twoDaysAgo);
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
    assert.equal(existsSync(old), false);
    assert.equal(existsSync(recent), true, 'another install used today keeps its cache');
    assert.equal(existsSync(otherBundle), true, 'only the written bundle is tidied');
    assert.equal(cacheFiles(dir).length, 3);
  });

  it('keeps at most 8 other builds of a bundle, the most recent ones', async () => {
    const dir = join(tmp, 'many-builds');
    mkdirSync(join(dir, 'v8'), { recursive: true });
    const files = Array.from({ length: 10 }, (_, i) => join(dir, 'v8', `cli-check.${i}.1.1.v0.0.0.x.bin`));
    files.forEach((f, i) => {
      writeFileSync(f, 'x', { mode: 0o600 });
      const at = new Date(Date.now() - (10 - i) * 60_000); // file 9 is the most recent
      utimesSync(f, at, at);
    });
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], dir), plain);
    assert.deepEqual(
      files.map((f) => existsSync(f)),
      [false, false, true, true, true, true, true, true, true, true],
    );
  });

  it('an unwritable cache folder is no cache, not an error', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'not a folder');
    assert.deepEqual(await dlmm(['check', '--offline', PLAN], join(file, 'cache')), plain);
  });

  it('the node bundles are pure ASCII (one non-ASCII comment makes V8 hold a bundle as two-byte text)', () => {
    for (const name of readdirSync(join(ROOT, 'dist')).filter((n) => /^(cli|lazy-|server).*\.js$/.test(n))) {
      const bytes = readFileSync(join(ROOT, 'dist', name));
      assert.equal(
        bytes.findIndex((b) => b > 0x7f),
        -1,
        `${name} has a non-ASCII byte`,
      );
    }
  });

  it('a bundle without its hash line (a watch build) is never cached', async () => {
    const dist = join(tmp, 'dist');
    mkdirSync(dist);
    copyFileSync(join(ROOT, 'dist', 'cli.js'), join(dist, 'cli.js'));
    const text = readFileSync(join(ROOT, 'dist', 'cli-check.js'), 'utf8');
    const at = text.lastIndexOf(BUNDLE_HASH_MARK);
    assert.ok(at > 0, 'the build writes the hash line');
    writeFileSync(join(dist, 'cli-check.js'), text.slice(0, at) + text.slice(text.indexOf('\n', at) + 1));
    const dir = join(tmp, 'unhashed');
    const script = `const c = require(${JSON.stringify(join(dist, 'cli.js'))}); c.useCodeCache();
      c.main(['check', '--offline', ${JSON.stringify(PLAN)}]).then((code) => { process.exitCode = code; });`;
    assert.deepEqual(await node(['-e', script], dir), plain);
    assert.deepEqual(cacheFiles(dir), []);
  });
});
