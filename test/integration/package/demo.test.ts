/** `npm run demo` (scripts/demo.mjs after the build) is a tour that exits 0, with the mistakes under a heading. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipBecause } from '../../skip';

const ROOT = join(__dirname, '../../..');

describe('npm run demo', function () {
  this.timeout(120_000);
  it('walks the clean examples, the deliberate mistakes, a quote and an export summary; exit 0', async function () {
    if (!existsSync(join(ROOT, 'dist', 'cli.js')))
      skipBecause(this, 'dist/cli.js is not built: run `npm run build` first (`npm test` does)');
    const r = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
      cwd: ROOT,
      env: { ...process.env, DLMM_API_URL: '' },
    });
    const headings = [...r.stdout.matchAll(/^=== (.*)$/gm)].map((m) => m[1]);
    assert.equal(headings.length, 4);
    assert.match(headings[1]!, /WRONG ON PURPOSE/);
    assert.match(r.stdout, /exit 1: the mistakes were found, as intended/);
    assert.match(r.stdout, /Tour done/);
  });
});
