/**
 * The machine-wide node store: facts per applied height, shared between stores (processes), pacing seeds;
 * and the issue-26 probes: a record changed on disk is not believed, a folder others can write is not used,
 * a link planted at the file or beside it is never written through, a FIFO in its place never blocks.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRateLimiter } from '../../../core/api/limiter';
import { defaultCacheDir, nodeCacheDir, openNodeStore } from '../../../core/api/nodeStore';
import { skipBecause } from '../../skip';

const NODE = 'https://node.example/v2';
const FACT = { okay: true, result: '0x0701' };

describe('node store (on-disk cache of node facts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a fact only at the height it was read, to another store on the same machine', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'pool get-bin-balances 01', FACT);
    a.flush();
    const b = openNodeStore(dir, NODE);
    assert.deepEqual(b.get(1000, 'pool get-bin-balances 01'), FACT);
    assert.equal(b.get(1001, 'pool get-bin-balances 01'), undefined);
  });

  it('drops every entry when the height moves', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'k1', FACT);
    a.set(1001, 'k2', FACT);
    a.flush();
    const b = openNodeStore(dir, NODE);
    assert.equal(b.get(1000, 'k1'), undefined);
    assert.equal(b.get(1001, 'k1'), undefined);
    assert.deepEqual(b.get(1001, 'k2'), FACT);
  });

  it('picks up what another store wrote after it opened, and merges on write', () => {
    const a = openNodeStore(dir, NODE);
    const b = openNodeStore(dir, NODE);
    a.set(7, 'ka', FACT);
    a.flush();
    b.set(7, 'kb', FACT);
    b.flush();
    const c = openNodeStore(dir, NODE);
    assert.deepEqual(c.get(7, 'ka'), FACT);
    assert.deepEqual(c.get(7, 'kb'), FACT);
    assert.deepEqual(b.get(7, 'ka'), FACT);
  });

  it('keeps endpoints apart and names files without the URL', () => {
    openNodeStore(dir, NODE).set(1, 'k', FACT);
    const other = openNodeStore(dir, 'https://other.example/v2');
    assert.equal(other.get(1, 'k'), undefined);
    const a = openNodeStore(dir, 'https://user:secret@node.example/v2?x=1');
    assert.doesNotMatch(a.file, /secret|example/);
  });

  it('drops a record whose answer was changed on disk at the same height, and keeps the others', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'pool get-bin-balances 01', { okay: true, result: '0x0c0000000201' });
    a.set(1000, 'pool get-bin-balances 02', { okay: true, result: '0x0c0000000202' });
    a.flush();
    // The probe: another valid answer (bin 02's) written in place of bin 01's, the height unchanged.
    const text = readFileSync(a.file, 'utf8');
    assert.ok(text.includes('0x0c0000000201'));
    writeFileSync(a.file, text.replace('0x0c0000000201', '0x0c0000000202'));
    const b = openNodeStore(dir, NODE);
    assert.equal(b.get(1000, 'pool get-bin-balances 01'), undefined, 'the changed record is not believed');
    assert.deepEqual(b.get(1000, 'pool get-bin-balances 02'), { okay: true, result: '0x0c0000000202' });
  });

  it('binds each record to its endpoint and height: moved to another file or height, it is dropped', () => {
    const a = openNodeStore(dir, NODE);
    a.set(1000, 'k', FACT);
    a.flush();
    const other = openNodeStore(dir, 'https://other.example/v2');
    writeFileSync(other.file, readFileSync(a.file));
    assert.equal(openNodeStore(dir, 'https://other.example/v2').get(1000, 'k'), undefined);
    const moved = readFileSync(a.file, 'utf8').replace('"height":1000', '"height":1001');
    writeFileSync(a.file, moved);
    assert.equal(openNodeStore(dir, NODE).get(1001, 'k'), undefined);
  });

  it('never uses a folder others can write, and says so once', function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const notices: string[] = [];
    const a = openNodeStore(shared, NODE, (l) => notices.push(l));
    a.set(1, 'k', FACT);
    a.recordRequest(Date.now());
    a.flush();
    assert.deepEqual(readdirSync(shared), [], 'nothing written there');
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0] ?? '', /shared is not used: it is writable by everyone \(mode 777\)/);
    // A record planted there is not read either.
    const mine = openNodeStore(dir, NODE);
    mine.set(1, 'k', FACT);
    mine.flush();
    writeFileSync(join(shared, mine.file.slice(dir.length + 1)), readFileSync(mine.file));
    assert.equal(openNodeStore(shared, NODE).get(1, 'k'), undefined);
    chmodSync(shared, 0o720);
    assert.equal(openNodeStore(shared, NODE).get(1, 'k'), undefined, 'group-writable: not used');
  });

  it('creates a missing cache folder private (0700), and a file of mode 0600', function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const fresh = join(dir, 'a', 'b');
    const a = openNodeStore(fresh, NODE);
    a.set(1, 'k', FACT);
    a.flush();
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    assert.equal(statSync(a.file).mode & 0o777, 0o600);
  });

  it('never writes through a link planted at the file or at a temporary name', function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const a = openNodeStore(dir, NODE);
    // The names the old writer used (`<file>.<pid>.tmp`) and any this process might use.
    symlinkSync(victim, `${a.file}.${process.pid}.tmp`);
    a.set(1, 'k', FACT);
    a.flush();
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.ok(lstatSync(a.file).isFile() && !lstatSync(a.file).isSymbolicLink());
    // A link at the file itself: not read through, not written through.
    rmSync(a.file);
    const other = join(dir, 'other.json');
    const b0 = openNodeStore(join(dir, 'b0'), NODE);
    b0.set(1, 'k', FACT);
    b0.flush();
    writeFileSync(other, readFileSync(b0.file));
    symlinkSync(other, a.file);
    const notices: string[] = [];
    const b = openNodeStore(dir, NODE, (l) => notices.push(l));
    assert.equal(b.get(1, 'k'), undefined, 'a record behind a link is not read');
    b.set(2, 'k', FACT);
    b.flush();
    assert.equal(readFileSync(other, 'utf8'), readFileSync(b0.file, 'utf8'), 'the link target is unchanged');
    assert.ok(lstatSync(a.file).isSymbolicLink());
    assert.ok(
      notices.some((l) => /is not used: it is a symbolic link/.test(l)),
      notices.join('\n'),
    );
    assert.ok(
      notices.some((l) => /was not written: .*symbolic link/.test(l)),
      notices.join('\n'),
    );
  });

  it('never opens a FIFO in place of the file (no hang), and says so', function () {
    if (process.platform === 'win32')
      skipBecause(this, 'file modes and owners are POSIX: Windows has neither');
    const a = openNodeStore(dir, NODE);
    try {
      execFileSync('mkfifo', [a.file]);
    } catch {
      skipBecause(this, 'mkfifo is not on this machine: there is no FIFO to test');
    }
    const notices: string[] = [];
    const b = openNodeStore(dir, NODE, (l) => notices.push(l));
    assert.equal(b.get(1, 'k'), undefined);
    b.set(1, 'k', FACT);
    b.recordRequest(Date.now());
    b.flush();
    assert.ok(lstatSync(a.file).isFIFO(), 'left as it is');
    assert.ok(
      notices.some((l) => /not a regular file/.test(l)),
      notices.join('\n'),
    );
  });

  it('treats a foreign or broken file as empty', () => {
    const a = openNodeStore(dir, NODE);
    writeFileSync(a.file, '{"format": 99, "entries": 5}');
    assert.equal(openNodeStore(dir, NODE).get(1, 'k'), undefined);
    writeFileSync(a.file, 'not json');
    const b = openNodeStore(dir, NODE);
    b.set(1, 'k', FACT);
    b.flush();
    assert.deepEqual(openNodeStore(dir, NODE).get(1, 'k'), FACT);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it('hands recent request times to the next store, and a seeded limiter waits for them', async () => {
    const t0 = Date.now();
    const a = openNodeStore(dir, NODE);
    for (let i = 0; i < 3; i++) a.recordRequest(t0 + i);
    a.flush();
    const seed = openNodeStore(dir, NODE).recentRequests(60_000, t0 + 10);
    assert.deepEqual(seed, [t0, t0 + 1, t0 + 2]);
    let t = t0 + 10;
    const slept: number[] = [];
    const limiter = createRateLimiter({
      limit: 3,
      windowMs: 60_000,
      now: () => t,
      seed,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
    });
    const release = await limiter.acquire();
    release();
    assert.equal(limiter.delayed, 1, 'the window was full with the earlier process requests');
    assert.ok(t >= t0 + 60_000, 'admitted only after the oldest earlier request left the window');
    assert.ok(slept.length > 0);
  });

  it('lives in the user cache folder; DLMM_CACHE_DIR overrides; loopback nodes only when explicit', () => {
    assert.equal(defaultCacheDir({}, 'linux', '/home/u'), '/home/u/.cache/dlmm-studio');
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/u'), '/c/dlmm-studio');
    assert.equal(defaultCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/dlmm-studio');
    assert.equal(nodeCacheDir({ DLMM_CACHE_DIR: '/tmp/x' }, 'http://127.0.0.1:1/node'), '/tmp/x');
    assert.equal(nodeCacheDir({}, 'http://127.0.0.1:1/node'), undefined);
    assert.equal(nodeCacheDir({ DLMM_CACHE_DIR: 'off' }, NODE), undefined);
    assert.match(nodeCacheDir({}, NODE) ?? '', /dlmm-studio/);
  });
});
