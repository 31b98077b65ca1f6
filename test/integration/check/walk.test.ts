/**
 * `dlmm check DIR` walks every plan file it can reach (issue 26 item 1; docs/guarantees.md "Every plan file
 * in a folder"): symbolic links to files and folders are followed, loops end, there is no depth limit, and a
 * plan file it reached but could not check is an error finding (`file-not-checked`), so a folder with a wrong
 * plan never exits 0. Offline, in-process, on real folders under the system's temporary folder.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../cli/src/main';
import type { CliIO } from '../../../cli/src/io';
import { skipBecause } from '../../skip';

const ROOT = join(__dirname, '../../..');
const WRONG = join(ROOT, 'examples/mistakes/wrong-side.dlmm.yaml');
const CLEAN = join(ROOT, 'examples/add-ladder.dlmm.yaml');

interface Doc {
  files: Array<{ path: string; diagnostics: Array<{ code: string; message: string }> }>;
}

async function check(cwd: string, ...paths: string[]): Promise<{ code: number; doc: Doc; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd };
  const code = await main(['check', '--offline', '--format', 'json', ...paths], io);
  return { code, doc: (out ? JSON.parse(out) : { files: [] }) as Doc, err };
}

function codesOf(doc: Doc, path: string): string[] {
  return doc.files.find((f) => f.path === path)?.diagnostics.map((d) => d.code) ?? [];
}

describe('dlmm check DIR: every plan file it can reach', function () {
  this.timeout(30_000);
  let t: string;
  beforeEach(() => {
    t = mkdtempSync(join(tmpdir(), 'dlmm-walk-'));
  });
  afterEach(() => {
    try {
      chmodSync(join(t, 'plans/locked'), 0o755);
    } catch {
      // not made by this test
    }
    rmSync(t, { recursive: true, force: true });
  });

  it('the reproduction: a wrong plan reached through a symlink beside a clean plan is checked, exit 1', async () => {
    mkdirSync(join(t, 'shared'));
    mkdirSync(join(t, 'plans'));
    copyFileSync(WRONG, join(t, 'shared/wrong.dlmm.yaml'));
    copyFileSync(CLEAN, join(t, 'plans/add-ladder.dlmm.yaml'));
    symlinkSync('../shared/wrong.dlmm.yaml', join(t, 'plans/wrong.dlmm.yaml'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1, JSON.stringify(r.doc));
    assert.deepEqual(
      r.doc.files.map((f) => f.path),
      ['plans/add-ladder.dlmm.yaml', 'plans/wrong.dlmm.yaml'],
    );
    assert.ok(codesOf(r.doc, 'plans/wrong.dlmm.yaml').includes('unsigned-bin-id'));
  });

  it('a wrong plan inside a symlinked subfolder is checked', async () => {
    mkdirSync(join(t, 'shared'));
    mkdirSync(join(t, 'plans'));
    copyFileSync(WRONG, join(t, 'shared/wrong.dlmm.yaml'));
    copyFileSync(CLEAN, join(t, 'plans/add-ladder.dlmm.yaml'));
    symlinkSync('../shared', join(t, 'plans/shared'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    assert.ok(codesOf(r.doc, 'plans/shared/wrong.dlmm.yaml').includes('unsigned-bin-id'));
  });

  it('no depth limit: a wrong plan 40 folders down is checked', async () => {
    const parts = Array.from({ length: 40 }, (_, i) => `d${i}`);
    const deep = join(t, 'plans', ...parts);
    mkdirSync(deep, { recursive: true });
    copyFileSync(WRONG, join(deep, 'wrong.dlmm.yaml'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    assert.ok(codesOf(r.doc, ['plans', ...parts, 'wrong.dlmm.yaml'].join('/')).includes('unsigned-bin-id'));
  });

  it('a symlink loop ends: each plan is checked once, and the run finishes', async () => {
    mkdirSync(join(t, 'plans/sub'), { recursive: true });
    copyFileSync(WRONG, join(t, 'plans/sub/wrong.dlmm.yaml'));
    symlinkSync('..', join(t, 'plans/sub/up')); // plans/sub/up -> plans
    symlinkSync('.', join(t, 'plans/self'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.doc.files.map((f) => f.path),
      ['plans/sub/wrong.dlmm.yaml'],
    );
  });

  it('a broken link named like a plan is a file-not-checked error: never a silent clean', async () => {
    mkdirSync(join(t, 'plans'));
    copyFileSync(CLEAN, join(t, 'plans/add-ladder.dlmm.yaml'));
    symlinkSync('../gone/wrong.dlmm.yaml', join(t, 'plans/wrong.dlmm.yaml'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    // Checked offline: its only finding says the live rules did not run.
    assert.deepEqual(codesOf(r.doc, 'plans/add-ladder.dlmm.yaml'), ['live-unchecked']);
    const d = r.doc.files.find((f) => f.path === 'plans/wrong.dlmm.yaml')?.diagnostics[0];
    assert.equal(d?.code, 'file-not-checked');
    assert.match(
      d.message,
      /plans\/wrong\.dlmm\.yaml: is a symbolic link whose target cannot be read: no such file/,
    );
    assert.match(r.err, /1 plan file \(offline\), 1 not checked/);
  });

  it('a FIFO named like a plan is named, not opened (no hang), and fails the run', async function () {
    mkdirSync(join(t, 'plans'));
    copyFileSync(CLEAN, join(t, 'plans/add-ladder.dlmm.yaml'));
    try {
      execFileSync('mkfifo', [join(t, 'plans/pipe.dlmm.yaml')]);
    } catch {
      skipBecause(this, 'mkfifo is not available here');
    }
    symlinkSync('pipe.dlmm.yaml', join(t, 'plans/link.dlmm.yaml'));
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    assert.deepEqual(codesOf(r.doc, 'plans/pipe.dlmm.yaml'), ['file-not-checked']);
    assert.deepEqual(codesOf(r.doc, 'plans/link.dlmm.yaml'), ['file-not-checked']);
  });

  it('a folder it cannot read is named as a finding, exit 1', async function () {
    if (process.getuid?.() === 0) skipBecause(this, 'root reads every folder whatever its mode');
    mkdirSync(join(t, 'plans/locked'), { recursive: true });
    copyFileSync(CLEAN, join(t, 'plans/add-ladder.dlmm.yaml'));
    copyFileSync(WRONG, join(t, 'plans/locked/wrong.dlmm.yaml'));
    chmodSync(join(t, 'plans/locked'), 0o000);
    const r = await check(t, 'plans');
    assert.equal(r.code, 1);
    assert.deepEqual(codesOf(r.doc, 'plans/locked'), ['file-not-checked']);
  });
});
