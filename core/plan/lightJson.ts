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
import { flowMapNode, type LightNode, type LightScalar } from './lightYaml';

const INT = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A JSON string's value (the text from its opening to its closing quote, which the syntax check passed). */
function stringValue(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** A JSON number's value: integers exact (bigint), others as JS numbers (parse.ts keeps their text). */
function numberValue(written: string): bigint | number {
  return INT.test(written) ? BigInt(written) : parseFloat(written);
}

/** What the JSON reader gives: the tree and value of any root (yaml's LightDoc is one with a mapping root). */
export interface JsonDoc {
  root: LightNode;
  value: unknown;
  /** Offsets of keys that repeat an earlier key of their mapping, each one of yaml's DUPLICATE_KEY errors. */
  duplicateKeys?: readonly number[];
}

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};
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
    const root = r.value(r.ws(0));
    root.node.range[2] = r.lineEnd(root.end);
    return r.duplicateKeys.length > 0
      ? { root: root.node, value: root.value, duplicateKeys: r.duplicateKeys }
      : { root: root.node, value: root.value };
  } catch (e) {
    if (e instanceof Bail) return undefined;
    if (e instanceof Limit) return { limit: e.offset };
    throw e;
  }
}

interface Read {
  node: LightNode;
  value: unknown;
  end: number;
}

class Reader {
  /** Offsets of keys that repeat an earlier key of their mapping, in text order. */
  readonly duplicateKeys: number[] = [];
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

  value(p: number): Read {
    const c = this.text.charCodeAt(p);
    if (c === 123) return this.map(p);
    if (c === 91) return this.seq(p);
    return this.scalar(p);
  }

  private scalar(p: number): Read & { node: LightScalar } {
    const t = this.text;
    const c = t.charCodeAt(p);
    let end: number;
    let value: unknown;
    if (c === 34) {
      end = this.stringEnd(p);
      value = stringValue(t, p, end);
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = p;
      const m = NUMBER.exec(t);
      if (!m) return bail();
      end = p + m[0].length;
      value = numberValue(m[0]);
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
    return { node: { kind: 'scalar', range: [p, end, end], value }, value, end };
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

  private map(open: number): Read {
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const value: Record<string, unknown> = {};
    let p = this.ws(open + 1);
    if (this.text.charCodeAt(p) === 125) return this.closeMap(open, p, keys, values, value);
    for (;;) {
      if (this.text.charCodeAt(p) !== 34) return bail();
      const keyEnd = this.stringEnd(p);
      const key = stringValue(this.text, p, keyEnd);
      if (Object.prototype.hasOwnProperty.call(value, key)) this.duplicateKeys.push(p);
      keys.push({ kind: 'scalar', range: [p, keyEnd, keyEnd], value: key });
      const colon = this.ws(keyEnd);
      if (this.text.charCodeAt(colon) !== 58) return bail();
      const v = this.value(this.ws(colon + 1));
      const after = this.ws(v.end);
      v.node.range[2] = this.lineEnd(v.end);
      values.push(v.node);
      if (key === '__proto__')
        Object.defineProperty(value, key, {
          value: v.value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      else value[key] = v.value;
      const c = this.text.charCodeAt(after);
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
  ): Read {
    const end = close + 1;
    return { node: flowMapNode(open, end, keys, values), value, end };
  }

  private seq(open: number): Read {
    const items: LightNode[] = [];
    const value: unknown[] = [];
    let p = this.ws(open + 1);
    if (this.text.charCodeAt(p) !== 93) {
      for (;;) {
        const v = this.value(p);
        const after = this.ws(v.end);
        v.node.range[2] = after;
        items.push(v.node);
        value.push(v.value);
        const c = this.text.charCodeAt(after);
        if (c === 93) {
          p = after;
          break;
        }
        if (c !== 44) return bail();
        p = this.ws(after + 1);
      }
    }
    const end = p + 1;
    return { node: { kind: 'seq', range: [open, end, end], flow: true, items }, value, end };
  }
}
