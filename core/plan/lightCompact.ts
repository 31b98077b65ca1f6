/**
 * Compact storage for the fast readers' trees (lightYaml.ts, lightJson.ts). A plan of 5 MB holds some
 * 100,000 small maps of scalars (the bins); as objects, each scalar with its own range array, their tree
 * took about 1 KB a bin (over 100 MB). A map (or a sequence of one-line scalars and aliases) keeps instead its
 * entries' offsets in one Int32Array shared by the document, and builds the scalar nodes when asked (their
 * value read again from the text, as the reader read it); a value the text does not give back (a collection,
 * a block scalar) and an alias's target are kept as nodes beside the offsets. Readers of the tree see the same
 * `LightMap` / `LightSeq` interface; `mapSize`, `mapKey`, `mapValue` reach one entry without building the
 * others.
 */
/* The light trees' nodes (lightYaml.ts re-exports them for its readers). */
/** [start, value end, node end] as in `yaml` node ranges. */
export type LightRange = [number, number, number];

export interface LightScalar {
  kind: 'scalar';
  range: LightRange;
  value: unknown;
  /**
   * A core-schema tag written before it (`!!str`...), or `region` (read by the full parser: yamlRegion.ts):
   * its value is not what its text alone resolves to.
   */
  tag?: ScalarTag | 'region';
}
/** The core-schema tags the reader takes on a scalar (lightYaml.ts `tagged`). */
export type ScalarTag = 'str' | 'int' | 'float' | 'bool' | 'null';

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
/** `*name`: the anchored node it stands for (never itself an alias); yaml's toJS gives the same JS value. */
export interface LightAlias {
  kind: 'alias';
  range: LightRange;
  target: LightScalar | LightMap | LightSeq;
}
export type LightNode = LightScalar | LightMap | LightSeq | LightAlias;

/** How a reader turns a scalar's text back into its value (the same function it read it with). */
export interface ScalarCodec {
  /** The value of a key whose text is `text[start, end)`. */
  key(text: string, start: number, end: number): string;
  /** The value of a one-line scalar whose text is `text[start, end)` (never a block scalar). */
  value(text: string, start: number, end: number): unknown;
}

/** Entry offsets of the compact collections of one document (an Int32Array grown by doubling). */
export class CompactStore {
  data = new Int32Array(1024);
  length = 0;
  constructor(
    public text: string,
    readonly codec: ScalarCodec,
  ) {}

  /** Room for `n` more numbers; the index of the first. */
  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.data.length) {
      let size = this.data.length * 2;
      while (size < at + n) size *= 2;
      const grown = new Int32Array(size);
      grown.set(this.data.subarray(0, at));
      this.data = grown;
    }
    this.length = at + n;
    return at;
  }

  /** Drops the room left over once the document is read. */
  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }

  /**
   * Maps every offset held here through `at` into `text` (the CRLF text read as LF, lightYaml.ts: the
   * entries are one-line scalars, whose text is the same in both).
   */
  remap(at: (offset: number) => number, text: string): void {
    this.text = text;
    const d = this.data;
    for (let i = 0; i < this.length; i++) d[i] = at(d[i]!);
  }
}

/**
 * A one-line scalar, whose value the text gives back: not a block scalar (`|`, `>`), a plain or quoted scalar
 * over several lines (folded), nor a tagged one (`!!str 1`), all read by lightYaml.ts.
 */
function decodable(store: CompactStore, node: LightNode): boolean {
  if (node.kind !== 'scalar' || node.tag !== undefined) return false;
  const [start, end] = node.range;
  const t = store.text;
  const c = t.charCodeAt(start);
  if (c === 124 || c === 62) return false;
  for (let i = start; i < end; i++) if (t.charCodeAt(i) === 10) return false;
  return true;
}

/** Per entry: key start, key end, value start, value end, node end. */
const MAP_STRIDE = 5;
/** Per item: start, value end, node end. */
const SEQ_STRIDE = 3;

/** A node kept beside the offsets: an alias's target, or a value the text does not give back. */
type SideNode = LightAlias['target'];

/**
 * The entries kept as nodes, by index (only for collections that have one): an alias's target (the entry is
 * an alias: its text starts with `*`), or the value itself (a collection, a block scalar).
 */
function sideNodes(store: CompactStore, nodes: readonly LightNode[]): SideNode[] | undefined {
  let out: SideNode[] | undefined;
  nodes.forEach((n, i) => {
    if (decodable(store, n)) return;
    out ??= new Array<SideNode>(nodes.length);
    out[i] = n.kind === 'alias' ? n.target : n;
  });
  return out;
}

/** Entry `i` of a compact collection, its offsets at `at`. */
function entryNode(store: CompactStore, at: number, side: SideNode[] | undefined, i: number): LightNode {
  const d = store.data;
  const node = side?.[i];
  if (node && store.text.charCodeAt(d[at]!) !== STAR) return node;
  const range: LightRange = [d[at]!, d[at + 1]!, d[at + 2]!];
  if (node) return { kind: 'alias', range, target: node };
  return { kind: 'scalar', range, value: store.codec.value(store.text, range[0], range[1]) };
}

const STAR = 42;

export class CompactMap implements LightMap {
  readonly kind = 'map' as const;
  constructor(
    public range: LightRange,
    readonly flow: boolean,
    readonly store: CompactStore,
    readonly base: number,
    readonly size: number,
    /** Entries kept as nodes (sideNodes). */
    readonly targets: SideNode[] | undefined,
  ) {}

  keyValue(i: number): string {
    const d = this.store.data;
    const at = this.base + i * MAP_STRIDE;
    return this.store.codec.key(this.store.text, d[at]!, d[at + 1]!);
  }

  key(i: number): LightScalar {
    const d = this.store.data;
    const at = this.base + i * MAP_STRIDE;
    return { kind: 'scalar', range: [d[at]!, d[at + 1]!, d[at + 1]!], value: this.keyValue(i) };
  }

  value(i: number): LightNode {
    return entryNode(this.store, this.base + i * MAP_STRIDE + 2, this.targets, i);
  }

  get keys(): LightScalar[] {
    return Array.from({ length: this.size }, (_, i) => this.key(i));
  }

  get values(): LightNode[] {
    return Array.from({ length: this.size }, (_, i) => this.value(i));
  }
}

export class CompactSeq implements LightSeq {
  readonly kind = 'seq' as const;
  constructor(
    public range: LightRange,
    readonly flow: boolean,
    readonly store: CompactStore,
    readonly base: number,
    readonly size: number,
    /** Entries kept as nodes (sideNodes). */
    readonly targets: SideNode[] | undefined,
  ) {}

  item(i: number): LightNode {
    return entryNode(this.store, this.base + i * SEQ_STRIDE, this.targets, i);
  }

  get items(): LightNode[] {
    return Array.from({ length: this.size }, (_, i) => this.item(i));
  }
}

/**
 * A map node: compact when every key's range is [start, end, end] (its one-line scalar values and aliases as
 * offsets, other values kept as nodes beside them); else the plain object.
 */
export function mapNode(
  store: CompactStore,
  range: LightRange,
  flow: boolean,
  keys: LightScalar[],
  values: LightNode[],
): LightMap {
  let compact = keys.length > 0 && keys.length === values.length;
  for (let i = 0; compact && i < keys.length; i++) compact = keys[i]!.range[1] === keys[i]!.range[2];
  if (!compact) return { kind: 'map', range, flow, keys: exact(keys), values: exact(values) };
  const base = store.reserve(keys.length * MAP_STRIDE);
  const d = store.data;
  for (let i = 0; i < keys.length; i++) {
    const at = base + i * MAP_STRIDE;
    const k = keys[i]!.range;
    const v = values[i]!.range;
    d[at] = k[0];
    d[at + 1] = k[1];
    d[at + 2] = v[0];
    d[at + 3] = v[1];
    d[at + 4] = v[2];
  }
  return new CompactMap(range, flow, store, base, keys.length, sideNodes(store, values));
}

/** A sequence node: compact when every item is a one-line scalar or an alias; else the plain object. */
export function seqNode(store: CompactStore, range: LightRange, flow: boolean, items: LightNode[]): LightSeq {
  let compact = items.length > 0;
  // A list of collections (the bins) holds a pointer per item either way: only scalars and aliases are stored.
  for (let i = 0; compact && i < items.length; i++)
    compact = items[i]!.kind === 'alias' || decodable(store, items[i]!);
  if (!compact) return { kind: 'seq', range, flow, items: exact(items) };
  const base = store.reserve(items.length * SEQ_STRIDE);
  const d = store.data;
  for (let i = 0; i < items.length; i++) {
    const at = base + i * SEQ_STRIDE;
    const r = items[i]!.range;
    d[at] = r[0];
    d[at + 1] = r[1];
    d[at + 2] = r[2];
  }
  return new CompactSeq(range, flow, store, base, items.length, sideNodes(store, items));
}

/**
 * A small array copied to its exact length. An array grown by push keeps room for 17 entries (152 bytes);
 * a map's keys and values are two such arrays, and a 60,000-bin plan has 60,000 maps (18 MB of room).
 */
export const exact = <T>(a: T[]): T[] => (a.length < 17 ? a.slice() : a);

/** Number of entries of a map. */
export function mapSize(map: LightMap): number {
  return map instanceof CompactMap ? map.size : map.keys.length;
}

/** The key node of entry `i`. */
export function mapKey(map: LightMap, i: number): LightScalar | undefined {
  return map instanceof CompactMap ? (i < map.size ? map.key(i) : undefined) : map.keys[i];
}

/** The key of entry `i` as a value (the key's text for a plan). */
export function mapKeyValue(map: LightMap, i: number): unknown {
  return map instanceof CompactMap ? map.keyValue(i) : map.keys[i]?.value;
}

/** The value node of entry `i`. */
export function mapValue(map: LightMap, i: number): LightNode | undefined {
  return map instanceof CompactMap ? (i < map.size ? map.value(i) : undefined) : map.values[i];
}

/** Number of items of a sequence. */
export function seqSize(seq: LightSeq): number {
  return seq instanceof CompactSeq ? seq.size : seq.items.length;
}

/** Item `i` of a sequence. */
export function seqItem(seq: LightSeq, i: number): LightNode | undefined {
  return seq instanceof CompactSeq ? (i >= 0 && i < seq.size ? seq.item(i) : undefined) : seq.items[i];
}
