/**
 * A fast reader for the common shape of plan files: block maps and sequences, one-line flow maps and
 * sequences of scalars, plain/quoted scalars, comments (after a value, and comment-only or blank lines
 * anywhere, at any indentation; their text may hold anything but a tab), Windows line ends. It yields the
 * same JS value and the same node ranges as `yaml`'s parseDocument + toJS (core schema, intAsBigInt), at a
 * fraction of the cost (the composed Document dominated the analyzer's time; yaml's own tree for a 3 MB plan
 * is over 300 MB). Anything outside that subset (anchors, aliases, tags, block scalars, multi-line scalars,
 * escapes in double-quoted strings, `''` in single-quoted ones, duplicate keys, tabs, a CR not followed by
 * LF, document markers, odd indentation, errors...) returns undefined, and the caller falls back to
 * parseDocument, so messages and behaviour stay identical.
 * test/unit/plan/lightYaml.test.ts checks the equivalence differentially (values and every range).
 */

/** [start, value end, node end] as in `yaml` node ranges. */
export type LightRange = [number, number, number];

export interface LightScalar {
  kind: 'scalar';
  range: LightRange;
  value: unknown;
}
export interface LightMap {
  kind: 'map';
  range: LightRange;
  flow: boolean;
  keys: LightScalar[];
  values: LightNode[];
}
export interface LightSeq {
  kind: 'seq';
  range: LightRange;
  flow: boolean;
  items: LightNode[];
}
export type LightNode = LightScalar | LightMap | LightSeq;

export interface LightDoc {
  root: LightMap;
  value: Record<string, unknown>;
}

/**
 * Characters this reader leaves to the full parser anywhere in the text (comments too). Other indicators
 * (`&`, `*`, `!`, `|`, `>`, `%`, `@`, `` ` ``, `?`, `---`...) are refused where they would mean something:
 * the reader only accepts the scalar characters it models, so they may appear in comments and quoted strings.
 */
const UNSUPPORTED = /[\t\r\u{FEFF}]/u;
const CORE_SPECIAL =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const INT = /^-?(?:0|[1-9][0-9]*)$/;
const FLOAT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
const STRING_START = /^[A-Za-z_$./]/;
const DOT_NUMBER = /^\.[0-9]/;

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

const SP = 32;
const NL = 10;
const HASH = 35;
const COLON = 58;

/**
 * Reads `text` when it is in the supported subset; undefined otherwise (use parseDocument). Windows line
 * ends (every CR followed by LF) are read as LF and the ranges mapped back: yaml treats CRLF as one line
 * break, so a node's offsets in the CRLF text are its offsets in the LF text plus the line breaks before
 * them (tested against yaml on CRLF texts). A lone CR is left to yaml.
 */
export function parseLightYaml(text: string): LightDoc | undefined {
  let lf = text;
  let crlf = false;
  if (text.includes('\r')) {
    lf = text.replace(/\r\n/g, '\n');
    if (lf.includes('\r')) return undefined;
    crlf = true;
  }
  if (UNSUPPORTED.test(lf)) return undefined;
  try {
    const doc = new Reader(lf).document();
    if (crlf) remapToCrlf(doc.root, lf);
    return doc;
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
}

/** Moves every range of the tree read from `lf` to the offsets of the CRLF text it came from. */
function remapToCrlf(root: LightNode, lf: string): void {
  const breaks: number[] = [];
  for (let i = lf.indexOf('\n'); i >= 0; i = lf.indexOf('\n', i + 1)) breaks.push(i);
  // Offset o in the LF text: one CR more for each line break strictly before o.
  const at = (o: number): number => {
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (breaks[mid]! < o) lo = mid + 1;
      else hi = mid;
    }
    return o + lo;
  };
  const stack: LightNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    n.range = [at(n.range[0]), at(n.range[1]), at(n.range[2])];
    // One push per child: a spread of a 100,000-item list would overflow the call stack.
    if (n.kind === 'map') {
      for (const k of n.keys) stack.push(k);
      for (const v of n.values) stack.push(v);
    } else if (n.kind === 'seq') for (const it of n.items) stack.push(it);
  }
}

function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36; // a-z A-Z _ $
}
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 45; // 0-9 -
}
/** Plain scalar characters (flow-safe); ':' is added in block context when not followed by a space. */
function isPlainChar(c: number): boolean {
  return isKeyChar(c) || c === 46 || c === 47 || c === 43; // . / +
}

function resolvePlain(s: string): unknown {
  if (INT.test(s)) return BigInt(s);
  if (FLOAT.test(s)) return parseFloat(s);
  if (CORE_SPECIAL.test(s) || !STRING_START.test(s) || DOT_NUMBER.test(s)) return bail();
  // Starts like a number but is not one of the forms above (e.g. "0x1", "1_000"): leave it to yaml.
  return s;
}

/** What follows a block collection's last item, up to the next content line (see Reader.gap). */
interface Closed<N> {
  node: N;
  next: number;
  /**
   * The deepest comment indent of the comment-only lines left after the collection (not taken into its
   * last value's end), or -1 when there are none: yaml keeps those lines in the collection that is closing
   * when one of them is at least as indented as it, else hands them to the parent.
   */
  trail: number;
}

class Reader {
  private readonly len: number;
  constructor(private readonly text: string) {
    this.len = text.length;
  }

  private code(i: number): number {
    return i < this.len ? this.text.charCodeAt(i) : -1;
  }

  /** Start of the next line that has content (not blank, not comment-only), or the text length. */
  private nextContentLine(lineStart: number): number {
    let p = lineStart;
    while (p < this.len) {
      let q = p;
      while (this.code(q) === SP) q++;
      const c = this.code(q);
      if (c === NL) {
        p = q + 1;
        continue;
      }
      if (c === HASH) {
        const nl = this.text.indexOf('\n', q);
        if (nl < 0) return this.len;
        p = nl + 1;
        continue;
      }
      if (c === -1) return this.len;
      return p;
    }
    return this.len;
  }

  /**
   * The blank and comment-only lines after an inline value whose line ends at `lineEnd`, in a collection
   * whose items sit at column `col`. yaml's parser takes a comment line indented deeper than `col` (and the
   * blank lines before it) into the value's end, as long as no comment line at or left of `col` came first;
   * the lines after that stay pending (`trail`: their deepest comment indent, -1 without comments).
   */
  private gap(lineEnd: number, col: number): { valueEnd: number; next: number; trail: number } {
    let valueEnd = lineEnd;
    let absorbing = true;
    let trail = -1;
    let p = lineEnd;
    while (p < this.len) {
      let q = p;
      while (this.code(q) === SP) q++;
      const c = this.code(q);
      if (c === NL) {
        p = q + 1;
        continue;
      }
      if (c === -1) break;
      if (c !== HASH) return { valueEnd, next: p, trail };
      const nl = this.text.indexOf('\n', q);
      const after = nl < 0 ? this.len : nl + 1;
      const indent = q - p;
      if (absorbing && indent > col) valueEnd = after;
      else {
        absorbing = false;
        if (indent > trail) trail = indent;
      }
      p = after;
    }
    return { valueEnd, next: this.len, trail };
  }

  /**
   * Closes a block collection at column `col` whose last item ends at `end`: the pending comment lines
   * stay in it (its node end moves to where the next content starts, after that line's indentation) when
   * one of them is indented at least `col` and the collection is not at column 0; else they go up.
   */
  private close(range: LightRange, end: number, col: number, next: number, trail: number): number {
    range[1] = end;
    if (trail >= col && col !== 0) {
      range[2] = next < this.len ? next + this.indentAt(next) : this.len;
      return -1;
    }
    range[2] = end;
    return trail;
  }

  private indentAt(lineStart: number): number {
    let q = lineStart;
    while (this.code(q) === SP) q++;
    return q - lineStart;
  }

  /** After an inline value ending at `p`: spaces, an optional comment, then the newline or the end. */
  private lineEnd(p: number): number {
    let q = p;
    while (this.code(q) === SP) q++;
    const c = this.code(q);
    if (c === -1) return this.len;
    if (c === NL) return q + 1;
    if (c === HASH && q > p) {
      const nl = this.text.indexOf('\n', q);
      return nl < 0 ? this.len : nl + 1;
    }
    return bail();
  }

  private isSeqDash(p: number): boolean {
    return this.code(p) === 45 && this.code(p + 1) === SP;
  }

  /** Whether a block-map key `ident:` followed by a space, a newline or the end starts at `p`. */
  private isKeyAt(p: number): boolean {
    if (!isKeyStart(this.code(p))) return false;
    let q = p + 1;
    while (isKeyChar(this.code(q))) q++;
    if (this.code(q) !== COLON) return false;
    const n = this.code(q + 1);
    return n === SP || n === NL || n === -1;
  }

  document(): LightDoc {
    const start = this.nextContentLine(0);
    if (start >= this.len || this.indentAt(start) !== 0 || !this.isKeyAt(start)) return bail();
    const { node, value, next } = this.blockMap(start, 0);
    if (next < this.len) return bail();
    return { root: node, value };
  }

  /** A block map whose keys sit at column `col`; the first key at `keyPos`. `next` is the next content line. */
  private blockMap(keyPos: number, col: number): Closed<LightMap> & { value: Record<string, unknown> } {
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    const node: LightMap = { kind: 'map', range: [keyPos, keyPos, keyPos], flow: false, keys, values };
    let p = keyPos;
    for (;;) {
      if (!this.isKeyAt(p)) return bail();
      let q = p + 1;
      while (isKeyChar(this.code(q))) q++;
      const key = this.text.slice(p, q);
      if (!plainKey(key, value)) return bail();
      keys.push({ kind: 'scalar', range: [p, q, q], value: key });
      q++; // ':'
      while (this.code(q) === SP) q++;
      const c = this.code(q);
      let next: number;
      let end: number;
      let trail: number;
      if (c === NL || c === -1 || (c === HASH && this.code(q - 1) === SP)) {
        // Nested block collection on the following lines.
        const line = this.nextContentLine(c === -1 ? this.len : this.text.indexOf('\n', q) + 1 || this.len);
        if (line >= this.len) return bail();
        const ind = this.indentAt(line);
        const at = line + ind;
        let child: Closed<LightNode> & { value: unknown };
        if (this.isSeqDash(at) && ind >= col) child = this.blockSeq(at, ind);
        else if (ind > col && this.isKeyAt(at)) child = this.blockMap(at, ind);
        else return bail();
        values.push(child.node);
        value[key] = child.value;
        end = child.node.range[2];
        next = child.next;
        trail = child.trail;
      } else {
        const v = this.inlineValue(q);
        const g = this.gap(this.lineEnd(v.end), col);
        v.node.range[2] = g.valueEnd;
        values.push(v.node);
        value[key] = v.value;
        end = g.valueEnd;
        next = g.next;
        trail = g.trail;
      }
      const ind = next < this.len ? this.indentAt(next) : -1;
      if (ind < col) return { node, value, next, trail: this.close(node.range, end, col, next, trail) };
      if (ind > col) return bail();
      p = next + ind;
      // A dash at a map's own column is not a plan shape (yaml reads it as an error or a different tree).
      if (this.isSeqDash(p)) return bail();
    }
  }

  /** A block sequence whose dashes sit at column `col`; the first dash at `dashPos`. */
  private blockSeq(dashPos: number, col: number): Closed<LightSeq> & { value: unknown[] } {
    const items: LightNode[] = [];
    const value: unknown[] = [];
    const node: LightSeq = { kind: 'seq', range: [dashPos, dashPos, dashPos], flow: false, items };
    let p = dashPos;
    for (;;) {
      if (!this.isSeqDash(p)) return bail();
      let q = p + 2;
      while (this.code(q) === SP) q++;
      let next: number;
      let end: number;
      let trail: number;
      if (this.isKeyAt(q)) {
        const lineStart = p - col;
        const map = this.blockMap(q, q - lineStart);
        items.push(map.node);
        value.push(map.value);
        end = map.node.range[2];
        next = map.next;
        trail = map.trail;
      } else {
        const v = this.inlineValue(q);
        const g = this.gap(this.lineEnd(v.end), col);
        v.node.range[2] = g.valueEnd;
        items.push(v.node);
        value.push(v.value);
        end = g.valueEnd;
        next = g.next;
        trail = g.trail;
      }
      const ind = next < this.len ? this.indentAt(next) : -1;
      if (ind > col) return bail();
      if (ind === col && this.isSeqDash(next + ind)) {
        p = next + ind;
        continue;
      }
      return { node, value, next, trail: this.close(node.range, end, col, next, trail) };
    }
  }

  /** A scalar or one-line flow collection starting at `p`; `end` is just after it. */
  private inlineValue(p: number): { node: LightNode; value: unknown; end: number } {
    const c = this.code(p);
    if (c === 123) return this.flowMap(p);
    if (c === 91) return this.flowSeq(p);
    const s = this.scalar(p, false);
    const n = this.code(s.end);
    if (n !== SP && n !== NL && n !== -1) return bail();
    return s;
  }

  /** A quoted or plain scalar at `p` (flow: stops at flow indicators; block: ':' allowed mid-word). */
  private scalar(p: number, flow: boolean): { node: LightScalar; value: unknown; end: number } {
    const c = this.code(p);
    if (c === 34 || c === 39) {
      const close = this.text.indexOf(String.fromCharCode(c), p + 1);
      const nl = this.text.indexOf('\n', p + 1);
      if (close < 0 || (nl >= 0 && nl < close)) return bail();
      if (c === 39 && this.code(close + 1) === 39) return bail(); // '' escape
      const v = this.text.slice(p + 1, close);
      if (c === 34 && v.includes('\\')) return bail(); // escapes
      return {
        node: { kind: 'scalar', range: [p, close + 1, close + 1], value: v },
        value: v,
        end: close + 1,
      };
    }
    let q = p;
    for (;;) {
      const d = this.code(q);
      if (isPlainChar(d)) q++;
      else if (!flow && d === COLON) {
        const n = this.code(q + 1);
        if (n === SP || n === NL || n === -1) return bail(); // `a: b` inside a value
        q++;
      } else break;
    }
    if (q === p) return bail();
    const raw = this.text.slice(p, q);
    if (raw.charCodeAt(0) === 45 && !INT.test(raw) && !FLOAT.test(raw)) return bail(); // '-x'
    const v = resolvePlain(raw);
    return { node: { kind: 'scalar', range: [p, q, q], value: v }, value: v, end: q };
  }

  private skipSpaces(p: number): number {
    let q = p;
    while (this.code(q) === SP) q++;
    return q;
  }

  private flowMap(open: number): { node: LightMap; value: Record<string, unknown>; end: number } {
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    let p = this.skipSpaces(open + 1);
    for (;;) {
      if (!isKeyStart(this.code(p))) return bail();
      let q = p + 1;
      while (isKeyChar(this.code(q))) q++;
      if (this.code(q) !== COLON || this.code(q + 1) !== SP) return bail();
      const key = this.text.slice(p, q);
      if (!plainKey(key, value)) return bail();
      keys.push({ kind: 'scalar', range: [p, q, q], value: key });
      const s = this.scalar(this.skipSpaces(q + 1), true);
      const after = this.skipSpaces(s.end);
      s.node.range[2] = after;
      values.push(s.node);
      value[key] = s.value;
      const c = this.code(after);
      if (c === 125) {
        const end = after + 1;
        return { node: { kind: 'map', range: [open, end, end], flow: true, keys, values }, value, end };
      }
      if (c !== 44) return bail();
      p = this.skipSpaces(after + 1);
    }
  }

  private flowSeq(open: number): { node: LightSeq; value: unknown[]; end: number } {
    const items: LightNode[] = [];
    const value: unknown[] = [];
    let p = this.skipSpaces(open + 1);
    for (;;) {
      const s = this.scalar(p, true);
      const after = this.skipSpaces(s.end);
      s.node.range[2] = after;
      items.push(s.node);
      value.push(s.value);
      const c = this.code(after);
      if (c === 93) {
        const end = after + 1;
        return { node: { kind: 'seq', range: [open, end, end], flow: true, items }, value, end };
      }
      if (c !== 44) return bail();
      p = this.skipSpaces(after + 1);
    }
  }
}

/** Keys this reader takes: not a core-schema special word, not `__proto__`, not a duplicate. */
function plainKey(key: string, seen: Record<string, unknown>): boolean {
  return key !== '__proto__' && !CORE_SPECIAL.test(key) && !Object.prototype.hasOwnProperty.call(seen, key);
}
