/**
 * A fast reader for the common shape of plan files, linear in the text: block maps and sequences; flow maps
 * and sequences, nested (up to 16 levels), empty, with a trailing comma, on one line or over several (each
 * line deeper than the block collection holding them, blank and comment lines and comments between); plain scalars (of several
 * words, over several lines too) and quoted scalars (double-quoted with yaml's escapes and escaped line
 * breaks, single-quoted with `''`; they may go on over several lines), in block values and inside flow
 * collections, folded as yaml folds them; the core
 * schema's words as values (`true`, `False`, `null`, `.inf`, `-.Inf`, `.nan`...); the core schema's tags on
 * scalars (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, where the text is of the tag's type) and
 * `!!map` / `!!seq` on collections (flow, and block on the lines after the tag); explicit keys (`? key`,
 * then `: value` at the key's column on a later line); quoted keys (`"a": 1`, `{"a":1}`) and `<<` as a block
 * key (YAML 1.2: no merge);
 * block scalars (`|` and `>`, with `-` or `+` chomping); anchors and aliases on values (block and flow);
 * comments after a value and comment-only or blank lines anywhere at any indentation; tabs as separation
 * inside a line (after `:`, `-`, `?`, `,`, before a comment; in quoted scalars and comments); Windows line ends.
 * It yields the same JS value and the same node ranges as `yaml`'s parseDocument + toJS (core schema,
 * intAsBigInt, alias limit), at a fraction of the cost (yaml's own tree for a 3 MB plan is over 300 MB).
 * Anything outside that subset returns undefined, and the caller falls back to parseDocument on the whole
 * text, so messages and behaviour stay identical. Left to yaml: tags other than those above (local `!foo`,
 * `!!binary`, `!!set`,
 * `!!omap`, `!!timestamp`...), a tag yaml would not resolve to its type (`!!float 1`, `!!bool yes`: yaml
 * keeps the string), a tag on an empty value, on a key, on an alias or before an anchor, `!!map` / `!!seq`
 * on the other kind of collection or before a block map that starts on the tag's line, a plain scalar
 * of several words or lines that resolves to other than a string starting with a letter, `_`, `$`, `.` or
 * `/` (or, inside a flow collection, holds `: `), invalid escapes, an escaped line break followed by a blank
 * line, tabs at the ends of a quoted scalar's lines, comments between the lines
 * of a multi-line plain scalar (an error in yaml), block scalars with an indentation indicator / leading
 * empty lines / lines of spaces / deeper lines when folded, anchors on keys or over a block sequence item's
 * map, an anchored node that holds an alias, an alias used up to yaml's limit, explicit keys that are not
 * one-line keys as above (a collection or a multi-line scalar as the key, a key without `:` value, a `:` at
 * another column), keys that are neither an identifier nor quoted, plain keys yaml resolves to a non-string
 * (`true`, `null`...), empty values, duplicate keys, implicit keys longer than yaml's 1024 characters, `<<`
 * in a flow map, tabs as indentation (an error in yaml), on blank or comment lines, in block scalars or
 * before a sequence item's map or anchor, a CR not followed by LF, a BOM, directives and document markers,
 * odd indentation, and anything yaml reports as an error.
 * test/unit/plan/lightYaml.test.ts checks the equivalence differentially (values and every range).
 */

/** The reader's tree: [start, value end, node end] as in `yaml` node ranges. */
export type LightRange = [number, number, number];

export interface LightScalar {
  kind: 'scalar';
  range: LightRange;
  value: unknown;
}

/**
 * A node of the reader's tree whose range is kept as three numbers, not an array (a plan at the size limit
 * holds some 120,000 scalars, keys included, and 20,000 mappings; an array apiece was a third of the tree the
 * collector copied). `range` gives a new array on each read, so a node's ends are changed through
 * setNodeEnd / setEnds, never by writing into that array.
 */
abstract class Ranged {
  constructor(
    public start: number,
    public end: number,
    public nodeEnd: number,
  ) {}
  get range(): LightRange {
    return [this.start, this.end, this.nodeEnd];
  }
  set range(r: LightRange) {
    this.start = r[0];
    this.end = r[1];
    this.nodeEnd = r[2];
  }
}

class ScalarNode extends Ranged implements LightScalar {
  readonly kind = 'scalar' as const;
  constructor(
    start: number,
    end: number,
    nodeEnd: number,
    public value: unknown,
  ) {
    super(start, end, nodeEnd);
  }
}

class MapNode extends Ranged implements LightMap {
  readonly kind = 'map' as const;
  constructor(
    start: number,
    end: number,
    public flow: boolean,
    public keys: LightScalar[],
    public values: LightNode[],
  ) {
    super(start, end, end);
  }
}

/** A scalar node over text[start, end) (its node ends there too until setNodeEnd moves it). */
export const scalarNode = (start: number, end: number, value: unknown): LightScalar =>
  new ScalarNode(start, end, end, value);

/** Sets where `node` ends (yaml's range[2]). */
export function setNodeEnd(node: LightNode, end: number): void {
  if (node instanceof Ranged) node.nodeEnd = end;
  else node.range[2] = end;
}

/** Sets where `node`'s value ends and where the node ends (yaml's range[1] and range[2]). */
function setEnds(node: LightNode, end: number, nodeEnd: number): void {
  if (node instanceof Ranged) {
    node.end = end;
    node.nodeEnd = nodeEnd;
  } else {
    node.range[1] = end;
    node.range[2] = nodeEnd;
  }
}
/** The core-schema tags the reader takes on a scalar (`tagged`). */
type ScalarTag = 'str' | 'int' | 'float' | 'bool' | 'null';

/**
 * The readers fill every slot; in yaml's Document seen as this tree (parse.ts lightFromDoc) a key without a
 * value, or a pair in a sequence, is a slot without a node.
 */
export interface LightMap {
  kind: 'map';
  range: LightRange;
  flow: boolean;
  keys: LightScalar[];
  values: (LightNode | undefined)[];
}
export interface LightSeq {
  kind: 'seq';
  range: LightRange;
  flow: boolean;
  items: (LightNode | undefined)[];
}
/**
 * `*name`: the anchored node it stands for (never itself an alias; undefined in yaml's Document when no
 * anchor of that name comes before it); yaml's toJS gives the same JS value.
 */
interface LightAlias {
  kind: 'alias';
  range: LightRange;
  target: LightScalar | LightMap | LightSeq | undefined;
}
export type LightNode = LightScalar | LightMap | LightSeq | LightAlias;

/** A block map entry or sequence item read, and what follows it (`next`: its next content line). */
interface Entry {
  key: LightScalar;
  node: LightNode;
  value: unknown;
  next: number;
  trail: number;
}

const SCALAR_TAGS: readonly ScalarTag[] = ['str', 'int', 'float', 'bool', 'null'];

export interface LightDoc {
  root: LightMap;
  value: Record<string, unknown>;
  /**
   * Some scalar's value is a JS number, or an integer not written as plain digits (PLAIN_INTEGER in
   * parse.ts): parse.ts numbersAsWritten must replace it by its text. Absent: that walk would change nothing.
   */
  writtenNumbers?: true;
}

/** Whether text[start, end) is an integer in plain decimal digits (`-?(0|[1-9][0-9]*)`), nothing around it. */
export function plainIntegerAt(text: string, start: number, end: number): boolean {
  let i = text.charCodeAt(start) === 45 ? start + 1 : start;
  if (i >= end) return false;
  const first = text.charCodeAt(i);
  if (first === 48) return i + 1 === end;
  if (first < 49 || first > 57) return false;
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Characters this reader leaves to the full parser anywhere in the text (comments too). Other indicators
 * (`&`, `*`, `!`, `|`, `>`, `%`, `@`, `` ` ``, `?`, `---`...) are refused where they would mean something:
 * the reader only accepts the scalar characters it models, so they may appear in comments and quoted strings.
 */
const UNSUPPORTED = /[\r\u{FEFF}]/u;
const CORE_SPECIAL =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
/**
 * Whether a plain scalar starting with `c` may be one of CORE_SPECIAL's words (`~ n N t T f F + - .`): a cheap
 * test before the regex on every key. Keep the two in step.
 */
function mayBeCoreWord(c: number): boolean {
  return (
    c === 126 ||
    c === 110 ||
    c === 78 ||
    c === 116 ||
    c === 84 ||
    c === 102 ||
    c === 70 ||
    c === 43 ||
    c === 45 ||
    c === 46
  );
}
const TRUE = /^(?:[Tt]rue|TRUE)$/;
const FALSE = /^(?:[Ff]alse|FALSE)$/;
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const NEG_INF = /^-\.(?:inf|Inf|INF)$/;
const INT = /^-?(?:0|[1-9][0-9]*)$/;
const FLOAT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
const STRING_START = /^[A-Za-z_$./]/;
const DOT_NUMBER = /^\.[0-9]/;

/** Characters (a sign included) of an integer whose digits a double surely holds exactly. */
const SHORT_INTEGER = 15;

/** 0n..1023n made once: plans repeat small integers (bin ids, offsets, amounts of 0) in every bin. */
const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/** The bigint of an integer a double holds exactly (`n` read from its digits); small ones shared. */
export function exactBigInt(n: number): bigint {
  return n >= 0 && n < 1024 ? SMALL_BIGINTS[n]! : BigInt(n);
}

/** A closed flow map `{ ... }` from `open` to `end`. */
export const flowMapNode = (open: number, end: number, keys: LightScalar[], values: LightNode[]): LightMap =>
  new MapNode(open, end, true, keys, values);

/** The reader leaves the text to the full parser (thrown by `bail`; lightJson.ts reads by the same rule). */
export class Bail extends Error {}
export const bail = (): never => {
  throw new Bail();
};

const SP = 32;
const NL = 10;
const HASH = 35;
const COLON = 58;
const AMP = 38;
const PIPE = 124;
const GT = 62;
const STAR = 42;
const TAB = 9;
const BANG = 33;
const LT = 60;
const QUESTION = 63;
const BACKSLASH = 92;
const DQUOTE = 34;
const SQUOTE = 39;
/** Flow collections nested deeper are left to yaml (the full path measures nesting and refuses beyond its limit). */
const MAX_FLOW_DEPTH = 16;
/** yaml's longest implicit key: the `:` at most 1024 characters after the key's start. */
const MAX_IMPLICIT_KEY = 1024;

/** The one-character escapes of a double-quoted scalar, as yaml resolves them (others are left to yaml). */
const ESCAPES = new Map<string, string>([
  ['0', '\0'],
  ['a', '\x07'],
  ['b', '\b'],
  ['e', '\x1b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['v', '\v'],
  ['N', '\u0085'],
  ['_', '\u00a0'],
  ['L', '\u2028'],
  ['P', '\u2029'],
  [' ', ' '],
  ['"', '"'],
  ['/', '/'],
  ['\\', '\\'],
  ['\t', '\t'],
]);
const HEX = /^[0-9a-fA-F]+$/;

/** A space or a tab: separation inside a line (indentation is spaces only). */
const isWhite = (c: number): boolean => c === SP || c === TAB;

/**
 * Reads `text` when it is in the supported subset; undefined otherwise (use parseDocument). Windows line
 * ends (every CR followed by LF) are read as LF and the ranges mapped back: yaml treats CRLF as one line
 * break, so a node's offsets in the CRLF text are its offsets in the LF text plus the line breaks before
 * them (tested against yaml on CRLF texts). A lone CR is left to yaml.
 */
export function parseLightYaml(
  text: string,
  maxAliasCount = 100,
  miss?: LightMiss,
  maxMapEntries = Infinity,
): LightDoc | undefined {
  // A byte order mark opens the text (saved on Windows): yaml skips it, its offsets count it.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const original = bom ? text.slice(1) : text;
  let lf = original;
  let crlf = false;
  if (lf.includes('\r')) {
    lf = lf.replace(/\r\n/g, '\n');
    if (lf.includes('\r')) return undefined;
    crlf = true;
  }
  if (UNSUPPORTED.test(lf)) return undefined;
  const reader = new Reader(lf, maxAliasCount, maxMapEntries);
  try {
    const doc = reader.document();
    if (crlf || bom) remapOffsets(doc.root, toOriginal(original, bom, crlf));
    return doc;
  } catch (e) {
    if (!(e instanceof Bail)) throw e;
    if (miss) {
      const at = toOriginal(original, bom, crlf);
      miss.at = at(reader.mark);
      if (reader.refusedKey) miss.key = { ...reader.refusedKey, at: at(reader.refusedKey.at) };
      if (reader.entryLimit >= 0) miss.limit = at(reader.entryLimit);
    }
    return undefined;
  }
}

/** Where the fast reader stopped (parseLightYaml's `miss`): offsets in the text it was given. */
export interface LightMiss {
  /** The start of the map entry or list item it had begun last (at or before what it could not read). */
  at?: number;
  /** The last key it refused for what it is, not how it is written: a repeat of an earlier key, `__proto__`. */
  key?: { at: number; name: string; repeated: boolean };
  /** Where a flow mapping reached the entry limit: the comma (the full parser's finding goes there). */
  limit?: number;
}

/**
 * Offset o in the text the reader read (`original` without the byte order mark, CRLF read as LF) -> its
 * offset in the original text: one more for the mark, one CR more for each CRLF line break strictly before o
 * (a text may mix CRLF and LF line ends: an LF alone adds nothing).
 */
function toOriginal(original: string, bom: number, crlf: boolean): (o: number) => number {
  if (!crlf) return (o) => o + bom;
  // Where each CRLF's LF is in the LF text: its CR's offset, less the CRs removed before it.
  const breaks: number[] = [];
  for (let i = original.indexOf('\r\n'); i >= 0; i = original.indexOf('\r\n', i + 2))
    breaks.push(i - breaks.length);
  return (o) => {
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (breaks[mid]! < o) lo = mid + 1;
      else hi = mid;
    }
    return o + lo + bom;
  };
}

/** Moves every range of the tree through `at` (an anchored node, reached again through its aliases, once). */
function remapOffsets(root: LightNode, at: (o: number) => number): void {
  const done = new Set<LightNode>();
  const stack: LightNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (done.has(n)) continue;
    done.add(n);
    n.range = [at(n.range[0]), at(n.range[1]), at(n.range[2])];
    // One push per child: a spread of a 100,000-item list would overflow the call stack.
    if (n.kind === 'map') {
      for (const k of n.keys) stack.push(k);
      for (const v of n.values) if (v) stack.push(v);
    } else if (n.kind === 'seq') {
      for (const it of n.items) if (it) stack.push(it);
    } else if (n.kind === 'alias' && n.target) stack.push(n.target);
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

/** The value of `text` under a core-schema tag, where yaml resolves it to that type (else left to yaml). */
function tagValue(tag: ScalarTag, text: string): unknown {
  switch (tag) {
    case 'str':
      return text;
    case 'int':
      return INT.test(text) ? BigInt(text) : bail();
    case 'float':
      return FLOAT.test(text) && !INT.test(text) ? parseFloat(text) : bail();
    case 'bool':
      return TRUE.test(text) ? true : FALSE.test(text) ? false : bail();
    case 'null':
      return NULL.test(text) ? null : bail();
  }
}

function resolvePlain(s: string): unknown {
  if (INT.test(s)) return BigInt(s);
  if (FLOAT.test(s)) return parseFloat(s);
  if (CORE_SPECIAL.test(s)) {
    // The core schema's words: booleans, null, infinities and not-a-number (`~` is never read as plain).
    if (TRUE.test(s)) return true;
    if (FALSE.test(s)) return false;
    if (NULL.test(s)) return null;
    if (/nan$/i.test(s)) return NaN;
    return s.startsWith('-') ? -Infinity : Infinity;
  }
  if (!STRING_START.test(s) || DOT_NUMBER.test(s)) return bail();
  // Starts like a number but is not one of the forms above (e.g. "0x1", "1_000"): leave it to yaml.
  return s;
}

/** A block-map key: its text's value, whether quoted, where it starts and ends, and its `:`. */
interface KeyAt {
  key: string;
  quoted: boolean;
  start: number;
  end: number;
  colon: number;
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

/** An anchored node read so far, with the JS value its aliases share and how often it was used. */
interface Anchor {
  node: LightScalar | LightMap | LightSeq;
  value: unknown;
  uses: number;
}

class Reader {
  private readonly len: number;
  /** Anchor name -> its latest node; null while that node is still being read (an alias to it is a cycle). */
  private readonly anchors = new Map<string, Anchor | null>();
  /** Aliases read so far (an anchored node that holds one is left to yaml: its alias counts multiply). */
  private aliases = 0;
  /** Column of the block collection holding the flow collection being read (its lines must go deeper). */
  private flowCol = 0;
  /** Flow collections open around the point being read. */
  private flowDepth = 0;
  /** Where the map entry or list item begun last starts. */
  mark = 0;
  refusedKey: { at: number; name: string; repeated: boolean } | undefined;
  /** The comma at which a flow mapping reached `maxMapEntries` entries (-1: none). */
  entryLimit = -1;
  /** LightDoc.writtenNumbers: a number value, or an integer whose text is not plain digits, was read. */
  writtenNumbers = false;
  /** Plain keys read, by length and first character (plainKey): one string per distinct key, not per use. */
  private readonly plainKeys = new Map<number, string>();
  constructor(
    private readonly text: string,
    private readonly maxAliasCount: number,
    private readonly maxMapEntries = Infinity,
  ) {
    this.len = text.length;
  }

  /** `&name` at `p`, then a space, the line end or the text end: the name, and where the value starts. */
  private anchorAt(p: number): { name: string; q: number } {
    let q = p + 1;
    while (isKeyChar(this.code(q))) q++;
    const n = this.code(q);
    if (q === p + 1 || (!isWhite(n) && n !== NL && n !== -1)) return bail();
    const name = this.text.slice(p + 1, q);
    while (isWhite(this.code(q))) q++;
    if (this.code(q) === STAR || this.code(q) === AMP) return bail(); // props on an alias, two anchors
    this.anchors.set(name, null);
    return { name, q };
  }

  /** Records the node read for `&name` (read after `aliasesBefore` aliases). */
  private define(name: string, node: LightNode, value: unknown, aliasesBefore: number): void {
    if (node.kind === 'alias' || this.aliases !== aliasesBefore) return bail();
    this.anchors.set(name, { node, value, uses: 0 });
  }

  /**
   * `*name` at `p`, ended by a space, the line end or the text end (in flow, also `,` `]` `}`): the latest
   * anchor of that name read before it. yaml's toJS refuses an anchor used maxAliasCount times or more
   * (times its node's alias depth, 1 here: anchored nodes that hold aliases are left to yaml); that
   * refusal, an unknown anchor and a cycle are left to yaml, which reports them.
   */
  private alias(p: number, flow: boolean): { node: LightAlias; value: unknown; end: number } {
    let q = p + 1;
    while (isKeyChar(this.code(q))) q++;
    const n = this.code(q);
    const ends = isWhite(n) || n === NL || n === -1 || (flow && (n === 44 || n === 93 || n === 125));
    if (q === p + 1 || !ends) return bail();
    const anchor = this.anchors.get(this.text.slice(p + 1, q));
    // yaml counts the anchored node itself as one use: its toJS throws once 1 + aliases > maxAliasCount.
    if (!anchor || 1 + ++anchor.uses > this.maxAliasCount) return bail();
    this.aliases++;
    return { node: { kind: 'alias', range: [p, q, q], target: anchor.node }, value: anchor.value, end: q };
  }

  private code(i: number): number {
    return i < this.len ? this.text.charCodeAt(i) : -1;
  }

  /**
   * The plain key text[p, end): the string read before for the same text when there is one (a plan repeats
   * `bin_id` in every bin), else a new one, kept for next time.
   */
  private plainKey(p: number, end: number): string {
    const slot = (end - p) * 0x10000 + this.text.charCodeAt(p);
    const known = this.plainKeys.get(slot);
    if (known !== undefined && this.text.startsWith(known, p)) return known;
    const key = this.text.slice(p, end);
    this.plainKeys.set(slot, key);
    return key;
  }

  /** Start of the next line that has content (not blank, not comment-only), or the text length. */
  private nextContentLine(lineStart: number): number {
    return this.gap(lineStart, 0, false).next;
  }

  /**
   * The blank and comment-only lines after an inline value whose line ends at `lineEnd`, in a collection
   * whose items sit at column `col`. yaml's parser takes a comment line indented deeper than `col` (and the
   * blank lines before it) into the value's end, as long as no comment line at or left of `col` came first;
   * the lines after that stay pending (`trail`: their deepest comment indent, -1 without comments).
   */
  private gap(
    lineEnd: number,
    col: number,
    absorb: boolean,
  ): { valueEnd: number; next: number; trail: number } {
    let valueEnd = lineEnd;
    let absorbing = absorb;
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
  private close(node: LightNode, end: number, col: number, next: number, trail: number): number {
    if (trail >= col && col !== 0) {
      setEnds(node, end, next < this.len ? next + this.indentAt(next) : this.len);
      return -1;
    }
    setEnds(node, end, end);
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
    while (isWhite(this.code(q))) q++;
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

  /**
   * A key's text at `p`: a plain `ident`, `<<`, or a one-line quoted scalar. Its text ends at `end`.
   * Undefined when no such key starts at `p`.
   */
  private keyText(p: number): { key: string; quoted: boolean; end: number } | undefined {
    const c = this.code(p);
    if (c === DQUOTE || c === SQUOTE) {
      const { value, end } = this.quoted(p);
      return { key: value, quoted: true, end };
    }
    const end = this.plainKeyEnd(p);
    return end < 0 ? undefined : { key: this.plainKey(p, end), quoted: false, end };
  }

  /**
   * A block-map key at `p`: a key's text (keyText), then optional spaces, then `:` followed by a space, a
   * tab, a newline or the end. Its value (after `:`) at `colon + 1`. Undefined when no key starts at `p`.
   */
  private keyAt(p: number): KeyAt | undefined {
    const c = this.code(p);
    if (c === DQUOTE || c === SQUOTE) {
      const { value, end } = this.quoted(p);
      const colon = this.colonAfter(p, end);
      return colon < 0 ? undefined : { key: value, quoted: true, start: p, end, colon };
    }
    const end = this.plainKeyEnd(p);
    const colon = end < 0 ? -1 : this.colonAfter(p, end);
    return colon < 0 ? undefined : { key: this.plainKey(p, end), quoted: false, start: p, end, colon };
  }

  /** The end of a plain key (keyText's) at `p`, or -1. */
  private plainKeyEnd(p: number): number {
    const c = this.code(p);
    // `<<` is an ordinary key: plans are YAML 1.2 (yaml's merge option is off), which has no merge keys.
    if (c === LT && this.code(p + 1) === LT) return p + 2;
    if (!isKeyStart(c)) return -1;
    let end = p + 1;
    while (isKeyChar(this.code(end))) end++;
    return end;
  }

  /** The `:` ending a block-map key that starts at `p` and ends at `end` (spaces between), or -1. */
  private colonAfter(p: number, end: number): number {
    let colon = end;
    while (this.code(colon) === SP) colon++;
    if (this.code(colon) !== COLON) return -1;
    const n = this.code(colon + 1);
    if (!isWhite(n) && n !== NL && n !== -1) return -1;
    // yaml refuses an implicit key whose `:` is more than 1024 characters after its start.
    if (colon - p > MAX_IMPLICIT_KEY) return bail();
    return colon;
  }

  /**
   * An explicit key at `p` in a block map at column `col`: `?`, spaces, a key's text (keyText), the end of
   * its line (a comment may follow), then, on the next line that has content, `:` at column `col` followed
   * by a space, a tab, a newline or the end; its value (after `:`) at `colon + 1`, as for an implicit key.
   * Any other explicit key (a collection or a scalar over several lines as the key, no value, a `:` at
   * another column or after a tab) is left to yaml.
   */
  private explicitKeyAt(p: number, col: number): KeyAt {
    let q = p + 1;
    while (isWhite(this.code(q))) q++;
    const k = this.keyText(q) ?? bail();
    const line = this.nextContentLine(this.lineEnd(k.end));
    if (line >= this.len || this.indentAt(line) !== col) return bail();
    const colon = line + col;
    const n = this.code(colon + 1);
    if (this.code(colon) !== COLON || (!isWhite(n) && n !== NL && n !== -1)) return bail();
    // The same shape as keyAt's (mapEntry reads either): a literal, not a spread.
    return { key: k.key, quoted: k.quoted, start: q, end: k.end, colon };
  }

  /** A block-map entry starts at `p`: an implicit key (keyAt) or `? ` (an explicit key: explicitKeyAt). */
  private isKeyAt(p: number): boolean {
    if (this.isExplicitKey(p)) return true;
    const c = this.code(p);
    if (c === DQUOTE || c === SQUOTE) return this.keyAt(p) !== undefined;
    const end = this.plainKeyEnd(p);
    return end >= 0 && this.colonAfter(p, end) >= 0;
  }

  private isExplicitKey(p: number): boolean {
    return this.code(p) === QUESTION && isWhite(this.code(p + 1));
  }

  document(): LightDoc {
    const start = this.nextContentLine(0);
    if (start < this.len && this.code(start + this.indentAt(start)) === 123) return this.flowDocument(start);
    if (start >= this.len || this.indentAt(start) !== 0 || !this.isKeyAt(start)) return bail();
    const { node, value, next } = this.blockMap(start, 0);
    if (next < this.len) return bail();
    return this.doc(node, value);
  }

  private doc(root: LightMap, value: Record<string, unknown>): LightDoc {
    return this.writtenNumbers ? { root, value, writtenNumbers: true } : { root, value };
  }

  /**
   * A plan written as one flow mapping (`{version: 1, operations: [...]}`, as some generators write YAML),
   * its first line at `lineStart`. Inside it a line may start at any column (yaml asks no indentation of a
   * collection at the document's level); after it, a comment on its line, then only blank and comment lines.
   * Its node ends after that line's break, as yaml's does.
   */
  private flowDocument(lineStart: number): LightDoc {
    this.flowCol = -1;
    this.mark = lineStart;
    const { node, value, end } = this.flowCollection(lineStart + this.indentAt(lineStart));
    let q = end;
    while (isWhite(this.code(q))) q++;
    if (this.code(q) === HASH) {
      if (q === end) return bail(); // a comment needs a space before it
      const nl = this.text.indexOf('\n', q);
      q = nl < 0 ? this.len : nl;
    }
    if (this.code(q) === NL) q++;
    else if (q < this.len) return bail();
    if (this.nextContentLine(q) < this.len) return bail();
    setNodeEnd(node, q);
    return this.doc(node as LightMap, value as Record<string, unknown>);
  }

  /** A block map whose keys sit at column `col`; the first key at `keyPos`. `next` is the next content line. */
  private blockMap(keyPos: number, col: number): Closed<LightMap> & { value: Record<string, unknown> } {
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    const node: LightMap = new MapNode(keyPos, keyPos, false, keys, values);
    let p = keyPos;
    for (;;) {
      this.mark = p;
      const e = this.mapEntry(p, col, value);
      keys.push(e.key);
      values.push(e.node);
      value[e.key.value as string] = e.value;
      const end = e.node.range[2];
      const { next, trail } = e;
      const ind = next < this.len ? this.indentAt(next) : -1;
      if (ind < col) {
        const closed = this.close(node, end, col, next, trail);
        return { node, value, next, trail: closed };
      }
      if (ind > col) return bail();
      p = next + ind;
      // A dash at a map's own column is not a plan shape (yaml reads it as an error or a different tree).
      if (this.isSeqDash(p)) return bail();
    }
  }

  /**
   * Whether this reader takes `key` (written at `at`) into a map holding `seen`: not a core-schema special
   * word unquoted, not `__proto__`, not a repeat (those two are noted for the miss: parse.ts names them).
   */
  private takesKey(key: string, quoted: boolean, at: number, seen: Record<string, unknown>): boolean {
    if (!quoted && mayBeCoreWord(key.charCodeAt(0)) && CORE_SPECIAL.test(key)) return false;
    const repeated = Object.prototype.hasOwnProperty.call(seen, key);
    if (!repeated && key !== '__proto__') return true;
    this.refusedKey = { at, name: key, repeated };
    return false;
  }

  /** The entry of a block map (keys at column `col`) whose key is at `p`; `seen`: the map's keys so far. */
  private mapEntry(p: number, col: number, seen: Record<string, unknown>): Entry {
    const k = this.isExplicitKey(p) ? this.explicitKeyAt(p, col) : (this.keyAt(p) ?? bail());
    const key = k.key;
    if (!this.takesKey(key, k.quoted, k.start, seen)) return bail();
    const keyNode = scalarNode(k.start, k.end, key);
    let q = k.colon + 1;
    while (isWhite(this.code(q))) q++;
    let c = this.code(q);
    let anchor: string | undefined;
    const aliasesBefore = this.aliases;
    if (c === AMP) {
      ({ name: anchor, q } = this.anchorAt(q));
      c = this.code(q);
    }
    // `!!map` / `!!seq` before the collection they name (its node starts at the collection, as yaml's).
    let kind: 'map' | 'seq' | undefined;
    if (c === BANG) {
      const t = this.collectionTag(q);
      if (t) {
        ({ kind, q } = t);
        c = this.code(q);
      }
    }
    if (this.endsLine(q)) {
      // Nested block collection on the following lines (a sequence's dashes may sit at the key's column).
      const child = this.blockBelow(q, col, col, kind);
      if (anchor !== undefined) this.define(anchor, child.node, child.value, aliasesBefore);
      return { key: keyNode, node: child.node, value: child.value, next: child.next, trail: child.trail };
    } else {
      if (kind !== undefined && c !== (kind === 'map' ? 123 : 91)) return bail();
      const v = this.lineValue(q, col);
      if (anchor !== undefined) this.define(anchor, v.node, v.value, aliasesBefore);
      return { key: keyNode, node: v.node, value: v.value, next: v.next, trail: v.trail };
    }
  }

  /** Whether the line ends at `q`: at a line break, the text's end, or a comment after a space. */
  private endsLine(q: number): boolean {
    const c = this.code(q);
    return c === NL || c === -1 || (c === HASH && isWhite(this.code(q - 1)));
  }

  /**
   * The block collection on the lines after the one ending at `q` (endsLine), held by a collection at
   * column `col`: a map deeper than `col`, or a sequence whose dashes sit at `seqCol` or deeper; `kind`, when
   * a tag names one, the only one taken.
   */
  private blockBelow(
    q: number,
    col: number,
    seqCol: number,
    kind: 'map' | 'seq' | undefined,
  ): Closed<LightNode> & { value: unknown } {
    const line = this.nextContentLine(
      this.code(q) === -1 ? this.len : this.text.indexOf('\n', q) + 1 || this.len,
    );
    if (line >= this.len) return bail();
    const ind = this.indentAt(line);
    const at = line + ind;
    if (this.isSeqDash(at) && ind >= seqCol && kind !== 'map') return this.blockSeq(at, ind);
    if (ind > col && this.isKeyAt(at) && kind !== 'seq') return this.blockMap(at, ind);
    return bail();
  }

  /** A block sequence whose dashes sit at column `col`; the first dash at `dashPos`. */
  private blockSeq(dashPos: number, col: number): Closed<LightSeq> & { value: unknown[] } {
    const items: LightNode[] = [];
    const value: unknown[] = [];
    const node: LightSeq = { kind: 'seq', range: [dashPos, dashPos, dashPos], flow: false, items };
    let p = dashPos;
    for (;;) {
      if (!this.isSeqDash(p)) return bail();
      this.mark = p;
      const it = this.seqItem(p, col);
      items.push(it.node);
      value.push(it.value);
      const end = it.node.range[2];
      const { next, trail } = it;
      const ind = next < this.len ? this.indentAt(next) : -1;
      if (ind > col) return bail();
      if (ind === col && this.isSeqDash(next + ind)) {
        p = next + ind;
        continue;
      }
      const closed = this.close(node, end, col, next, trail);
      return { node, value, next, trail: closed };
    }
  }

  /** The item of a block sequence whose dash (at column `col`) is at `p`, and what follows it. */
  private seqItem(p: number, col: number): { node: LightNode; value: unknown; next: number; trail: number } {
    let q = p + 2;
    // A tab before a map in the item (or before an anchor) is indentation to yaml (an error): left to it.
    let tabbed = false;
    for (let c = this.code(q); isWhite(c); c = this.code(++q)) if (c === TAB) tabbed = true;
    if (tabbed && this.code(q) === AMP) return bail(); // so are properties after a tab
    let anchor: string | undefined;
    const aliasesBefore = this.aliases;
    if (this.code(q) === AMP) {
      ({ name: anchor, q } = this.anchorAt(q));
      // `- &a` over a block map, or `- &a key: v` (the anchor is the key's): left to yaml.
      const c = this.code(q);
      if (c === NL || c === -1 || c === HASH || this.isKeyAt(q)) return bail();
    }
    let kind: 'map' | 'seq' | undefined;
    if (this.code(q) === BANG) {
      const t = this.collectionTag(q);
      if (t) {
        // A tab before it is indentation to yaml (an error), as before an anchor.
        if (tabbed) return bail();
        ({ kind, q } = t);
      }
    }
    const c = this.code(q);
    if (kind !== undefined && this.endsLine(q)) {
      // `- !!map` / `- !!seq` over a block collection on the following lines, deeper than the dash.
      if (anchor !== undefined) return bail();
      const child = this.blockBelow(q, col, col + 1, kind);
      return { node: child.node, value: child.value, next: child.next, trail: child.trail };
    } else if (anchor === undefined && kind === undefined && this.isKeyAt(q)) {
      if (tabbed) return bail();
      return this.blockMap(q, q - (p - col));
    } else {
      if (kind !== undefined && c !== (kind === 'map' ? 123 : 91)) return bail();
      const v = this.lineValue(q, col);
      if (anchor !== undefined) this.define(anchor, v.node, v.value, aliasesBefore);
      return v;
    }
  }

  /**
   * The value of a map entry or sequence item that starts on its line at `q` (a scalar, a one-line flow
   * collection or a block scalar) in a collection at column `col`, its node end set, and what follows it.
   */
  private lineValue(
    q: number,
    col: number,
  ): { node: LightNode; value: unknown; next: number; trail: number } {
    const c = this.code(q);
    if (c === PIPE || c === GT) {
      const b = this.blockScalar(q, col);
      // yaml's parser gives a block scalar no end to take comment lines into: they all stay pending.
      const g = this.gap(b.regionEnd, col, false);
      return { node: b.node, value: b.value, next: g.next, trail: g.trail };
    }
    const v = this.inlineValue(q, col);
    const g = this.gap(this.lineEnd(v.end), col, true);
    setNodeEnd(v.node, g.valueEnd);
    return { node: v.node, value: v.value, next: g.next, trail: g.trail };
  }

  /**
   * A block scalar (`|` literal or `>` folded, optional `-` strip or `+` keep chomping, optional comment on
   * the header line) whose header is at `h`, in a collection at column `col`. Its lines sit at the column of
   * the first one (which must be deeper than `col`); the first line at a shallower column (or the end)
   * ends it. Left to yaml: an indentation indicator, empty or space-only lines before the first line,
   * lines of spaces only, deeper lines in a folded scalar, a keep-chomped scalar ending without a line
   * break. Its node ends after its last line (after its trailing empty lines when kept); `regionEnd` is
   * where the line that ends it starts.
   */
  private blockScalar(h: number, col: number): { node: LightScalar; value: string; regionEnd: number } {
    const folded = this.code(h) === GT;
    let p = h + 1;
    const chomp = this.code(p);
    if (chomp === 45 || chomp === 43) p++; // '-' strip, '+' keep
    let lineStart = this.lineEnd(p);
    let indent = -1;
    let body = '';
    let empty = 0; // empty lines since the last content line
    let lastEnd = -1;
    while (lineStart < this.len) {
      let q = lineStart;
      while (this.code(q) === SP) q++;
      const c = this.code(q);
      if (c === NL || c === -1) {
        if (q > lineStart || indent < 0) return bail(); // spaces only, or before the first line
        empty++;
        lineStart = q + 1;
        continue;
      }
      const at = q - lineStart;
      if (indent < 0) {
        if (at <= col) return bail();
        indent = at;
      }
      if (at < indent) break;
      if (folded && at > indent) return bail();
      const nl = this.text.indexOf('\n', q);
      const lineText = this.text.slice(lineStart + indent, nl < 0 ? this.len : nl);
      // A tab in a block scalar (a more-indented line when folded, or whitespace yaml may trim): left to yaml.
      if (lineText.includes('\t')) return bail();
      if (lastEnd < 0) body = lineText;
      else if (folded) body += (empty === 0 ? ' ' : '\n'.repeat(empty)) + lineText;
      else body += '\n'.repeat(empty + 1) + lineText;
      empty = 0;
      lastEnd = nl < 0 ? this.len : nl + 1;
      lineStart = lastEnd;
    }
    if (indent < 0) return bail();
    if (chomp === 43 && this.code(lastEnd - 1) !== NL) return bail();
    const value = chomp === 45 ? body : chomp === 43 ? body + '\n'.repeat(empty + 1) : body + '\n';
    const end = chomp === 43 ? lineStart : lastEnd;
    return { node: scalarNode(h, end, value), value, regionEnd: lineStart };
  }

  /**
   * A scalar or a flow collection starting at `p` in a block collection at column `col`; `end` is just
   * after it (a flow collection may go on over the following lines).
   */
  private inlineValue(p: number, col: number): { node: LightNode; value: unknown; end: number } {
    const c = this.code(p);
    if (c === 123 || c === 91) {
      this.flowCol = col;
      return this.flowCollection(p);
    }
    if (c === STAR) return this.alias(p, false);
    const s = c === BANG ? this.tagged(p, false) : this.scalar(p, false, col);
    const n = this.code(s.end);
    if (!isWhite(n) && n !== NL && n !== -1) return bail();
    return s;
  }

  /**
   * A quoted or plain scalar at `p` (flow: stops at flow indicators; block: ':' allowed mid-word). A plain
   * scalar may be of several words. A block value in a collection at column `col` (-1: none), and any scalar
   * inside a flow collection, may go on over the following lines indented deeper than `col` (in flow: than
   * the block collection holding the flow collection), blank lines between: yaml folds them (plain scalars,
   * and quoted ones alike).
   */
  private scalar(
    p: number,
    flow: boolean,
    col = -1,
    resolve = true,
  ): { node: LightScalar; value: unknown; end: number } {
    const wrap = flow ? this.flowCol : col;
    const c = this.code(p);
    if (c === DQUOTE || c === SQUOTE) {
      const { value, end } = readQuoted(this.text, p, wrap);
      return { node: scalarNode(p, end, value), value, end };
    }
    let q = p; // just after the last character of the scalar read so far
    let i = p;
    let lines = false;
    for (;;) {
      const d = this.code(i);
      if (isPlainChar(d)) q = ++i;
      else if (!flow && d === COLON) {
        const n = this.code(i + 1);
        if (isWhite(n) || n === NL || n === -1) return bail(); // `a: b` inside a value
        q = ++i;
      } else if (d === SP && i > p) {
        // Words separated by spaces on one line (`note: weekly ladder`): the scalar goes on when the next
        // word starts with a plain character; a `#` after a space starts a comment, anything else is left
        // to the line's end check (or to yaml).
        let r = i + 1;
        while (this.code(r) === SP) r++;
        if (isPlainChar(this.code(r)) || (wrap >= 0 && this.code(r) === NL)) i = r;
        else break;
      } else if (wrap >= 0 && d === NL) {
        // A line break: the scalar goes on when the next line that is not blank is indented deeper than
        // `wrap` and starts with a plain character (a comment line or a shallower line ends it; any other
        // deeper line is left to yaml by the caller's checks).
        let r = i + 1;
        let s = r;
        for (;;) {
          while (this.code(s) === SP) s++;
          if (this.code(s) !== NL) break;
          r = ++s;
        }
        if (s - r <= wrap || !isPlainChar(this.code(s))) break;
        lines = true;
        i = s;
      } else break;
    }
    if (q === p) return bail();
    if (resolve && !lines && q - p <= SHORT_INTEGER && plainIntegerAt(this.text, p, q)) {
      // A short integer in plain digits (most plan values): resolvePlain's value, from the digits in place.
      let n = 0;
      for (let i = this.code(p) === 45 ? p + 1 : p; i < q; i++) n = n * 10 + (this.text.charCodeAt(i) - 48);
      const v = exactBigInt(this.code(p) === 45 ? -n : n);
      return { node: scalarNode(p, q, v), value: v, end: q };
    }
    const raw = this.text.slice(p, q);
    if (raw.charCodeAt(0) === 45 && !INT.test(raw) && !FLOAT.test(raw) && !NEG_INF.test(raw)) return bail(); // '-x'
    const folded = lines ? unfoldLines(raw) : raw;
    // Unresolved (after a tag): the text; its `-x` check above stays (yaml may read it otherwise).
    const v = resolve ? resolvePlain(folded) : folded;
    this.noteNumber(v, p, q);
    return { node: scalarNode(p, q, v), value: v, end: q };
  }

  /**
   * A core-schema tag on a scalar at `p` (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`), then spaces and a
   * one-line scalar: its node starts at the scalar (as yaml's). `!!str` gives the scalar's text (plain) or
   * its quoted value; the others, plain or quoted, only a text the reader reads as that type: `!!int` an
   * integer (`-?(0|[1-9][0-9]*)`), `!!float` a number with a fraction or an exponent, `!!bool`
   * true/True/TRUE/false/False/FALSE, `!!null` null/Null/NULL/~. Anything else (other tags, a text yaml would
   * keep as a string under the tag, an anchor after a tag, an empty scalar) goes to yaml.
   */
  private tagged(p: number, flow: boolean): { node: LightScalar; value: unknown; end: number } {
    const t = this.text;
    let tag: ScalarTag | undefined;
    for (const name of SCALAR_TAGS) if (t.startsWith(`!!${name}`, p)) tag = name;
    if (tag === undefined) return bail();
    let q = p + 2 + tag.length;
    if (!isWhite(this.code(q))) return bail();
    while (isWhite(this.code(q))) q++;
    const s = this.scalar(q, flow, -1, false);
    const text = s.value as string;
    const value = tagValue(tag, text);
    const [start, end] = s.node.range;
    this.noteNumber(value, start, end);
    return { node: scalarNode(start, end, value), value, end: s.end };
  }

  /** Notes a scalar's value that numbersAsWritten would replace (LightDoc.writtenNumbers). */
  private noteNumber(value: unknown, start: number, end: number): void {
    if (typeof value === 'number' || (typeof value === 'bigint' && !plainIntegerAt(this.text, start, end)))
      this.writtenNumbers = true;
  }

  /** A scalar, a flow collection (either anchored) or an alias inside a flow collection. */
  private flowValue(p: number): { node: LightNode; value: unknown; end: number } {
    const c = this.code(p);
    if (c === STAR) return this.alias(p, true);
    if (c === BANG) return this.flowTagged(p);
    if (c !== AMP) return c === 123 || c === 91 ? this.flowCollection(p) : this.scalar(p, true);
    const aliasesBefore = this.aliases;
    const { name, q } = this.anchorAt(p);
    const d = this.code(q);
    const s =
      d === 123 || d === 91 ? this.flowCollection(q) : d === BANG ? this.flowTagged(q) : this.scalar(q, true);
    this.define(name, s.node, s.value, aliasesBefore);
    return s;
  }

  /** A tagged value in a flow collection: `!!map {...}` or `!!seq [...]` on one line, or a tagged scalar. */
  private flowTagged(p: number): { node: LightNode; value: unknown; end: number } {
    const t = this.collectionTag(p);
    if (!t) return this.tagged(p, true);
    if (this.code(t.q) !== (t.kind === 'map' ? 123 : 91)) return bail();
    return this.flowCollection(t.q);
  }

  /**
   * `!!map` or `!!seq` at `p`, then spaces or tabs up to the next thing on the line (the collection, a
   * comment or the line's end): the kind it names and where that thing starts. Undefined for other tags;
   * an anchor, another tag or an alias after it is left to yaml.
   */
  private collectionTag(p: number): { kind: 'map' | 'seq'; q: number } | undefined {
    const t = this.text;
    const kind = t.startsWith('!!map', p) ? 'map' : t.startsWith('!!seq', p) ? 'seq' : undefined;
    if (kind === undefined) return undefined;
    let q = p + 5;
    const n = this.code(q);
    if (!isWhite(n) && n !== NL && n !== -1) return bail();
    while (isWhite(this.code(q))) q++;
    const c = this.code(q);
    if (c === AMP || c === BANG || c === STAR) return bail();
    return { kind, q };
  }

  private flowCollection(p: number): { node: LightMap | LightSeq; value: unknown; end: number } {
    if (this.flowDepth >= MAX_FLOW_DEPTH) return bail();
    this.flowDepth++;
    const r = this.code(p) === 123 ? this.flowMap(p) : this.flowSeq(p);
    this.flowDepth--;
    return r;
  }

  /**
   * Separation inside a flow collection from `p`: spaces and tabs, and line breaks, blank lines included,
   * when the next line is indented deeper than the block collection holding the outermost flow collection
   * (yaml lets only that collection's own closing bracket sit at that column), and comments. A tab in the
   * indentation, a shallower line or the end of the text is left to yaml.
   */
  private flowSpace(p: number): number {
    let q = p;
    for (;;) {
      while (isWhite(this.code(q))) q++;
      if (this.code(q) === HASH) {
        // A comment (after a space, a tab or a line break) runs to its line's end.
        const prev = this.code(q - 1);
        if (prev !== SP && prev !== TAB && prev !== NL) return bail();
        q = this.text.indexOf('\n', q);
        if (q < 0) return bail();
      }
      if (this.code(q) !== NL) return q;
      const lineStart = q + 1;
      q = lineStart;
      while (this.code(q) === SP) q++;
      const c = this.code(q);
      // A blank line, or a comment line at any indentation (yaml's lexer exempts those from its rule) but
      // the first column (after a flow map's value yaml then finds the comment glued to the line break).
      if (c === NL || (c === HASH && q > lineStart)) continue;
      if (c === TAB || c === HASH || c === -1) return bail();
      const indent = q - lineStart;
      if (indent > this.flowCol) continue;
      if (indent === this.flowCol && this.flowDepth === 1 && (c === 93 || c === 125)) continue;
      return bail();
    }
  }

  /** A quoted scalar on one line at `p` (a key, or in a flow collection). */
  private quoted(p: number): { value: string; end: number } {
    return readQuoted(this.text, p, -1);
  }

  private flowMap(open: number): { node: LightMap; value: Record<string, unknown>; end: number } {
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    let p = this.flowSpace(open + 1);
    for (;;) {
      const c0 = this.code(p);
      if (c0 === 125) {
        // `{}`, or a trailing comma before `}`.
        const end = p + 1;
        return { node: flowMapNode(open, end, keys, values), value, end };
      }
      let key: string;
      let q: number;
      if (c0 === DQUOTE || c0 === SQUOTE) {
        // A quoted key: its `:` may follow it at once (`{"a":1}`), as in JSON.
        ({ value: key, end: q } = this.quoted(p));
        if (!this.takesKey(key, true, p, value)) return bail();
      } else {
        if (!isKeyStart(c0)) return bail();
        q = p + 1;
        while (isKeyChar(this.code(q))) q++;
        key = this.plainKey(p, q);
        if (!this.takesKey(key, false, p, value)) return bail();
      }
      let colon = q;
      while (this.code(colon) === SP) colon++;
      if (this.code(colon) !== COLON) return bail();
      const n = this.code(colon + 1);
      if (c0 !== DQUOTE && c0 !== SQUOTE && !isWhite(n) && n !== NL) return bail();
      keys.push(scalarNode(p, q, key));
      const s = this.flowValue(this.flowSpace(colon + 1));
      const after = this.flowSpace(s.end);
      // yaml ends a flow map's value after its spaces and one line break (a flow sequence's item: at the
      // next token).
      let valueEnd = s.end;
      while (isWhite(this.code(valueEnd))) valueEnd++;
      if (this.code(valueEnd) === HASH) valueEnd = this.text.indexOf('\n', valueEnd); // flowSpace checked it
      setNodeEnd(s.node, this.code(valueEnd) === NL ? valueEnd + 1 : valueEnd);
      values.push(s.node);
      value[key] = s.value;
      const c = this.code(after);
      if (c === 125) {
        const end = after + 1;
        return { node: flowMapNode(open, end, keys, values), value, end };
      }
      if (c !== 44) return bail();
      // The full path's tree check (parse.ts flowProblem) stops at the comma that makes the limit: so here.
      if (keys.length >= this.maxMapEntries) {
        this.entryLimit = after;
        return bail();
      }
      p = this.flowSpace(after + 1);
    }
  }

  private flowSeq(open: number): { node: LightSeq; value: unknown[]; end: number } {
    const items: LightNode[] = [];
    const value: unknown[] = [];
    let p = this.flowSpace(open + 1);
    for (;;) {
      if (this.code(p) === 93) {
        // `[]`, or a trailing comma before `]`.
        const end = p + 1;
        return { node: { kind: 'seq', range: [open, end, end], flow: true, items }, value, end };
      }
      const s = this.flowValue(p);
      const after = this.flowSpace(s.end);
      setNodeEnd(s.node, after);
      items.push(s.node);
      value.push(s.value);
      const c = this.code(after);
      if (c === 93) p = after;
      else if (c !== 44) return bail();
      else p = this.flowSpace(after + 1);
    }
  }
}

/**
 * A quoted scalar at `p`: its value as yaml resolves it and its end (after the closing quote).
 * Single-quoted: `''` is a quote. Double-quoted: yaml's escapes (one character, `\xXX`, `\uXXXX`,
 * `\UXXXXXXXX`, an escaped line break). With `col` >= 0 (a block value in a collection at that column, or
 * any scalar in a flow collection held by a block collection at that column) it may go on over lines
 * indented deeper than `col` (blank lines between), folded as yaml folds them; with -1 it is on one line.
 * An invalid escape, an escaped line break before a blank line, a tab at a line's start or end, or a line
 * break where none may be is left to yaml.
 */
function readQuoted(t: string, p: number, col: number): { value: string; end: number } {
  if (t.charCodeAt(p) === SQUOTE) {
    let close = t.indexOf("'", p + 1);
    while (close >= 0 && t.charCodeAt(close + 1) === SQUOTE) close = t.indexOf("'", close + 2);
    if (close < 0) return bail();
    let raw = t.slice(p + 1, close);
    if (raw.includes('\n')) {
      if (col < 0) return bail();
      for (let nl = raw.indexOf('\n'); nl >= 0; nl = raw.indexOf('\n', nl + 1)) continuation(raw, nl, col);
      raw = unfoldLines(raw);
    }
    return { value: raw.includes("''") ? raw.replace(/''/g, "'") : raw, end: close + 1 };
  }
  let value = '';
  let from = p + 1;
  let q = p + 1;
  for (;;) {
    const d = q < t.length ? t.charCodeAt(q) : -1;
    if (d === DQUOTE) return { value: value + t.slice(from, q), end: q + 1 };
    if (d === -1) return bail();
    if (d === NL) {
      if (col < 0) return bail();
      // Spaces (never a tab) before a line break are dropped; the break and the indentation after it
      // fold into one space, or into one line feed per blank line that follows.
      const chunk = t.slice(from, q).replace(/ +$/, '');
      if (chunk.endsWith('\t')) return bail();
      value += chunk;
      let breaks = 0;
      let r = q;
      while (t.charCodeAt(r) === NL) {
        breaks++;
        r = continuation(t, r, col);
      }
      value += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
      q = from = r;
      continue;
    }
    if (d !== BACKSLASH) {
      q++;
      continue;
    }
    value += t.slice(from, q);
    const e = t.charAt(q + 1);
    const one = ESCAPES.get(e);
    if (e === '\n') {
      // An escaped line break (as PyYAML wraps long strings): the text before it is kept as it is, the break
      // and the next line's indentation are dropped. That line must have text (after a blank one yaml's
      // folding is left to it), indented deeper than `col`.
      if (col < 0) return bail();
      const r = continuation(t, q + 1, col);
      if (t.charCodeAt(r) === NL || r >= t.length) return bail();
      q = r;
    } else if (one !== undefined) {
      value += one;
      q += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = t.slice(q + 2, q + 2 + n);
      if (hex.length !== n || !HEX.test(hex)) return bail();
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) return bail();
      value += String.fromCodePoint(cp);
      q += 2 + n;
    } else return bail();
    from = q;
  }
}

/**
 * After the line break at `nl` inside a quoted scalar of a block value at column `col`: where the next
 * line's text starts (after its spaces). The line must be blank or indented deeper than `col` (yaml's
 * rule); a tab after the indentation or at the end of the previous line is left to yaml.
 */
function continuation(t: string, nl: number, col: number): number {
  if (t.charCodeAt(nl - 1) === TAB) return bail();
  let s = nl + 1;
  while (t.charCodeAt(s) === SP) s++;
  const c = t.charCodeAt(s);
  if (c === TAB) return bail();
  if (c !== NL && s - (nl + 1) <= col) return bail();
  return s;
}

/**
 * yaml's folding of a multi-line plain or single-quoted scalar's text: the first line's trailing spaces and
 * the others' leading and trailing ones are dropped (the last line's trailing ones are kept), a line break
 * becomes a space, and each blank line a line feed.
 */
function unfoldLines(raw: string): string {
  const lines = raw.split('\n');
  let res = lines[0]!.replace(/[ \t]+$/, '');
  let sep = ' ';
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i]!.replace(/^[ \t]+|[ \t]+$/g, '');
    if (line === '') {
      if (sep === '\n') res += sep;
      else sep = '\n';
    } else {
      res += sep + line;
      sep = ' ';
    }
  }
  return res + sep + lines[lines.length - 1]!.replace(/^[ \t]+/, '');
}
