/**
 * The full YAML parser on one region of a plan the fast reader (lightYaml.ts) could not read: one item of a
 * block sequence (its dash line to its last line) or one entry of the top-level map (its key line to its last
 * line), parsed alone, its nodes moved to their offsets in the whole text and converted to light nodes. So
 * one odd bin (a local tag, an explicit key holding a list...) or header entry (`note:` left empty) costs the
 * parse of that part, not of the whole 5 MB file, and yaml never holds the whole tree. The region is read
 * alone only when that cannot change what yaml reads: no anchor or alias in it (`&` or `*` anywhere in its
 * text), no error, nothing the full path's tree check refuses, one item or one entry of plain maps,
 * sequences and scalars with string keys; otherwise undefined, and the caller reads the whole document with
 * the full parser (or, above PARSE_LIMITS.maxFullParserChars, says where it stopped). lightYaml.test.ts
 * compares the result with yaml's parse of the whole text (values and every range).
 */
import type { CST, Node } from 'yaml';
import type { LightNode, LightScalar, RegionReader } from './lightYaml';

let yamlLib: typeof import('yaml') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Y = () => (yamlLib ??= require('yaml') as typeof import('yaml'));

/**
 * A RegionReader for lightYaml.ts: `text[start, end)` is one block sequence item with its indentation. At
 * most `maxFlowEntries` commas (the full parser refuses a flow mapping with that many entries: parse.ts).
 * `refused` is the full path's own check of yaml's parse tree before composing (parse.ts flowProblem: flow
 * nesting beyond its limit...): a region it refuses is left to the full path, which reports it (the
 * nesting pre-scan can be misled by a quote in a plain scalar, so the region must not compose it unchecked).
 */
export function yamlRegionReader(
  maxAliasCount: number,
  maxFlowEntries: number,
  refused: (token: CST.Token) => boolean,
): RegionReader {
  return (text, start, end, kind) => {
    const src = text.slice(start, end);
    if (/[&*]/.test(src)) return undefined;
    let commas = 0;
    for (let i = src.indexOf(','); i >= 0; i = src.indexOf(',', i + 1))
      if (++commas >= maxFlowEntries) return undefined;
    const y = Y();
    const tokens = Array.from(new y.Parser().parse(src));
    if (tokens.some(refused)) return undefined;
    const docs = Array.from(
      new y.Composer({
        intAsBigInt: true,
        prettyErrors: false,
        logLevel: 'error',
        uniqueKeys: true,
        keepSourceTokens: false,
      }).compose(tokens, true, src.length),
    );
    if (docs.length !== 1) return undefined;
    const doc = docs[0]!;
    if (doc.errors.length > 0) return undefined;
    const root = doc.contents;
    if (kind === 'item') {
      if (!y.isSeq(root) || root.flow || root.items.length !== 1) return undefined;
      const node = convert(root.items[0], start);
      if (!node) return undefined;
      const value = toJS(doc, maxAliasCount) as unknown[] | undefined;
      return value ? { node, value: value[0] } : undefined;
    }
    // An entry: a block map of one pair whose key is a string.
    if (!y.isMap(root) || root.flow || root.constructor !== y.YAMLMap || root.items.length !== 1)
      return undefined;
    const pair = root.items[0]!;
    const k = pair.key;
    if (!y.isScalar(k) || typeof k.value !== 'string' || k.value === '__proto__') return undefined;
    const key = convert(k, start);
    const node = convert(pair.value, start);
    if (key?.kind !== 'scalar' || !node) return undefined;
    const value = toJS(doc, maxAliasCount) as Record<string, unknown> | undefined;
    return value ? { key, node, value: value[k.value] } : undefined;
  };
}

/** The document's JS value as the full path gives it; undefined when yaml refuses (alias limits). */
function toJS(doc: { toJS(o: { maxAliasCount: number }): unknown }, maxAliasCount: number): unknown {
  try {
    return doc.toJS({ maxAliasCount });
  } catch {
    return undefined;
  }
}

/** A yaml node as a light node, its offsets moved by `shift`; undefined for what a light tree cannot hold. */
function convert(n: unknown, shift: number): LightNode | undefined {
  const y = Y();
  const r = (n as Node | null)?.range;
  if (!r) return undefined;
  const range: [number, number, number] = [r[0] + shift, r[1] + shift, r[2] + shift];
  if (y.isScalar(n)) {
    const v = n.value;
    const t = typeof v;
    if (v !== null && t !== 'string' && t !== 'number' && t !== 'bigint' && t !== 'boolean') return undefined;
    return { kind: 'scalar', range, value: v, tag: 'region' };
  }
  if (y.isMap(n)) {
    // A plain map (not a set): any tag, which only names it (toJS reads it as a map all the same).
    if (n.constructor !== y.YAMLMap) return undefined;
    const keys: LightScalar[] = [];
    const values: LightNode[] = [];
    const seen = new Set<string>();
    for (const pair of n.items) {
      const k = pair.key;
      if (!y.isScalar(k) || typeof k.value !== 'string' || k.value === '__proto__' || seen.has(k.value))
        return undefined;
      seen.add(k.value);
      const key = convert(k, shift);
      const value = convert(pair.value, shift);
      if (key?.kind !== 'scalar' || !value) return undefined;
      keys.push(key);
      values.push(value);
    }
    return { kind: 'map', range, flow: n.flow === true, keys, values };
  }
  if (y.isSeq(n)) {
    if (n.constructor !== y.YAMLSeq) return undefined;
    const items: LightNode[] = [];
    for (const it of n.items) {
      const node = convert(it, shift);
      if (!node) return undefined;
      items.push(node);
    }
    return { kind: 'seq', range, flow: n.flow === true, items };
  }
  return undefined;
}
