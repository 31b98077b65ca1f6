/**
 * The open documents as the server keeps them: an exact copy of the editor's text, or none. It replaces the
 * library's TextDocuments, which took what arrived on trust: a `didOpen` whose text was `null` reached the
 * analysis and ended the process, and an edit starting past the last line was applied with the line table
 * updated at that line, so every later edit landed elsewhere and findings were published for a text the
 * editor did not have.
 *
 * Here every notification is checked before anything is kept. An edit is applied as the protocol says
 * (LSP 3.17, Position): a character past the end of its line means the line's end, and a line past the last
 * line means the end of the document; the range is clamped so, then applied. What cannot be applied at all (a
 * text that is not a string, a range or version that is not made of non-negative integers, changes that are
 * not a list) leaves the server without a copy it can vouch for: the document is then "out of sync" (no
 * analysis, no answers to requests, one error in its diagnostics saying so) until the editor sends its whole
 * text again (`didOpen`, or a change without a range).
 */
import { Emitter, type Connection, type Event } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';

/** A document whose copy the server cannot vouch for: why, and the version the editor gave (if any). */
export interface OutOfSync {
  uri: string;
  reason: string;
  version: number | undefined;
}

export class PlanDocuments {
  private readonly docs = new Map<string, TextDocument>();
  private readonly lost = new Map<string, OutOfSync>();
  private readonly opened = new Emitter<{ document: TextDocument }>();
  private readonly changed = new Emitter<{ document: TextDocument }>();
  private readonly closed = new Emitter<{ uri: string }>();
  private readonly lostSync = new Emitter<OutOfSync>();

  /** A document was opened (or its whole text arrived again after it was out of sync). */
  readonly onDidOpen: Event<{ document: TextDocument }> = this.opened.event;
  /** A document's text changed (a new version). */
  readonly onDidChangeContent: Event<{ document: TextDocument }> = this.changed.event;
  /** A document was closed (in sync or not). */
  readonly onDidClose: Event<{ uri: string }> = this.closed.event;
  /** The server no longer has an exact copy of a document (see the file's comment). */
  readonly onDidLoseSync: Event<OutOfSync> = this.lostSync.event;
  /** Where malformed notifications are reported (a line for a person). */
  log: (line: string) => void = () => undefined;

  /** The document's current text and version, or undefined when not open or out of sync. */
  get(uri: string): TextDocument | undefined {
    return this.docs.get(uri);
  }

  /** Every document the server has an exact copy of. */
  all(): TextDocument[] {
    return [...this.docs.values()];
  }

  /** Why the server has no copy of an open document it can vouch for, or undefined. */
  outOfSync(uri: string): OutOfSync | undefined {
    return this.lost.get(uri);
  }

  /** Every open document the server has no exact copy of. */
  allOutOfSync(): OutOfSync[] {
    return [...this.lost.values()];
  }

  /** Reads `didOpen`, `didChange` and `didClose` from `connection`. */
  listen(connection: Connection): void {
    connection.onDidOpenTextDocument((p: unknown) => this.open(p));
    connection.onDidChangeTextDocument((p: unknown) => this.change(p));
    connection.onDidCloseTextDocument((p: unknown) => this.close(p));
  }

  /** `textDocument/didOpen` as it arrived. */
  open(params: unknown): void {
    const item = field(params, 'textDocument');
    const uri = field(item, 'uri');
    if (typeof uri !== 'string')
      return this.log(`didOpen ignored: ${expected('textDocument.uri', 'a string', uri)}`);
    const version = field(item, 'version');
    const text = field(item, 'text');
    const languageId = field(item, 'languageId');
    const problem = !isUInteger(version)
      ? expected('textDocument.version', 'a non-negative integer', version)
      : typeof text !== 'string'
        ? expected('textDocument.text', 'a string', text)
        : undefined;
    if (problem !== undefined)
      return this.loseSync(
        uri,
        `the editor opened it with ${problem}`,
        isUInteger(version) ? version : undefined,
      );
    this.lost.delete(uri);
    const document = TextDocument.create(
      uri,
      typeof languageId === 'string' ? languageId : '',
      version as number,
      text as string,
    );
    this.docs.set(uri, document);
    this.opened.fire({ document });
    this.changed.fire({ document });
  }

  /** `textDocument/didChange` as it arrived: applied whole, or not at all (the document is then out of sync). */
  change(params: unknown): void {
    const id = field(params, 'textDocument');
    const uri = field(id, 'uri');
    if (typeof uri !== 'string')
      return this.log(`didChange ignored: ${expected('textDocument.uri', 'a string', uri)}`);
    const document = this.docs.get(uri);
    const wasLost = this.lost.get(uri);
    if (!document && !wasLost) return this.log(`didChange ignored: ${uri} is not open`);
    const version = field(id, 'version');
    const changes = field(params, 'contentChanges');
    const problem = !isUInteger(version)
      ? expected('textDocument.version', 'a non-negative integer', version)
      : !Array.isArray(changes)
        ? expected('contentChanges', 'a list', changes)
        : changes.map(changeProblem).find((p) => p !== undefined);
    const v = isUInteger(version) ? version : undefined;
    if (problem !== undefined)
      return this.loseSync(uri, `the editor sent a change that cannot be applied: ${problem}`, v);
    const list = changes as Change[];
    // The whole text, last in the list: whatever came before, the copy is exact again.
    const whole = list.map((c) => c.range === undefined).lastIndexOf(true);
    if (wasLost) {
      if (whole < 0) return; // still out of sync: an edit of a text the server does not have
      const reopened = TextDocument.create(uri, '', v as number, '');
      applyChanges(reopened, list.slice(whole), v as number);
      this.lost.delete(uri);
      this.docs.set(uri, reopened);
      this.log(`${uri}: the editor sent the whole text again; the copy is exact again`);
      this.opened.fire({ document: reopened });
      this.changed.fire({ document: reopened });
      return;
    }
    const doc = document as TextDocument;
    applyChanges(doc, list, v as number);
    this.changed.fire({ document: doc });
  }

  /** `textDocument/didClose` as it arrived. */
  close(params: unknown): void {
    const uri = field(field(params, 'textDocument'), 'uri');
    if (typeof uri !== 'string')
      return this.log(`didClose ignored: ${expected('textDocument.uri', 'a string', uri)}`);
    const had = this.docs.delete(uri);
    const wasLost = this.lost.delete(uri);
    if (had || wasLost) this.closed.fire({ uri });
  }

  private loseSync(uri: string, reason: string, version: number | undefined): void {
    const wasOpen = this.docs.delete(uri);
    const lost: OutOfSync = { uri, reason, version };
    this.lost.set(uri, lost);
    this.log(`${uri}: ${reason}; its findings are withheld until the editor sends the whole text again`);
    if (wasOpen) this.closed.fire({ uri });
    this.lostSync.fire(lost);
  }
}

interface LspPosition {
  line: number;
  character: number;
}
interface Change {
  range?: { start: LspPosition; end: LspPosition };
  text: string;
}

/** Why one entry of `contentChanges` cannot be applied, or undefined. */
function changeProblem(change: unknown, i: number): string | undefined {
  const text = field(change, 'text');
  if (typeof text !== 'string') return expected(`contentChanges[${i}].text`, 'a string', text);
  const range = field(change, 'range');
  if (range === undefined) return undefined;
  for (const end of ['start', 'end'] as const) {
    const pos = field(range, end);
    for (const part of ['line', 'character'] as const) {
      const n = field(pos, part);
      if (!isUInteger(n))
        return expected(`contentChanges[${i}].range.${end}.${part}`, 'a non-negative integer', n);
    }
  }
  return undefined;
}

/**
 * The change with its range as the protocol reads it in `doc`: a line past the last one is the end of the
 * document (the library would clamp the offset but not the line it updates its line table at). A character
 * past its line's end is left to the library, which reads it as the line's end (before its line break).
 */
function clampTo(doc: TextDocument): (c: Change) => Change {
  const last = doc.lineCount - 1;
  const end = (): LspPosition => doc.positionAt(doc.getText().length);
  const clamp = (p: LspPosition): LspPosition =>
    p.line > last ? end() : { line: p.line, character: p.character };
  return (c) =>
    c.range === undefined
      ? { text: c.text }
      : { range: { start: clamp(c.range.start), end: clamp(c.range.end) }, text: c.text };
}

/** Applies `changes` in order (each one's positions are in the text the ones before it left). */
function applyChanges(doc: TextDocument, changes: readonly Change[], version: number): void {
  for (const c of changes) TextDocument.update(doc, [clampTo(doc)(c)], version);
  if (changes.length === 0) TextDocument.update(doc, [], version);
}

function isUInteger(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** `o[key]` when `o` is a plain object, else undefined. */
function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, key)
    ? (o as Record<string, unknown>)[key]
    : undefined;
}

/** "`what` `found`, expected `want`", with the value shown short. */
function expected(what: string, want: string, found: unknown): string {
  let shown: string;
  if (found === undefined) shown = 'missing';
  else {
    try {
      shown = JSON.stringify(found) ?? String(found);
    } catch {
      shown = typeof found;
    }
    if (shown.length > 40) shown = `${shown.slice(0, 40)}…`;
  }
  return `${what} ${shown}, expected ${want}`;
}

/**
 * The file name of a document URI, its percent escapes decoded where they are valid UTF-8 and kept as
 * written where not (`x%E0%A4%A.dlmm.yaml` stays as it is; decodeURIComponent threw on it, and the
 * document got no analysis and no hover).
 */
export function uriFileName(uri: string): string {
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '';
  return decodeEscapes(path.slice(path.lastIndexOf('/') + 1));
}

/** `text` with each run of percent escapes decoded when it is valid UTF-8, left as written otherwise. */
export function decodeEscapes(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    const whole = decode(run);
    if (whole !== undefined) return whole;
    // Escape by escape: the longest valid UTF-8 sequence from each one, else the escape as written.
    const escapes = run.match(/%[0-9a-f]{2}/gi) ?? [];
    let out = '';
    for (let i = 0; i < escapes.length;) {
      let taken = 1;
      let decoded: string | undefined;
      for (let n = Math.min(4, escapes.length - i); n > 0 && decoded === undefined; n--) {
        decoded = decode(escapes.slice(i, i + n).join(''));
        taken = n;
      }
      out += decoded ?? escapes[i];
      i += decoded === undefined ? 1 : taken;
    }
    return out;
  });
}

function decode(escapes: string): string | undefined {
  try {
    return decodeURIComponent(escapes);
  } catch {
    return undefined;
  }
}
