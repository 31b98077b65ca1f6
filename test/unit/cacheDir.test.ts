/**
 * The one ownership rule behind the node cache and the code cache (core/cacheDir.ts ownershipProblem), and
 * the cache folder checked on the descriptor it is used through (openCacheFolder).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCacheFolder, ownershipProblem, type CacheFolder } from '../../core/cacheDir';
import { skipBecause } from '../skip';

describe('ownershipProblem', () => {
  const uid = process.getuid?.();

  it("this user's file that no one else may write: none; writable by group or others, or another user's: said", function () {
    if (uid === undefined) skipBecause(this, 'no user ids on this platform (Windows): see the next test');
    assert.equal(ownershipProblem({ uid, mode: 0o100600 }), undefined);
    assert.equal(ownershipProblem({ uid, mode: 0o40700 }), undefined);
    assert.equal(ownershipProblem({ uid, mode: 0o100620 }), 'it is writable by its group (mode 620)');
    assert.equal(ownershipProblem({ uid, mode: 0o100602 }), 'it is writable by everyone (mode 602)');
    assert.equal(
      ownershipProblem({ uid: uid + 1, mode: 0o100600 }),
      `it belongs to user ${uid + 1}, not to you (${uid})`,
    );
  });

  it('without user ids there is no owner to check', () => {
    const getuid = process.getuid;
    Object.defineProperty(process, 'getuid', { value: undefined, configurable: true });
    try {
      assert.equal(ownershipProblem({ uid: 0, mode: 0o100666 }), undefined);
    } finally {
      Object.defineProperty(process, 'getuid', { value: getuid, configurable: true });
    }
  });
});

describe('openCacheFolder', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(join(tmpdir(), 'dlmm-cachefolder-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const opened = (x: CacheFolder | { problem: string }): CacheFolder => {
    if ('problem' in x) throw new Error(x.problem);
    return x;
  };

  it('creates a missing folder 0700 (not with create: false), and refuses a link, a file and a folder others may write', function () {
    if (process.platform === 'win32') skipBecause(this, 'no folder descriptors or modes on Windows');
    assert.deepEqual(openCacheFolder(join(dir, 'absent'), { create: false }), {
      problem: 'it does not exist',
    });
    const made = opened(openCacheFolder(join(dir, 'c')));
    made.close();
    assert.equal(fs.statSync(join(dir, 'c')).mode & 0o777, 0o700);
    fs.symlinkSync(join(dir, 'c'), join(dir, 'link'));
    assert.deepEqual(openCacheFolder(join(dir, 'link')), { problem: 'it is a symbolic link' });
    fs.writeFileSync(join(dir, 'file'), '');
    assert.deepEqual(openCacheFolder(join(dir, 'file')), { problem: 'it is not a folder' });
    fs.mkdirSync(join(dir, 'open'), { mode: 0o700 });
    fs.chmodSync(join(dir, 'open'), 0o777);
    assert.deepEqual(openCacheFolder(join(dir, 'open')), {
      problem: 'it is writable by everyone (mode 777)',
    });
  });

  it('names its files through the descriptor: a link swapped in for the folder after the check redirects nothing', function () {
    if (process.platform !== 'linux') skipBecause(this, 'the descriptor is reachable by path on Linux only');
    const cache = join(dir, 'cache');
    const target = join(dir, 'target');
    fs.mkdirSync(target, { mode: 0o700 });
    const folder = opened(openCacheFolder(cache));
    assert.equal(folder.anchored, true);
    fs.renameSync(cache, join(dir, 'moved'));
    fs.symlinkSync(target, cache);
    fs.writeFileSync(folder.at('fact.json'), '{}', { flag: 'wx' });
    fs.mkdirSync(folder.at('v8'));
    assert.equal(folder.unchanged(), true);
    folder.close();
    assert.deepEqual(fs.readdirSync(target), []);
    assert.deepEqual(fs.readdirSync(join(dir, 'moved')).sort(), ['fact.json', 'v8']);
    // Opened again now, the path is a link: refused.
    assert.deepEqual(openCacheFolder(cache), { problem: 'it is a symbolic link' });
  });
});
