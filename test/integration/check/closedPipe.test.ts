/**
 * A reader that goes away (`dlmm check … | head`): the CLI stops writing to that stream quietly and exits
 * with the command's own status, never with a stack trace (cli/src/io.ts stdioWriter). The real CLI in a
 * child process; its stdout is a pipe whose reading end this test closes after the first chunk.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const SENDER = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';

/** A plan with ~1,000 findings: its report is far larger than a pipe's buffer. */
function bigInvalidPlan(): string {
  const bins = Array.from(
    { length: 3000 },
    (_, i) => `      - { bin_id: ${i % 400}, x_amount: -1, y_amount: 0 }`,
  );
  return `version: 1\nsender: ${SENDER}\noperations:\n  - op: add\n    pool: dlmm_1\n    bins:\n${bins.join('\n')}\n`;
}

function runClosingStdout(args: string[]): Promise<{ code: number | null; stderr: string; got: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'dlmm.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DLMM_CACHE_DIR: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let got = 0;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      got = d.length;
      child.stdout.destroy(); // the reader goes away, as `head -c` does
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, got }));
  });
}

describe('CLI: a reader that goes away', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlmm-pipe-'));
    writeFileSync(join(dir, 'big.dlmm.yaml'), bigInvalidPlan());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of ['text', 'json', 'sarif']) {
    it(`check --format ${format} | head: exit 1 (the findings), no stack trace`, async () => {
      const r = await runClosingStdout([
        'check',
        '--offline',
        '--format',
        format,
        join(dir, 'big.dlmm.yaml'),
      ]);
      assert.ok(r.got > 0, 'the first chunk arrived');
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /EPIPE|\n\s+at |Error/);
    });
  }
});
