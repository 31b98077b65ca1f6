/**
 * The wallet's answers file, beside the plan: one rule for `dlmm wallet` and the editor's Send to Wallet
 * (docs/wallet.md "The answers file", docs/guarantees.md "Wallet answers files").
 *
 * - The name is derived from the plan's own file name (its base name, given by the caller with its
 *   platform's rules), never from a path: `<stem>.<all|op-ID>.wallet-answers.json`, where characters that
 *   separate paths or are not allowed in file names somewhere (`\ / : * ? " < > |`, control characters, and
 *   `%` itself) are written `%XX`. The encoding is one-to-one, so two plans never share an answers file: a
 *   plan named `other\x.dlmm.yaml` gets `other%5Cx.all.wallet-answers.json`, never `x.all.…`.
 * - Never erased: a session's answers are merged into the file: the new session's document on top, every
 *   earlier session (with its txids) kept under `earlier_sessions`, oldest first. A file there that is not an
 *   answers document is left alone and the answers go to the first free `<name>.N.json` instead.
 * - Never through a link: a symbolic link at the name is refused (someone may have planted it to make us
 *   write elsewhere), and the file is written atomically (core/files/output.ts).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputFile } from '../files/output';
import { PLAN_FILE } from '../plan/fileName';

const MAX_ID_LENGTH = 60;
/** An answers file above this is not read back (a session's answers are a few KB). */
const MAX_ANSWERS_FILE_BYTES = 16 * 1024 * 1024;

// eslint-disable-next-line no-control-regex
const UNSAFE = /[%\\/:*?"<>|\u0000-\u001f\u007f]/g;

/** `text` with the unsafe characters as `%XX` (UTF-16 units below 0x80 only: the set above). */
function encodeName(text: string): string {
  return text.replace(UNSAFE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** `<stem>.<all|op-ID>.wallet-answers.json` for the plan file named `planBaseName` (no folder). */
export function answersFileName(planBaseName: string, opId: string | undefined): string {
  const stem = planBaseName.replace(PLAN_FILE, '');
  const safeStem = stem === '' || stem === '.' || stem === '..' ? 'plan' : encodeName(stem);
  const scope =
    opId === undefined ? 'all' : `op-${opId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_ID_LENGTH) || '_'}`;
  return `${safeStem}.${scope}.wallet-answers.json`;
}

/** An answers document as `answersDocument` (answers.ts) makes it, with the earlier sessions it keeps. */
export interface AnswersDoc {
  version: number;
  answers: unknown[];
  earlier_sessions?: AnswersDoc[];
  [key: string]: unknown;
}

function isAnswersDoc(v: unknown): v is AnswersDoc {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    (v as { version?: unknown }).version === 1 &&
    Array.isArray((v as { answers?: unknown }).answers)
  );
}

/** What is at `file` now: absent, an answers document, or something else (not to be replaced). */
function readExisting(
  file: string,
): { kind: 'absent' } | { kind: 'doc'; doc: AnswersDoc } | { kind: 'other' } {
  let st;
  try {
    st = lstatSync(file);
  } catch (e) {
    return (e as { code?: unknown }).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'other' };
  }
  if (st.isSymbolicLink()) return { kind: 'doc', doc: { version: 1, answers: [] } }; // the write refuses it
  if (!st.isFile() || st.size > MAX_ANSWERS_FILE_BYTES) return { kind: 'other' };
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return isAnswersDoc(v) ? { kind: 'doc', doc: v } : { kind: 'other' };
  } catch {
    return { kind: 'other' };
  }
}

/** `doc` on top of `earlier` (and the sessions `earlier` kept), oldest first. */
function mergeAnswers(earlier: AnswersDoc | undefined, doc: AnswersDoc): AnswersDoc {
  if (!earlier || earlier.answers.length === 0) return doc;
  const { earlier_sessions: before = [], ...previous } = earlier;
  return { ...doc, earlier_sessions: [...before, previous as AnswersDoc] };
}

/**
 * Writes `doc` (this session's answers) into the answers file of the plan `planBaseName` in `folder`,
 * keeping every earlier session. Returns the file written. Throws OutputFileError (core/files/output.ts) when
 * it cannot: a symbolic link at the name, a full disk; the old file is then unchanged.
 */
export function writeAnswersFile(
  folder: string,
  planBaseName: string,
  opId: string | undefined,
  doc: AnswersDoc,
): string {
  const name = answersFileName(planBaseName, opId);
  let file = join(folder, name);
  let existing = readExisting(file);
  for (let n = 2; existing.kind === 'other'; n++) {
    file = join(folder, name.replace(/\.json$/, `.${n}.json`));
    existing = readExisting(file);
  }
  const merged = mergeAnswers(existing.kind === 'doc' ? existing.doc : undefined, doc);
  writeOutputFile(file, JSON.stringify(merged, null, 2) + '\n', { followLink: false });
  return file;
}
