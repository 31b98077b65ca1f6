/**
 * The wallet's answers file (issue 26 item 6; docs/guarantees.md "Wallet answers files"): the one rule of
 * core/wallet/answersFile.ts that `dlmm wallet` and the editor's Send to Wallet both write through. Real
 * files in a temporary folder.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersFileName, writeAnswersFile, type AnswersDoc } from '../../../core/wallet/answersFile';
import { OutputFileError } from '../../../core/files/output';

const txid = (n: number) => n.toString(16).padStart(64, 'a');
const session = (n: number): AnswersDoc => ({
  version: 1,
  plan: 'x.dlmm.yaml',
  ended: 'done',
  answers: [{ transaction_index: 1, method: 'stx_callContract', txid: txid(n) }],
});

describe('core/wallet/answersFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(join(tmpdir(), 'dlmm-answers-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names: from the plan base name; a backslash, slash or % never lets two plans share a file', () => {
    assert.equal(answersFileName('x.dlmm.yaml', undefined), 'x.all.wallet-answers.json');
    assert.equal(answersFileName('other\\x.dlmm.yaml', undefined), 'other%5Cx.all.wallet-answers.json');
    assert.equal(answersFileName('other%5Cx.dlmm.yaml', undefined), 'other%255Cx.all.wallet-answers.json');
    assert.equal(answersFileName('a:b.dlmm.json', 'op 1'), 'a%3Ab.op-op_1.wallet-answers.json');
    assert.equal(answersFileName('..dlmm.yaml', undefined), 'plan.all.wallet-answers.json');
    assert.equal(answersFileName('plan été.dlmm.yml', undefined), 'plan été.all.wallet-answers.json');
  });

  it('the reproduction: a plan named other\\x.dlmm.yaml does not overwrite x.all.wallet-answers.json', () => {
    const xFile = writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(1));
    const other = writeAnswersFile(dir, 'other\\x.dlmm.yaml', undefined, session(2));
    assert.notEqual(other, xFile);
    assert.equal(
      (JSON.parse(fs.readFileSync(xFile, 'utf8')) as AnswersDoc).earlier_sessions,
      undefined,
      'x.all.wallet-answers.json holds only its own session',
    );
    assert.match(fs.readFileSync(xFile, 'utf8'), new RegExp(txid(1)));
    assert.doesNotMatch(fs.readFileSync(xFile, 'utf8'), new RegExp(txid(2)));
  });

  it('a second session on the same plan keeps the first one’s txids (merged, newest on top)', () => {
    writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(1));
    writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(2));
    const file = writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(3));
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as AnswersDoc;
    assert.deepEqual(doc.answers, session(3).answers);
    assert.deepEqual(
      doc.earlier_sessions?.map((s) => s.answers),
      [session(1).answers, session(2).answers],
    );
    assert.ok(doc.earlier_sessions?.every((s) => s.earlier_sessions === undefined));
  });

  it('never through a planted link: refused, the link target untouched', () => {
    const victim = join(dir, 'elsewhere.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, join(dir, 'x.all.wallet-answers.json'));
    assert.throws(
      () => writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(1)),
      (e: unknown) => e instanceof OutputFileError && /symbolic link/.test(e.message),
    );
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
  });

  it('a file at the name that is not an answers document is kept: the answers go to the next free name', () => {
    fs.writeFileSync(join(dir, 'x.all.wallet-answers.json'), 'my notes, not JSON');
    const file = writeAnswersFile(dir, 'x.dlmm.yaml', undefined, session(1));
    assert.equal(file, join(dir, 'x.all.wallet-answers.2.json'));
    assert.equal(fs.readFileSync(join(dir, 'x.all.wallet-answers.json'), 'utf8'), 'my notes, not JSON');
  });
});
