/**
 * core/files/output.ts, the one writer of output and answers files (issue 26 items 4-6; docs/guarantees.md
 * "Output files"). Real files in a temporary folder; the one simulated part is a disk that fills mid-write
 * (OutputFs.writeSync), since a full disk cannot be made here without privileges. The real-limit failure
 * (RLIMIT_FSIZE, EFBIG) runs through the built CLI in test/integration/export/outputFile.test.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputFileError, outputIsInput, writeOutputFile } from '../../../core/files/output';

describe('core/files/output: writeOutputFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(join(tmpdir(), 'dlmm-out-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const leftovers = (): string[] => fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'));

  it('replaces the file by rename, keeping its mode, and leaves no temporary file', () => {
    const f = join(dir, 'out.json');
    fs.writeFileSync(f, 'old');
    fs.chmodSync(f, 0o640);
    const inode = fs.statSync(f).ino;
    writeOutputFile(f, 'new content', { followLink: false });
    assert.equal(fs.readFileSync(f, 'utf8'), 'new content');
    assert.equal(fs.statSync(f).mode & 0o777, 0o640);
    assert.notEqual(fs.statSync(f).ino, inode, 'a new file renamed into place, not the old one truncated');
    assert.deepEqual(leftovers(), []);
  });

  it('a write that fails midway (disk full) leaves the old content and says what happened', () => {
    const f = join(dir, 'out.json');
    fs.writeFileSync(f, 'the old, complete content');
    let calls = 0;
    const fsCalls = {
      writeSync: (fd: number, data: Buffer, offset: number, length: number): number => {
        if (calls++ === 0) return fs.writeSync(fd, data, offset, Math.min(4, length)); // a partial write
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    };
    assert.throws(
      () => writeOutputFile(f, 'x'.repeat(10_000), { followLink: false, fsCalls }),
      (e: unknown) =>
        e instanceof OutputFileError &&
        e.kind === 'failed' &&
        /the disk is full \(ENOSPC\); the old content is unchanged/.test(e.message),
    );
    assert.equal(fs.readFileSync(f, 'utf8'), 'the old, complete content');
    assert.deepEqual(leftovers(), []);
  });

  it('a folder that cannot be written: the error says so, nothing changes', () => {
    const f = join(dir, 'no/such/folder/out.json');
    assert.throws(
      () => writeOutputFile(f, 'x', { followLink: true }),
      /could not create a temporary file in its folder: the folder does not exist \(ENOENT\); no file was created/,
    );
  });

  it('never writes through a link it was not told to follow (a planted link to a file elsewhere)', () => {
    const victim = join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    const f = join(dir, 'plan.all.wallet-answers.json');
    fs.symlinkSync(victim, f);
    assert.throws(
      () => writeOutputFile(f, 'overwritten', { followLink: false }),
      (e: unknown) => e instanceof OutputFileError && e.kind === 'refused' && /symbolic link/.test(e.message),
    );
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(f).isSymbolicLink());
  });

  it('follows a link the user named: the target is replaced, the link stays a link', () => {
    const target = join(dir, 'real.json');
    fs.writeFileSync(target, 'old');
    const link = join(dir, 'link.json');
    fs.symlinkSync('real.json', link);
    writeOutputFile(link, 'new', { followLink: true });
    assert.equal(fs.readFileSync(target, 'utf8'), 'new');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.deepEqual(leftovers(), []);
  });

  it('a temporary name already taken (a planted link) is never followed: the exclusive create refuses it', () => {
    // The temporary name is random, so plant links at every name the next write could use: impossible; instead
    // check the flags themselves: O_EXCL|O_CREAT on an existing link fails with EEXIST and writes nothing.
    const victim = join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    const planted = join(dir, '.out.json.tmp');
    fs.symlinkSync(victim, planted);
    assert.throws(
      () => fs.openSync(planted, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600),
      { code: 'EEXIST' },
    );
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
  });

  it('refuses a folder at the path (never renamed over)', () => {
    fs.mkdirSync(join(dir, 'd.json'));
    assert.throws(() => writeOutputFile(join(dir, 'd.json'), 'x', { followLink: true }), /is a folder/);
  });
});

describe('core/files/output: outputIsInput', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(join(tmpdir(), 'dlmm-out-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the same path, a link to it, a hard link to it: all the input; another file or a new name: not', () => {
    const plan = join(dir, 'x.dlmm.yaml');
    fs.writeFileSync(plan, 'version: 1\n');
    fs.symlinkSync('x.dlmm.yaml', join(dir, 'sym.json'));
    fs.linkSync(plan, join(dir, 'hard.json'));
    fs.writeFileSync(join(dir, 'other.json'), '');
    assert.equal(outputIsInput(plan, [plan]), plan);
    assert.equal(outputIsInput(join(dir, 'sub/../x.dlmm.yaml'), [plan]), plan);
    assert.equal(outputIsInput(join(dir, 'sym.json'), [plan]), plan);
    assert.equal(outputIsInput(join(dir, 'hard.json'), [plan]), plan);
    assert.equal(outputIsInput(join(dir, 'other.json'), [plan]), undefined);
    assert.equal(outputIsInput(join(dir, 'new.json'), [plan]), undefined);
  });
});
