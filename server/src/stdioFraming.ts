/**
 * What the language server reads on stdio passes through this guard before the protocol library sees it
 * (dist/server.js --stdio and `dlmm lsp --stdio`). The library's reader trusts the framing: a header block
 * without a `Content-Length` (or with one that is not a number) was dropped with the bytes after it taken for
 * the next header, so every message that followed was lost and the server answered nothing any more. Here a
 * frame is passed on only when its header block holds a plain decimal `Content-Length` of at most
 * MAX_MESSAGE_BYTES; anything else is skipped up to the next `Content-Length:` in the stream, where reading
 * starts again; a larger message is read past without being kept. Bodies are passed on as they arrive (the
 * library reports a body that is not JSON, and goes on). Each frame leaves with a `Content-Length` header
 * only: the body is UTF-8 JSON, the one encoding the protocol defines.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Larger messages are read past, not kept (a plan is read up to 1 MiB characters; JSON escapes at most 6x). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** A header block longer than this without its blank line is not one. */
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const LENGTH_KEY = /content-length:/i;
const LENGTH_KEY_BYTES = 15;
const MAX_NOTICES = 20;

export class FramingGuard extends Transform {
  /** Bytes of a header block not complete yet. */
  private head: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass on (or, when `skipping`, to read past). */
  private bodyLeft = 0;
  private skipping = false;
  /** Lines said so far (a flood of garbage is reported by its first few). */
  private said = 0;

  private readonly maxMessageBytes: number;

  /**
   * `notice` hears, for a person, what was skipped and why (the first MAX_NOTICES times); `maxMessageBytes`
   * is MAX_MESSAGE_BYTES unless a test says otherwise.
   */
  constructor(
    private readonly notice: (what: string) => void = () => undefined,
    opts: { maxMessageBytes?: number } = {},
  ) {
    super();
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  private dropped(what: string): void {
    if (this.said++ < MAX_NOTICES) this.notice(`JSON-RPC input: ${what}`);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, chunk.length - at);
        if (!this.skipping) this.push(chunk.subarray(at, at + n));
        this.bodyLeft -= n;
        at += n;
        continue;
      }
      this.head =
        this.head.length === 0 ? chunk.subarray(at) : Buffer.concat([this.head, chunk.subarray(at)]);
      at = chunk.length;
      const rest = this.readHeaders();
      if (rest !== undefined) {
        // The header block is read: what followed it is the body (and maybe more frames).
        chunk = rest;
        at = 0;
      }
    }
    done();
  }

  /**
   * Reads the header blocks held in `head` (skipping what is not one) until a frame starts: returns the
   * bytes after that frame's header block, or undefined when more bytes are needed.
   */
  private readHeaders(): Buffer | undefined {
    for (;;) {
      const end = this.head.indexOf(HEADER_END);
      if (end < 0) {
        if (this.head.length > MAX_HEADER_BYTES) this.resync('a header block without its end', 1);
        return undefined;
      }
      const length = contentLength(this.head.subarray(0, end).toString('latin1'));
      if (length === undefined) {
        this.resync('a header block without a valid Content-Length', 1);
        continue;
      }
      const rest = this.head.subarray(end + HEADER_END.length);
      this.head = Buffer.alloc(0);
      this.bodyLeft = length;
      this.skipping = length > this.maxMessageBytes;
      if (this.skipping)
        this.dropped(`a message of ${length} bytes (more than ${this.maxMessageBytes}) was read past`);
      else this.push(Buffer.from(`Content-Length: ${length}\r\n\r\n`, 'latin1'));
      return rest;
    }
  }

  /** Drops the bytes of `head` before the next `Content-Length:` at or after `from` (all but a tail if none). */
  private resync(what: string, from: number): void {
    const next = this.nextLengthKey(from);
    // Without one, a tail that could be the start of one split across chunks is kept.
    const keep = next >= 0 ? next : Math.max(from, this.head.length - (LENGTH_KEY_BYTES - 1));
    this.dropped(`${what} was skipped (${keep} bytes)`);
    this.head = this.head.subarray(keep);
  }

  /**
   * Where the next `Content-Length:` (any case) starts at or after `from`, or -1: searched in windows that
   * double, so finding it costs about twice the distance to it (a flood of bad headers costs its length,
   * not its length for each header).
   */
  private nextLengthKey(from: number): number {
    for (let width = 64; ; width *= 2) {
      const end = Math.min(this.head.length, from + width);
      const at = this.head.toString('latin1', from, end).search(LENGTH_KEY);
      if (at >= 0) return from + at;
      if (end === this.head.length) return -1;
    }
  }
}

/** The Content-Length of a header block, or undefined when it has none, several, or one that is no length. */
function contentLength(block: string): number | undefined {
  let found: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (found !== undefined || !/^\d{1,15}$/.test(value)) return undefined;
    found = Number(value);
  }
  return found;
}
