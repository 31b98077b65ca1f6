/**
 * A fast reader for `*.dlmm.json` plans that checkJsonSyntax (jsonSyntax.ts) accepted: the same JS value and
 * node ranges as `yaml`'s parseDocument (JSON schema, intAsBigInt) + toJS, in one linear pass instead of
 * yaml's flow-collection machinery (seconds per MB there).
 * It reads every JSON text the syntax check passed, including what yaml reports as an error: a key repeated
 * in its mapping is read (the last value wins, as in yaml's toJS) and its offset kept in `duplicateKeys`
 * (yaml's DUPLICATE_KEY error points at the repeat's first character), and a mapping with more entries than
 * the limit stops the reading at the comma where yaml's tree check stops (`{ limit }`). A `__proto__` key is
 * an own property, as toJS makes it. test/unit/plan/lightJson.test.ts checks the equivalence with yaml.
 */
import {
  bail,
  Bail,
  exactBigInt,
  flowMapNode,
  scalarNode,
  setNodeEnd,
  type LightNode,
  type LightScalar,
} from './lightYaml';

/** Digits of an integer that a double holds exactly (2^53 has 16 digits). */
const EXACT_DIGITS = 15;

/** What the JSON reader gives: the tree and value of any root (yaml's LightDoc is one with a mapping root). */
export interface JsonDoc {
  root: LightNode;
  value: unknown;
  /** Offsets of keys that repeat an earlier key of their mapping, each one of yaml's DUPLICATE_KEY errors. */
  duplicateKeys?: readonly number[];
  /** A number not read as an integer in plain digits (lightYaml.ts LightDoc.writtenNumbers). */
  writtenNumbers?: true;
}

/** A mapping with more entries than the limit: `offset` is that of the comma that reached it. */
class Limit extends Error {
  constructor(readonly offset: number) {
    super('limit');
  }
}

/**
 * A JSON text the syntax check passed, read: its tree and value (with the offsets of repeated keys, if any),
 * `{ limit }` when a mapping holds more entries than `maxMapEntries`, undefined for a text it cannot read
 * (none that checkJsonSyntax passes; the caller then refuses large texts rather than give them to yaml).
 */
export function parseLightJson(text: string, maxMapEntries: number): JsonDoc | { limit: number } | undefined {
  try {
    const r = new Reader(text, maxMapEntries);
    const node = r.value(r.ws(0));
    const value = r.read;
    setNodeEnd(node, r.lineEnd(r.end));
    const doc: JsonDoc = { root: node, value };
    if (r.duplicateKeys.length > 0) doc.duplicateKeys = r.duplicateKeys;
    if (r.writtenNumbers) doc.writtenNumbers = true;
    return doc;
  } catch (e) {
    if (e instanceof Bail) return undefined;
    if (e instanceof Limit) return { limit: e.offset };
    throw e;
  }
}

/**
 * One pass over the text building the tree and the value together. Each reading method returns the node
 * and leaves the value in `read` and the offset after it in `end` (no object per value read). Keys are
 * taken from a small cache when the text repeats one (a plan repeats `bin_id` in every bin): one string per
 * distinct key, not one per occurrence.
 */
class Reader {
  /** Offsets of keys that repeat an earlier key of their mapping, in text order. */
  readonly duplicateKeys: number[] = [];
  /** JsonDoc.writtenNumbers. */
  writtenNumbers = false;
  /** The value of the node read last. */
  read: unknown = undefined;
  /** The offset just after the node read last. */
  end = 0;
  /** Key strings by length and first character (checked against the text before use). */
  private readonly keys = new Map<number, string>();
  constructor(
    private readonly text: string,
    private readonly maxEntries: number,
  ) {}

  /** The first offset at or after `p` that is not JSON whitespace. */
  ws(p: number): number {
    const t = this.text;
    let q = p;
    for (;;) {
      const c = t.charCodeAt(q);
      if (c === 32 || c === 10 || c === 13 || c === 9) q++;
      else return q;
    }
  }

  /**
   * Where yaml ends a mapping value's node: after the spaces and tabs that follow it and the line break that
   * ends its line, if any (a sequence item's node takes all whitespace up to the next indicator instead).
   */
  lineEnd(p: number): number {
    const t = this.text;
    let q = p;
    while (t.charCodeAt(q) === 32 || t.charCodeAt(q) === 9) q++;
    if (t.charCodeAt(q) === 13 && t.charCodeAt(q + 1) === 10) return q + 2;
    if (t.charCodeAt(q) === 10 || t.charCodeAt(q) === 13) return q + 1;
    return q;
  }

  value(p: number): LightNode {
    const c = this.text.charCodeAt(p);
    if (c === 123) return this.map(p);
    if (c === 91) return this.seq(p);
    return this.scalar(p);
  }

  private scalar(p: number): LightScalar {
    const t = this.text;
    const c = t.charCodeAt(p);
    let end: number;
    let value: unknown;
    if (c === 34) {
      end = this.stringEnd(p);
      value = this.stringValue(p, end);
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      end = this.number(p);
      value = this.read;
    } else if (t.startsWith('true', p)) {
      end = p + 4;
      value = true;
    } else if (t.startsWith('false', p)) {
      end = p + 5;
      value = false;
    } else if (t.startsWith('null', p)) {
      end = p + 4;
      value = null;
    } else return bail();
    this.read = value;
    this.end = end;
    return scalarNode(p, end, value);
  }

  /**
   * The number at `p` (JSON's grammar, which the syntax check passed): its end, its value in `read`, an
   * integer exact as a bigint, other numbers as JS numbers (parse.ts keeps their text).
   */
  private number(p: number): number {
    const t = this.text;
    let q = t.charCodeAt(p) === 45 ? p + 1 : p;
    const digits = q;
    let n = 0;
    let c = t.charCodeAt(q);
    if (c === 48) c = t.charCodeAt(++q);
    else
      while (c >= 48 && c <= 57) {
        n = n * 10 + (c - 48);
        c = t.charCodeAt(++q);
      }
    if (q === digits) return bail();
    if (c !== 46 && c !== 101 && c !== 69) {
      // An integer: short ones from the digits read (exact in a double), longer ones from their text.
      this.read = q - digits <= EXACT_DIGITS ? exactBigInt(p === digits ? n : -n) : BigInt(t.slice(p, q));
      return q;
    }
    if (c === 46) {
      c = t.charCodeAt(++q);
      if (!(c >= 48 && c <= 57)) return bail();
      while (c >= 48 && c <= 57) c = t.charCodeAt(++q);
    }
    if (c === 101 || c === 69) {
      c = t.charCodeAt(++q);
      if (c === 43 || c === 45) c = t.charCodeAt(++q);
      if (!(c >= 48 && c <= 57)) return bail();
      while (c >= 48 && c <= 57) c = t.charCodeAt(++q);
    }
    this.read = parseFloat(t.slice(p, q));
    this.writtenNumbers = true;
    return q;
  }

  /** A JSON string's value (the text from its opening to its closing quote, which the syntax check passed). */
  private stringValue(start: number, end: number): string {
    const t = this.text;
    for (let i = start + 1; i < end - 1; i++)
      if (t.charCodeAt(i) === 92) return JSON.parse(t.slice(start, end)) as string;
    return t.slice(start + 1, end - 1);
  }

  /** A key's value: a string read before when the text repeats it, else as stringValue. */
  private keyValue(start: number, end: number): string {
    const length = end - start - 2;
    const slot = length * 0x10000 + this.text.charCodeAt(start + 1);
    const known = this.keys.get(slot);
    if (known !== undefined && this.text.startsWith(known, start + 1)) return known;
    const key = this.stringValue(start, end);
    // Only a key as written (no escape) stands for the same text next time.
    if (key.length === length) this.keys.set(slot, key);
    return key;
  }

  /** Offset just after the string opening at `p` (the syntax was checked: it is terminated). */
  private stringEnd(p: number): number {
    const t = this.text;
    let q = p + 1;
    for (;;) {
      const c = t.charCodeAt(q);
      if (c === 34) return q + 1;
      if (c === 92) q += 2;
      else if (Number.isNaN(c)) return bail();
      else q++;
    }
  }

  private map(open: number): LightNode {
    const t = this.text;
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    let p = this.ws(open + 1);
    if (t.charCodeAt(p) === 125) return this.closeMap(open, p, keys, values, value);
    for (;;) {
      if (t.charCodeAt(p) !== 34) return bail();
      const keyEnd = this.stringEnd(p);
      const key = this.keyValue(p, keyEnd);
      if (Object.prototype.hasOwnProperty.call(value, key)) this.duplicateKeys.push(p);
      keys.push(scalarNode(p, keyEnd, key));
      const colon = this.ws(keyEnd);
      if (t.charCodeAt(colon) !== 58) return bail();
      const node = this.value(this.ws(colon + 1));
      const read = this.read;
      const end = this.end;
      const after = this.ws(end);
      setNodeEnd(node, this.lineEnd(end));
      values.push(node);
      if (key === '__proto__')
        Object.defineProperty(value, key, {
          value: read,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      else value[key] = read;
      const c = t.charCodeAt(after);
      if (c === 125) return this.closeMap(open, after, keys, values, value);
      if (c !== 44) return bail();
      // yaml's tree check stops at the comma that makes the limit (parse.ts flowProblem).
      if (keys.length >= this.maxEntries) throw new Limit(after);
      p = this.ws(after + 1);
    }
  }

  private closeMap(
    open: number,
    close: number,
    keys: LightScalar[],
    values: LightNode[],
    value: Record<string, unknown>,
  ): LightNode {
    const end = close + 1;
    this.read = value;
    this.end = end;
    return flowMapNode(open, end, keys, values);
  }

  private seq(open: number): LightNode {
    const t = this.text;
    const items: LightNode[] = [];
    const value: unknown[] = [];
    let p = this.ws(open + 1);
    if (t.charCodeAt(p) !== 93) {
      for (;;) {
        const node = this.value(p);
        value.push(this.read);
        const after = this.ws(this.end);
        setNodeEnd(node, after);
        items.push(node);
        const c = t.charCodeAt(after);
        if (c === 93) {
          p = after;
          break;
        }
        if (c !== 44) return bail();
        p = this.ws(after + 1);
      }
    }
    const end = p + 1;
    this.read = value;
    this.end = end;
    return { kind: 'seq', range: [open, end, end], flow: true, items };
  }
}
