/**
 * The startup snapshot's build lock (cli/src/snapshot.ts): taken exclusively, a stale one taken over
 * atomically, and only this process's own lock ever dropped. Real files in a temporary folder; the other
 * process of a race is played by the test at the moment `takeLock` gives it (between judging the lock stale
 * and moving it aside).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseLock, takeLock } from '../../../cli/src/snapshot';

describe('snapshot build lock', () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-lock-'));
    lock = join(dir, 'x.blob.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A lock another process wrote, `ageMs` ago. */
  const other = (ageMs: number, text = 'other\n') => {
    writeFileSync(lock, text);
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(lock, t, t);
  };
  const eleven = 11 * 60_000;

  it('is taken when free, and not while another holds it', () => {
    const held = takeLock(lock);
    assert.ok(held);
    assert.equal(readFileSync(lock, 'utf8'), `${process.pid}\n${held.token}\n`);
    assert.equal(takeLock(lock), undefined);
    releaseLock(lock, held);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a fresh lock of another process stands', () => {
    other(60_000);
    assert.equal(takeLock(lock), undefined);
    assert.equal(readFileSync(lock, 'utf8'), 'other\n');
  });

  it('a stale lock is taken over, leaving nothing aside', () => {
    other(eleven);
    const held = takeLock(lock);
    assert.ok(held);
    assert.equal(readFileSync(lock, 'utf8'), `${process.pid}\n${held.token}\n`);
    assert.deepEqual(readdirSync(dir), ['x.blob.lock']);
  });

  it('a stale lock another process took over first: its live lock is neither deleted nor taken', () => {
    other(eleven, 'dead\n');
    let live = 0;
    const held = takeLock(lock, () => {
      // The other process, between this one's judgement and its move: drops the stale lock, writes its own.
      rmSync(lock);
      writeFileSync(lock, 'live\n');
      live = statSync(lock).ino;
    });
    assert.equal(held, undefined);
    assert.equal(readFileSync(lock, 'utf8'), 'live\n');
    assert.equal(statSync(lock).ino, live);
    assert.deepEqual(readdirSync(dir), ['x.blob.lock']);
  });

  it('release drops this process’s lock only, never one that took it over', () => {
    const held = takeLock(lock);
    assert.ok(held);
    // This build outlived the stale age; another process took the lock over.
    rmSync(lock);
    writeFileSync(lock, 'taken over\n');
    releaseLock(lock, held);
    assert.equal(readFileSync(lock, 'utf8'), 'taken over\n');
    assert.deepEqual(readdirSync(dir), ['x.blob.lock']);
  });
});
