/**
 * Offsets to zero-based {line, character} (UTF-16 code units, as LSP and SARIF-with-utf16 want).
 * Built once per document and used only at the edges (CLI output, LSP, SARIF): findings keep offsets.
 */

export interface LinePosition {
  line: number;
  character: number;
}

export interface LineRange {
  start: LinePosition;
  end: LinePosition;
}

/** Line starts of a text, for offset <-> position conversion in O(log lines). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    if (!text.includes('\r')) {
      // LF line ends only (the usual text): found by the engine's search, not a character at a time.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** Zero-based position of a UTF-16 offset (clamped to the text). */
  positionAt(offset: number): LinePosition {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - (this.starts[lo] as number) };
  }

  /** UTF-16 offset of a zero-based position (clamped to the line and the text). */
  offsetAt(pos: LinePosition): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line] as number;
    const next = pos.line + 1 < this.starts.length ? (this.starts[pos.line + 1] as number) : this.text.length;
    return Math.max(start, Math.min(start + pos.character, next));
  }

  /** Range of an {offset, length} span. */
  rangeOf(offset: number, length: number): LineRange {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}
