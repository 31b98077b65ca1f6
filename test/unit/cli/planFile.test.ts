/**
 * Reading an input file (cli/src/planFile.ts): the type is taken from the opened file, so a plan swapped for
 * a FIFO after a folder walk (or any earlier check) saw a regular file is refused at once, never waited on.
 * The race itself cannot be timed in a test: the read is called on a FIFO directly, as it would be after
 * the swap, with no writer at the other end (an open or read that blocks would hang this test).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileRefused, readInputFile } from '../../../cli/src/planFile';
import { skipBecause } from '../../skip';

describe('reading an input file: checked on the opened file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-input-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file', async () => {
    writeFileSync(join(dir, 'a.dlmm.yaml'), 'version: 1\n');
    assert.equal(await readInputFile(join(dir, 'a.dlmm.yaml')), 'version: 1\n');
  });

  it('refuses a FIFO without waiting for a writer', async function () {
    const fifo = join(dir, 'swapped.dlmm.yaml');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      skipBecause(this, 'mkfifo is not on this machine: there is no FIFO to test');
    }
    await assert.rejects(readInputFile(fifo), (e: unknown) => {
      assert.ok(e instanceof InputFileRefused);
      assert.match(e.problem, /is a FIFO \(named pipe\); only regular files are read/);
      return true;
    });
  });

  it('refuses a device and a folder, and passes open errors on', async () => {
    await assert.rejects(readInputFile('/dev/zero'), /is a device/);
    await assert.rejects(readInputFile(dir), /is a folder/);
    await assert.rejects(readInputFile(join(dir, 'missing')), { code: 'ENOENT' });
  });
});
